"""Used in lessons: none directly (imported by formats.openai_responses_parse, formats.providers).

Neutral -> OpenAI Responses, the request body (``input`` items) a client sends. Each neutral
message becomes one or more typed items: ``message``, ``function_call``,
``function_call_output``, ``reasoning``. The leading system message becomes ``instructions``.
What Responses has no field for is dropped or carried in text, with a ``Note``.
"""

from __future__ import annotations

from typing import Any

from helpers.formats.common import Notes, data_url, flag_error, replayable, system_texts, tool_spec
from helpers.messages import Image, Message, Reasoning, Request, Text, ToolCall, ToolResult
from helpers.messages.blocks import dump_arguments

NAME = "openai-responses"
PATH = "/v1/responses"
PROVIDER = "openai"
OPTIONS: dict[str, tuple[str, ...]] = {}


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
        if isinstance(block, Text) and block.item_id is not None:
            same = items and items[-1].get("id") == block.item_id
            if same:  # two texts of one output message: two parts of it again
                items[-1]["content"] += _output_message(block)["content"]
            else:
                items.append(_output_message(block))  # replayed as the item it was, id and all
        elif isinstance(block, Text):
            items.append({"type": "message", "role": "assistant", "content": block.text})
        elif isinstance(block, ToolCall):
            if block.signature is not None:
                notes.add(at, f"call {block.id!r}: its signature is Gemini state; dropped")
            args = dump_arguments(block.arguments)
            item = {"type": "function_call", "call_id": block.id, "name": block.name}
            item["arguments"] = args
            items.append(item if block.item_id is None else {"id": block.item_id, **item})
        elif isinstance(block, Reasoning) and replayable(block, PROVIDER, at, notes):
            if block.id is None:
                notes.add(at, "reasoning without its 'rs_...' id cannot be replayed; dropped")
                continue
            items.append(_reasoning_item(block))
        elif isinstance(block, Image):
            notes.add(at, "no image in a Responses assistant message; dropped")
    return items


def _output_message(block: Text) -> dict:
    """An assistant text that came with its ``msg_...`` id: the output message item it was.
    OpenAI pairs a replayed reasoning item with the item it produced by id, so a replay keeps
    the ids it was given (the SDK's ``ResponseOutputMessageParam``: id, status, output_text)."""
    part = {"type": "output_text", "text": block.text, "annotations": []}
    return {
        "id": block.item_id,
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [part],
    }


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
        for b in flag_error(result, NAME, at, notes)
    ]
    if len(parts) == 1 and parts[0]["type"] == "input_text":
        return parts[0]["text"]
    return parts


def render_request(request: Request, notes: Notes) -> dict:
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
        body["tools"] = [
            {"type": "function", **tool_spec(t, "parameters"), "strict": False}  # "required"
            for t in request.tools
        ]
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
        notes.add(
            where,
            "system message not first: sent in place as an input message with role 'system' "
            "(only a leading one becomes 'instructions')",
        )
    item = _input_message(message, where, notes)
    return [item] if item["content"] else []


def _instructions(message: Message, notes: Notes) -> str:
    texts = system_texts(message, "messages[0]", "instructions", notes)
    if len(texts) > 1:
        notes.add("messages[0]", f"{len(texts)} text blocks joined into 'instructions'")
    return "\n\n".join(texts)
