"""OpenAI Responses streaming: named ``response.*`` events, ending with ``response.completed``.

Every event has a ``type`` (repeated as the SSE ``event:`` name) and a ``sequence_number``. The
output is a list of *items* (``message``, ``function_call``, ``reasoning``). Each item opens with
``response.output_item.added`` and closes with ``response.output_item.done``; in between:

- a message: ``content_part.added``, ``output_text.delta`` pieces, ``output_text.done``,
  ``content_part.done``;
- a function call: ``function_call_arguments.delta`` pieces, joined by ``item_id`` (the deltas
  carry no ``call_id``: it is on the item from ``output_item.added``), then ``...arguments.done``;
- a reasoning item: ``reasoning_summary_part.added``, ``reasoning_summary_text.delta`` pieces,
  ``..._text.done``, ``..._part.done``. Its opaque ``encrypted_content`` only comes whole, in
  ``output_item.done``.

There is no ``[DONE]`` line: ``response.completed`` carries the final response with its usage.
Not handled: built-in tools' events (web search, code interpreter, ...) and refusals.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from helpers.sse import StreamError, frame, pieces

__all__ = ["accumulate", "encode"]


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


def accumulate(events: Iterable[Any]) -> dict[str, Any]:
    """Events -> the ``response`` body a non-streaming call returns."""
    body: dict[str, Any] | None = None
    items: dict[int, dict[str, Any]] = {}
    by_id: dict[str, dict[str, Any]] = {}  # item id -> the same item: deltas name only the id
    finished = False
    for event in events:
        data = json.loads(event.data)
        kind = data.get("type", event.event)
        if kind == "error":
            raise StreamError(f"error event in the stream: {data.get('message')}", body)
        if kind in ("response.created", "response.in_progress"):
            body = dict(data["response"])
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            body, finished = dict(data["response"]), True
        elif kind == "response.output_item.added":
            item = json.loads(json.dumps(data["item"]))  # a copy we can grow
            items[data["output_index"]] = item
            if item.get("id"):
                by_id[item["id"]] = item
        elif kind == "response.output_item.done":
            item = items.setdefault(data["output_index"], {})
            item.update(data["item"])  # the done item is whole (encrypted_content comes here)
        elif kind == "response.content_part.added":
            by_id[data["item_id"]].setdefault("content", []).append(dict(data["part"]))
        elif kind == "response.output_text.delta":
            by_id[data["item_id"]]["content"][data["content_index"]]["text"] += data["delta"]
        elif kind == "response.function_call_arguments.delta":
            by_id[data["item_id"]]["arguments"] += data["delta"]
        elif kind == "response.reasoning_summary_part.added":
            by_id[data["item_id"]].setdefault("summary", []).append(dict(data["part"]))
        elif kind == "response.reasoning_summary_text.delta":
            by_id[data["item_id"]]["summary"][data["summary_index"]]["text"] += data["delta"]
    output = [items[i] for i in sorted(items)] if items else (body or {}).get("output", [])
    assembled = {**(body or {}), "output": output}
    if not finished:
        raise StreamError(
            "the stream ended before 'response.completed': the reply is incomplete", assembled
        )
    return assembled
