"""OpenAI Chat Completions streaming, the write side: a whole response body cut into its events.

The stand-in streams with this. The event order it follows, and what each event carries,
is explained where the stream is read back: ``helpers/sse/accumulators.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from standin.sse_write.framing import frame, pieces

__all__ = ["encode"]


def _choice(chunk: dict[str, Any], delta: dict[str, Any], finish: str | None = None) -> dict:
    return {
        **chunk,
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }


def encode(body: dict[str, Any], include_usage: bool = True, size: int = 12) -> Iterator[str]:
    """A ``chat.completion`` body as the chunks OpenAI streams (first choice only)."""
    choice = body["choices"][0]
    message = choice["message"]
    head: dict[str, Any] = {"id": body.get("id", ""), "object": "chat.completion.chunk"}
    head.update({k: v for k, v in body.items() if k not in ("id", "object", "choices", "usage")})
    if include_usage:
        head["usage"] = None  # every chunk but the last says so when usage was requested

    text = message.get("content")
    yield frame(_choice(head, {"role": "assistant", "content": "" if text else None}))
    if text:
        for piece in pieces(text, size):
            yield frame(_choice(head, {"content": piece}))
    for index, call in enumerate(message.get("tool_calls") or []):
        function = call["function"]
        first = {"index": index, "id": call["id"], "type": "function"}
        first["function"] = {"name": function["name"], "arguments": ""}
        yield frame(_choice(head, {"tool_calls": [first]}))
        for piece in pieces(function["arguments"], size):
            fragment = {"index": index, "function": {"arguments": piece}}
            yield frame(_choice(head, {"tool_calls": [fragment]}))
    yield frame(_choice(head, {}, choice.get("finish_reason") or "stop"))
    if include_usage:
        yield frame({**head, "choices": [], "usage": body.get("usage")})
    yield frame("[DONE]")
