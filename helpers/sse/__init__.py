"""Streaming, both ways: raw server-sent-event bytes <-> the provider's whole response.

A streamed reply is the same response as a non-streamed one, cut into events. So this package
does two small things per provider (one module each, same three names):

- ``accumulate(events) -> dict``: add the events up into the provider's *whole* response body,
  exactly the JSON a non-streaming call returns. Text deltas are concatenated; tool-call
  argument fragments are joined by ``index`` (OpenAI chat), by item id (OpenAI Responses) or by
  content-block index (Anthropic); Gemini sends whole calls; Anthropic's ``signature_delta`` is an
  assignment, not an append.
- ``encode(body) -> Iterator[str]``: the other direction, used by the local provider: cut a whole
  body into the events that provider really sends, one SSE event (its text) per item.

On top, :func:`assemble` turns raw bytes into a neutral :class:`~helpers.replies.Reply` by
accumulating and then parsing the whole body with ``helpers.formats.parse_response``: the same
parser the non-streaming path uses, so both paths give the same message by construction.

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
    "PROVIDERS",
    "StreamError",
    "accumulate",
    "assemble",
    "encode",
    "encode_reply",
    "events",
    "frame",
]

#: provider name -> module under helpers.sse (one file per provider)
PROVIDERS: dict[str, str] = {
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


def _module(provider: str):
    if provider not in PROVIDERS:
        known = ", ".join(PROVIDERS)
        raise ValueError(f"unknown provider {provider!r} (known: {known})")
    return importlib.import_module(f"helpers.sse.{PROVIDERS[provider]}")


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


def frame(data: dict[str, Any] | str, event: str | None = None) -> str:
    """One SSE event as text: an optional ``event:`` line, one ``data:`` line, a blank line."""
    import json

    payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n"


def accumulate(
    raw: bytes | str | Iterable[bytes], provider: str, notes: list[str] | None = None
) -> dict[str, Any]:
    """The whole response body that a stream of ``provider`` adds up to.

    ``notes`` (a list) collects what was recovered rather than read whole: a tool call whose
    block never closed, a ``data: [DONE]`` line after a format that has none. A stream that is
    cut short raises ``StreamError`` with what was assembled so far in ``.partial``.
    """
    import inspect
    import json

    found = events(raw)
    if provider != "openai-chat" and found and found[-1].data.strip() == "[DONE]":
        found = found[:-1]  # proxies end every format's stream this way; it carries nothing
        if notes is not None:
            notes.append("a final 'data: [DONE]' line (not part of this format) was skipped")
    accumulate_events = _module(provider).accumulate
    options = {"notes": notes} if "notes" in inspect.signature(accumulate_events).parameters else {}
    try:
        return accumulate_events(found, **options)
    except json.JSONDecodeError as err:
        raise StreamError(f"an event's data is not JSON (a stream cut mid-event?): {err}") from None


def assemble(
    raw: bytes | str | Iterable[bytes], provider: str, notes: list[str] | None = None
) -> Reply:
    """Raw SSE bytes -> a neutral ``Reply`` (message, usage, stop reason).

    An incomplete stream raises ``StreamError`` saying what was recovered before the cut.
    """
    from helpers.formats import parse_response

    try:
        body = accumulate(raw, provider, notes)
    except StreamError as err:
        err.args = (f"{err}{_recovered(err.partial, provider)}",)
        raise
    return parse_response(body, provider)


def _recovered(partial: dict[str, Any] | None, provider: str) -> str:
    """ "; recovered before the cut: ..." from a partial body, or "" if nothing is readable."""
    from helpers.formats import FormatError, parse_response

    if not partial:
        return "; nothing was recovered"
    try:
        blocks = parse_response(partial, provider).message.content
    except (FormatError, KeyError, TypeError, ValueError):
        return ""
    parts = [
        f"text ({len(b.text)} chars)" if b.type == "text" else f"{b.type} {getattr(b, 'name', '')}"
        for b in blocks
    ]
    return "; recovered before the cut: " + (", ".join(p.strip() for p in parts) or "no blocks")


def encode(body: dict[str, Any], provider: str, **options: Any) -> Iterator[str]:
    """Cut a whole response body into the SSE events ``provider`` sends (one string each)."""
    return _module(provider).encode(body, **options)


def encode_reply(reply: Reply, provider: str, **options: Any) -> bytes:
    """A neutral reply as the complete SSE byte stream of ``provider``."""
    from helpers.formats import render_response

    body = render_response(reply, provider)
    return "".join(encode(body, provider, **options)).encode("utf-8")


def pieces(text: str, size: int = 12) -> list[str]:
    """Deterministic deltas: ``text`` cut after whitespace roughly every ``size`` characters.

    Real providers cut at token boundaries; any cut is valid, and a fixed rule keeps the
    local provider's streams reproducible.
    """
    out: list[str] = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        space = text.rfind(" ", start + 1, end)
        if end < len(text) and space > start:
            end = space + 1
        out.append(text[start:end])
        start = end
    return out or [""]
