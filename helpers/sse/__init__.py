"""Used in lessons: 07.

Streaming, read side: raw server-sent-event bytes -> the provider's whole response -> a Reply.
``events`` splits the bytes (``httpx-sse``), ``accumulate`` adds them up into the whole body
(``accumulators.py``) and ``assemble`` parses it with the non-streaming ``parse_response``. It
does not connect, retry or repair: a stream that ends early or carries an error raises
``StreamError``, with what was assembled in ``.partial``. Limits on a stream from outside (a huge
index) are the stand-in's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from helpers.formats.providers import PROVIDERS
from helpers.messages import Reply
from helpers.sse.accumulators import ACCUMULATORS, StreamError

if TYPE_CHECKING:
    from httpx_sse import ServerSentEvent

__all__ = ["ACCUMULATORS", "StreamError", "accumulate", "assemble", "events"]


def events(raw: bytes | str | Iterable[bytes]) -> list[ServerSentEvent]:
    """Split raw SSE bytes into events with ``httpx-sse`` (``.event``, ``.data``, ``.json()``)."""
    import httpx
    from httpx_sse import EventSource

    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    if not isinstance(raw, bytes):
        raw = b"".join(raw)
    if raw.strip() and not raw.endswith((b"\n\n", b"\r\n\r\n", b"\r\r")):
        raw += b"\n\n"  # close a last event the way the SDKs do
    response = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=raw)
    return list(EventSource(response).iter_sse())


class _Numbered:
    """Hands the events to an accumulator one by one, remembering which one is being read."""

    def __init__(self, items: list[ServerSentEvent]):
        self.items = items
        self.current = -1

    def __iter__(self) -> Iterator[ServerSentEvent]:
        for number, event in enumerate(self.items):
            self.current = number
            yield event


def accumulate(
    raw: bytes | str | Iterable[bytes], format: str, notes: list[str] | None = None
) -> dict[str, Any]:
    """The whole response body that a stream in ``format`` adds up to.
    A malformed stream raises :class:`StreamError` naming the event; one cut short raises it with
    what was assembled so far in ``.partial``. ``notes`` (a list) collects what was recovered
    rather than read whole (a tool call whose block never closed, a stray ``data: [DONE]``)."""
    if format not in ACCUMULATORS:
        raise ValueError(f"unknown format {format!r} (known: {', '.join(ACCUMULATORS)})")
    found = events(raw)
    if not PROVIDERS[format].ends_with_done and found and found[-1].data.strip() == "[DONE]":
        found = found[:-1]  # proxies end every format's stream this way; it carries nothing
        if notes is not None:
            notes.append("a final 'data: [DONE]' line (not part of this format) was skipped")
    checked = _Numbered(found)
    try:
        return ACCUMULATORS[format](checked, notes)
    except StreamError:
        raise
    except (json.JSONDecodeError, RecursionError) as err:
        raise StreamError(
            f"event {checked.current}: data is not JSON (a stream cut mid-event?): {err}"
        ) from None
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as err:
        what = f"missing {err}" if isinstance(err, KeyError) else str(err)
        raise StreamError(f"event {checked.current} has an unexpected shape: {what}") from None


def assemble(
    raw: bytes | str | Iterable[bytes], format: str, notes: list[str] | None = None
) -> Reply:
    """Raw SSE bytes -> a neutral ``Reply`` (message, usage, stop reason)."""
    from helpers.formats import parse_response

    return parse_response(accumulate(raw, format, notes), format)
