"""Anthropic Messages streaming, the write side: a whole response body cut into its events.

The stand-in streams with this. The event order it follows, and what each event carries,
is explained where the stream is read back: ``helpers/sse/accumulators.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from standin.sse_write.framing import frame, pieces

__all__ = ["encode"]


def _skeleton(block: dict[str, Any]) -> dict[str, Any]:
    """A block as ``content_block_start`` announces it: the parts that stream are empty."""
    if block["type"] == "text":
        return {**block, "text": ""}
    if block["type"] == "tool_use":
        return {**block, "input": {}}
    if block["type"] == "thinking":
        return {**block, "thinking": "", "signature": ""}
    return block  # redacted_thinking and anything else arrive whole


def _deltas(block: dict[str, Any], size: int) -> Iterator[dict[str, Any]]:
    if block["type"] == "text":
        for piece in pieces(block["text"], size):
            yield {"type": "text_delta", "text": piece}
    elif block["type"] == "tool_use":
        yield {"type": "input_json_delta", "partial_json": ""}
        raw = json.dumps(block["input"], ensure_ascii=False, separators=(",", ":"))
        for piece in pieces(raw, size):
            yield {"type": "input_json_delta", "partial_json": piece}
    elif block["type"] == "thinking":
        for piece in pieces(block["thinking"], size):
            yield {"type": "thinking_delta", "thinking": piece}
        yield {"type": "signature_delta", "signature": block.get("signature", "")}


def encode(body: dict[str, Any], size: int = 12) -> Iterator[str]:
    """A ``message`` body as the events the Messages API streams."""
    usage = dict(body.get("usage") or {})
    start_usage = {**usage, "output_tokens": 1}  # the real API reports 1 output token here
    message = {**body, "content": [], "stop_reason": None, "stop_sequence": None}
    start = {"type": "message_start", "message": {**message, "usage": start_usage}}
    yield frame(start, "message_start")
    for index, block in enumerate(body.get("content") or []):
        opened = {"type": "content_block_start", "index": index, "content_block": _skeleton(block)}
        yield frame(opened, "content_block_start")
        if index == 0:
            yield frame({"type": "ping"}, "ping")
        for delta in _deltas(block, size):
            event = {"type": "content_block_delta", "index": index, "delta": delta}
            yield frame(event, "content_block_delta")
        yield frame({"type": "content_block_stop", "index": index}, "content_block_stop")
    stop = {"stop_reason": body.get("stop_reason"), "stop_sequence": body.get("stop_sequence")}
    final_usage = {"output_tokens": usage.get("output_tokens", 0)}
    yield frame({"type": "message_delta", "delta": stop, "usage": final_usage}, "message_delta")
    yield frame({"type": "message_stop"}, "message_stop")
