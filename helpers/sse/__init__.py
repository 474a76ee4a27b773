"""Used in lessons: 07.

Streaming, read side: raw server-sent-event bytes -> the provider's whole response.

A streamed reply is the same response as a non-streamed one, cut into events. So this package
does one small thing per provider (one module each):

- ``accumulate(events) -> dict``: add the events up into the provider's *whole* response body,
  exactly the JSON a non-streaming call returns. Text deltas are concatenated; tool-call
  argument fragments are joined by ``index`` (OpenAI chat), by item id (OpenAI Responses) or by
  content-block index (Anthropic); Gemini sends whole calls; Anthropic's ``signature_delta`` is an
  assignment, not an append.

On top, :func:`assemble` turns raw bytes into a neutral :class:`~helpers.replies.Reply` by
accumulating and then parsing the whole body with ``helpers.formats.parse_response``: the same
parser the non-streaming path uses, so both paths give the same message by construction.
The other direction, a whole body cut into the events a provider sends (the local provider
streams with it), is machinery: ``standin/sse_write/``.

The SSE *framing* (``event:``/``data:`` lines, blank-line separators, CRLF, comments) is parsed by
``httpx-sse``, not by hand: :func:`events` wraps the bytes in an ``httpx.Response`` and reads it
with ``httpx_sse.EventSource``. One deliberate difference: the SSE spec (and httpx-sse) discard a
last event that no blank line closes, but both official SDKs keep it, and the Anthropic SDK's own
recorded fixture ends that way. We side with the SDKs and close it; if the bytes were cut
mid-event, its JSON does not parse and :class:`StreamError` says so.

What this package does not do: open connections (``helpers.loop`` and the SDKs do), retry, or
repair a broken stream. A stream that ends early or carries an error event raises
:class:`StreamError`, with whatever was assembled so far in ``.partial``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from httpx_sse import ServerSentEvent

    from helpers.replies import Reply

__all__ = [
    "FORMATS",
    "StreamError",
    "accumulate",
    "assemble",
    "events",
]

#: format name -> module under helpers.sse (one file per provider)
FORMATS: dict[str, str] = {
    "openai-chat": "openai_chat",
    "openai-responses": "openai_responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
}


class StreamError(ValueError):
    """The stream is incomplete or reports an error. ``partial`` holds what was assembled."""

    def __init__(self, message: str, partial: dict[str, Any] | None = None):
        super().__init__(message)
        self.partial = partial


def _module(format: str):
    if format not in FORMATS:
        known = ", ".join(FORMATS)
        raise ValueError(f"unknown format {format!r} (known: {known})")
    return importlib.import_module(f"helpers.sse.{FORMATS[format]}")


def events(raw: bytes | str | Iterable[bytes]) -> list[ServerSentEvent]:
    """Split raw SSE bytes into events with ``httpx-sse`` (``.event``, ``.data``, ``.json()``)."""
    import httpx
    from httpx_sse import EventSource

    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    if not isinstance(raw, bytes):
        raw = b"".join(raw)
    if raw.strip() and not raw.endswith((b"\n\n", b"\r\n\r\n", b"\r\r")):
        raw += b"\n\n"  # close a last event the way the SDKs do (see the module docstring)
    response = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=raw)
    return list(EventSource(response).iter_sse())


#: The largest ``index`` (tool call, content block, output item...) a stream may name. Real
#: streams count up from 0; a huge index would make an accumulator pad a list up to it.
MAX_INDEX = 4096
#: The event's own positions the accumulators use: Anthropic's ``index``, Responses'
#: ``output_index``, ``content_index`` and ``summary_index``.
_EVENT_INDICES = ("index", "output_index", "content_index", "summary_index")


def _indices(event: dict) -> Iterator[tuple[str, Any]]:
    """``(place, value)`` of every index the accumulators read: the event's own, OpenAI Chat's
    ``choices[i].index`` and ``choices[i].delta.tool_calls[j].index``, Gemini's
    ``candidates[i].index``. Not a field of the content that happens to end in ``index`` (a
    citation's ``encrypted_index`` is a string)."""
    yield from ((key, event[key]) for key in _EVENT_INDICES if key in event)
    for name in ("choices", "candidates"):
        for i, item in enumerate(_dicts(event.get(name))):
            if "index" in item:
                yield f"{name}[{i}].index", item["index"]
            delta = item.get("delta") if isinstance(item.get("delta"), dict) else {}
            for j, call in enumerate(_dicts(delta.get("tool_calls"))):
                if "index" in call:
                    yield f"{name}[{i}].delta.tool_calls[{j}].index", call["index"]


def _dicts(value: Any) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _check_indices(event: dict, where: str) -> None:
    """Refuse an index that is not a small non-negative integer, before any work is done."""
    for at, item in _indices(event):
        if isinstance(item, bool) or not isinstance(item, int):
            raise StreamError(f"{where}.{at}: expected an integer, got {item!r:.40}")
        if not 0 <= item <= MAX_INDEX:
            raise StreamError(f"{where}.{at}: {item} is outside 0..{MAX_INDEX}")


class _Checked:
    """Hands the events to an accumulator one by one, remembering which one is being read."""

    def __init__(self, items: list[ServerSentEvent]):
        self.items = items
        self.current = -1

    def __iter__(self) -> Iterator[ServerSentEvent]:
        import json

        for number, event in enumerate(self.items):
            self.current = number
            data = event.data
            if not data.startswith("[DONE]") and event.event != "ping":
                parsed = json.loads(data)
                if not isinstance(parsed, dict):
                    kind = type(parsed).__name__
                    raise StreamError(f"event {self.current}: data is a JSON {kind}, not an object")
                _check_indices(parsed, f"event {self.current}")
            yield event


def accumulate(
    raw: bytes | str | Iterable[bytes], format: str, notes: list[str] | None = None
) -> dict[str, Any]:
    """The whole response body that a stream in ``format`` adds up to.

    A malformed stream raises :class:`StreamError` naming the event, whatever is wrong with it;
    one cut short raises it with what was assembled so far in ``.partial``. ``notes`` (a list)
    collects what was recovered rather than read whole: a tool call whose block never closed,
    a ``data: [DONE]`` line after a format that has none.
    """
    import inspect
    import json

    found = events(raw)
    if format != "openai-chat" and found and found[-1].data.strip() == "[DONE]":
        found = found[:-1]  # proxies end every format's stream this way; it carries nothing
        if notes is not None:
            notes.append("a final 'data: [DONE]' line (not part of this format) was skipped")
    accumulate_events = _module(format).accumulate
    options = {"notes": notes} if "notes" in inspect.signature(accumulate_events).parameters else {}
    checked = _Checked(found)
    try:
        return accumulate_events(checked, **options)
    except (json.JSONDecodeError, RecursionError) as err:
        raise StreamError(
            f"event {checked.current}: data is not JSON (a stream cut mid-event?): {err}"
        ) from None
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as err:
        if isinstance(err, StreamError):
            raise
        what = f"missing {err}" if isinstance(err, KeyError) else str(err)
        raise StreamError(f"event {checked.current} has an unexpected shape: {what}") from None


def assemble(
    raw: bytes | str | Iterable[bytes], format: str, notes: list[str] | None = None
) -> Reply:
    """Raw SSE bytes -> a neutral ``Reply`` (message, usage, stop reason).

    An incomplete stream raises ``StreamError`` saying what was recovered before the cut.
    """
    from helpers.formats import parse_response

    try:
        body = accumulate(raw, format, notes)
    except StreamError as err:
        err.args = (f"{err}{_recovered(err.partial, format)}",)
        raise
    return parse_response(body, format)


def _recovered(partial: dict[str, Any] | None, format: str) -> str:
    """ "; recovered before the cut: ..." from a partial body, or "" if nothing is readable."""
    from helpers.formats import FormatError, parse_response

    if not partial:
        return "; nothing was recovered"
    try:
        blocks = parse_response(partial, format).message.content
    except (FormatError, KeyError, TypeError, ValueError):
        return ""
    parts = [
        f"text ({len(b.text)} chars)" if b.type == "text" else f"{b.type} {getattr(b, 'name', '')}"
        for b in blocks
    ]
    return "; recovered before the cut: " + (", ".join(p.strip() for p in parts) or "no blocks")
