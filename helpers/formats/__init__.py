"""Used in lessons: 02, 03, 05, 06, 07, 08, 10, 11.

The four wire formats: one neutral conversation, rendered as each provider's request body.

>>> rendered = render(request, "anthropic")      # neutral Request -> Rendered(body, notes)
>>> parse(rendered.body)                         # any provider body -> neutral Request
>>> detect(body)                                 # "openai-chat", ..., or "neutral"
>>> parse_response(body, "gemini")               # provider response -> Reply
>>> render_response(reply, "openai-responses")   # Reply -> provider response (for a fake server)

Each format lives in its own package (``openai_chat``, ``openai_responses``, ``anthropic``,
``gemini``), one file per direction: ``render.py`` (neutral -> wire: ``render_request``,
``render_response``) and ``parse.py`` (wire -> neutral: ``parse_request``, ``parse_response``,
``parse_usage``, and ``evidence``, what marks a body as that format). What all four share is in
``common.py``, once. A fifth provider is a new package and one line in ``_MODULES``.

Lossy conversions never fail silently: they add a ``Note`` (``where``, ``message``). Every
public function takes an optional ``notes`` list to collect them; ``render`` also returns them
on the ``Rendered``. This package does not check the rules of the list (``helpers.rules``), send
anything, or count tokens.
"""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType
from typing import Any

from helpers.flat import to_flat
from helpers.formats.common import ERROR_PREFIX, Note, Notes, Rendered
from helpers.messages import FormatError, Request, load
from helpers.replies import Reply, Usage

__all__ = [
    "ERROR_PREFIX",
    "FORMATS",
    "FormatError",
    "Note",
    "Rendered",
    "detect",
    "parse",
    "parse_response",
    "parse_usage",
    "render",
    "render_for",
    "render_response",
    "to_flat",
]

# format name -> module under helpers.formats
_MODULES: dict[str, str] = {
    "openai-chat": "openai_chat",
    "openai-responses": "openai_responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
}
FORMATS: tuple[str, ...] = tuple(_MODULES)


def module(name: str) -> ModuleType:
    """The module that implements format ``name``; unknown names list the known ones."""
    if name not in _MODULES:
        raise FormatError(f"unknown format {name!r} (known: {', '.join(FORMATS)})")
    return importlib.import_module(f"helpers.formats.{_MODULES[name]}")


def render(
    request: Request, format: str, *, notes: list[Note] | None = None, **options: Any
) -> Rendered:
    """The request body for ``format``, with the notes on what it changed or dropped.

    ``options`` go to that format's renderer: ``render(r, "openai-chat",
    system_role="developer")``. An option the format does not take is an error.
    """
    fmt = module(format)
    accepted = [
        p.name
        for p in inspect.signature(fmt.render_request).parameters.values()
        if p.kind is p.KEYWORD_ONLY
    ]
    for key in options:
        if key not in accepted:
            raise FormatError(
                f"option {key!r} is not used by {format} "
                f"(it takes: {', '.join(accepted) or 'none'})"
            )
    found = Notes()
    body = fmt.render_request(request, found, **options)
    if notes is not None:
        notes.extend(found)
    return Rendered(format, body, list(found), fmt.PATH.format(model=request.model))


def render_for(request: Request, format: str) -> Rendered:
    """Render ``request`` as ``format``, with that provider's default model, not the request's.

    One conversation shown in four formats should name a model each provider actually has.
    """
    from dataclasses import replace

    from helpers.models import default_model

    family = "openai" if format.startswith("openai") else format
    return render(replace(request, model=default_model(family)), format)


def parse(body: dict, format: str | None = None, *, notes: list[Note] | None = None) -> Request:
    """Read a request body (in ``format``, or whatever ``detect`` finds) as neutral."""
    if not isinstance(body, dict):
        raise FormatError(f"a request body must be a JSON object, got {type(body).__name__}")
    name = format or detect(body)
    if name == "neutral":
        return load(body)
    # A ``Notes`` passed in also collects where each message and block came from (``origin``).
    found = notes if isinstance(notes, Notes) else Notes()
    request = module(name).parse_request(body, found)
    if notes is not None and notes is not found:
        notes.extend(found)
    return request


def parse_response(body: dict, format: str, *, notes: list[Note] | None = None) -> Reply:
    """A provider's (non-streaming) response body, in ``format``, as a ``Reply``."""
    if not isinstance(body, dict):
        raise FormatError(f"a response body must be a JSON object, got {type(body).__name__}")
    found = Notes()
    reply = module(format).parse_response(body, found)
    if notes is not None:
        notes.extend(found)
    return reply


def parse_usage(usage: dict, format: str) -> Usage:
    """One provider's ``usage`` object alone (as a log or a TRACE file keeps it) -> ``Usage``.

    The same function ``parse_response`` uses, so a usage read on its own and one read inside
    a whole response always agree. Input counts every input token, cached or not.
    """
    if not isinstance(usage, dict):
        raise FormatError(f"usage: expected an object, got {type(usage).__name__}")
    return module(format).parse_usage(usage)


def render_response(
    reply: Reply, format: str, *, created: int = 0, notes: list[Note] | None = None
) -> dict:
    """The response body a provider speaking ``format`` would send for ``reply``.

    Ids come from ``reply.id`` (pass ``chatcmpl-...``, ``resp_...``, ``msg_...``); ``created``
    is the Unix timestamp where the format has one (default 0, so output is deterministic).
    """
    found = Notes()
    body = module(format).render_response(reply, found, created=created)
    if notes is not None:
        notes.extend(found)
    return body


# --- detect -------------------------------------------------------------------------------

_NEUTRAL_BLOCKS = ("tool_call", "reasoning")


def _neutral_evidence(body: dict) -> list[str]:
    found = []
    for i, m in enumerate(body.get("messages") or []):
        content = m.get("content") if isinstance(m, dict) else None
        for block in content if isinstance(content, list) else []:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind in _NEUTRAL_BLOCKS or (kind == "tool_result" and "call_id" in block):
                found.append(f"messages[{i}] has a neutral '{kind}' block")
            if kind == "image" and "media_type" in block and "source" not in block:
                found.append(f"messages[{i}] has a neutral image block")
    tools = body.get("tools") or []
    if any(isinstance(t, dict) and "parameters" in t and "type" not in t for t in tools):
        found.append("tools have top-level 'parameters'")
    return found


def detect(body: dict, prefer: str | None = None) -> str:
    """Which format a request body is in: one of ``FORMATS``, or ``"neutral"``.

    Each format names the fields that only it uses. A body with nothing format-specific (only
    text messages) reads the same in every format: it is read as ``prefer`` when that names a
    format (the provider it is being checked for), else neutral when it loads as neutral JSON,
    else openai-chat. Marks of two formats at once, or no conversation at all, are a
    ``FormatError`` that says what was found.
    """
    if not isinstance(body, dict):
        raise FormatError(f"a request body must be a JSON object, got {type(body).__name__}")
    for key in ("messages", "tools", "contents"):  # every format's evidence iterates these
        if body.get(key) is not None and not isinstance(body[key], list):
            raise FormatError(f"{key}: expected a list, got {type(body[key]).__name__}")
    found = {name: module(name).evidence(body) for name in FORMATS}
    found["neutral"] = _neutral_evidence(body)
    found = {name: reasons for name, reasons in found.items() if reasons}
    if len(found) == 1:
        return next(iter(found))
    if len(found) > 1:
        mixed = "; ".join(f"{name}: {reasons[0]}" for name, reasons in found.items())
        raise FormatError(f"the body mixes formats ({mixed}); pass the format explicitly")
    if prefer in FORMATS and ("contents" if prefer == "gemini" else "messages") in body:
        return prefer
    if isinstance(body.get("messages"), list):
        try:
            load(body)
            return "neutral"
        except FormatError:
            return "openai-chat"
    keys = ", ".join(sorted(body)) or "none"
    raise FormatError(
        f"not a request body of any known format (top-level keys: {keys}); expected "
        "'messages' (neutral, openai-chat, anthropic), 'input' (openai-responses) or "
        "'contents' (gemini)"
    )
