"""Used in lessons: none directly (imported by formats.providers).

OpenAI Chat Completions -> neutral: read a request body or a ``chat.completion`` back.
Consecutive ``tool`` messages become one neutral tool message; ``arguments`` strings are parsed
into objects. What the neutral model has no place for is named in a ``Note``. Functions-era
messages (``function_call``, ``role: "function"``) are not read here: the stand-in translates them.
"""

from __future__ import annotations

from typing import Any

from helpers.formats.common import Notes
from helpers.formats.reading import (
    append_block,
    array,
    as_reply,
    image_from_url,
    limit,
    note_unused,
    obj,
    read_arguments,
    read_list,
    string,
    usage_with_details,
)
from helpers.messages import FormatError, Image, Message, Request, Text, Tool, ToolCall, ToolResult
from helpers.messages.conversation import Reply, StopReason, Usage


def _part(part: Any, where: str, notes: Notes) -> Text | Image | None:
    """One content part as a neutral block, or None with a note."""
    kind = obj(part, where).get("type")
    if not isinstance(kind, str):
        raise FormatError(f"{where}.type: expected a string, got {type(kind).__name__}")
    if kind == "text":
        return Text(string(part.get("text"), f"{where}.text"))
    if kind == "refusal":
        notes.add(where, "a refusal part read as text")
        return Text(string(part.get("refusal"), f"{where}.refusal"))
    if kind == "image_url":
        image_url = obj(part.get("image_url"), f"{where}.image_url")
        url = string(image_url.get("url"), f"{where}.image_url.url")
        return image_from_url(url, image_url.get("detail"))
    notes.add(where, f"part type {kind!r} has no neutral block; dropped")
    return None


def _blocks(content: Any, where: str, notes: Notes) -> list:
    """Chat content (a string, ``None`` or a list of parts) as neutral blocks."""
    if content is None or content == "":
        return []
    if isinstance(content, str):
        return [Text(content)]
    if not isinstance(content, list):
        raise FormatError(f"{where}.content: expected a string or a list of parts")
    return read_list(content, f"{where}.content", _part, notes)


def _call(call: Any, where: str, notes: Notes, strict: bool) -> ToolCall:
    """One tool call; a history keeps bad arguments for the rules, a reply (``strict``) refuses."""
    if not isinstance(call, dict) or not isinstance(call.get("function"), dict):
        raise FormatError(f"{where}: expected {{id, type: 'function', function: {{...}}}}")
    function = call["function"]
    call_id = call.get("id")
    if not isinstance(call_id, str) or not isinstance(function.get("name"), str):
        raise FormatError(f"{where}: a tool call needs an 'id' and a 'function.name'")
    arguments = read_arguments(function.get("arguments", ""), where, call_id, notes, strict)
    return ToolCall(call_id, function["name"], arguments)


def _calls(raw: Any, where: str, notes: Notes, strict: bool = False) -> list[ToolCall]:
    calls = array(raw, f"{where}.tool_calls")
    return [_call(c, f"{where}.tool_calls[{k}]", notes, strict) for k, c in enumerate(calls)]


def _tool_result(m: dict, where: str, notes: Notes) -> ToolResult:
    call_id = m.get("tool_call_id")
    if not isinstance(call_id, str):
        raise FormatError(f"{where}: a tool message needs a 'tool_call_id'")
    if "name" in m:
        notes.add(f"{where}.name", "a neutral tool result has no name; dropped")
    return ToolResult(call_id, _blocks(m.get("content"), where, notes))


def _message(m: dict, i: int, notes: Notes) -> Message:
    where, role = f"messages[{i}]", m.get("role")
    if role not in ("system", "developer", "user", "assistant"):
        raise FormatError(f"{where}.role: {role!r} is not a Chat role this parser reads")
    if role == "developer":
        notes.add(f"{where}.role", "'developer' read as system (one system role in neutral)")
    blocks = _blocks(m.get("content"), where, notes)
    if role == "assistant":
        blocks += _calls(m.get("tool_calls"), where, notes)
    name = None if m.get("name") is None else string(m["name"], f"{where}.name")
    return Message("system" if role == "developer" else role, blocks, name)


_MESSAGE_KEYS = {"role", "content", "name", "tool_calls", "tool_call_id"}
_BODY_KEYS = {"model", "messages", "tools", "tool_choice", "max_completion_tokens", "max_tokens"}


def parse_request(body: dict, notes: Notes) -> Request:
    raw = body.get("messages")
    if not isinstance(raw, list):
        raise FormatError("messages: an openai-chat body needs a 'messages' list")
    messages: list[Message] = []
    for i, m in enumerate(raw):
        where = f"messages[{i}]"
        if not isinstance(m, dict):
            raise FormatError(f"{where}: a message must be an object")
        note_unused(m, _MESSAGE_KEYS, where, notes)
        if m.get("role") == "tool":  # the results of one turn share one neutral tool message
            append_block(messages, "tool", _tool_result(m, where, notes))
        else:
            messages.append(_message(m, i, notes))
    note_unused(body, _BODY_KEYS, "", notes)
    key = "max_completion_tokens" if "max_completion_tokens" in body else "max_tokens"
    return Request(
        model=string(body.get("model", ""), "model"),
        messages=messages,
        tools=_parse_tools(body.get("tools"), notes),
        tool_choice=_parse_tool_choice(body.get("tool_choice"), notes),
        max_tokens=limit(body, key),
    )


def _parse_tools(raw: Any, notes: Notes) -> list[Tool]:
    tools = []
    for k, tool in enumerate(array(raw, "tools")):
        function = obj(tool, f"tools[{k}]").get("function")
        if tool.get("type") != "function" or not isinstance(function, dict):
            notes.add(f"tools[{k}]", "not a function tool; dropped")
            continue
        name = string(function.get("name"), f"tools[{k}].function.name")
        parameters = function.get("parameters") or {"type": "object", "properties": {}}
        description = string(function.get("description", ""), f"tools[{k}].function.description")
        tools.append(Tool(name, description, obj(parameters, f"tools[{k}].function.parameters")))
    return tools


def _parse_tool_choice(choice: Any, notes: Notes) -> str | dict | None:
    if choice is None or choice in ("auto", "none", "required"):
        return choice
    if isinstance(choice, dict) and choice.get("type") == "function":
        function = obj(choice.get("function"), "tool_choice.function")
        return {"name": string(function.get("name"), "tool_choice.function.name")}
    notes.add("tool_choice", f"{choice!r} has no neutral equivalent; dropped")
    return None


_STOP: dict[str, StopReason] = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "refusal",
}


def parse_response(body: dict, notes: Notes) -> Reply:
    """A ``chat.completion`` body: ``choices[0].message``, ``finish_reason`` and ``usage``."""
    choices = array(body.get("choices"), "choices")
    if not choices:
        raise FormatError("choices: a chat completion needs at least one choice")
    if len(choices) > 1:
        notes.add("choices", f"{len(choices)} choices; only choices[0] read")
    choice = obj(choices[0], "choices[0]")
    where = "choices[0].message"
    raw = obj(choice.get("message") or {}, where)
    blocks = _blocks(raw.get("content"), where, notes)
    refusal = raw.get("refusal")
    if refusal:
        blocks.append(Text(string(refusal, f"{where}.refusal")))
    blocks += _calls(raw.get("tool_calls"), where, notes, strict=True)
    stop = _STOP.get(str(choice.get("finish_reason")), "other")
    if refusal:
        stop = "refusal"
    elif stop == "end_turn" and any(isinstance(b, ToolCall) for b in blocks):
        stop = "tool_calls"  # forced tool_choice answers with finish_reason "stop"
    return as_reply(body, blocks, parse_usage(obj(body.get("usage") or {}, "usage")), stop)


def parse_usage(usage: dict) -> Usage:
    return usage_with_details(usage, "prompt_tokens", "completion_tokens")


def evidence(body: dict) -> list[str]:
    """What marks a body as Chat Completions and nothing else."""
    found = []
    for i, m in enumerate(body.get("messages") or []):
        if isinstance(m, dict):
            found += [f"messages[{i}] has '{k}'" for k in ("tool_calls", "tool_call_id") if k in m]
            if m.get("role") == "developer":
                found.append(f"messages[{i}] has role 'developer'")
            for part in m.get("content") if isinstance(m.get("content"), list) else []:
                if isinstance(part, dict) and part.get("type") == "image_url":
                    found.append(f"messages[{i}] has an 'image_url' part")
    if any(isinstance(t, dict) and "function" in t for t in body.get("tools") or []):
        found.append("tools are wrapped in 'function'")
    if "max_completion_tokens" in body:
        found.append("has 'max_completion_tokens'")
    return found
