"""Used in lessons: 02, 03, 05, 06, 07, 08, 10, 11.

The four wire formats: one neutral conversation, rendered as each provider's request body.
``render`` gives a ``Rendered`` (body, notes, path), ``parse`` reads a body back, ``detect`` says
which format it is, ``parse_response`` reads a response; ``to_flat`` (``flat.py``) gives one
content string per message. Each format is a row in ``PROVIDERS``. Lossy conversions add a
``Note``; nothing here checks the rules of the list, sends or counts.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from helpers.formats.common import Note, Notes, Rendered, check_placement, check_tool_choice
from helpers.formats.flat import FlatMessage, FlatToolCall, from_flat, to_flat
from helpers.formats.providers import PROVIDERS, Provider
from helpers.messages import FormatError, Reply, Request, Usage, load

__all__ = [
    "FORMATS", "PROVIDERS", "Provider", "FormatError", "Note", "Rendered", "detect", "family",
    "parse", "parse_response", "parse_usage", "provider", "render", "render_for",
    "FlatMessage", "FlatToolCall", "from_flat", "to_flat",
]  # fmt: skip

#: The names of the wire formats, in the order the lessons show them (one row each).
FORMATS: tuple[str, ...] = tuple(PROVIDERS)


def provider(format: str) -> Provider:
    """``format``'s row in ``PROVIDERS`` (a clear error for a name that has none)."""
    if format not in PROVIDERS:
        raise FormatError(f"unknown format {format!r} (known: {', '.join(FORMATS)})")
    return PROVIDERS[format]


def family(format: str) -> str:
    """The provider (company) behind a wire format: ``openai-responses`` -> ``openai``."""
    return provider(format).family


def render(
    request: Request, format: str, *, notes: list[Note] | None = None, **options: Any
) -> Rendered:
    """The request body for ``format``, with the notes on what it changed or dropped.
    ``options`` go to that format's renderer (each lists the ones it takes in ``OPTIONS``)."""
    module = provider(format).render
    for key, value in options.items():
        if key not in module.OPTIONS:
            raise FormatError(
                f"option {key!r} is not used by {format} "
                f"(it takes: {', '.join(module.OPTIONS) or 'none'})"
            )
        if value not in module.OPTIONS[key]:
            allowed = " or ".join(repr(v) for v in module.OPTIONS[key])
            raise FormatError(f"{key}: expected {allowed}, got {value!r}")
    check_placement(request.messages)
    check_tool_choice(request.tool_choice)
    found = Notes()
    body = module.render_request(request, found, **options)
    if notes is not None:
        notes.extend(found)
    return Rendered(format, body, list(found), module.PATH.format(model=request.model))


def render_for(request: Request, format: str) -> Rendered:
    """Render ``request`` as ``format`` with a model that provider has (its default model)."""
    from helpers.models import default_model

    return render(replace(request, model=default_model(family(format))), format)


def parse(body: dict, format: str | None = None, *, notes: list[Note] | None = None) -> Request:
    """Read a request body (in ``format``, or whatever ``detect`` finds) as neutral; ``notes``
    gets what the reading dropped or changed, also when it stops at an error."""
    if not isinstance(body, dict):
        raise FormatError(f"a request body must be a JSON object, got {type(body).__name__}")
    name = format or detect(body)
    if name == "neutral":
        return load(body)
    found = Notes()
    try:
        return provider(name).parse.parse_request(body, found)
    finally:
        if notes is not None:
            notes.extend(found)


def parse_response(body: dict, format: str, *, notes: list[Note] | None = None) -> Reply:
    """A provider's (non-streaming) response body, in ``format``, as a ``Reply``."""
    if not isinstance(body, dict):
        raise FormatError(f"a response body must be a JSON object, got {type(body).__name__}")
    found = Notes()
    reply = provider(format).parse.parse_response(body, found)
    if notes is not None:
        notes.extend(found)
    return reply


def parse_usage(usage: dict, format: str) -> Usage:
    """One provider's ``usage`` object alone (as a log keeps it) -> ``Usage``, read as
    ``parse_response`` reads it. Input counts every input token, cached or not."""
    if not isinstance(usage, dict):
        raise FormatError(f"usage: expected an object, got {type(usage).__name__}")
    return provider(format).parse.parse_usage(usage)


def _neutral_evidence(body: dict) -> list[str]:
    found = []
    for i, m in enumerate(body.get("messages") or []):
        content = m.get("content") if isinstance(m, dict) else None
        for block in content if isinstance(content, list) else []:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind in ("tool_call", "reasoning") or (kind == "tool_result" and "call_id" in block):
                found.append(f"messages[{i}] has a neutral '{kind}' block")
            if kind == "image" and "media_type" in block and "source" not in block:
                found.append(f"messages[{i}] has a neutral image block")
    tools = body.get("tools") or []
    if any(isinstance(t, dict) and "parameters" in t and "type" not in t for t in tools):
        found.append("tools have top-level 'parameters'")
    return found


def detect(body: dict, prefer: str | None = None) -> str:
    """Which format a request body is in: one of ``FORMATS``, or ``"neutral"``.

    Each format names the fields only it uses (``evidence``). A body with none (only text
    messages) is read as ``prefer`` when that names a format, else as neutral when it loads as
    neutral JSON, else as openai-chat. Marks of two formats, or no conversation, are an error.
    """
    if not isinstance(body, dict):
        raise FormatError(f"a request body must be a JSON object, got {type(body).__name__}")
    for key in ("messages", "tools", "contents"):  # every format's evidence iterates these
        if body.get(key) is not None and not isinstance(body[key], list):
            raise FormatError(f"{key}: expected a list, got {type(body[key]).__name__}")
    found = {name: row.parse.evidence(body) for name, row in PROVIDERS.items()}
    found["neutral"] = _neutral_evidence(body)
    found = {name: reasons for name, reasons in found.items() if reasons}
    if len(found) == 1:
        return next(iter(found))
    if len(found) > 1:
        mixed = "; ".join(f"{name}: {reasons[0]}" for name, reasons in found.items())
        raise FormatError(f"the body mixes formats ({mixed}); pass the format explicitly")
    if prefer in FORMATS and PROVIDERS[prefer].conversation in body:
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
