"""OpenAI Responses streaming, the write side: a whole response body cut into its events.

The stand-in streams with this. The event order it follows, and what each event carries,
is explained where the stream is read back: ``helpers/sse/accumulators.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from standin.sse_write.framing import frame, pieces

__all__ = ["encode"]


def _skeleton(item: dict[str, Any]) -> dict[str, Any]:
    """The item as ``output_item.added`` announces it: no text, no arguments yet."""
    if item["type"] == "message":
        return {**item, "status": "in_progress", "content": []}
    if item["type"] == "function_call":
        return {**item, "status": "in_progress", "arguments": ""}
    if item["type"] == "reasoning":
        skeleton = {k: v for k, v in item.items() if k != "encrypted_content"}
        return {**skeleton, "summary": []}
    return item


def _item_events(item: dict[str, Any], index: int, size: int) -> Iterator[dict[str, Any]]:
    where = {"item_id": item.get("id", ""), "output_index": index}
    yield {"type": "response.output_item.added", "output_index": index, "item": _skeleton(item)}
    if item["type"] == "message":
        for c, part in enumerate(item.get("content") or []):
            text = part.get("text", "")
            empty = {**part, "text": ""}
            yield {
                "type": "response.content_part.added",
                **where,
                "content_index": c,
                "part": empty,
            }
            for piece in pieces(text, size):
                delta = {"content_index": c, "delta": piece, "logprobs": []}
                yield {"type": "response.output_text.delta", **where, **delta}
            done = {"content_index": c, "text": text, "logprobs": []}
            yield {"type": "response.output_text.done", **where, **done}
            yield {"type": "response.content_part.done", **where, "content_index": c, "part": part}
    elif item["type"] == "function_call":
        for piece in pieces(item["arguments"], size):
            yield {"type": "response.function_call_arguments.delta", **where, "delta": piece}
        done = {"name": item["name"], "arguments": item["arguments"]}
        yield {"type": "response.function_call_arguments.done", **where, **done}
    elif item["type"] == "reasoning":
        for s, part in enumerate(item.get("summary") or []):
            empty = {**part, "text": ""}
            added = {"summary_index": s, "part": empty}
            yield {"type": "response.reasoning_summary_part.added", **where, **added}
            for piece in pieces(part["text"], size):
                delta = {"summary_index": s, "delta": piece}
                yield {"type": "response.reasoning_summary_text.delta", **where, **delta}
            done = {"summary_index": s, "text": part["text"]}
            yield {"type": "response.reasoning_summary_text.done", **where, **done}
            closed = {"summary_index": s, "part": part}
            yield {"type": "response.reasoning_summary_part.done", **where, **closed}
    yield {"type": "response.output_item.done", "output_index": index, "item": item}


def encode(body: dict[str, Any], size: int = 12) -> Iterator[str]:
    """A ``response`` body as the events the Responses API streams."""
    opening = {**body, "status": "in_progress", "output": [], "usage": None}
    stream: list[dict[str, Any]] = [
        {"type": "response.created", "response": opening},
        {"type": "response.in_progress", "response": opening},
    ]
    for index, item in enumerate(body.get("output") or []):
        stream.extend(_item_events(item, index, size))
    final = "response.completed" if body.get("status", "completed") == "completed" else None
    stream.append({"type": final or "response.incomplete", "response": body})
    for number, event in enumerate(stream):
        event = {"type": event["type"], "sequence_number": number, **event}
        yield frame(event, event["type"])
