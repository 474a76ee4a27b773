"""Used in lessons: none directly (imported by formats.providers).

OpenAI Responses -> neutral: read ``input`` items or a ``response`` body's ``output`` back.
Consecutive assistant-side items (reasoning, message, function_call) become one assistant
message, consecutive ``function_call_output`` items one tool message. What the neutral model
has no place for is named in a ``Note``.
"""

from __future__ import annotations

from typing import Any

from helpers.formats.common import Notes
from helpers.formats.openai_responses_render import PROVIDER
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
from helpers.messages import (
    FormatError,
    Image,
    Message,
    Reasoning,
    Request,
    Text,
    Tool,
    ToolCall,
    ToolResult,
)
from helpers.messages.conversation import Reply, StopReason, Usage


def _part(part: Any, where: str, notes: Notes) -> Text | Image | None:
    """One content part as a neutral block, or None with a note."""
    kind = obj(part, where).get("type")
    block: Text | Image | None = None
    if kind in ("input_text", "output_text"):
        block = Text(string(part.get("text"), f"{where}.text"))
    elif kind == "refusal":
        block = Text(string(part.get("refusal"), f"{where}.refusal"))
        notes.add(where, "a refusal part read as text")
    elif kind == "input_image" and part.get("image_url"):
        url = string(part["image_url"], f"{where}.image_url")
        detail = part.get("detail")  # "auto" is the default: read back as unset
        block = image_from_url(url, None if detail == "auto" else detail)
    else:
        notes.add(where, f"part type {kind!r} has no neutral block; dropped")
    return block


def _parts(content: Any, where: str, notes: Notes) -> list:
    if isinstance(content, str):
        return [Text(content)] if content else []
    if not isinstance(content, list):
        raise FormatError(f"{where}: expected a string or a list of content parts")
    return read_list(content, where, _part, notes)


def _message(item: dict, where: str, messages: list[Message], notes: Notes, strict: bool) -> None:
    role = item.get("role")
    if role not in ("user", "assistant", "system", "developer"):
        raise FormatError(f"{where}.role: {role!r} is not a Responses message role")
    blocks = _parts(item.get("content"), f"{where}.content", notes)
    if role == "assistant":
        for block in blocks:
            if isinstance(block, Text) and isinstance(item.get("id"), str):
                block.item_id = item["id"]  # replayed with it: reasoning pairs by id
            append_block(messages, "assistant", block)
        return
    if role == "developer":
        notes.add(f"{where}.role", "'developer' read as system (one system role in neutral)")
    messages.append(Message("system" if role == "developer" else role, blocks))


def _function_call(item: dict, where: str, messages: list[Message], notes: Notes, strict: bool):
    call_id = item.get("call_id")
    if not isinstance(call_id, str):
        raise FormatError(
            f"{where}: a function_call needs a 'call_id' (the link to its output; the "
            "'fc_...' id is the item's own)"
        )
    args = read_arguments(item.get("arguments", ""), where, call_id, notes, strict)
    call = ToolCall(call_id, string(item.get("name"), f"{where}.name"), args)
    call.item_id = item.get("id") if isinstance(item.get("id"), str) else None
    append_block(messages, "assistant", call)


def _reasoning(item: dict, where: str, messages: list[Message], notes: Notes, strict: bool):
    if item.get("content"):
        notes.add(f"{where}.content", "raw reasoning text not kept (summary only)")
    summary = [
        string(obj(part, f"{where}.summary[{n}]").get("text"), f"{where}.summary[{n}].text")
        for n, part in enumerate(array(item.get("summary"), f"{where}.summary"))
    ]
    signature = item.get("encrypted_content")
    block = Reasoning("\n\n".join(summary), signature, provider=PROVIDER, id=item.get("id"))
    append_block(messages, "assistant", block)


def _function_call_output(item: dict, where: str, messages: list, notes: Notes, strict: bool):
    call_id = string(item.get("call_id"), f"{where}.call_id")
    result = ToolResult(call_id, _parts(item.get("output", ""), f"{where}.output", notes))
    append_block(messages, "tool", result)


#: item type -> (its reader, the fields it reads: any other is named in a note)
_ITEMS = {
    "message": (_message, {"type", "id", "role", "content", "status"}),
    "function_call": (_function_call, {"type", "id", "call_id", "name", "arguments", "status"}),
    "function_call_output": (_function_call_output, {"type", "call_id", "output", "status"}),
    "reasoning": (_reasoning, {"type", "id", "summary", "content", "encrypted_content", "status"}),
}


def read_items(
    items: list, messages: list[Message], notes: Notes, where: str, strict: bool = False
) -> None:
    """Append the neutral reading of ``input`` (or response ``output``) items to ``messages``.
    A history keeps arguments that are not a JSON object for the rules to report; a reply
    (``strict``) refuses them."""
    for k, item in enumerate(items):
        at = f"{where}[{k}]"
        kind = obj(item, at).get("type", "message" if "role" in item else None)
        if not isinstance(kind, str) or kind not in _ITEMS:
            notes.add(at, f"item type {kind!r} has no neutral equivalent; dropped")
        else:
            read, fields = _ITEMS[kind]
            note_unused(item, fields, at, notes)
            read(item, at, messages, notes, strict)


_BODY_KEYS = {"model", "instructions", "input", "tools", "tool_choice", "max_output_tokens"}


def parse_request(body: dict, notes: Notes) -> Request:
    raw = body.get("input")
    if isinstance(raw, str):
        raw = [{"type": "message", "role": "user", "content": raw}]
    if not isinstance(raw, list):
        raise FormatError("input: an openai-responses body needs 'input' (a string or items)")
    messages: list[Message] = []
    if body.get("instructions"):
        messages.append(Message("system", [Text(string(body["instructions"], "instructions"))]))
    read_items(raw, messages, notes, "input")
    note_unused(body, _BODY_KEYS, "", notes)
    return Request(
        model=string(body.get("model", ""), "model"),
        messages=messages,
        tools=_parse_tools(body.get("tools"), notes),
        tool_choice=_parse_tool_choice(body.get("tool_choice"), notes),
        max_tokens=limit(body, "max_output_tokens"),
    )


def _parse_tools(raw: Any, notes: Notes) -> list[Tool]:
    tools = []
    for k, t in enumerate(array(raw, "tools")):
        if obj(t, f"tools[{k}]").get("type") != "function":
            notes.add(f"tools[{k}]", "not a function tool; dropped")
            continue
        parameters = t.get("parameters") or {"type": "object", "properties": {}}
        tools.append(
            Tool(
                string(t.get("name"), f"tools[{k}].name"),
                string(t.get("description") or "", f"tools[{k}].description"),
                obj(parameters, f"tools[{k}].parameters"),
            )
        )
    return tools


def _parse_tool_choice(choice: Any, notes: Notes) -> str | dict | None:
    if isinstance(choice, dict) and choice.get("type") == "function":
        return {"name": string(choice.get("name"), "tool_choice.name")}
    if choice in (None, "auto", "none", "required"):
        return choice
    notes.add("tool_choice", f"{choice!r} has no neutral equivalent; dropped")
    return None


def parse_response(body: dict, notes: Notes) -> Reply:
    """A ``response`` body: ``output`` items, ``status`` and ``usage``."""
    output = body.get("output")
    if not isinstance(output, list):
        raise FormatError("output: a Responses body needs an 'output' list")
    messages: list[Message] = []
    read_items(output, messages, notes, "output", strict=True)
    blocks = [b for m in messages for b in m.content]
    status = body.get("status")
    reason = obj(body.get("incomplete_details") or {}, "incomplete_details").get("reason")
    refused = any(
        isinstance(part, dict) and part.get("type") == "refusal"
        for item in output
        if isinstance(item.get("content"), list)
        for part in item["content"]
    )
    stop: StopReason = "other"
    if status == "completed":
        stop = "tool_calls" if any(isinstance(b, ToolCall) for b in blocks) else "end_turn"
        stop = "refusal" if refused else stop
    elif status == "incomplete":
        stop = _INCOMPLETE.get(str(reason), "other")
    return as_reply(body, blocks, parse_usage(obj(body.get("usage") or {}, "usage")), stop)


_INCOMPLETE: dict[str, StopReason] = {
    "max_output_tokens": "max_tokens",
    "content_filter": "refusal",
}


def parse_usage(usage: dict) -> Usage:
    return usage_with_details(usage, "input_tokens", "output_tokens")


def evidence(body: dict) -> list[str]:
    """What marks a body as a Responses request."""
    keys = ("input", "instructions", "max_output_tokens", "previous_response_id")
    return [f"has '{key}'" for key in keys if key in body]
