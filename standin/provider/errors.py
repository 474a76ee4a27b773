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

Messages marked "real" below are texts the providers are known to send; the others are ours,
written in the provider's style, and say so in their wording only where it matters.
"""

from __future__ import annotations

from typing import Any

from standin.live_switch import family  # openai-chat and openai-responses share one style

__all__ = ["STAND_IN_STATUS", "envelope", "provider_for_path"]

#: The stand-in's own refusal (not a provider's): the real API may accept the request.
STAND_IN_STATUS = 422

# HTTP status -> (OpenAI type, OpenAI code, Anthropic type, Gemini status)
_KINDS: dict[int, tuple[str, str | None, str, str]] = {
    400: ("invalid_request_error", None, "invalid_request_error", "INVALID_ARGUMENT"),
    401: ("invalid_request_error", "invalid_api_key", "authentication_error", "UNAUTHENTICATED"),
    403: ("invalid_request_error", None, "permission_error", "PERMISSION_DENIED"),
    404: ("invalid_request_error", None, "not_found_error", "NOT_FOUND"),
    405: ("invalid_request_error", None, "invalid_request_error", "INVALID_ARGUMENT"),
    411: ("invalid_request_error", None, "invalid_request_error", "INVALID_ARGUMENT"),
    413: ("invalid_request_error", None, "request_too_large", "INVALID_ARGUMENT"),
    422: ("stand_in_error", "stand_in_cannot_fill", "stand_in_error", "FAILED_PRECONDITION"),
    429: ("requests", "rate_limit_exceeded", "rate_limit_error", "RESOURCE_EXHAUSTED"),
    500: ("server_error", None, "api_error", "INTERNAL"),
    502: ("server_error", None, "api_error", "UNAVAILABLE"),
    503: ("server_error", None, "api_error", "UNAVAILABLE"),
    529: ("server_error", None, "overloaded_error", "UNAVAILABLE"),
}

#: Default texts per status (real where known, see the module docstring).
MESSAGES: dict[int, str] = {
    401: "You didn't provide an API key.",
    413: "Request exceeds the maximum allowed number of bytes.",  # real (Anthropic)
    429: "Rate limit reached for requests. Please try again in {retry}.",
    # real (OpenAI)
    500: "The server had an error while processing your request. Sorry about that!",
    529: "Overloaded",  # real (Anthropic)
}

#: The real texts for a body that is not JSON.
BAD_JSON = {
    "openai": (
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't "
        "using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was "
        "sent was not valid JSON. If you have trouble figuring out how to fix this, please "
        "contact us through our help center at help.openai.com.)"
    ),
    "anthropic": "There was an error parsing the body: {detail}",
    "gemini": "Invalid JSON payload received. {detail}",
}


#: The texts for a path no endpoint serves (404); OpenAI's is its real wording.
NOT_FOUND = {
    "openai": "Invalid URL ({method} {path})",
    "anthropic": "Not found: {method} {path}",
    "gemini": "Not found: {method} {path}",
}


#: The real texts for a model id the provider does not know (status 404).
UNKNOWN_MODEL = {
    "openai": "The model `{model}` does not exist or you do not have access to it.",
    "anthropic": "model: {model}",
    "gemini": (
        "models/{model} is not found for API version v1beta, or is not supported for "
        "generateContent."
    ),
}


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
    openai_type, default_code, anthropic_type, gemini_status = _KINDS.get(status, _KINDS[500])
    code = default_code if code is None else code
    openai = {"message": message, "type": openai_type, "param": param, "code": code}
    gemini = {"code": status, "message": message, "status": gemini_status}
    bodies = {  # by family: each provider's own shape
        "openai": {"error": openai},
        "anthropic": {
            "type": "error",
            "error": {"type": anthropic_type, "message": message},
            "request_id": "req_local_error" if request_id is None else request_id,
        },
        "gemini": {"error": {**gemini, "details": details} if details else gemini},
    }
    return bodies[family(provider)]


def provider_for_path(path: str, headers: dict[str, str]) -> str:
    """Whose error style to use for a request we cannot route (a 404, a 405)."""
    if path.startswith("/v1beta") or "x-goog-api-key" in headers:
        return "gemini"
    if path.startswith("/v1/messages") or "anthropic-version" in headers or "x-api-key" in headers:
        return "anthropic"
    return "openai-chat"
