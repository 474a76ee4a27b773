"""Used in lessons: none directly (imported by sse).

Streamed events -> the whole response body, one function per format: ``ACCUMULATORS``.
Each adds the events up into exactly the JSON a non-streaming call returns (each stream, event
by event: docs/evidence.md, "Formats"). Not handled: logprobs, built-in tools' events, several
candidates. The other direction (a body cut into events) is the stand-in's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any


class StreamError(ValueError):
    """The stream is incomplete or reports an error. ``partial`` holds what was assembled."""

    def __init__(self, message: str, partial: dict[str, Any] | None = None):
        super().__init__(message)
        self.partial = partial


def _incomplete(ending: str, partial: dict[str, Any] | None) -> StreamError:
    return StreamError(f"the stream ended {ending}: the reply is incomplete", partial)


def _merge_tool_calls(calls: list[dict[str, Any]], fragments: list[dict[str, Any]]) -> None:
    """Join Chat's streamed tool-call fragments into whole calls, by each fragment's ``index``."""
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


def openai_chat(events: Iterable[Any], notes: list[str] | None = None) -> dict[str, Any]:
    """Chunks -> the ``chat.completion`` body a non-streaming call returns.
    OpenAI Chat Completions streams data-only chunks, then ``data: [DONE]``."""
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
            raise StreamError(f"error event in the stream: {message}", _chat_body(body, choices))
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
    result = _chat_body(body, choices)
    if not done:
        raise _incomplete("before 'data: [DONE]'", result)
    return result


def _chat_body(body: dict[str, Any], choices: dict[int, dict[str, Any]]) -> dict[str, Any]:
    return {**body, "choices": [choices[i] for i in sorted(choices)]}


def openai_responses(events: Iterable[Any], notes: list[str] | None = None) -> dict[str, Any]:
    """Events -> the ``response`` body a non-streaming call returns.
    OpenAI Responses streams named ``response.*`` events, ending with ``response.completed``."""
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
        raise _incomplete("before 'response.completed'", assembled)
    return assembled


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


def anthropic(events: Iterable[Any], notes: list[str] | None = None) -> dict[str, Any]:
    """Events -> the ``message`` body a non-streaming call returns.
    Anthropic streams ``message_start`` ... ``message_stop``, with ``ping`` anywhere. A
    ``tool_use`` block that never gets its ``content_block_stop`` keeps what its JSON fragments
    hold, read as partial JSON the way the SDK does (``jiter``'s partial mode), with a note:
    never a silent empty ``input``."""
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
            elif delta["type"] == "citations_delta":  # a text block's sources, one at a time
                block.setdefault("citations", []).append(delta["citation"])
            elif delta["type"] == "signature_delta":
                block["signature"] = delta["signature"]  # assignment, not append
        elif kind == "content_block_stop":
            _close(blocks[data["index"]], buffers.pop(data["index"], None), data["index"])
        elif kind == "message_delta":
            message.update(data.get("delta", {}))
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
        raise _incomplete("before 'message_stop'", message)
    return message


def _append(parts: list[dict[str, Any]], part: dict[str, Any]) -> None:
    """Add a streamed part, joining text pieces of the same kind into one part."""
    previous = parts[-1] if parts else None
    joinable = (
        previous is not None
        and "text" in part
        and "text" in previous
        and bool(previous.get("thought")) == bool(part.get("thought"))
        and "thoughtSignature" not in previous
    )
    if joinable:
        previous["text"] += part["text"]
        if "thoughtSignature" in part:
            previous["thoughtSignature"] = part["thoughtSignature"]
    else:
        parts.append(dict(part))


def gemini(events: Iterable[Any], notes: list[str] | None = None) -> dict[str, Any]:
    """Records -> the ``GenerateContentResponse`` a non-streaming call returns.
    Gemini streams records, each a whole ``GenerateContentResponse`` holding only the new parts."""
    body: dict[str, Any] = {}
    parts: list[dict[str, Any]] = []
    candidate: dict[str, Any] = {"content": {"parts": parts, "role": "model"}, "index": 0}
    for event in events:
        record = json.loads(event.data)
        if "error" in record:
            error = record["error"]
            raise StreamError(f"error record in the stream: {error.get('message', error)}", body)
        body.update({k: v for k, v in record.items() if k != "candidates"})  # last usage wins
        for streamed in record.get("candidates") or []:
            for part in (streamed.get("content") or {}).get("parts") or []:
                _append(parts, part)
            candidate.update({k: v for k, v in streamed.items() if k != "content"})
    result = {"candidates": [candidate], **body}
    if "finishReason" not in candidate:
        raise _incomplete("without a finishReason", result)
    return result


#: format -> the function that adds its stream up
ACCUMULATORS: dict[str, Callable[..., dict[str, Any]]] = {
    "openai-chat": openai_chat,
    "openai-responses": openai_responses,
    "anthropic": anthropic,
    "gemini": gemini,
}
