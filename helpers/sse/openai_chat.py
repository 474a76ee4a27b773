"""OpenAI Chat Completions streaming: ``data:`` chunks, then ``data: [DONE]``.

Each chunk is a ``chat.completion.chunk`` whose ``choices[i].delta`` holds only what is new:
``role`` once, ``content`` fragments, and ``tool_calls`` fragments. A tool call's first fragment
carries ``index``, ``id``, ``type`` and ``function.name`` with ``arguments: ""``; later fragments
carry only ``index`` and a piece of ``arguments``, so fragments are joined **by index**, and the
argument string is only valid JSON once the stream is over. ``finish_reason`` arrives on the last
content chunk. Usage comes only if the request asked for it (``stream_options.include_usage``),
in one extra chunk with ``choices: []`` just before ``[DONE]``.

Not handled: ``logprobs`` (kept as ``null``) and the deprecated ``function_call`` delta.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from helpers.sse import StreamError, frame, pieces

__all__ = ["accumulate", "encode"]


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
