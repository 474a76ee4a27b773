"""Used in lessons: 01, 03, 04, 05, 06, 07, 08, 09, 10, 11.

Error bodies the way each provider writes them, for failures that are not rule violations.

A broken *conversation* (a tool call left unanswered, ...) is answered with the provider's own
400 text by ``standin.rules.error_response``. This module covers the rest: bad JSON, wrong
content type, a missing key, an unknown path, a body too large, rate limits and server errors.
One status is the stand-in's own, in each provider's envelope: 422 (``STAND_IN_STATUS``), a
request the real API may accept but the stand-in cannot answer (a schema past its caps); its
types say ``stand_in`` so that no one mistakes it for the provider's words.

The three envelopes (shapes as documented and as the SDKs parse them):

- OpenAI (both APIs): ``{"error": {"message", "type", "param", "code"}}``
- Anthropic: ``{"type": "error", "error": {"type", "message"}, "request_id"}``
- Gemini: ``{"error": {"code", "message", "status"}}``

Each family's texts, error types and envelope are in its module (``standin/providers/NAME.py``,
found by :func:`texts`). Messages marked "real" there and below are texts the providers are
known to send; the others are ours, written in the provider's style, and say so in their wording
only where it matters.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from helpers.formats.providers import PROVIDERS
from standin.live_switch import family  # openai-chat and openai-responses share one style
from standin.providers import of_family

__all__ = ["STAND_IN_STATUS", "envelope", "provider_for_path", "texts"]

#: The stand-in's own refusal (not a provider's): the real API may accept the request.
STAND_IN_STATUS = 422

#: Default texts per status (real where known, see the module docstring).
MESSAGES: dict[int, str] = {
    401: "You didn't provide an API key.",
    413: "Request exceeds the maximum allowed number of bytes.",  # real (Anthropic)
    429: "Rate limit reached for requests. Please try again in {retry}.",
    # real (OpenAI)
    500: "The server had an error while processing your request. Sorry about that!",
    529: "Overloaded",  # real (Anthropic)
}


def texts(provider: str) -> ModuleType:
    """``provider``'s family's module (``standin/providers/NAME.py``): its ``BAD_JSON``,
    ``NOT_FOUND`` and ``UNKNOWN_MODEL`` texts, its error types and ``error_body``."""
    return of_family(family(provider))


def envelope(
    provider: str,
    status: int,
    message: str,
    param: str | None = None,
    *,
    code: str | None = None,
    request_id: str | None = None,
    details: list[dict] | None = None,
) -> dict[str, Any]:
    """The error body ``provider`` sends with ``status``. ``code`` (OpenAI's), ``request_id``
    (Anthropic's) and ``details`` (Gemini's) replace the stand-in's defaults when given."""
    return texts(provider).error_body(status, message, param, code, request_id, details)


def provider_for_path(path: str, headers: dict[str, str]) -> str:
    """Whose error style to use for a request we cannot route (a 404, a 405): the provider whose
    module claims its path or headers, the last row's asked first (Gemini's signs before
    Anthropic's), else the first row's (OpenAI Chat's, which OpenAI-compatible clients expect)."""
    from standin.providers import of

    claimed = (p for p in reversed(PROVIDERS) if of(p).claims(path, headers))
    return next(claimed, next(iter(PROVIDERS)))
