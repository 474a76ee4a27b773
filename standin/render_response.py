"""The response bodies the stand-in sends: a neutral ``Reply`` in each wire format.

``render_response(reply, "anthropic")`` is the ``message`` body an Anthropic server would send
for ``reply`` (ids from ``reply.id``, ``created`` the Unix timestamp where the format has one).
This is the server's side of the wire, so it lives in the stand-in; the learner's package
renders requests and parses responses (``helpers.formats``). Lossy conversions add a ``Note``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from helpers.formats.anthropic_render import _blocks
from helpers.formats.common import Note, Notes
from helpers.formats.gemini_render import _model_parts
from helpers.formats.openai_chat_render import _tool_call
from helpers.formats.openai_responses_render import _assistant_items
from helpers.messages import Image, Message, Reasoning, Reply, Text

__all__ = ["render_response"]


def render_response(
    reply: Reply, format: str, *, created: int = 0, notes: list[Note] | None = None
) -> dict:
    """The response body a provider speaking ``format`` would send for ``reply``."""
    from helpers.formats import FormatError

    writers = {
        "openai-chat": openai_chat,
        "openai-responses": openai_responses,
        "anthropic": anthropic,
        "gemini": gemini,
    }
    if format not in writers:
        raise FormatError(f"unknown format {format!r} (known: {', '.join(writers)})")
    found = Notes()
    body = writers[format](reply, found, created=created)
    if notes is not None:
        notes.extend(found)
    return body


_ANTHROPIC_STOP_BACK = {
    "end_turn": "end_turn",
    "tool_calls": "tool_use",
    "max_tokens": "max_tokens",
    "refusal": "refusal",
    "other": "pause_turn",
}


def anthropic(reply: Reply, notes: Notes, *, created: int = 0) -> dict:
    """The ``message`` body a server would send (Anthropic bodies carry no timestamp)."""
    u = reply.usage
    usage: dict[str, Any] = {
        "input_tokens": u.uncached_input_tokens,
        "cache_creation_input_tokens": u.cache_write_tokens,
        "cache_read_input_tokens": u.cache_read_tokens,
        "output_tokens": u.output_tokens,
    }
    if u.reasoning_tokens:
        usage["output_tokens_details"] = {"thinking_tokens": u.reasoning_tokens}
    if reply.stop_reason == "other":
        notes.add("stop_reason", "'other' sent as 'pause_turn'")
    return {
        "id": reply.id or "msg_local",
        "type": "message",
        "role": "assistant",
        "model": reply.model,
        "content": _blocks(reply.message, "message", notes),
        "stop_reason": _ANTHROPIC_STOP_BACK[reply.stop_reason],
        "stop_sequence": None,
        "usage": usage,
    }


_CHAT_FINISH = {
    "end_turn": "stop",
    "tool_calls": "tool_calls",
    "max_tokens": "length",
    "refusal": "content_filter",
}


def openai_chat(reply: Reply, notes: Notes, *, created: int = 0) -> dict:
    """The ``chat.completion`` body a server would send for ``reply``."""
    where = "message"
    for j, block in enumerate(reply.message.content):
        if isinstance(block, Reasoning | Image):
            notes.add(f"{where}.content[{j}]", f"no {block.type} in a chat completion; dropped")
    texts = [b.text for b in reply.message.content if isinstance(b, Text)]
    if len(texts) > 1:
        notes.add(where, f"{len(texts)} text blocks joined into one content string")
    message: dict[str, Any] = {
        "role": "assistant",
        "content": "".join(texts) if texts else None,
        "refusal": None,
        "annotations": [],
    }
    calls = [_tool_call(c, where, notes) for c in reply.message.tool_calls]
    if calls:
        message["tool_calls"] = calls
    finish = _CHAT_FINISH.get(reply.stop_reason)
    if finish is None:
        finish = "stop"
        notes.add("stop_reason", "'other' has no finish_reason in Chat; sent 'stop'")
    u = reply.usage
    prompt_details = {"cached_tokens": u.cache_read_tokens, "audio_tokens": 0}
    if u.cache_write_tokens:
        prompt_details["cache_write_tokens"] = u.cache_write_tokens
    return {
        "id": reply.id or "chatcmpl-local",
        "object": "chat.completion",
        "created": created,
        "model": reply.model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": {
            "prompt_tokens": u.input_tokens,
            "completion_tokens": u.output_tokens,
            "total_tokens": u.input_tokens + u.output_tokens,
            "prompt_tokens_details": prompt_details,
            "completion_tokens_details": {
                "reasoning_tokens": u.reasoning_tokens,
                "audio_tokens": 0,
                "accepted_prediction_tokens": 0,
                "rejected_prediction_tokens": 0,
            },
        },
        "service_tier": "default",
        "system_fingerprint": None,
    }


_RESPONSES_STATUS = {
    "end_turn": ("completed", None),
    "tool_calls": ("completed", None),
    "max_tokens": ("incomplete", "max_output_tokens"),
    "refusal": ("incomplete", "content_filter"),
    "other": ("incomplete", None),
}


def openai_responses(reply: Reply, notes: Notes, *, created: int = 0) -> dict:
    """The ``response`` body a server would send; item ids are derived from ``reply.id``."""
    rid = reply.id or "resp_local"
    suffix = rid.removeprefix("resp_")
    # A server gives every output item an id; reasoning keeps its own when it has one.
    blocks = [
        replace(b, id=f"rs_{suffix}_{n}") if isinstance(b, Reasoning) and b.id is None else b
        for n, b in enumerate(reply.message.content)
    ]
    items: list[dict] = []
    for item in _assistant_items(Message("assistant", blocks), "message", notes):
        if item["type"] == "message" and isinstance(item["content"], str):
            part = {"type": "output_text", "text": item["content"], "annotations": []}
            if items and items[-1]["type"] == "message":  # output messages hold output_text parts
                items[-1]["content"].append(part)
                continue
            item = {**item, "content": [part]}
        items.append(item)
    prefixes = {"message": "msg", "function_call": "fc", "reasoning": "rs"}
    items = [
        {"id": f"{prefixes[item['type']]}_{suffix}_{n}", **item, "status": "completed"}
        for n, item in enumerate(items)
    ]
    status, reason = _RESPONSES_STATUS[reply.stop_reason]
    if reply.stop_reason == "other":
        notes.add("stop_reason", "'other' sent as status 'incomplete' with no reason")
    u = reply.usage
    details_in = {"cached_tokens": u.cache_read_tokens, "cache_write_tokens": u.cache_write_tokens}
    return {
        "id": rid,
        "object": "response",
        "created_at": created,
        "status": status,
        "error": None,
        "incomplete_details": {"reason": reason} if reason else None,
        "model": reply.model,
        "output": items,
        "usage": {
            "input_tokens": u.input_tokens,
            "input_tokens_details": details_in,
            "output_tokens": u.output_tokens,
            "output_tokens_details": {"reasoning_tokens": u.reasoning_tokens},
            "total_tokens": u.input_tokens + u.output_tokens,
        },
    }


_GEMINI_FINISH = {
    "end_turn": "STOP",
    "tool_calls": "STOP",
    "max_tokens": "MAX_TOKENS",
    "refusal": "SAFETY",
    "other": "OTHER",
}


def gemini(reply: Reply, notes: Notes, *, created: int = 0) -> dict:
    """The ``GenerateContentResponse`` a server would send (no timestamp in Gemini bodies)."""
    u = reply.usage
    usage = {
        "promptTokenCount": u.input_tokens,
        "candidatesTokenCount": u.output_tokens - u.reasoning_tokens,
    }
    if u.cache_read_tokens:
        usage["cachedContentTokenCount"] = u.cache_read_tokens
    if u.reasoning_tokens:
        usage["thoughtsTokenCount"] = u.reasoning_tokens
    usage["totalTokenCount"] = u.input_tokens + u.output_tokens
    if u.cache_write_tokens:
        notes.add("usage", "gemini reports no cache writes; cache_write_tokens left out")
    content = {"role": "model", "parts": _model_parts(reply.message, "message", notes)}
    return {
        "candidates": [
            {"content": content, "finishReason": _GEMINI_FINISH[reply.stop_reason], "index": 0}
        ],
        "usageMetadata": usage,
        "modelVersion": reply.model,
        "responseId": reply.id or "gemini-local",
    }
