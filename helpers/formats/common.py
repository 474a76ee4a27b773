"""Used in lessons: none directly (imported by formats, formats.anthropic_parse, ...).

What every wire format shares: ``Note``, ``Notes``, ``Rendered``, and small helpers. Where a
format has no place for something (reasoning in OpenAI Chat, an image in a system prompt), a
converter adds a ``Note`` saying where and what changed. No provider is named here; this module
only refuses blocks with no meaning where they stand (the rules of the list are ``helpers.rules``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from helpers.messages import (
    Block,
    FormatError,
    Image,
    Message,
    Reasoning,
    Reply,
    StopReason,
    Text,
    Tool,
    ToolCall,
    ToolResult,
    Usage,
)

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


def obj(value: Any, where: str) -> dict:
    """``value`` if it is a JSON object, else a ``FormatError`` naming ``where``."""
    if not isinstance(value, dict):
        raise FormatError(f"{where}: expected an object, got {_kind(value)}")
    return value


def array(value: Any, where: str) -> list:
    """``value`` if it is a JSON array (a missing or null one is empty)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise FormatError(f"{where}: expected a list, got {_kind(value)}")
    return value


def string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise FormatError(f"{where}: expected a string, got {_kind(value)}")
    return value


def token_field(usage: dict, key: str, where: str) -> int:
    """A token count from a usage object: missing or null is 0, anything but an integer is bad."""
    value = usage.get(key)
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool):
        at = f"{where}.{key}" if where else key
        raise FormatError(f"{at}: expected a token count, got {_kind(value)}")
    return value


def limit(body: dict, key: str, where: str = "") -> int | None:
    """A ``max_tokens``-like setting: ``None`` when unset, else a count."""
    return None if body.get(key) is None else token_field(body, key, where)


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def load_arguments(text: Any, where: str, call_id: str) -> dict[str, Any]:
    """Parse an OpenAI ``arguments`` string; bad JSON is an error naming the call."""
    if isinstance(text, dict):
        return text
    if not isinstance(text, str):
        raise FormatError(f"{where}: arguments of call {call_id!r} must be a JSON string")
    if text.strip() == "":
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise FormatError(
            f"{where}: arguments of call {call_id!r} are not valid JSON ({err.msg} at char "
            f"{err.pos}): {text[:60]!r}"
        ) from None
    if not isinstance(value, dict):
        raise FormatError(
            f"{where}: arguments of call {call_id!r} must be a JSON object, "
            f"got {type(value).__name__}"
        )
    return value


def read_arguments(text: Any, where: str, call_id: str, notes: Notes, strict: bool) -> Any:
    """``load_arguments``, except that a history (not ``strict``) keeps arguments that are no
    JSON object as they came, for the rules to report at ``where`` (``arguments-not-object``)."""
    try:
        return load_arguments(text, where, call_id)
    except FormatError as err:
        if strict:
            raise
        detail = str(err).removeprefix(f"{where}: ")
        notes.add(where, f"{detail}; kept as it came", rule="arguments-not-object")
        if isinstance(text, str):
            try:
                return json.loads(text)
            except json.JSONDecodeError:
                return text
        return text


def read_list(items: list, where: str, read: Callable[..., Any], notes: Notes) -> list:
    """``read(item, "where[k]", notes)`` for each item; those read as None (dropped) drop out."""
    blocks = [read(item, f"{where}[{k}]", notes) for k, item in enumerate(items)]
    return [b for b in blocks if b is not None]


def split_results(blocks: list) -> list[Message]:
    """A user turn as neutral messages: its tool results (if any) a tool message, then the rest."""
    results = [b for b in blocks if isinstance(b, ToolResult)]
    rest = [b for b in blocks if not isinstance(b, ToolResult)]
    if not results:
        return [Message("user", rest)]
    return [Message("tool", results)] + ([Message("user", rest)] if rest else [])


def as_reply(
    body: dict, blocks: list, usage: Usage, stop: StopReason, keys=("model", "id")
) -> Reply:
    """The assistant message of a response, its bill, and its model and id (at ``keys``)."""
    model, id = (str(body.get(key) or "") for key in keys)
    return Reply(Message("assistant", blocks), usage, stop, model, id)


_DATA_URL = re.compile(r"data:(?P<type>[\w.+-]+/[\w.+-]+);base64,(?P<data>.*)", re.DOTALL)


def data_url(image: Image) -> str:
    """``data:image/png;base64,...`` for inline images, the URL itself otherwise."""
    return image.url if image.data is None else f"data:{image.media_type};base64,{image.data}"


def image_from_url(url: str, detail: str | None = None) -> Image:
    """Read a data URL back into inline data; any other URL stays a URL (type unknown: png)."""
    match = _DATA_URL.fullmatch(url)
    if match:
        return Image(match["type"], data=match["data"], detail=detail)
    return Image(url=url, detail=detail)


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


def note_unused(obj: dict[str, Any], used: set[str], where: str, notes: Notes) -> None:
    """A parser reads only what the neutral model can hold; name everything else it ignores."""
    for key in obj:
        if key not in used:
            notes.add(f"{where}.{key}" if where else key, "has no place in the neutral request")


def check_tool_choice(choice: Any) -> None:
    if choice is None or choice in ("auto", "none", "required"):
        return
    if isinstance(choice, dict) and isinstance(choice.get("name"), str) and len(choice) == 1:
        return
    raise FormatError(
        f'tool_choice: expected "auto", "none", "required" or {{"name": ...}}, got {choice!r}'
    )


def flag_error(
    texts: list[str], is_error: bool, format: str, where: str, notes: Notes
) -> list[str]:
    """Formats without an error flag carry it as a visible prefix on the result's first text."""
    if not is_error:
        return texts
    notes.add(
        where, f"is_error has no field in {format}; carried as a text prefix {ERROR_PREFIX!r}"
    )
    return [ERROR_PREFIX + (texts[0] if texts else "")] + texts[1:]


def tool_spec(tool: Tool, schema: str) -> dict[str, Any]:
    """A tool's ``name``, its ``description`` if it has one, and its parameters at ``schema``."""
    out: dict[str, Any] = {"name": tool.name}
    if tool.description:
        out["description"] = tool.description
    out[schema] = tool.parameters
    return out
