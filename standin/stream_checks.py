"""Limits for a stream from outside, checked before ``helpers.sse`` adds it up.

Every index an accumulator reads (a tool call's, a content block's, an output item's...) must be
a small non-negative integer, and every event's data a JSON object: a huge index would make an
accumulator pad a list up to it. ``accumulate`` and ``assemble`` are ``helpers.sse``'s, with
these checks first; the learner's package reads trusted streams and does not repeat them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from helpers import sse
from helpers.messages import Reply
from helpers.sse import StreamError

#: The largest ``index`` a stream may name. Real streams count up from 0.
MAX_INDEX = 4096
#: The event's own positions the accumulators use: Anthropic's ``index``, Responses'
#: ``output_index``, ``content_index`` and ``summary_index``.
_EVENT_INDICES = ("index", "output_index", "content_index", "summary_index")


def _indices(event: dict) -> Iterator[tuple[str, Any]]:
    """``(place, value)`` of every index the accumulators read: the event's own, and those of
    OpenAI Chat's choices and their tool calls and of Gemini's candidates."""
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


def check_stream(raw: bytes | str | Iterable[bytes]) -> None:
    """Refuse an event whose data is not an object, or an index that is not a small
    non-negative integer, naming the event. Data that is not JSON is left to ``accumulate``."""
    for number, event in enumerate(sse.events(raw)):
        if event.data.startswith("[DONE]") or event.event == "ping":
            continue
        try:
            parsed = json.loads(event.data)
        except (json.JSONDecodeError, RecursionError):
            return  # accumulate names the event and stops there
        if not isinstance(parsed, dict):
            kind = type(parsed).__name__
            raise StreamError(f"event {number}: data is a JSON {kind}, not an object")
        for at, item in _indices(parsed):
            if isinstance(item, bool) or not isinstance(item, int):
                raise StreamError(f"event {number}.{at}: expected an integer, got {item!r:.40}")
            if not 0 <= item <= MAX_INDEX:
                raise StreamError(f"event {number}.{at}: {item} is outside 0..{MAX_INDEX}")


def accumulate(
    raw: bytes | str | Iterable[bytes], format: str, notes: list[str] | None = None
) -> dict[str, Any]:
    """``helpers.sse.accumulate`` after ``check_stream``."""
    raw = raw if isinstance(raw, bytes | str) else b"".join(raw)
    check_stream(raw)
    return sse.accumulate(raw, format, notes)


def assemble(
    raw: bytes | str | Iterable[bytes], format: str, notes: list[str] | None = None
) -> Reply:
    """``helpers.sse.assemble`` after ``check_stream``."""
    raw = raw if isinstance(raw, bytes | str) else b"".join(raw)
    check_stream(raw)
    return sse.assemble(raw, format, notes)
