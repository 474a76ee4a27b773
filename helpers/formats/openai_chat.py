"""OpenAI Chat Completions (``POST /v1/chat/completions``): render and parse, both directions.

The shape: one flat ``messages`` list. The system prompt is a ``role:"system"`` message (or
``"developer"``: a per-call option, since models disagree on which they accept); tool calls sit
in the assistant message's ``tool_calls`` with ``arguments`` as a JSON *string*; every tool
result is its own ``role:"tool"`` message with a ``tool_call_id``.

What Chat cannot hold, and what the renderer does (each adds a ``Note``):

- reasoning: there is no field for it; dropped;
- ``is_error``: there is no flag; the text gets the prefix ``"ERROR: "``. Parsing cannot tell
  that prefix from a result that really starts with it, so it stays text and ``is_error`` comes
  back ``False``: a round trip holds only for results with ``is_error=False``;
- images outside user messages (tool results are text only); Gemini call signatures;
- text after a tool call moves before the calls (content and ``tool_calls`` are two fields).

Parsing reads consecutive ``tool`` messages into one neutral tool message (the neutral model
groups the results of one assistant turn).
"""

from __future__ import annotations

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
    string,
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

NAME = "openai-chat"
PATH = "/v1/chat/completions"


# --- neutral -> Chat ------------------------------------------------------------------------


def _content(message: Message, where: str, notes: Notes) -> str | list[dict] | None:
    """Text (and, for users, images) as Chat content: a string when it is one text block."""
    parts: list[dict] = []
    for j, block in enumerate(message.content):
        if isinstance(block, Text):
            parts.append({"type": "text", "text": block.text})
        elif isinstance(block, Image) and message.role == "user":
            image_url = {"url": data_url(block)}
            if block.detail is not None:
                image_url["detail"] = block.detail
            parts.append({"type": "image_url", "image_url": image_url})
        elif isinstance(block, Image):
            notes.add(
                f"{where}.content[{j}]", f"no image in a Chat {message.role} message; dropped"
            )
        elif isinstance(block, Reasoning):
            notes.add(f"{where}.content[{j}]", "openai-chat has no field for reasoning; dropped")
    if not parts:
        return None
    if len(parts) == 1 and parts[0]["type"] == "text":
        return parts[0]["text"]
    return parts


def _tool_call(call: ToolCall, where: str, notes: Notes) -> dict:
    if call.signature is not None:
        notes.add(where, f"call {call.id!r}: its signature is Gemini state; dropped")
    function = {"name": call.name, "arguments": dump_arguments(call.arguments)}
    return {"id": call.id, "type": "function", "function": function}


def _assistant(message: Message, where: str, notes: Notes) -> dict:
    out: dict[str, Any] = {"role": "assistant", "content": _content(message, where, notes)}
    kinds = [type(b) for b in message.content]
    if ToolCall in kinds and Text in kinds[kinds.index(ToolCall) :]:
        notes.add(where, "text after a tool call moved before the calls (Chat has two fields)")
    calls = [
        _tool_call(b, f"{where}.content[{j}]", notes)
        for j, b in enumerate(message.content)
        if isinstance(b, ToolCall)
    ]
    if calls:
        out["tool_calls"] = calls
    return out


def _results(message: Message, where: str, notes: Notes) -> list[dict]:
    """One ``role:"tool"`` message per result: a neutral tool message may hold several."""
    out = []
    for j, result in enumerate(message.content):
        assert isinstance(result, ToolResult)  # check_placement made sure
        at = f"{where}.content[{j}]"
        if any(isinstance(b, Image) for b in result.content):
            notes.add(at, "openai-chat tool results hold text only; image dropped")
        texts = [b.text for b in result.content if isinstance(b, Text)]
        texts = flag_error(texts, result.is_error, NAME, at, notes)
        if len(texts) == 1:
            content: str | list[dict] = texts[0]
        else:  # several text blocks stay several parts; none is an empty string
            content = [{"type": "text", "text": t} for t in texts] if texts else ""
        out.append({"role": "tool", "tool_call_id": result.call_id, "content": content})
    return out


def _tool_choice(choice: str | dict) -> str | dict:
    if isinstance(choice, dict):
        return {"type": "function", "function": {"name": choice["name"]}}
    return choice


def render_request(request: Request, notes: Notes, *, system_role: str = "system") -> dict:
    """The Chat body. ``system_role="developer"`` for models that want that role instead."""
    if system_role not in ("system", "developer"):
        raise FormatError(f"system_role: expected 'system' or 'developer', got {system_role!r}")
    check_placement(request.messages)
    check_tool_choice(request.tool_choice)
    messages: list[dict] = []
    for i, message in enumerate(request.messages):
        where = f"messages[{i}]"
        if message.role == "tool":
            if message.name is not None:
                notes.add(f"{where}.name", "a Chat tool message has no name; dropped")
            messages += _results(message, where, notes)
            continue
        if message.role == "assistant":
            out = _assistant(message, where, notes)
        else:
            role = system_role if message.role == "system" else message.role
            out = {"role": role, "content": _content(message, where, notes)}
            if message.role == "system" and i > 0:
                notes.add(where, "system message not first: kept in place (Chat allows that)")
        if message.name is not None:
            out["name"] = message.name
        if out.get("content") is None and not out.get("tool_calls"):
            notes.add(where, "nothing left to send in this message; left out")
            continue
        messages.append(out)
    body: dict[str, Any] = {"model": request.model, "messages": messages}
    if request.tools:
        body["tools"] = [{"type": "function", "function": _function(t)} for t in request.tools]
    if request.tool_choice is not None:
        body["tool_choice"] = _tool_choice(request.tool_choice)
    if request.max_tokens is not None:
        body["max_completion_tokens"] = request.max_tokens
    return body


def _function(tool: Tool) -> dict:
    out: dict[str, Any] = {"name": tool.name}
    if tool.description:
        out["description"] = tool.description
    out["parameters"] = tool.parameters
    return out


# --- Chat -> neutral ------------------------------------------------------------------------


def _blocks(content: Any, where: str, notes: Notes) -> list:
    """Chat content (a string, ``None`` or a list of parts) as neutral blocks."""
    if content is None or content == "":
        return []
    if isinstance(content, str):
        return [Text(content)]
    if not isinstance(content, list):
        raise FormatError(f"{where}.content: expected a string or a list of parts")
    blocks: list = []
    for k, part in enumerate(content):
        at = f"{where}.content[{k}]"
        kind = obj(part, at).get("type")
        if kind == "text":
            blocks.append(Text(string(part.get("text"), f"{at}.text")))
        elif kind == "refusal":
            blocks.append(Text(string(part.get("refusal"), f"{at}.refusal")))
            notes.add(at, "a refusal part read as text")
        elif kind == "image_url":
            image_url = obj(part.get("image_url"), f"{at}.image_url")
            url = string(image_url.get("url"), f"{at}.image_url.url")
            blocks.append(image_from_url(url, image_url.get("detail")))
        else:
            notes.add(at, f"part type {kind!r} has no neutral block; dropped")
    return blocks


def _calls(raw: Any, where: str) -> list[ToolCall]:
    calls = []
    for k, call in enumerate(array(raw, f"{where}.tool_calls")):
        at = f"{where}.tool_calls[{k}]"
        if not isinstance(call, dict) or not isinstance(call.get("function"), dict):
            raise FormatError(f"{at}: expected {{id, type: 'function', function: {{...}}}}")
        function = call["function"]
        call_id = call.get("id")
        if not isinstance(call_id, str) or not isinstance(function.get("name"), str):
            raise FormatError(f"{at}: a tool call needs an 'id' and a 'function.name'")
        arguments = load_arguments(function.get("arguments", ""), at, call_id)
        calls.append(ToolCall(call_id, function["name"], arguments))
    return calls


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
        role = m.get("role")
        note_unused(m, _MESSAGE_KEYS, where, notes)
        if role == "tool":
            call_id = m.get("tool_call_id")
            if not isinstance(call_id, str):
                raise FormatError(f"{where}: a tool message needs a 'tool_call_id'")
            if "name" in m:
                notes.add(f"{where}.name", "a neutral tool result has no name; dropped")
            result = ToolResult(call_id, _blocks(m.get("content"), where, notes))
            if messages and messages[-1].role == "tool":  # the results of one turn: one message
                messages[-1].content.append(result)
            else:
                messages.append(Message("tool", [result]))
            continue
        if role not in ("system", "developer", "user", "assistant"):
            raise FormatError(f"{where}.role: {role!r} is not a Chat role this parser reads")
        if role == "developer":
            notes.add(f"{where}.role", "'developer' read as system (one system role in neutral)")
        blocks = _blocks(m.get("content"), where, notes)
        if role == "assistant":
            blocks += _calls(m.get("tool_calls"), where)
        name = m.get("name")
        neutral_role = "system" if role == "developer" else role
        name = None if name is None else string(name, f"{where}.name")
        messages.append(Message(neutral_role, blocks, name))
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


# --- responses ------------------------------------------------------------------------------

_STOP: dict[str, StopReason] = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "refusal",
}
_FINISH = {
    "end_turn": "stop",
    "tool_calls": "tool_calls",
    "max_tokens": "length",
    "refusal": "content_filter",
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
    blocks += _calls(raw.get("tool_calls"), where)
    stop = _STOP.get(str(choice.get("finish_reason")), "other")
    if refusal:
        stop = "refusal"
    elif stop == "end_turn" and any(isinstance(b, ToolCall) for b in blocks):
        stop = "tool_calls"  # forced tool_choice answers with finish_reason "stop"
    return Reply(
        message=Message("assistant", blocks),
        usage=parse_usage(obj(body.get("usage") or {}, "usage")),
        stop_reason=stop,
        model=str(body.get("model") or ""),
        id=str(body.get("id") or ""),
    )


def parse_usage(usage: dict) -> Usage:
    prompt = obj(usage.get("prompt_tokens_details") or {}, "usage.prompt_tokens_details")
    completion = obj(
        usage.get("completion_tokens_details") or {}, "usage.completion_tokens_details"
    )
    return Usage(
        input_tokens=count(usage, "prompt_tokens", "usage"),
        output_tokens=count(usage, "completion_tokens", "usage"),
        cache_read_tokens=count(prompt, "cached_tokens", "usage.prompt_tokens_details"),
        cache_write_tokens=count(prompt, "cache_write_tokens", "usage.prompt_tokens_details"),
        reasoning_tokens=count(completion, "reasoning_tokens", "usage.completion_tokens_details"),
        raw=usage,
    )


def render_response(reply: Reply, notes: Notes, *, created: int = 0) -> dict:
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
    finish = _FINISH.get(reply.stop_reason)
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


def evidence(body: dict) -> list[str]:
    """What marks a body as Chat Completions and nothing else."""
    found = []
    for i, m in enumerate(body.get("messages") or []):
        if isinstance(m, dict):
            for key in ("tool_calls", "tool_call_id"):
                if key in m:
                    found.append(f"messages[{i}] has '{key}'")
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
