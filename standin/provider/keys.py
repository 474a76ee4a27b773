"""Used in lessons: 01.

Is there a usable key? The stand-in accepts any key (it cannot know real ones) but, like
the real APIs, refuses a request that carries none, each in its own words:

- OpenAI: no ``Authorization`` header: 401 "You didn't provide an API key. ..."
  (continuedev/continue#11228); a header that is not ``Bearer <key>`` or ``Basic <key>``: 401
  "Missing bearer or basic authentication in header" (openai/openai-cookbook#2347), both with
  ``code: null``;
- Anthropic: no ``x-api-key`` (nor an ``Authorization: Bearer`` token, which its SDK can send):
  401 ``authentication_error`` "x-api-key header is required" (n8n-io/n8n#37930,
  karthink/gptel#354);
- Gemini: no ``x-goog-api-key``, no ``?key=`` and no bearer token: 403 ``PERMISSION_DENIED``
  "Method doesn't allow unregistered callers ..." (google-gemini/deprecated-generative-ai-python
  #463, PublicAffairs/openai-gemini#92).

An Anthropic request with a key but no ``anthropic-version`` header is refused next: 400
``invalid_request_error`` "anthropic-version: header is required" (PipedreamHQ/pipedream#9697,
2024-01-04; envoyproxy/ai-gateway#1909, 2026-03-02; checked 2026-12-07). The SDK always sends
it (``2023-06-01``); a hand-written request (curl) must.

Checked 2026-11-30. A key sent in another provider's header (``x-api-key`` to OpenAI) counts as
no key, as it does there.
"""

from __future__ import annotations

OPENAI_NONE = (
    "You didn't provide an API key. You need to provide your API key in an Authorization header "
    "using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with "
    "blank username) if you're accessing the API from your browser and are prompted for a "
    "username and password. You can obtain an API key from "
    "https://platform.openai.com/account/api-keys."
)
OPENAI_SCHEME = "Missing bearer or basic authentication in header"
ANTHROPIC_NONE = "x-api-key header is required"
ANTHROPIC_NO_VERSION = "anthropic-version: header is required"
#: Where the text above is quoted (docs/rules.md, rule ``version-header-missing``).
ANTHROPIC_NO_VERSION_SOURCE = (
    "PipedreamHQ/pipedream#9697 (2024-01-04, the full envelope), envoyproxy/ai-gateway#1909 "
    "(2026-03-02, same text); a header, so `check` (which reads a body) cannot see it: the "
    "stand-in refuses it, after the key"
)
ANTHROPIC_NO_VERSION_CHECKED = "2026-12-07"
GEMINI_NONE = (
    "Method doesn't allow unregistered callers (callers without established identity). Please "
    "use API Key or other form of API consumer identity to call this API."
)


def _credential(header: str, schemes: tuple[str, ...]) -> str | None:
    """The credential of ``Scheme credential`` if the scheme is one of ``schemes``, else None."""
    scheme, _, credential = header.strip().partition(" ")
    return credential.strip() or None if scheme.lower() in schemes else None


def refusal(provider: str, headers: dict[str, str], key_in_query: bool = False) -> tuple | None:
    """``(status, envelope)`` when the request carries no usable key for ``provider`` (or, for
    Anthropic, no ``anthropic-version``), else None. ``headers`` have lower-case names."""
    authorization = headers.get("authorization")
    if provider.startswith("openai"):
        if not authorization or not authorization.strip():
            return 401, _openai(OPENAI_NONE)
        if _credential(authorization, ("bearer", "basic")) is None:
            return 401, _openai(OPENAI_SCHEME)
        return None
    bearer = _credential(authorization or "", ("bearer",))
    if provider == "anthropic":
        if not ((headers.get("x-api-key") or "").strip() or bearer):
            error = {"type": "authentication_error", "message": ANTHROPIC_NONE}
            return 401, {"type": "error", "error": error}
        if not (headers.get("anthropic-version") or "").strip():
            error = {"type": "invalid_request_error", "message": ANTHROPIC_NO_VERSION}
            return 400, {"type": "error", "error": error}
        return None
    if (headers.get("x-goog-api-key") or "").strip() or key_in_query or bearer:
        return None
    return 403, {"error": {"code": 403, "message": GEMINI_NONE, "status": "PERMISSION_DENIED"}}


def _openai(message: str) -> dict:
    error = {"message": message, "type": "invalid_request_error", "param": None, "code": None}
    return {"error": error}
