"""Used in lessons: none directly (imported by formats, formats.anthropic_parse, ...).

What every wire format shares: ``Note``, ``Notes``, ``Rendered``, and what the renderers share
(what the parsers share is ``reading.py``). Where a format has no place for something
(reasoning in OpenAI Chat, an image in a system prompt), a converter adds a ``Note`` saying where
and what changed. No provider is named here; this module only refuses blocks with no meaning
where they stand (the rules of the list are ``helpers.rules``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from helpers.messages import (
    Block,
    FormatError,
    Image,
    Message,
    Reasoning,
    Text,
    Tool,
    ToolCall,
    ToolResult,
)
from helpers.moved import moved

#: Both OpenAI formats have no error flag on a tool result: the text carries it instead.
ERROR_PREFIX = "ERROR: "


@dataclass
class Note:
    """Something a renderer or parser changed or dropped, and where (``messages[3].content[0]``);
    a ``rule`` names what the provider itself refuses there (the verdict's violations)."""

    where: str
    message: str
    rule: str | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class Notes(list[Note]):
    """The notes of one conversion: ``notes.add(where, message)`` adds one."""

    def add(self, where: str, message: str, rule: str | None = None) -> None:
        self.append(Note(where, message, rule))


@dataclass
class Rendered:
    """One provider's request body, the endpoint it is sent to, and what the renderer changed."""

    format: str
    body: dict[str, Any]
    notes: list[Note] = field(default_factory=list)
    path: str = ""  # the HTTP path the body is POSTed to, e.g. ``/v1/chat/completions``

    def json(self, indent: int | None = 2) -> str:
        """The body exactly as it would be sent (pretty-printed unless ``indent=None``)."""
        return json.dumps(self.body, indent=indent, ensure_ascii=False)

    def __repr__(self) -> str:
        lines = [f"Rendered({self.format}, POST {self.path or '?'}, {len(self.notes)} notes)"]
        lines.append(self.json())
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


def data_url(image: Image) -> str:
    """``data:image/png;base64,...`` for inline images, the URL itself otherwise."""
    return image.url if image.data is None else f"data:{image.media_type};base64,{image.data}"


def note_image_detail(messages: list[Message], format: str, notes: Notes) -> None:
    """``detail`` is OpenAI's knob; formats without it say that they dropped it."""
    for i, message in enumerate(messages):
        for j, block in enumerate(message.content):
            inner = block.content if isinstance(block, ToolResult) else [block]
            if any(isinstance(b, Image) and b.detail is not None for b in inner):
                notes.add(f"messages[{i}].content[{j}]", f"image detail has no field in {format}")


#: Which roles may hold which blocks in any wire format (images are handled per format).
_ALLOWED = {ToolCall: ("assistant",), ToolResult: ("tool",), Reasoning: ("assistant",)}


def check_placement(messages: list[Message]) -> None:
    """Refuse blocks no format can place where they stand, e.g. a tool call in a user message."""
    for i, message in enumerate(messages):
        for j, block in enumerate(message.content):
            where = f"messages[{i}].content[{j}]"
            if not isinstance(block, Block):  # a str, a dict: never dropped without a word
                raise FormatError(f"{where}: a {type(block).__name__} is not a content block")
            roles = _ALLOWED.get(type(block))
            if roles and message.role not in roles:
                raise FormatError(
                    f"{where}: a {block.type} block belongs in {' or '.join(roles)} messages, "
                    f"not in a {message.role} message"
                )
            if message.role == "tool" and not isinstance(block, ToolResult):
                raise FormatError(
                    f"{where}: a tool message holds tool_result blocks, not {block.type}"
                )
        if message.role == "tool" and not message.content:
            raise FormatError(f"messages[{i}]: a tool message needs at least one tool_result")


def replayable(block: Reasoning, provider: str, where: str, notes: Notes) -> bool:
    """Reasoning state is bound to the provider that issued it: replay it there, nowhere else."""
    if block.provider in (None, provider):
        return True
    notes.add(
        where,
        f"reasoning from {block.provider} dropped: its signature is only valid for "
        f"{block.provider}, not {provider}",
    )
    return False


def system_texts(message: Message, where: str, field: str, notes: Notes) -> list[str]:
    """The texts of a system message bound for a top-level ``field``; other blocks are noted."""
    texts = []
    for j, block in enumerate(message.content):
        if isinstance(block, Text):
            texts.append(block.text)
        else:
            notes.add(f"{where}.content[{j}]", f"'{field}' is text only; {block.type} dropped")
    return texts


def check_tool_choice(choice: Any) -> None:
    if choice is None or choice in ("auto", "none", "required"):
        return
    if isinstance(choice, dict) and isinstance(choice.get("name"), str) and len(choice) == 1:
        return
    raise FormatError(
        f'tool_choice: expected "auto", "none", "required" or {{"name": ...}}, got {choice!r}'
    )


def flag_error(result: ToolResult, format: str, where: str, notes: Notes) -> list[Text | Image]:
    """A copy of a result's content for a format without an error flag.
    A failed result's first text starts with ``ERROR_PREFIX``; a failed result with no text gets
    the prefix as a text of its own."""
    if not result.is_error:
        return list(result.content)
    notes.add(
        where, f"is_error has no field in {format}; carried as a text prefix {ERROR_PREFIX!r}"
    )
    content = list(result.content)
    first = next((j for j, b in enumerate(content) if isinstance(b, Text)), None)
    if first is None:
        return [Text(ERROR_PREFIX), *content]
    block = content[first]
    content[first] = replace(block, text=ERROR_PREFIX + block.text)
    return content


def tool_spec(tool: Tool, schema: str) -> dict[str, Any]:
    """A tool's ``name``, its ``description`` if it has one, and its parameters at ``schema``."""
    out: dict[str, Any] = {"name": tool.name}
    if tool.description:
        out["description"] = tool.description
    out[schema] = tool.parameters
    return out


# --- deprecated paths, kept for one release (helpers/moved.py) ---------------------------------
_READING = (
    "array", "as_reply", "image_from_url", "limit", "load_arguments", "note_unused", "obj",
    "read_arguments", "read_list", "split_results", "string", "token_field",
)  # fmt: skip
__getattr__ = moved(__name__, dict.fromkeys(_READING, "helpers.formats.reading"))
