"""Used in lessons: none directly.

OpenAI Chat Completions streaming: ``data:`` chunks, then ``data: [DONE]``.

Each chunk is a ``chat.completion.chunk`` whose ``choices[i].delta`` holds only what is new:
``role`` once, ``content`` fragments, and ``tool_calls`` fragments. A tool call's first fragment
carries ``index``, ``id``, ``type`` and ``function.name`` with ``arguments: ""``; later fragments
carry only ``index`` and a piece of ``arguments``, so fragments are joined **by index**, and the
argument string is only valid JSON once the stream is over. ``finish_reason`` arrives on the last
content chunk. Usage comes only if the request asked for it (``stream_options.include_usage``),
in one extra chunk with ``choices: []`` just before ``[DONE]``.

Not handled: ``logprobs`` (kept as ``null``) and the deprecated ``function_call`` delta.

The other direction (a whole body cut into these events, for the local provider) is machinery:
``standin/sse_write/openai_chat.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from helpers.sse import StreamError

__all__ = ["accumulate"]


def _merge_tool_calls(calls: list[dict[str, Any]], fragments: list[dict[str, Any]]) -> None:
    for fragment in fragments:
        index = fragment["index"]
        while len(calls) <= index:
            calls.append({"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
        call = calls[index]
        if fragment.get("id"):
            call["id"] = fragment["id"]
        if fragment.get("type"):
            call["type"] = fragment["type"]
        function = fragment.get("function") or {}
        call["function"]["name"] += function.get("name") or ""
        call["function"]["arguments"] += function.get("arguments") or ""


def accumulate(events: Iterable[Any]) -> dict[str, Any]:
    """Chunks -> the ``chat.completion`` body a non-streaming call returns."""
    body: dict[str, Any] = {"id": "", "object": "chat.completion", "created": 0, "model": ""}
    choices: dict[int, dict[str, Any]] = {}
    body["usage"] = None
    done = False
    for event in events:
        if event.data.startswith("[DONE]"):
            done = True
            break
        chunk = json.loads(event.data)
        if "error" in chunk:
            message = chunk["error"].get("message", chunk["error"])
            raise StreamError(f"error event in the stream: {message}", _finish(body, choices))
        body.update({k: v for k, v in chunk.items() if k not in ("object", "choices", "usage")})
        if chunk.get("usage"):
            body["usage"] = chunk["usage"]
        for part in chunk.get("choices") or []:
            choice = choices.setdefault(
                part["index"],
                {
                    "index": part["index"],
                    "message": {"role": "assistant", "content": None, "refusal": None},
                    "logprobs": None,
                    "finish_reason": None,
                },
            )
            message, delta = choice["message"], part.get("delta") or {}
            for key in ("content", "refusal"):
                if delta.get(key) is not None:
                    message[key] = (message[key] or "") + delta[key]
            if delta.get("tool_calls"):
                _merge_tool_calls(message.setdefault("tool_calls", []), delta["tool_calls"])
            if part.get("finish_reason"):
                choice["finish_reason"] = part["finish_reason"]
    result = _finish(body, choices)
    if not done:
        raise StreamError("the stream ended before 'data: [DONE]': the reply is incomplete", result)
    return result


def _finish(body: dict[str, Any], choices: dict[int, dict[str, Any]]) -> dict[str, Any]:
    return {**body, "choices": [choices[i] for i in sorted(choices)]}
