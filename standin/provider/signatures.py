"""Used in lessons: 01, 03, 04, 05, 06, 07, 08, 09, 10, 11.

Synthetic reasoning signatures: shaped like each provider's, honest about being fake.

Real providers attach opaque state to reasoning (Anthropic's ``signature``, OpenAI's
``encrypted_content``, Gemini's ``thoughtSignature``) and reject it when it was changed or comes
from someone else. The stand-in does the same with a keyed hash: :func:`sign` binds the
signature to the provider and the exact reasoning text, and :func:`verify` lets the server
refuse an edited thinking block the way Anthropic does.

The base64 payload says ``on-the-wire synthetic signature``: nothing here is a real signature.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

__all__ = ["sign", "verify"]

_KEY = b"on-the-wire local provider"  # not a secret: it only makes the check deterministic


def _mac(provider: str, text: str) -> str:
    message = f"{provider}\n{text}".encode("utf-8", "surrogatepass")
    return hmac.new(_KEY, message, hashlib.sha256).hexdigest()[:32]


def sign(provider: str, text: str) -> str:
    """A provider-shaped signature for ``text`` (OpenAI's starts ``gAAAAA`` like the real one)."""
    payload = f"on-the-wire synthetic signature {provider} {_mac(provider, text)}"
    encoded = base64.b64encode(payload.encode()).decode()
    return "gAAAAA" + encoded if provider == "openai-responses" else encoded


def verify(provider: str, text: str, signature: str) -> bool:
    """True when ``signature`` is what :func:`sign` gives for this provider and text."""
    if not isinstance(text, str) or not isinstance(signature, str | None):
        return False
    given = (signature or "").encode("utf-8", "surrogatepass")  # compare_digest: ASCII str only
    return hmac.compare_digest(sign(provider, text).encode(), given)
