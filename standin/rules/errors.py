"""What a provider sends back for a broken list: HTTP status and its JSON error envelope.

The local fake provider uses this to fail the way the real one does, so a learner meets the
same 400 and the same text offline. Envelopes, as documented in the reference notes:

- OpenAI (both APIs): ``{"error": {"message", "type": "invalid_request_error", "param", "code"}}``
- Anthropic: ``{"type": "error", "error": {"type": "invalid_request_error", "message"},
  "request_id": "req_..."}``
- Gemini: ``{"error": {"code": 400, "message", "status": "INVALID_ARGUMENT"}}``, with
  ``details`` (a ``google.rpc.BadRequest`` with ``fieldViolations``) for unknown fields and for
  a ``oneof`` set twice

Only the *shape* and the quoted texts are the provider's. Anthropic's ``request_id`` is ours: by
default a hash of the message, so the same broken request always gives the same body.
"""

from __future__ import annotations

import hashlib
import re

from helpers.formats import FORMATS  # the wire formats, each a provider that answers errors
from helpers.messages import Request
from helpers.rules import Violation
from standin.provider.errors import envelope
from standin.rules.strict import check


def provider_of(profile: str) -> str:
    """The wire format a profile checks for: ``anthropic-strict`` -> ``anthropic``."""
    provider = "anthropic" if profile == "anthropic-strict" else profile
    if provider not in FORMATS:
        raise ValueError(f"profile {profile!r} is not a provider's; providers: {FORMATS}")
    return provider


def error_response(
    violation: Violation, provider: str, request_id: str | None = None
) -> tuple[int, dict]:
    """``(400, body)``: what ``provider`` answers for ``violation``.

    The text is the provider's own (``violation.provider_error``) when the violation was found
    under that provider's profile and the text is known; otherwise our plain-English message
    stands in for it, since the provider's wording is unknown.
    """
    if provider not in FORMATS:
        raise ValueError(f"unknown provider {provider!r}; providers: {', '.join(FORMATS)}")
    own = violation.profile != "portable" and provider_of(violation.profile) == provider
    text = violation.provider_error if own and violation.provider_error else violation.message
    violations = [_field_violation(line) for line in text.split("\n") if _detailed(line)]
    return 400, envelope(
        provider,
        400,
        text,
        param=violation.provider_param if own else None,
        code=violation.provider_code if own else None,
        request_id=request_id or "req_" + hashlib.sha256(text.encode()).hexdigest()[:24],
        # Gemini's: one per unknown name, in request order (openswarm-ai/openswarm#24)
        details=[{"@type": _BAD_REQUEST, "fieldViolations": violations}] if violations else None,
    )


_JSON = "Invalid JSON payload received."
_BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest"


def _detailed(line: str) -> bool:
    """Whether Gemini details ``line`` in a ``BadRequest``: an unknown name, or a ``oneof`` set
    twice (Wei-Shaw/sub2api#1045 shows its one ``fieldViolation``)."""
    return line.startswith(_JSON) or "(oneof), oneof field" in line


def _field_violation(line: str) -> dict:
    """Gemini's ``fieldViolations`` entry for one line: ``field`` only below the top level."""
    at = re.search(r" at '([^']*)':", line)
    return {"field": at.group(1), "description": line} if at else {"description": line}


def first_violation_error(
    request: Request, profile: str, request_id: str | None = None
) -> tuple[int, dict] | None:
    """The error the provider answers for ``request``: its first error under ``profile`` (the
    decision ``check`` makes), or None when it takes the request."""
    provider = provider_of(profile)  # a profile that is no provider ("portable") has no answer
    first = next(iter(check(request, profile).errors), None)
    return None if first is None else error_response(first, provider, request_id)
