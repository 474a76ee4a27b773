"""Used in lessons: none directly.

OpenAI Responses streaming: named ``response.*`` events, ending with ``response.completed``.

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

The other direction (a whole body cut into these events, for the local provider) is machinery:
``standin/sse_write/openai_responses.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from helpers.sse import StreamError

__all__ = ["accumulate"]


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
