"""The live switch: which provider may go live, where it sends, and how a failure reads.

Plumbing under ``standin.live`` (lesson 11's door) and ``standin.count_live``: reading the two
environment variables, the real base URLs and their overrides, and the one-line messages. It
sits low so that counting (``helpers.tokens``) can ask "is this provider live?" without
importing the agent loop or the stand-in. See ``standin/live.py`` for the rules.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = [
    "BASE_URL_VARS",
    "KEYS",
    "LIVE_URLS",
    "REDACTED",
    "SWITCH",
    "Endpoint",
    "failure_line",
    "environ",
    "family",
    "is_live",
    "live_url",
    "show_switch",
    "switch_line",
    "why_not_live",
]

SWITCH = "ON_THE_WIRE_LIVE"
KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "gemini": "GEMINI_API_KEY"}
LIVE_URLS = {
    "openai": "https://api.openai.com",
    "anthropic": "https://api.anthropic.com",
    "gemini": "https://generativelanguage.googleapis.com",
}
BASE_URL_VARS = {
    "openai": "OPENAI_BASE_URL",
    "anthropic": "ANTHROPIC_BASE_URL",
    "gemini": "GEMINI_BASE_URL",
}
REDACTED = "<redacted>"


def family(provider: str) -> str:
    """``openai-chat`` and ``openai-responses`` share OpenAI's key and host."""
    name = "openai" if provider.startswith("openai") else provider
    if name not in KEYS:
        raise ValueError(f"unknown provider {provider!r} (known: openai-*, anthropic, gemini)")
    return name


def environ(env: Mapping[str, str] | None) -> Mapping[str, str]:
    """``env`` if given (the tests pass one), else the process environment."""
    return os.environ if env is None else env


def is_live(provider: str, env: Mapping[str, str] | None = None) -> bool:
    """True only with ``ON_THE_WIRE_LIVE=1`` and a non-empty key for ``provider``."""
    env = environ(env)
    return env.get(SWITCH) == "1" and bool(env.get(KEYS[family(provider)], ""))


def live_url(provider: str, env: Mapping[str, str] | None = None) -> str:
    """The real API's root (no ``/v1``), or its override from ``*_BASE_URL``."""
    name = family(provider)
    url = environ(env).get(BASE_URL_VARS[name], "").rstrip("/") or LIVE_URLS[name]
    return url.removesuffix("/v1") if name != "gemini" else url.removesuffix("/v1beta")


def why_not_live(provider: str, env: Mapping[str, str]) -> str | None:
    """None when ``provider`` is live; else one line saying why not (a warning if asked for)."""
    name, key = family(provider), KEYS[family(provider)]
    switch = env.get(SWITCH)
    if switch == "1" and env.get(key, ""):
        return None
    if switch == "1":
        return f"warning: {SWITCH}=1 but {key} is not set: {name} stays on the stand-in"
    if switch:
        return f"warning: {SWITCH}={switch!r} is not '1': {name} stays on the stand-in"
    return f"live mode off: {name} uses the stand-in (live needs {key} and {SWITCH}=1)"


def switch_line(*providers: str, env: Mapping[str, str] | None = None) -> str:
    """One line: where each provider's LIVE cells send, the key redacted; a warning if asked."""
    env = environ(env)
    names = list(dict.fromkeys(family(p) for p in providers)) or list(KEYS)
    reasons = {name: why_not_live(name, env) for name in names}
    if not env.get(SWITCH) and all(reasons.values()):
        keys = " / ".join(KEYS[n] for n in names)
        return (
            f"live mode off: {', '.join(names)} → stand-in on 127.0.0.1 "
            f"(to go live, set {keys} and {SWITCH}=1 before starting JupyterLab)"
        )
    warnings = [r for r in reasons.values() if r and r.startswith("warning")]
    if warnings and not any(r is None for r in reasons.values()):
        return warnings[0] if len(warnings) == 1 else "; ".join(warnings)
    parts = []
    for name, reason in reasons.items():
        if reason is None:
            parts.append(f"{name} → LIVE {live_url(name, env)} ({KEYS[name]}={REDACTED})")
        else:
            parts.append(f"{name} → local ({KEYS[name]} not set)")
    line = "live mode ON: " + " · ".join(parts) + "; only the cells marked LIVE send there"
    return _redacted(line)  # a base URL's password (user-info) never prints


def show_switch(*providers: str) -> None:
    """Print :func:`switch_line` (the first output of a lesson that can go live)."""
    print(switch_line(*providers))


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
        return _redacted(
            f"Endpoint({self.provider!r}, {self.base_url!r}, api_key={REDACTED}, {mode})"
        )

    __str__ = __repr__


def _redacted(text: str) -> str:
    """``text`` without any key the process knows, key shape or URL password."""
    from standin.redaction import redact

    return redact(text)


def _one_line(text: str, secret: str = "") -> str:
    """The text on one line, JSON compacted, the key (and anything key-shaped) redacted."""
    from standin.provider.recorder import redact

    try:
        text = json.dumps(json.loads(text), ensure_ascii=False)
    except ValueError:
        text = " ".join(text.split())
    if secret:
        text = text.replace(secret, REDACTED)
    return redact(text)


def failure_line(provider: str, url: str, error: BaseException, secret: str = "") -> str:
    """One line for a failed live request: the URL and the cause, or the provider's own body."""
    status = getattr(error, "status", None)
    if status is not None:  # the provider answered: its own error body says why
        refused = f" (the key was refused: check {KEYS[family(provider)]})" * (status in (401, 403))
        cause = f"HTTP {status}{refused} {_one_line(getattr(error, 'body', ''), secret)}"
    else:
        detail = _one_line(str(error), secret) or "no detail"
        cause = f"{type(error).__name__}: {detail}"
    return _redacted(f"LIVE {family(provider)} {url} failed: {cause}")
