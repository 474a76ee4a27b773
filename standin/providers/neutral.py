"""The neutral request (``neutral``): no provider's, so none of a provider's own rules apply.

Read through ``standin.providers.of(format)`` like the providers' modules beside it.
"""

from __future__ import annotations

#: No field is required of a neutral request.
REQUIRED: list[tuple[str, str]] = []
#: No type is refused as unknown-block.
KINDS: dict[str, tuple[tuple[str, ...], str]] = {}
#: Its reasoning signatures, its spellings: no provider's.
SIGNATURE_PREFIX = ""
FUNCTIONS_ERA = False
TWO_SPELLINGS = False
