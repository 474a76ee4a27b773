"""Used in lessons: 03.

The flat view: one content *string* per message, the shape many codebases store.

A ``FlatMessage`` is ``role``, ``content: str``, ``tool_calls``, ``tool_call_id`` and
``is_error``: OpenAI Chat's message, more or less. It cannot hold reasoning, images or names
(dropped, with a ``Note``); several text blocks are joined (blank line between); text after a
tool call comes before the calls; a tool message with several results becomes one flat message
per result, and ``from_flat`` gives back one tool message per result. ``to_flat`` returns the
notes with the list; ``from_flat`` loses nothing. No provider JSON here: ``helpers.formats``.
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

__all__ = ["FlatMessage", "FlatToolCall", "from_flat", "to_flat"]


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
    #: Only on ``tool`` messages: which call this answers.
    tool_call_id: str | None = None
    #: Only on ``tool`` messages.
    is_error: bool = False


def _text(blocks: list, where: str, notes: Notes) -> str:
    texts = [b.text for b in blocks if isinstance(b, Text)]
    if len(texts) > 1:
        notes.add(where, f"{len(texts)} text blocks joined into one string")
    for j, block in enumerate(blocks):
        if isinstance(block, Image | Reasoning):
            notes.add(f"{where}.content[{j}]", f"a flat message has no place for {block.type}")
    return "\n\n".join(texts)


def to_flat(messages: list[Message]) -> tuple[list[FlatMessage], list[Note]]:
    """The flat list, and a note for everything the flat shape could not keep."""
    notes = Notes()
    flat: list[FlatMessage] = []
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        if message.name is not None:
            notes.add(f"{where}.name", "a flat message has no name; dropped")
        if message.role == "tool":
            results = message.tool_results
            if len(results) > 1:
                notes.add(
                    where,
                    f"{len(results)} results split into {len(results)} flat messages; from_flat "
                    f"gives back {len(results)} tool messages, not one",
                )
            for j, r in enumerate(results):
                text = _text(r.content, f"{where}.content[{j}]", notes)
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
        flat.append(FlatMessage(message.role, _text(message.content, where, notes), calls))
    return flat, list(notes)


def from_flat(flat: list[FlatMessage]) -> list[Message]:
    """Neutral messages again: one tool message per flat tool message."""
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
