"""Used in lessons: 02, 04, 05, 06, 09, 12.

Live mode: ask the provider's own count-tokens endpoint (a real key and an explicit opt-in).

Offline, Claude and most Gemini counts are labelled estimates. ``count_live(request)`` asks the
provider instead (it needs the provider's key in the environment); ``helpers.tokens.count``
never touches the network, so the stand-in's usage and every lesson stay offline:

=========  ===============================================  ====================================
provider   endpoint                                         answer
=========  ===============================================  ====================================
anthropic  ``POST /v1/messages/count_tokens``               ``{"input_tokens": N}``
gemini     ``POST /v1beta/models/{model}:countTokens``      ``{"totalTokens": N}``
openai     ``POST /v1/responses/input_tokens`` (Responses)  ``{"input_tokens": N}``
=========  ===============================================  ====================================

The body is the request rendered by ``helpers.formats`` for that provider. Keys go in headers
only and never into an error message or a ``Count``. The host is the real API's, or its
override (``ANTHROPIC_BASE_URL``, ``OPENAI_BASE_URL``, ``GEMINI_BASE_URL``: see
``standin.live``). A failure is one :class:`LiveCountError` line: the URL and the cause, or the
provider's own error body.

What it deliberately does not do: retry, cache answers, or run unless called (tests never
reach a real host: they point the base URL at a loopback server).
"""

from __future__ import annotations

import os
from typing import Any

from helpers.messages import FormatError, Request
from helpers.models import ModelInfo
from helpers.tokens import Count, Row
from standin.live_switch import KEYS, failure_line, live_url

__all__ = ["ENDPOINTS", "KEYS", "LiveCountError", "count_live"]

ENDPOINTS = {
    "anthropic": "/v1/messages/count_tokens",
    "gemini": "/v1beta/models/{model}:countTokens",
    "openai": "/v1/responses/input_tokens",
}
ANTHROPIC_VERSION = "2023-06-01"


class LiveCountError(RuntimeError):
    """The provider did not answer with a count (the message never includes the key)."""


class _Answered(Exception):
    """A non-200 answer, shaped for ``standin.live.failure_line`` (status and own body)."""

    def __init__(self, status: int, body: str):
        super().__init__(status)
        self.status, self.body = status, body


def _call(info: ModelInfo, request: Request) -> tuple[str, dict[str, str], dict[str, Any]]:
    """Path, headers (without the key) and JSON body of the count request."""
    from helpers.formats import render

    provider = info.provider
    if provider == "anthropic":
        body = render(request, "anthropic").body
        body.pop("max_tokens", None)  # count_tokens takes no max_tokens
        body["model"] = info.id
        return ENDPOINTS[provider], {"anthropic-version": ANTHROPIC_VERSION}, body
    if provider == "gemini":
        body = render(request, "gemini").body
        body["model"] = f"models/{info.id}"
        path = ENDPOINTS[provider].format(model=info.id)
        return path, {}, {"generateContentRequest": body}
    body = render(request, "openai-responses").body
    body["model"] = info.id
    return ENDPOINTS["openai"], {}, body


def _auth(provider: str, key: str) -> dict[str, str]:
    if provider == "anthropic":
        return {"x-api-key": key}
    if provider == "gemini":
        return {"x-goog-api-key": key}
    return {"authorization": f"Bearer {key}"}


def count_live(
    request: Request,
    model: str | ModelInfo | None = None,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float = 30.0,
) -> Count:
    """The provider's own count of ``request``'s input tokens (our offline count in a note)."""
    import httpx

    from helpers.models import info_for
    from helpers.tokens import count

    info = info_for(model, request)
    offline = count(request, info)
    provider = info.provider
    key = api_key if api_key is not None else os.environ.get(KEYS[provider], "")
    if not key:
        raise LiveCountError(f"live count needs {KEYS[provider]} in the environment")
    path, headers, body = _call(info, request)
    url = (base_url or live_url(provider)).rstrip("/") + path
    try:
        response = httpx.post(
            url, json=body, headers={**headers, **_auth(provider, key)}, timeout=timeout
        )
    except (httpx.HTTPError, OSError) as err:
        raise LiveCountError(failure_line(provider, url, err, key)) from None
    if response.status_code != 200:
        answered = _Answered(response.status_code, response.text)
        raise LiveCountError(failure_line(provider, url, answered, key))
    try:
        answer = response.json()
        total = int(answer["totalTokens" if provider == "gemini" else "input_tokens"])
    except (ValueError, KeyError, TypeError):
        raise FormatError(f"{provider} count-tokens answer has no token count") from None
    notes = []
    if provider == "anthropic":
        notes.append(
            "Anthropic documents count_tokens as an estimate that may include tokens it adds "
            "for system optimizations and does not bill"
        )
    live = Count(info.id, total, notes=[*notes, f"offline: {offline.total} ({offline.method})"])
    live.rows = [Row("request", f"counted by {provider} ({path})", total, 0)]
    # the provider's own count: nothing of the request to assess (no request kept)
    live.estimate, live.method = False, f"live: {provider} {path} (the provider's own count)"
    return live
