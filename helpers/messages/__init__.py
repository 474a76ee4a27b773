"""Used in lessons: 01, 02, 03, 04, 05, 06, 09, 10, 11, 12.

The neutral message model, written once before any provider's spelling, and its JSON read back.
``conversation.py`` holds roles, messages, the request and the builders; ``blocks.py`` the
blocks. This file reads the JSON back (``load``, ``load_file``; ``dump`` writes it): every
mistake is a ``FormatError`` naming its place (``messages[2].content[1]: missing 'call_id'``).
It knows no provider.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers.messages.blocks import BLOCK_TYPES, Block, Image, Reasoning, Text, ToolCall, ToolResult
from helpers.messages.conversation import (
    ROLES,
    Message,
    Reply,
    Request,
    StopReason,
    Tool,
    Usage,
    assistant,
    system,
    tool,
    tool_call,
    tool_result,
    user,
)

__all__ = [
    "BLOCK_TYPES", "ROLES", "Block", "Image", "Message", "Reasoning", "Reply", "Request",
    "StopReason", "Text", "Tool", "ToolCall", "ToolResult", "Usage", "assistant", "system", "tool",
    "tool_call", "tool_result", "user", "block_from_json", "dump", "load", "load_file",
    "message_from_json",
]  # fmt: skip


class FormatError(ValueError):
    """The JSON does not have the shape of a neutral request; the message says where."""


def _require(obj: dict, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise FormatError(f"{where}: missing {key!r}")
    value = obj[key]
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise FormatError(f"{where}.{key}: expected {names}, got {type(value).__name__}")
    return value


def block_from_json(obj: Any, where: str = "block") -> Block:
    """Read one block; ``where`` names it in errors, e.g. ``messages[2].content[1]``."""
    if not isinstance(obj, dict):
        raise FormatError(f"{where}: a block must be an object, got {type(obj).__name__}")
    kind = obj.get("type")
    if kind == "text":
        return Text(_require(obj, "text", str, where), obj.get("item_id"))
    if kind == "tool_call":
        args = obj.get("arguments", {})
        if isinstance(args, str):
            raise FormatError(
                f"{where}.arguments: the neutral format holds arguments as a JSON object, not a "
                "string (OpenAI's wire format encodes them as a string; parse it first)"
            )
        if not isinstance(args, dict):
            raise FormatError(f"{where}.arguments: expected an object, got {type(args).__name__}")
        return ToolCall(
            _require(obj, "id", str, where),
            _require(obj, "name", str, where),
            args,
            signature=obj.get("signature"),
            raw_arguments=obj.get("raw_arguments"),
            item_id=obj.get("item_id"),
        )
    if kind == "tool_result":
        call_id = _require(obj, "call_id", str, where)
        if "content" in obj:
            raw = _require(obj, "content", list, where)
            content = [block_from_json(b, f"{where}.content[{i}]") for i, b in enumerate(raw)]
            if not all(isinstance(b, Text | Image) for b in content):
                raise FormatError(f"{where}.content: a tool result holds text and images only")
        elif "text" in obj:
            content = [Text(_require(obj, "text", str, where))]
        else:
            raise FormatError(f"{where}: a tool_result needs 'text' or 'content'")
        return ToolResult(call_id, content, bool(obj.get("is_error", False)))  # type: ignore[arg-type]
    if kind == "reasoning":
        return Reasoning(
            text=obj.get("text", ""),
            signature=obj.get("signature"),
            provider=obj.get("provider"),
            redacted=bool(obj.get("redacted", False)),
            id=obj.get("id"),
        )
    if kind == "image":
        if "data" not in obj and "url" not in obj:
            raise FormatError(f"{where}: an image needs 'data' (base64) or 'url'")
        return Image(
            obj.get("media_type", "image/png"), obj.get("data"), obj.get("url"), obj.get("detail")
        )
    known = ", ".join(BLOCK_TYPES)
    raise FormatError(f"{where}: unknown block type {kind!r} (known: {known})")


def message_from_json(obj: Any, where: str = "message") -> Message:
    if not isinstance(obj, dict):
        raise FormatError(f"{where}: a message must be an object, got {type(obj).__name__}")
    role = _require(obj, "role", str, where)
    if role not in ROLES:
        raise FormatError(f"{where}.role: {role!r} is not one of {', '.join(ROLES)}")
    content = obj.get("content")
    if isinstance(content, str):
        raise FormatError(
            f"{where}.content: content is a list of blocks, not a string; write "
            '[{"type": "text", "text": ...}]'
        )
    content = _require(obj, "content", list, where)
    blocks = [block_from_json(b, f"{where}.content[{i}]") for i, b in enumerate(content)]
    return Message(role, blocks, obj.get("name"))  # type: ignore[arg-type]


def load(obj: dict | str) -> Request:
    """Read a neutral request from its JSON (a dict, or a JSON string)."""
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except json.JSONDecodeError as err:
            raise FormatError(f"not valid JSON: {err}") from None
    if not isinstance(obj, dict):
        raise FormatError(f"a request must be a JSON object, got {type(obj).__name__}")
    raw_messages = _require(obj, "messages", list, "request")
    messages = [message_from_json(m, f"messages[{i}]") for i, m in enumerate(raw_messages)]
    tools = []
    raw_tools = obj.get("tools") or []
    if not isinstance(raw_tools, list):
        raise FormatError(f"request.tools: expected list, got {type(raw_tools).__name__}")
    for i, t in enumerate(raw_tools):
        where = f"tools[{i}]"
        if not isinstance(t, dict):
            raise FormatError(f"{where}: a tool must be an object")
        params = t.get("parameters", {"type": "object", "properties": {}})
        if not isinstance(params, dict):
            raise FormatError(f"{where}.parameters: expected a JSON Schema object")
        tools.append(Tool(_require(t, "name", str, where), t.get("description", ""), params))
    return Request(
        model=obj.get("model", ""),
        messages=messages,
        tools=tools,
        tool_choice=obj.get("tool_choice"),
        max_tokens=obj.get("max_tokens"),
    )


def load_file(path: str | Path) -> Request:
    return load(Path(path).read_text(encoding="utf-8"))


def dump(request: Request, indent: int | None = 2) -> str:
    """The request as the neutral JSON text the lessons show."""
    return json.dumps(request.to_json(), indent=indent, ensure_ascii=False)
