"""Shared by the test_provider_* modules: one request per wire format, sent with httpx."""

from __future__ import annotations

import httpx

from helpers.examples import sundry
from helpers.formats import render
from helpers.models import default_model

PROVIDERS = ("openai-chat", "openai-responses", "anthropic", "gemini")
KEY = "sk-local-test-0123456789"


def model(provider: str) -> str:
    return default_model("openai" if provider.startswith("openai") else provider)


def body(provider: str, request=None) -> dict:
    """The Sundry opening request rendered for ``provider``."""
    request = request or sundry.opening(model(provider))
    request.model = model(provider)
    return render(request, provider).body


#: The headers a provider requires besides the key (Anthropic refuses a request without it).
VERSION = {"anthropic": {"anthropic-version": "2023-06-01"}}


def post(p, provider: str, payload=None, *, stream: bool = False, **kwargs) -> httpx.Response:
    """POST to ``provider``'s endpoint on the stand-in ``p``."""
    url = p.endpoint(provider, model(provider), stream=stream and provider == "gemini")
    headers = {"authorization": f"Bearer {KEY}", **VERSION.get(provider, {})}
    headers.update(kwargs.pop("headers", {}))
    payload = body(provider) if payload is None else payload
    if stream and provider != "gemini":
        payload = {**payload, "stream": True}
    kwargs.setdefault("timeout", 10)
    return httpx.post(url, json=payload, headers=headers, **kwargs)
