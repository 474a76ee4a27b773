"""OpenAI Responses (``POST /v1/responses``): render and parse, both directions.

The shape: a list of typed **items** in ``input``, not a list of role messages. Text turns are
``message`` items (user parts ``input_text``/``input_image``; each assistant text block its own
item with string content, the form the SDK types allow without the ``id`` and ``status`` of a
model's output message); a tool call is a ``function_call`` item and its result a
``function_call_output`` item, linked by ``call_id`` (not by the ``fc_...`` item ``id``);
reasoning is a ``reasoning`` item with a summary and ``encrypted_content``. The leading system
message becomes ``instructions``; a system message further down stays an input message with
role ``system`` (the parser reads both back). Tools are flat: ``{type, name, parameters}``.

What the renderer changes (each adds a ``Note``):

- ``is_error`` has no field: the output text gets the prefix ``"ERROR: "``; parsing leaves it as
  text, so a round trip holds only for results with ``is_error=False``;
- reasoning is replayed only when it came from OpenAI (or says nothing about its provider) and
  has its ``rs_...`` id; otherwise it is dropped;
- images in system and assistant messages, Gemini call signatures: dropped.

Parsing reads consecutive assistant-side items (reasoning, message, function_call) into one
assistant message, and consecutive ``function_call_output`` items into one tool message.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from helpers.formats.common import (
    Notes,
    array,
    check_placement,
    check_tool_choice,
    count,
    data_url,
    dump_arguments,
    flag_error,
    image_from_url,
    limit,
    load_arguments,
    note_unused,
    obj,
    replayable,
    string,
    system_texts,
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
from helpers.replies import Reply, StopReason, Usage

NAME = "openai-responses"
PATH = "/v1/responses"
PROVIDER = "openai"


# --- neutral -> Responses -------------------------------------------------------------------


def _image(image: Image) -> dict:
    """The SDK type requires ``detail``; unset means the API's default, ``"auto"``."""
    return {"type": "input_image", "image_url": data_url(image), "detail": image.detail or "auto"}


def _input_message(message: Message, where: str, notes: Notes) -> dict:
    parts = []
    for j, block in enumerate(message.content):
        if isinstance(block, Text):
            parts.append({"type": "input_text", "text": block.text})
        elif isinstance(block, Image) and message.role == "user":
            parts.append(_image(block))
        else:
            notes.add(
                f"{where}.content[{j}]",
                f"no {block.type} in a Responses {message.role} message; dropped",
            )
    return {"type": "message", "role": message.role, "content": parts}


def _assistant_items(message: Message, where: str, notes: Notes) -> list[dict]:
    """Blocks in order, one item each: a text block is an assistant ``message`` with string
    content (the input form the SDK types allow without an ``id`` and ``status``)."""
    items: list[dict] = []
    for j, block in enumerate(message.content):
        at = f"{where}.content[{j}]"
        if isinstance(block, Text):
            items.append({"type": "message", "role": "assistant", "content": block.text})
        elif isinstance(block, ToolCall):
            if block.signature is not None:
                notes.add(at, f"call {block.id!r}: its signature is Gemini state; dropped")
            args = dump_arguments(block.arguments)
            items.append(
                {
                    "type": "function_call",
                    "call_id": block.id,
                    "name": block.name,
                    "arguments": args,
                }
            )
        elif isinstance(block, Reasoning) and replayable(block, PROVIDER, at, notes):
            if block.id is None:
                notes.add(at, "reasoning without its 'rs_...' id cannot be replayed; dropped")
                continue
            items.append(_reasoning_item(block))
        elif isinstance(block, Image):
            notes.add(at, "no image in a Responses assistant message; dropped")
    return items


def _reasoning_item(block: Reasoning) -> dict:
    summary = [{"type": "summary_text", "text": block.text}] if block.text else []
    item: dict[str, Any] = {"type": "reasoning", "id": block.id, "summary": summary}
    if block.signature is not None:
        item["encrypted_content"] = block.signature
    return item


def _output(result: ToolResult, at: str, notes: Notes) -> str | list[dict]:
    """A plain string for one text; a list of ``input_text``/``input_image`` otherwise."""
    parts = [
        {"type": "input_text", "text": b.text} if isinstance(b, Text) else _image(b)
        for b in result.content
    ]
    text_parts = [p for p in parts if p["type"] == "input_text"]
    texts = flag_error([p["text"] for p in text_parts], result.is_error, NAME, at, notes)
    if len(texts) > len(text_parts):  # an error with no text at all: the prefix alone
        parts.insert(0, {"type": "input_text", "text": texts[0]})
    for part, text in zip(text_parts, texts, strict=False):
        part["text"] = text
    if len(parts) == 1 and parts[0]["type"] == "input_text":
        return parts[0]["text"]
    return parts


_LATE_SYSTEM = (
    "system message not first: sent in place as an input message with role 'system' "
    "(only a leading one becomes 'instructions')"
)


def render_request(request: Request, notes: Notes) -> dict:
    check_placement(request.messages)
    check_tool_choice(request.tool_choice)
    body: dict[str, Any] = {"model": request.model}
    messages = list(enumerate(request.messages))
    if messages and messages[0][1].role == "system":
        body["instructions"] = _instructions(messages.pop(0)[1], notes)
    items: list[dict] = []
    for i, message in messages:
        where = f"messages[{i}]"
        if message.name is not None:
            notes.add(f"{where}.name", "openai-responses has no participant name; dropped")
        new = _items(message, where, notes)
        if not new:
            notes.add(where, "nothing left to send in this message; left out")
        items += new
    body["input"] = items
    if request.tools:
        body["tools"] = [_tool(t) for t in request.tools]
    if request.tool_choice is not None:
        choice = request.tool_choice
        body["tool_choice"] = (
            {"type": "function", "name": choice["name"]} if isinstance(choice, dict) else choice
        )
    if request.max_tokens is not None:
        body["max_output_tokens"] = request.max_tokens
    return body


def _items(message: Message, where: str, notes: Notes) -> list[dict]:
    """The input items for one neutral message (none if nothing in it can be sent)."""
    if message.role == "assistant":
        return _assistant_items(message, where, notes)
    if message.role == "tool":
        items = []
        for j, r in enumerate(message.tool_results):
            output = _output(r, f"{where}.content[{j}]", notes)
            items.append({"type": "function_call_output", "call_id": r.call_id, "output": output})
        return items
    if message.role == "system":
        notes.add(where, _LATE_SYSTEM)
    item = _input_message(message, where, notes)
    return [item] if item["content"] else []


def _instructions(message: Message, notes: Notes) -> str:
    texts = system_texts(message, "messages[0]", "instructions", notes)
    if len(texts) > 1:
        notes.add("messages[0]", f"{len(texts)} text blocks joined into 'instructions'")
    return "\n\n".join(texts)


def _tool(tool: Tool) -> dict:
    out: dict[str, Any] = {"type": "function", "name": tool.name}
    if tool.description:
        out["description"] = tool.description
    out["parameters"] = tool.parameters
    out["strict"] = False  # the spec lists it as required; say it rather than send null
    return out


# --- Responses -> neutral -------------------------------------------------------------------


def _parts(content: Any, where: str, notes: Notes) -> list:
    if isinstance(content, str):
        return [Text(content)] if content else []
    if not isinstance(content, list):
        raise FormatError(f"{where}: expected a string or a list of content parts")
    blocks: list = []
    for k, part in enumerate(content):
        at = f"{where}[{k}]"
        kind = obj(part, at).get("type")
        if kind in ("input_text", "output_text"):
            blocks.append(Text(string(part.get("text"), f"{at}.text")))
        elif kind == "refusal":
            blocks.append(Text(string(part.get("refusal"), f"{at}.refusal")))
            notes.add(at, "a refusal part read as text")
        elif kind == "input_image" and part.get("image_url"):
            url = string(part["image_url"], f"{at}.image_url")
            detail = part.get("detail")  # "auto" is the default: read back as unset
            blocks.append(image_from_url(url, None if detail == "auto" else detail))
        else:
            notes.add(at, f"part type {kind!r} has no neutral block; dropped")
    return blocks


def _to_assistant(messages: list[Message], block: Any) -> None:
    if messages and messages[-1].role == "assistant":
        messages[-1].content.append(block)
    else:
        messages.append(Message("assistant", [block]))


_ITEM_KEYS = {
    "message": {"type", "role", "content", "status"},
    "function_call": {"type", "id", "call_id", "name", "arguments", "status"},
    "function_call_output": {"type", "call_id", "output", "status"},
    "reasoning": {"type", "id", "summary", "content", "encrypted_content", "status"},
}


def read_items(items: list, messages: list[Message], notes: Notes, where: str) -> None:
    """Append the neutral reading of ``input`` (or response ``output``) items to ``messages``."""
    for k, item in enumerate(items):
        at = f"{where}[{k}]"
        kind = obj(item, at).get("type", "message" if "role" in item else None)
        if not isinstance(kind, str) or kind not in _ITEM_KEYS:
            notes.add(at, f"item type {kind!r} has no neutral equivalent; dropped")
            continue
        note_unused(item, _ITEM_KEYS[kind], at, notes)
        if kind == "message":
            role = item.get("role")
            if role not in ("user", "assistant", "system", "developer"):
                raise FormatError(f"{at}.role: {role!r} is not a Responses message role")
            blocks = _parts(item.get("content"), f"{at}.content", notes)
            if role == "assistant":
                for block in blocks:
                    _to_assistant(messages, block)
                continue
            if role == "developer":
                notes.add(f"{at}.role", "'developer' read as system (one system role in neutral)")
            messages.append(Message("system" if role == "developer" else role, blocks))
        elif kind == "function_call":
            call_id = item.get("call_id")
            if not isinstance(call_id, str):
                raise FormatError(
                    f"{at}: a function_call needs a 'call_id' (the link to its output; the "
                    "'fc_...' id is the item's own)"
                )
            if "id" in item:
                notes.add(f"{at}.id", "the item id is not kept (call_id is the link)")
            args = load_arguments(item.get("arguments", ""), at, call_id)
            name = string(item.get("name"), f"{at}.name")
            _to_assistant(messages, ToolCall(call_id, name, args))
        elif kind == "reasoning":
            if item.get("content"):
                notes.add(f"{at}.content", "raw reasoning text not kept (summary only)")
            summary = [
                string(obj(part, f"{at}.summary[{n}]").get("text"), f"{at}.summary[{n}].text")
                for n, part in enumerate(array(item.get("summary"), f"{at}.summary"))
            ]
            signature = item.get("encrypted_content")
            block = Reasoning("\n\n".join(summary), signature, provider=PROVIDER, id=item.get("id"))
            _to_assistant(messages, block)
        else:
            call_id = string(item.get("call_id"), f"{at}.call_id")
            result = ToolResult(call_id, _parts(item.get("output", ""), f"{at}.output", notes))
            if messages and messages[-1].role == "tool":
                messages[-1].content.append(result)
            else:
                messages.append(Message("tool", [result]))


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


# --- responses ------------------------------------------------------------------------------


def parse_response(body: dict, notes: Notes) -> Reply:
    """A ``response`` body: ``output`` items, ``status`` and ``usage``."""
    output = body.get("output")
    if not isinstance(output, list):
        raise FormatError("output: a Responses body needs an 'output' list")
    messages: list[Message] = []
    read_items(output, messages, notes, "output")
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
    return Reply(
        message=Message("assistant", blocks),
        usage=parse_usage(obj(body.get("usage") or {}, "usage")),
        stop_reason=stop,
        model=str(body.get("model") or ""),
        id=str(body.get("id") or ""),
    )


_INCOMPLETE: dict[str, StopReason] = {
    "max_output_tokens": "max_tokens",
    "content_filter": "refusal",
}


def parse_usage(usage: dict) -> Usage:
    details_in = obj(usage.get("input_tokens_details") or {}, "usage.input_tokens_details")
    details_out = obj(usage.get("output_tokens_details") or {}, "usage.output_tokens_details")
    return Usage(
        input_tokens=count(usage, "input_tokens", "usage"),
        output_tokens=count(usage, "output_tokens", "usage"),
        cache_read_tokens=count(details_in, "cached_tokens", "usage.input_tokens_details"),
        cache_write_tokens=count(details_in, "cache_write_tokens", "usage.input_tokens_details"),
        reasoning_tokens=count(details_out, "reasoning_tokens", "usage.output_tokens_details"),
        raw=usage,
    )


_STATUS = {
    "end_turn": ("completed", None),
    "tool_calls": ("completed", None),
    "max_tokens": ("incomplete", "max_output_tokens"),
    "refusal": ("incomplete", "content_filter"),
    "other": ("incomplete", None),
}


def render_response(reply: Reply, notes: Notes, *, created: int = 0) -> dict:
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
        if item["type"] == "message":  # output messages hold output_text parts
            part = {"type": "output_text", "text": item["content"], "annotations": []}
            if items and items[-1]["type"] == "message":
                items[-1]["content"].append(part)
                continue
            item = {**item, "content": [part]}
        items.append(item)
    prefixes = {"message": "msg", "function_call": "fc", "reasoning": "rs"}
    items = [
        {"id": f"{prefixes[item['type']]}_{suffix}_{n}", **item, "status": "completed"}
        for n, item in enumerate(items)
    ]
    status, reason = _STATUS[reply.stop_reason]
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


def evidence(body: dict) -> list[str]:
    """What marks a body as a Responses request."""
    keys = ("input", "instructions", "max_output_tokens", "previous_response_id")
    return [f"has '{key}'" for key in keys if key in body]
