"""Used in lessons: 07.

Anthropic Messages streaming: named events, ``message_start`` ... ``message_stop``.

The order is always: ``message_start`` (the message with ``content: []`` and the input usage),
then per content block ``content_block_start`` (an empty skeleton at ``index``), some
``content_block_delta`` events and ``content_block_stop``; then ``message_delta`` (the stop reason
and **cumulative** output usage: take the last value, never sum) and ``message_stop``. ``ping``
events may appear anywhere and carry nothing.

Deltas by type: ``text_delta`` (append text), ``input_json_delta`` (append to a raw JSON buffer,
parsed once the block stops; the first piece is often ``""``), ``thinking_delta`` (append), and
``signature_delta``, which is an **assignment**: the whole signature, sent once, just before the
block stops. ``redacted_thinking`` has no delta type, so it only ever arrives whole in
``content_block_start``. The SDK requires the ``event:`` lines; data-only streams break it.

``citations_delta`` appends one citation to its text block's ``citations`` (the whole body
keeps them; the neutral model leaves them out).

The other direction (a whole body cut into these events, for the local provider) is machinery:
``standin/sse_write/anthropic.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from helpers.sse import StreamError

__all__ = ["accumulate"]


def _close(block: dict[str, Any], buffer: str | None, index: int) -> None:
    """Parse a tool call's joined JSON once its block has stopped."""
    if block.get("type") == "tool_use" and buffer is not None:
        try:
            block["input"] = json.loads(buffer) if buffer else {}
        except json.JSONDecodeError as err:
            raise StreamError(
                f"content block {index}: tool input is not valid JSON: {err}"
            ) from None


def _recover(block: dict[str, Any], buffer: str, index: int, notes: list[str] | None) -> None:
    """Read an unclosed tool call's JSON as far as it goes (the SDK's partial parse)."""
    import jiter

    if block.get("type") != "tool_use":
        return
    try:
        value = jiter.from_json(buffer.encode(), partial_mode="trailing-strings") if buffer else {}
    except ValueError:
        value = {}
    block["input"] = value if isinstance(value, dict) else {}
    if notes is not None:
        notes.append(
            f"content block {index}: tool_use {block.get('name')!r} never got its "
            f"content_block_stop; its input was read from the partial JSON: {block['input']}"
        )


def accumulate(events: Iterable[Any], notes: list[str] | None = None) -> dict[str, Any]:
    """Events -> the ``message`` body a non-streaming call returns.

    A ``tool_use`` block that never gets its ``content_block_stop`` keeps what its JSON
    fragments hold, read as partial JSON the way the SDK does (``jiter``'s partial mode), with
    a note: never a silent empty ``input``.
    """
    message: dict[str, Any] | None = None
    buffers: dict[int, str] = {}  # content-block index -> raw JSON of a tool call's input
    stopped = False
    for event in events:
        if event.event == "ping":
            continue
        data = json.loads(event.data)
        kind = data.get("type", event.event)
        if kind == "error":
            error = data.get("error", {})
            raise StreamError(f"error event in the stream: {error.get('message', error)}", message)
        if kind == "message_start":
            message = json.loads(json.dumps(data["message"]))
            continue
        if message is None:
            raise StreamError(f"{kind!r} arrived before 'message_start'")
        blocks = message["content"]
        if kind == "content_block_start":
            while len(blocks) <= data["index"]:
                blocks.append({})
            blocks[data["index"]] = dict(data["content_block"])
        elif kind == "content_block_delta":
            block, delta = blocks[data["index"]], data["delta"]
            if delta["type"] == "text_delta":
                block["text"] += delta["text"]
            elif delta["type"] == "input_json_delta":
                buffers[data["index"]] = buffers.get(data["index"], "") + delta["partial_json"]
            elif delta["type"] == "thinking_delta":
                block["thinking"] += delta["thinking"]
            elif delta["type"] == "signature_delta":
                block["signature"] = delta["signature"]  # assignment, not append
            elif delta["type"] == "citations_delta":  # a text block's sources, one at a time
                block.setdefault("citations", []).append(delta["citation"])
        elif kind == "content_block_stop":
            _close(blocks[data["index"]], buffers.pop(data["index"], None), data["index"])
        elif kind == "message_delta":
            message.update({k: v for k, v in data.get("delta", {}).items()})
            message["usage"].update(
                {k: v for k, v in data.get("usage", {}).items() if v is not None}
            )
        elif kind == "message_stop":
            stopped = True
    if message is None:
        raise StreamError("the stream has no 'message_start' event")
    for index, buffer in buffers.items():  # blocks that never stopped
        _recover(message["content"][index], buffer, index, notes)
    if not stopped:
        raise StreamError(
            "the stream ended before 'message_stop': the reply is incomplete", message
        )
    return message
