"""Used in lessons: none directly (imported by formats.providers).

Neutral -> OpenAI Chat Completions, the request body a client sends: one chat message per
neutral message, except a tool message: one ``role: "tool"`` message per result. Arguments are
written as a JSON *string*. What Chat has no field for (reasoning, ``is_error``) is dropped or
carried in text, with a ``Note``.
"""

from __future__ import annotations

from typing import Any

from helpers.formats.common import Notes, data_url, flag_error, tool_spec
from helpers.messages import Image, Message, Reasoning, Request, Text, ToolCall, ToolResult
from helpers.messages.blocks import dump_arguments

NAME = "openai-chat"
PATH = "/v1/chat/completions"
PROVIDER = "openai"
#: The keyword options ``render_request`` takes, and their values (``render`` checks them).
OPTIONS = {"system_role": ("system", "developer")}


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
        texts = [b.text for b in flag_error(result, NAME, at, notes) if isinstance(b, Text)]
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
        body["tools"] = [
            {"type": "function", "function": tool_spec(t, "parameters")} for t in request.tools
        ]
    if request.tool_choice is not None:
        body["tool_choice"] = _tool_choice(request.tool_choice)
    if request.max_tokens is not None:
        body["max_completion_tokens"] = request.max_tokens
    return body
