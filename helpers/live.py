"""Live mode: the same requests, sent to a real provider, only where a cell says so.

Used in lessons: 11.

Every lesson talks to the local provider on 127.0.0.1. Live mode changes that for **one kind of
cell only**: a cell that calls :func:`run_live` (lesson 11 has one, marked LIVE) or
``helpers.tokens.count(request, live=True)`` in your own code. Nothing else ever goes live,
whatever the environment says. Two switches, both required, set before starting JupyterLab:
``ON_THE_WIRE_LIVE=1`` **and** the provider's key (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY`` or
``GEMINI_API_KEY``). A key lying around in the environment never sends a request by accident.

- :func:`show_switch` prints the one line at the top of a lesson that can go live: where each
  provider's LIVE cells will send (local or the real URL, key redacted), or one warning line
  naming the missing variable;
- :func:`endpoint` says where a live cell sends (an :class:`Endpoint` never shows its key);
- :func:`run_live` runs the agent loop there; a failure is one line (the URL and the cause, or
  the provider's own error body), never a traceback.

The real base URLs can be overridden, as the SDKs allow: ``OPENAI_BASE_URL`` and
``ANTHROPIC_BASE_URL`` (the official SDKs' own variables) and ``GEMINI_BASE_URL`` (this
project's). The tests use that to put a stand-in for the real API on 127.0.0.1.

What this module does not do: store keys, read ``.env`` files, or retry.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "BASE_URL_VARS",
    "KEYS",
    "LIVE_URLS",
    "Endpoint",
    "endpoint",
    "failure_line",
    "is_live",
    "live_url",
    "local_provider",
    "run_live",
    "show_switch",
    "switch_line",
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
_shared: Any = None


def family(provider: str) -> str:
    """``openai-chat`` and ``openai-responses`` share OpenAI's key and host."""
    name = "openai" if provider.startswith("openai") else provider
    if name not in KEYS:
        raise ValueError(f"unknown provider {provider!r} (known: openai-*, anthropic, gemini)")
    return name


def _env(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def is_live(provider: str, env: Mapping[str, str] | None = None) -> bool:
    """True only with ``ON_THE_WIRE_LIVE=1`` and a non-empty key for ``provider``."""
    env = _env(env)
    return env.get(SWITCH) == "1" and bool(env.get(KEYS[family(provider)], ""))


def live_url(provider: str, env: Mapping[str, str] | None = None) -> str:
    """The real API's root (no ``/v1``), or its override from ``*_BASE_URL``."""
    name = family(provider)
    url = _env(env).get(BASE_URL_VARS[name], "").rstrip("/") or LIVE_URLS[name]
    return url.removesuffix("/v1") if name != "gemini" else url.removesuffix("/v1beta")


def _why_not_live(provider: str, env: Mapping[str, str]) -> str | None:
    """None when ``provider`` is live; else one line saying why not (a warning if asked for)."""
    name, key = family(provider), KEYS[family(provider)]
    switch = env.get(SWITCH)
    if switch == "1" and env.get(key, ""):
        return None
    if switch == "1":
        return f"warning: {SWITCH}=1 but {key} is not set: {name} stays on the local provider"
    if switch:
        return f"warning: {SWITCH}={switch!r} is not '1': {name} stays on the local provider"
    return f"live mode off: {name} uses the local provider (live needs {key} and {SWITCH}=1)"


def switch_line(*providers: str, env: Mapping[str, str] | None = None) -> str:
    """One line: where each provider's LIVE cells send, the key redacted; a warning if asked."""
    env = _env(env)
    names = list(dict.fromkeys(family(p) for p in providers)) or list(KEYS)
    reasons = {name: _why_not_live(name, env) for name in names}
    if not env.get(SWITCH) and all(reasons.values()):
        keys = " / ".join(KEYS[n] for n in names)
        return (
            f"live mode off: {', '.join(names)} → local provider on 127.0.0.1 "
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
    return "live mode ON: " + " · ".join(parts) + "; only the cells marked LIVE send there"


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
        return f"Endpoint({self.provider!r}, {self.base_url!r}, api_key={REDACTED}, {mode})"

    __str__ = __repr__


def local_provider(scenario: str = "sundry") -> Any:
    """One shared local provider for a notebook session, started on first use."""
    global _shared
    if _shared is None or not _shared.running:
        from helpers.provider import LocalProvider

        _shared = LocalProvider(scenario).start()
    return _shared


def endpoint(provider: str, local: Any = None, env: Mapping[str, str] | None = None) -> Endpoint:
    """The real API when live mode is on for ``provider``, else the local provider."""
    env, _ = _env(env), family(provider)
    if is_live(provider, env):
        return Endpoint(provider, live_url(provider, env), env[KEYS[family(provider)]], True)
    from helpers.machinery.provider_server import LOCAL_KEY

    server = local if local is not None else local_provider()
    return Endpoint(provider, server.url, LOCAL_KEY, False)


def _one_line(text: str, secret: str = "") -> str:
    """The text on one line, JSON compacted, the key (and anything key-shaped) redacted."""
    from helpers.provider.recorder import redact

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
    return f"LIVE {family(provider)} {url} failed: {cause}"


def _url_of(error: BaseException, default: str) -> str:
    """The URL an httpx error was about (httpx raises if it has none, hence the guard)."""
    try:
        return str(error.request.url)  # type: ignore[attr-defined]
    except (AttributeError, RuntimeError):
        return default


def run_live(
    request: Any,
    run_tool: Callable[[Any], Any],
    *,
    format: str = "anthropic",
    max_turns: int = 12,
    env: Mapping[str, str] | None = None,
) -> Any:
    """Lesson 11's LIVE cell: the agent loop against the real API, or one line saying why not.

    Returns the :class:`~helpers.trace.Trace` of the live run, or None (after printing one line)
    when live mode is off for ``format``, or the request failed.
    """
    import httpx

    from helpers.loop import ProviderError, run

    env = _env(env)
    reason = _why_not_live(format, env)
    if reason is not None:
        print(reason)
        return None
    where = endpoint(format, env=env)
    try:
        trace = run(
            request,
            run_tool,
            format=format,
            base_url=where.base_url,
            api_key=where.api_key,
            max_turns=max_turns,
        )
    except ProviderError as err:
        print(failure_line(format, err.url, err, where.api_key))
        return None
    except (httpx.HTTPError, OSError) as err:
        print(failure_line(format, _url_of(err, where.base_url), err, where.api_key))
        return None
    sent = len(trace.steps)
    print(f"LIVE {family(format)}: {sent} request{'s' * (sent != 1)} to {where.base_url}")
    return trace
