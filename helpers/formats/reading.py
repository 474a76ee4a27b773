"""Used in lessons: none directly (imported by formats.anthropic_parse, formats.gemini_parse, ...).

What the four parsers share: reading a body's JSON with each mistake a ``FormatError`` naming
its place (``obj``, ``array``, ``string``, ``token_field``), tool-call arguments sent as a
string (``read_arguments``), a user turn split into tool results and the rest, a reply made
whole, and a ``Note`` for every field the neutral request has no place for (``note_unused``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from helpers.formats.common import Notes
from helpers.messages import FormatError, Image, Message, Reply, StopReason, ToolResult, Usage


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


def usage_with_details(usage: dict, input_key: str, output_key: str) -> Usage:
    """OpenAI's usage object, Chat's and Responses' alike.
    The counts are at ``input_key`` and ``output_key``; the cached tokens are in
    ``{input_key}_details`` and the reasoning tokens in ``{output_key}_details``."""
    at_in, at_out = f"usage.{input_key}_details", f"usage.{output_key}_details"
    details_in = obj(usage.get(f"{input_key}_details") or {}, at_in)
    details_out = obj(usage.get(f"{output_key}_details") or {}, at_out)
    return Usage(
        input_tokens=token_field(usage, input_key, "usage"),
        output_tokens=token_field(usage, output_key, "usage"),
        cache_read_tokens=token_field(details_in, "cached_tokens", at_in),
        cache_write_tokens=token_field(details_in, "cache_write_tokens", at_in),
        reasoning_tokens=token_field(details_out, "reasoning_tokens", at_out),
        raw=usage,
    )


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


def append_block(messages: list[Message], role: str, block: Any) -> None:
    """Add ``block`` to the last message if it has ``role``, else start a message with it."""
    if messages and messages[-1].role == role:
        messages[-1].content.append(block)
    else:
        messages.append(Message(role, [block]))  # type: ignore[arg-type]


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


def image_from_url(url: str, detail: str | None = None) -> Image:
    """Read a data URL back into inline data; any other URL stays a URL (type unknown: png)."""
    match = _DATA_URL.fullmatch(url)
    if match:
        return Image(match["type"], data=match["data"], detail=detail)
    return Image(url=url, detail=detail)


def note_unused(obj: dict[str, Any], used: set[str], where: str, notes: Notes) -> None:
    """A parser reads only what the neutral model can hold; name everything else it ignores."""
    for key in obj:
        if key not in used:
            notes.add(f"{where}.{key}" if where else key, "has no place in the neutral request")
