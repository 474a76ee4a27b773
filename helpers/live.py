"""Live mode: the same loop and SDK calls against the real API, only when the learner asks.

Two switches, both required: the provider's key in the environment (``OPENAI_API_KEY``,
``ANTHROPIC_API_KEY`` or ``GEMINI_API_KEY``) **and** ``ON_THE_WIRE_LIVE=1``. Otherwise
:func:`endpoint` returns the local provider, so every lesson runs offline by default and a key
lying around in the environment never sends a request by accident.

An :class:`Endpoint` never shows its key: ``repr``/``str`` print ``<redacted>``. What this module
does not do: store keys, read ``.env`` files, or talk to the network itself.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["KEYS", "LIVE_URLS", "Endpoint", "endpoint", "is_live", "local_provider"]

KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "gemini": "GEMINI_API_KEY"}
LIVE_URLS = {
    "openai": "https://api.openai.com",
    "anthropic": "https://api.anthropic.com",
    "gemini": "https://generativelanguage.googleapis.com",
}
_shared: Any = None


def _family(provider: str) -> str:
    family = "openai" if provider.startswith("openai") else provider
    if family not in KEYS:
        raise ValueError(f"unknown provider {provider!r} (known: openai-*, anthropic, gemini)")
    return family


@dataclass(frozen=True)
class Endpoint:
    """Where to send requests: ``base_url`` (no ``/v1``), the key, and whether it is real."""

    provider: str
    base_url: str
    api_key: str = field(repr=False)
    is_live: bool

    @property
    def sdk_base_url(self) -> str:
        """What an SDK's ``base_url`` wants: OpenAI's ends in ``/v1``, Anthropic's does not."""
        return self.base_url + "/v1" if self.provider.startswith("openai") else self.base_url

    def __repr__(self) -> str:
        mode = "LIVE" if self.is_live else "local"
        return f"Endpoint({self.provider!r}, {self.base_url!r}, api_key=<redacted>, {mode})"

    __str__ = __repr__


def is_live(provider: str, env: Mapping[str, str] | None = None) -> bool:
    """True only with ``ON_THE_WIRE_LIVE=1`` and a non-empty key for ``provider``."""
    env = os.environ if env is None else env
    return env.get("ON_THE_WIRE_LIVE") == "1" and bool(env.get(KEYS[_family(provider)], ""))


def local_provider(scenario: str = "sundry") -> Any:
    """One shared local provider for a notebook session, started on first use."""
    global _shared
    if _shared is None or not _shared.running:
        from helpers.provider import LocalProvider

        _shared = LocalProvider(scenario).start()
    return _shared


def endpoint(provider: str, local: Any = None, env: Mapping[str, str] | None = None) -> Endpoint:
    """The real API when live mode is on for ``provider``, else the local provider."""
    env = os.environ if env is None else env
    family = _family(provider)
    if is_live(provider, env):
        return Endpoint(provider, LIVE_URLS[family], env[KEYS[family]], True)
    from helpers.machinery.provider_server import LOCAL_KEY

    server = local if local is not None else local_provider()
    return Endpoint(provider, server.url, LOCAL_KEY, False)
