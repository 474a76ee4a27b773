"""Used in lessons: none directly (imported by formats.anthropic_parse, formats.providers).

Neutral -> Anthropic Messages, the request body a client sends. A tool message and the user
message after it become one user turn (results first, then the user's words); system messages
go to the top-level ``system``; reasoning becomes a ``thinking`` block with its signature (or
``redacted_thinking``). What cannot go on the wire is left out with a ``Note``.
"""

from __future__ import annotations

from typing import Any

from helpers.formats.common import Notes, note_image_detail, replayable, system_texts, tool_spec
from helpers.messages import Image, Message, Reasoning, Request, Text, ToolCall, ToolResult

NAME = "anthropic"
PATH = "/v1/messages"
PROVIDER = "anthropic"
OPTIONS: dict[str, tuple[str, ...]] = {}
#: What Anthropic gets when the neutral request leaves ``max_tokens`` unset (it is required).
DEFAULT_MAX_TOKENS = 1024


def _image(image: Image) -> dict:
    if image.data is not None:
        source = {"type": "base64", "media_type": image.media_type, "data": image.data}
    else:
        source = {"type": "url", "url": image.url}
    return {"type": "image", "source": source}


def _tool_result(result: ToolResult) -> dict:
    out: dict[str, Any] = {"type": "tool_result", "tool_use_id": result.call_id}
    if len(result.content) == 1 and isinstance(result.content[0], Text):
        out["content"] = result.content[0].text
    elif result.content:
        out["content"] = [
            {"type": "text", "text": b.text} if isinstance(b, Text) else _image(b)
            for b in result.content
        ]
    if result.is_error:
        out["is_error"] = True
    return out


def _reasoning(block: Reasoning, where: str, notes: Notes) -> dict | None:
    if not replayable(block, PROVIDER, where, notes):
        return None
    if block.signature is None:
        notes.add(where, "reasoning without a signature: Anthropic rejects it; dropped")
        return None
    if block.redacted:
        return {"type": "redacted_thinking", "data": block.signature}
    return {"type": "thinking", "thinking": block.text, "signature": block.signature}


def _blocks(message: Message, where: str, notes: Notes) -> list[dict]:
    out: list[dict | None] = []
    for j, block in enumerate(message.content):
        at = f"{where}.content[{j}]"
        if isinstance(block, Text):
            out.append({"type": "text", "text": block.text})
        elif isinstance(block, ToolCall):
            if block.signature is not None:
                notes.add(at, f"call {block.id!r}: its signature is Gemini state; dropped")
            out.append(
                {"type": "tool_use", "id": block.id, "name": block.name, "input": block.arguments}
            )
        elif isinstance(block, ToolResult):
            out.append(_tool_result(block))
        elif isinstance(block, Reasoning):
            out.append(_reasoning(block, at, notes))
        elif message.role == "user":
            out.append(_image(block))
        else:
            notes.add(at, f"an image has no place in an Anthropic {message.role} message; dropped")
    return [b for b in out if b is not None]


def render_request(request: Request, notes: Notes) -> dict:
    note_image_detail(request.messages, NAME, notes)
    system: list[dict] = []
    messages: list[dict] = []
    previous = ""
    for i, message in enumerate(request.messages):
        where = f"messages[{i}]"
        if message.name is not None:
            notes.add(f"{where}.name", "anthropic has no participant name; dropped")
        if message.role == "system":
            if i > 0:
                notes.add(
                    where,
                    "system message not first: moved to the top-level 'system' (its place in "
                    "the conversation is lost)",
                )
            texts = system_texts(message, where, "system", notes)
            system += [{"type": "text", "text": t} for t in texts]
            continue
        blocks = _blocks(message, where, notes)
        role = "assistant" if message.role == "assistant" else "user"
        if message.role == "user" and previous == "tool":
            messages[-1]["content"] += blocks  # results first, then the user's words
        elif blocks:
            messages.append({"role": role, "content": blocks})
        else:
            notes.add(where, "nothing left to send in this message; left out")
        previous = message.role
    body: dict[str, Any] = {"model": request.model}
    if request.max_tokens is None:
        notes.add("max_tokens", f"required by anthropic; none given, sent {DEFAULT_MAX_TOKENS}")
    body["max_tokens"] = request.max_tokens or DEFAULT_MAX_TOKENS
    if system:
        body["system"] = system[0]["text"] if len(system) == 1 else system
    body["messages"] = messages
    if request.tools:
        body["tools"] = [tool_spec(t, "input_schema") for t in request.tools]
    if request.tool_choice is not None:
        body["tool_choice"] = _tool_choice(request.tool_choice)
    return body


def _tool_choice(choice: str | dict) -> dict:
    if isinstance(choice, dict):
        return {"type": "tool", "name": choice["name"]}
    return {"type": {"auto": "auto", "none": "none", "required": "any"}[choice]}
