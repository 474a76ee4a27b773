"""Used in lessons: 11.

Live mode: the same requests, sent to a real provider, only where a cell says so.

Every lesson talks to the stand-in on 127.0.0.1. Live mode changes that for **one kind of
cell only**: a cell that calls :func:`run_live` (lesson 11 has one, marked LIVE) or
``standin.count_live.count_live(request)`` in your own code. Nothing else ever goes live,
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

The switch itself (the variables, URLs and one-line messages) is plumbing, in
``standin/live_switch.py``; its names are re-exported here.
What this module does not do: store keys, read ``.env`` files, or retry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from standin.live_switch import (
    BASE_URL_VARS,
    KEYS,
    LIVE_URLS,
    Endpoint,
    environ,
    failure_line,
    family,
    is_live,
    live_url,
    show_switch,
    switch_line,
    why_not_live,
)
from standin.redaction import redact

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

_shared: Any = None


def local_provider(scenario: str = "sundry") -> Any:
    """One shared stand-in for a notebook session, started on first use."""
    global _shared
    if _shared is None or not _shared.running:
        from standin import LocalProvider

        _shared = LocalProvider(scenario).start()
    return _shared


def endpoint(provider: str, local: Any = None, env: Mapping[str, str] | None = None) -> Endpoint:
    """The real API when live mode is on for ``provider``, else the stand-in."""
    env, _ = environ(env), family(provider)
    if is_live(provider, env):
        return Endpoint(provider, live_url(provider, env), env[KEYS[family(provider)]], True)
    from standin.server import LOCAL_KEY

    server = local if local is not None else local_provider()
    return Endpoint(provider, server.url, LOCAL_KEY, False)


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

    Returns the :class:`~helpers.meter.Trace` of the live run, or None (after printing one line)
    when live mode is off for ``format``, or the request failed.
    """
    import httpx

    from helpers.loop import ProviderError, run

    env = environ(env)
    reason = why_not_live(format, env)
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
    done = f"LIVE {family(format)}: {sent} request{'s' * (sent != 1)} to {where.base_url}"
    print(redact(done))  # a base URL's password never prints
    return trace
