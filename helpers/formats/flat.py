"""Used in lessons: 03.

The flat view: one content *string* per message, the shape many codebases store (OpenAI Chat's
message, more or less). ``to_flat`` gives it with a note for everything it could not keep;
``from_flat`` reads it back to neutral messages. It knows no provider's wire format.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from helpers.formats.common import Note, Notes
from helpers.messages import (
    ROLES,
    FormatError,
    Image,
    Message,
    Reasoning,
    Text,
    ToolCall,
    ToolResult,
)


@dataclass
class FlatToolCall:
    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


@dataclass
class FlatMessage:
    role: str
    content: str = ""
    tool_calls: list[FlatToolCall] = field(default_factory=list)
    #: These two only on ``tool`` messages: which call it answers, and whether it failed.
    tool_call_id: str | None = None
    is_error: bool = False


def _flat_text(blocks: list, where: str, notes: Notes) -> str:
    texts = [b.text for b in blocks if isinstance(b, Text)]
    if len(texts) > 1:
        notes.add(where, f"{len(texts)} text blocks joined into one string")
    for j, block in enumerate(blocks):
        if isinstance(block, Image | Reasoning):
            notes.add(f"{where}.content[{j}]", f"a flat message has no place for {block.type}")
    return "\n\n".join(texts)


def to_flat(messages: list[Message]) -> tuple[list[FlatMessage], list[Note]]:
    """The flat view: one content *string* per message, the shape many codebases store.
    It is OpenAI Chat's message, more or less: no reasoning, images or names (dropped, with a
    note); text blocks are joined (blank line between); text after a tool call comes before the
    calls; a tool message with several results becomes one flat message per result. Returns the
    flat list and a note for everything the flat shape could not keep."""
    notes = Notes()
    flat: list[FlatMessage] = []
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        if message.name is not None:
            notes.add(f"{where}.name", "a flat message has no name; dropped")
        if message.role == "tool":
            results = message.tool_results
            n = len(results)
            if n > 1:
                back = f"from_flat gives back {n} tool messages, not one"
                notes.add(where, f"{n} results split into {n} flat messages; {back}")
            for j, r in enumerate(results):
                text = _flat_text(r.content, f"{where}.content[{j}]", notes)
                flat.append(FlatMessage("tool", text, tool_call_id=r.call_id, is_error=r.is_error))
            continue
        kinds = [type(b) for b in message.content]
        if ToolCall in kinds and Text in kinds[kinds.index(ToolCall) :]:
            notes.add(where, "text after a tool call moved before the calls")
        calls = []
        for j, block in enumerate(message.content):
            if isinstance(block, ToolCall):
                if block.signature is not None:
                    notes.add(f"{where}.content[{j}]", f"call {block.id!r}: signature dropped")
                calls.append(FlatToolCall(block.id, block.name, dict(block.arguments)))
        flat.append(FlatMessage(message.role, _flat_text(message.content, where, notes), calls))
    return flat, list(notes)


def from_flat(flat: list[FlatMessage]) -> list[Message]:
    """Neutral messages again, losing nothing: one tool message per flat tool message."""
    messages = []
    for i, m in enumerate(flat):
        if m.role not in ROLES:
            raise FormatError(f"flat[{i}].role: {m.role!r} is not one of {', '.join(ROLES)}")
        if m.role == "tool":
            if m.tool_call_id is None:
                raise FormatError(f"flat[{i}]: a tool message needs a tool_call_id")
            result = ToolResult(m.tool_call_id, [Text(m.content)], m.is_error)
            messages.append(Message("tool", [result]))
            continue
        if m.tool_call_id is not None or m.is_error:
            raise FormatError(f"flat[{i}]: tool_call_id and is_error belong to tool messages")
        blocks: list = [Text(m.content)] if m.content else []
        blocks += [ToolCall(c.id, c.name, dict(c.arguments)) for c in m.tool_calls]
        messages.append(Message(m.role, blocks))  # type: ignore[arg-type]
    return messages
