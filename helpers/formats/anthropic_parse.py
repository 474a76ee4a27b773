"""Used in lessons: none directly (imported by formats.providers).

Anthropic Messages -> neutral: read a request body or a response body back. A user turn that
holds ``tool_result`` blocks is split again: the results become a neutral tool message, the rest
a user message after it. What the neutral model has no place for is named in a ``Note``, never
dropped silently.
"""

from __future__ import annotations

from typing import Any

from helpers.formats.anthropic_render import PROVIDER
from helpers.formats.common import Notes
from helpers.formats.reading import (
    array,
    as_reply,
    limit,
    note_unused,
    obj,
    read_list,
    split_results,
    string,
    token_field,
)
from helpers.messages import (
    FormatError,
    Image,
    Message,
    Reasoning,
    Reply,
    Request,
    StopReason,
    Text,
    Tool,
    ToolCall,
    ToolResult,
    Usage,
)


def _text(block: dict, where: str, notes: Notes) -> Text:
    return Text(string(block.get("text"), f"{where}.text"))


def _image(block: dict, where: str, notes: Notes) -> Image:
    source = obj(block.get("source"), f"{where}.source")
    if source.get("type") == "base64":
        media_type = string(source.get("media_type"), f"{where}.source.media_type")
        return Image(media_type, data=string(source.get("data"), f"{where}.source.data"))
    if source.get("type") == "url":
        return Image(url=string(source.get("url"), f"{where}.source.url"))
    raise FormatError(f"{where}.source: expected a 'base64' or 'url' image source")


def _tool_use(block: dict, where: str, notes: Notes) -> ToolCall:
    if not isinstance(block.get("id"), str):
        raise FormatError(f"{where}: a tool_use needs an 'id'")
    name = string(block.get("name"), f"{where}.name")
    arguments = block.get("input", {})
    if not isinstance(arguments, dict):
        message = f"input of tool_use {block['id']!r} is not an object; kept as it came"
        notes.add(where, message, rule="arguments-not-object")
    return ToolCall(block["id"], name, arguments)


def _tool_result(block: dict, where: str, notes: Notes) -> ToolResult:
    if not isinstance(block.get("tool_use_id"), str):
        raise FormatError(f"{where}: a tool_result needs a 'tool_use_id'")
    content = block.get("content", [])
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    parts = []
    for k, b in enumerate(array(content, f"{where}.content")):
        part = _block(b, f"{where}.content[{k}]", notes)
        if isinstance(part, Text | Image):
            parts.append(part)
        elif part is not None:
            notes.add(f"{where}.content[{k}]", f"a tool result holds no {part.type}; dropped")
    return ToolResult(block["tool_use_id"], parts, block.get("is_error") is True)


def _thinking(block: dict, where: str, notes: Notes) -> Reasoning:
    text = string(block.get("thinking", ""), f"{where}.thinking")
    signature = string(block.get("signature"), f"{where}.signature")
    return Reasoning(text, signature, provider=PROVIDER)


def _redacted_thinking(block: dict, where: str, notes: Notes) -> Reasoning:
    data = string(block.get("data"), f"{where}.data")
    return Reasoning("", data, provider=PROVIDER, redacted=True)


#: block type -> (its reader, the fields it reads: any other is named in a note)
_BLOCKS = {
    "text": (_text, {"type", "text"}),
    "image": (_image, {"type", "source"}),
    "tool_use": (_tool_use, {"type", "id", "name", "input"}),
    "tool_result": (_tool_result, {"type", "tool_use_id", "content", "is_error"}),
    "thinking": (_thinking, {"type", "thinking", "signature"}),
    "redacted_thinking": (_redacted_thinking, {"type", "data"}),
}


def _block(block: Any, where: str, notes: Notes) -> Any:
    """One Anthropic block as a neutral block, or None with a note."""
    kind = obj(block, where).get("type")
    if not isinstance(kind, str) or kind not in _BLOCKS:
        notes.add(where, f"block type {kind!r} has no neutral equivalent; dropped")
        return None
    read, fields = _BLOCKS[kind]
    note_unused(block, fields, where, notes)
    return read(block, where, notes)


def _read_content(content: Any, where: str, notes: Notes) -> list:
    if isinstance(content, str):
        return [Text(content)]
    if not isinstance(content, list):
        raise FormatError(f"{where}.content: expected a string or a list of blocks")
    return read_list(content, f"{where}.content", _block, notes)


def _read_system(system: Any, notes: Notes) -> list[Text]:
    if isinstance(system, str):
        return [Text(system)] if system else []
    if not isinstance(system, list):
        raise FormatError("system: expected a string or a list of text blocks")
    blocks = _read_content(system, "system", notes)
    for k, block in enumerate(blocks):
        if not isinstance(block, Text):
            notes.add(f"system.content[{k}]", "a system message holds text only; dropped")
    return [b for b in blocks if isinstance(b, Text)]


_BODY_KEYS = {"model", "max_tokens", "system", "messages", "tools", "tool_choice"}


def parse_request(body: dict, notes: Notes) -> Request:
    raw = body.get("messages")
    if not isinstance(raw, list):
        raise FormatError("messages: an anthropic body needs a 'messages' list")
    messages: list[Message] = []
    system = _read_system(body.get("system", ""), notes)
    if system:
        messages.append(Message("system", list(system)))
    for i, m in enumerate(raw):
        where = f"messages[{i}]"
        if obj(m, where).get("role") not in ("user", "assistant", "system"):
            raise FormatError(f"{where}: expected a message with role 'user' or 'assistant'")
        note_unused(m, {"role", "content"}, where, notes)
        blocks = _read_content(m.get("content"), where, notes)
        messages += split_results(blocks) if m["role"] == "user" else [Message(m["role"], blocks)]
    note_unused(body, _BODY_KEYS, "", notes)
    return Request(
        model=string(body.get("model", ""), "model"),
        messages=messages,
        tools=_parse_tools(body.get("tools"), notes),
        tool_choice=_parse_tool_choice(body.get("tool_choice"), notes),
        max_tokens=limit(body, "max_tokens"),
    )


def _parse_tools(raw: Any, notes: Notes) -> list[Tool]:
    tools = []
    for k, t in enumerate(array(raw, "tools")):
        if "input_schema" not in obj(t, f"tools[{k}]"):
            notes.add(f"tools[{k}]", "not a custom tool with an input_schema; dropped")
            continue
        note_unused(t, {"name", "description", "input_schema", "type"}, f"tools[{k}]", notes)
        name = string(t.get("name"), f"tools[{k}].name")
        description = string(t.get("description", ""), f"tools[{k}].description")
        tools.append(Tool(name, description, obj(t["input_schema"], f"tools[{k}].input_schema")))
    return tools


def _parse_tool_choice(choice: Any, notes: Notes) -> str | dict | None:
    if choice is None:
        return None
    kind = choice.get("type") if isinstance(choice, dict) else None
    if kind not in ("auto", "none", "any", "tool"):
        raise FormatError(f"tool_choice: expected type auto, none, any or tool, got {choice!r}")
    note_unused(choice, {"type", "name"}, "tool_choice", notes)
    if kind == "tool":
        return {"name": string(choice.get("name"), "tool_choice.name")}
    return "required" if kind == "any" else kind


_STOP: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "stop_sequence": "end_turn",
    "tool_use": "tool_calls",
    "max_tokens": "max_tokens",
    "model_context_window_exceeded": "max_tokens",
    "refusal": "refusal",
}


def parse_response(body: dict, notes: Notes) -> Reply:
    """A ``message`` body. Anthropic's ``input_tokens`` leaves out cache reads and writes;
    the neutral ``input_tokens`` adds them back (see ``helpers.messages.Usage``)."""
    if not isinstance(body.get("content"), list):
        raise FormatError("content: an Anthropic message needs a 'content' list")
    blocks = _read_content(body["content"], "content", notes)
    usage = parse_usage(obj(body.get("usage") or {}, "usage"))
    return as_reply(body, blocks, usage, _STOP.get(str(body.get("stop_reason")), "other"))


def parse_usage(usage: dict) -> Usage:
    read = token_field(usage, "cache_read_input_tokens", "usage")
    write = token_field(usage, "cache_creation_input_tokens", "usage")
    details = obj(usage.get("output_tokens_details") or {}, "usage.output_tokens_details")
    return Usage(
        input_tokens=token_field(usage, "input_tokens", "usage") + read + write,
        output_tokens=token_field(usage, "output_tokens", "usage"),
        cache_read_tokens=read,
        cache_write_tokens=write,
        reasoning_tokens=token_field(details, "thinking_tokens", "usage.output_tokens_details"),
        raw=usage,
    )


def evidence(body: dict) -> list[str]:
    """What marks a body as an Anthropic Messages request."""
    found = [f"has top-level '{k}'" for k in ("system", "stop_sequences", "thinking") if k in body]
    for i, m in enumerate(body.get("messages") or []):
        content = m.get("content") if isinstance(m, dict) else None
        for block in content if isinstance(content, list) else []:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind in ("tool_use", "thinking", "redacted_thinking") or (
                kind in ("tool_result", "image") and ("tool_use_id" in block or "source" in block)
            ):
                found.append(f"messages[{i}] has a '{kind}' block")
    if any(isinstance(t, dict) and "input_schema" in t for t in body.get("tools") or []):
        found.append("tools have 'input_schema'")
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") in ("auto", "any", "tool", "none"):
        found.append("tool_choice is an Anthropic object")
    return found
