"""The neutral message model: one conversation, written once, before any provider's spelling.

A request is ``{"model", "tools": [...], "messages": [...]}``. Each message has a ``role``
(``system``, ``user``, ``assistant`` or ``tool``) and ``content``, which is always a **list of
typed blocks**, never a bare string:

=============  ==========================================================================
block          JSON
=============  ==========================================================================
text           ``{"type": "text", "text": "..."}``
tool_call      ``{"type": "tool_call", "id": "c1", "name": "search_orders", "arguments": {...}}``
tool_result    ``{"type": "tool_result", "call_id": "c1", "text": "...", "is_error": false}``
               (or ``"content": [blocks]`` instead of ``"text"`` for rich results)
reasoning      ``{"type": "reasoning", "text": "...", "signature": "...", "provider": "..."}``
image          ``{"type": "image", "media_type": "image/png", "data": "<base64>"}`` or ``"url"``
=============  ==========================================================================

This module knows nothing about providers: ``helpers/formats/`` turns these types into each
provider's request body and back. What you *build* here are plain dataclasses; ``dump()`` gives
the exact JSON above and ``load()`` reads it back, naming the message and block of any mistake.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "Block",
    "FormatError",
    "Image",
    "Message",
    "ROLES",
    "Reasoning",
    "Request",
    "Text",
    "Tool",
    "ToolCall",
    "ToolResult",
    "assistant",
    "block_from_json",
    "dump",
    "load",
    "load_file",
    "message_from_json",
    "system",
    "text",
    "tool",
    "tool_call",
    "tool_result",
    "user",
]

Role = Literal["system", "user", "assistant", "tool"]
ROLES: tuple[str, ...] = ("system", "user", "assistant", "tool")


class FormatError(ValueError):
    """The JSON does not have the shape of a neutral request; the message says where."""


# --- blocks -----------------------------------------------------------------------------------


@dataclass
class Text:
    text: str
    type: Literal["text"] = field(default="text", init=False, repr=False)

    def to_json(self) -> dict:
        return {"type": "text", "text": self.text}


@dataclass
class ToolCall:
    """The model asks the caller to run a tool. ``arguments`` is a JSON *object* (a dict)."""

    id: str
    name: str
    arguments: dict[str, Any]
    #: Opaque state some providers attach to the call itself (Gemini's ``thoughtSignature``).
    signature: str | None = None
    #: The exact JSON text of the arguments as a provider sent it, when a parser keeps it.
    #: Token counts and prompt caches see this text, spacing included; equality ignores it.
    raw_arguments: str | None = field(default=None, compare=False, repr=False)
    type: Literal["tool_call"] = field(default="tool_call", init=False, repr=False)

    def to_json(self) -> dict:
        out = {"type": "tool_call", "id": self.id, "name": self.name, "arguments": self.arguments}
        if self.signature is not None:
            out["signature"] = self.signature
        if self.raw_arguments is not None:
            out["raw_arguments"] = self.raw_arguments
        return out


@dataclass
class Image:
    """An image, inline (base64 ``data``) or by ``url``."""

    media_type: str = "image/png"
    data: str | None = None
    url: str | None = None
    #: OpenAI's ``detail`` ("low", "high", "auto"): it changes what the image costs in tokens.
    detail: str | None = None
    type: Literal["image"] = field(default="image", init=False, repr=False)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"type": "image", "media_type": self.media_type}
        if self.data is not None:
            out["data"] = self.data
        if self.url is not None:
            out["url"] = self.url
        if self.detail is not None:
            out["detail"] = self.detail
        return out

    def __repr__(self) -> str:
        size = f"{len(self.data)} base64 chars" if self.data else self.url
        return f"Image({self.media_type}, {size})"


@dataclass
class ToolResult:
    """The caller's answer to one tool call, linked to it by ``call_id``."""

    call_id: str
    content: list[Text | Image]
    is_error: bool = False
    type: Literal["tool_result"] = field(default="tool_result", init=False, repr=False)

    @property
    def text(self) -> str:
        """All text blocks of the result, joined: what a text-only wire format can carry."""
        return "".join(b.text for b in self.content if isinstance(b, Text))

    def to_json(self) -> dict:
        out: dict[str, Any] = {"type": "tool_result", "call_id": self.call_id}
        if len(self.content) == 1 and isinstance(self.content[0], Text):
            out["text"] = self.content[0].text
        else:
            out["content"] = [b.to_json() for b in self.content]
        out["is_error"] = self.is_error
        return out


@dataclass
class Reasoning:
    """The model's reasoning, as far as the provider shows it.

    ``signature`` is opaque provider state (Anthropic's thinking signature or redacted data,
    OpenAI's encrypted reasoning content, Gemini's thought signature). It is bound to the
    ``provider`` (and model) that issued it: pass it back unchanged, and only to that provider.
    """

    text: str
    signature: str | None = None
    provider: str | None = None
    #: True when the provider hid the text (Anthropic ``redacted_thinking``): only state remains.
    redacted: bool = False
    #: The provider's own id for the reasoning item (OpenAI Responses ``rs_...``), if any.
    id: str | None = None
    type: Literal["reasoning"] = field(default="reasoning", init=False, repr=False)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"type": "reasoning", "text": self.text}
        for key in ("signature", "provider", "id"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.redacted:
            out["redacted"] = True
        return out


Block = Text | ToolCall | ToolResult | Reasoning | Image
BLOCK_TYPES: tuple[str, ...] = ("text", "tool_call", "tool_result", "reasoning", "image")


# --- messages and requests ----------------------------------------------------------------------


@dataclass
class Message:
    role: Role
    content: list[Block]
    #: Optional participant name (OpenAI's ``name`` field); most conversations leave it out.
    name: str | None = None

    @property
    def text(self) -> str:
        """The text blocks joined. Reading *only* this is the classic bug: it drops tool calls."""
        return "".join(b.text for b in self.content if isinstance(b, Text))

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [b for b in self.content if isinstance(b, ToolCall)]

    @property
    def tool_results(self) -> list[ToolResult]:
        return [b for b in self.content if isinstance(b, ToolResult)]

    def to_json(self) -> dict:
        out: dict[str, Any] = {"role": self.role, "content": [b.to_json() for b in self.content]}
        if self.name is not None:
            out["name"] = self.name
        return out

    def _repr_html_(self) -> str:
        from helpers.show import message_html

        return message_html(self)


@dataclass
class Tool:
    """A tool the model may call: a name, a description, and a JSON Schema for its arguments."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})

    def to_json(self) -> dict:
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


@dataclass(repr=False)
class Request:
    """Everything one HTTP request carries: model, tool definitions, the whole message list."""

    model: str
    messages: list[Message]
    tools: list[Tool] = field(default_factory=list)
    #: "auto", "none", "required", or {"name": "tool_name"} to force one tool.
    tool_choice: str | dict | None = None
    max_tokens: int | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"model": self.model}
        out["tools"] = [t.to_json() for t in self.tools]
        out["messages"] = [m.to_json() for m in self.messages]
        if self.tool_choice is not None:
            out["tool_choice"] = self.tool_choice
        if self.max_tokens is not None:
            out["max_tokens"] = self.max_tokens
        return out

    def __repr__(self) -> str:
        roles = ", ".join(m.role for m in self.messages)
        return (
            f"Request(model={self.model!r}, {len(self.messages)} messages [{roles}], "
            f"{len(self.tools)} tools)"
        )

    def _repr_html_(self) -> str:
        from helpers.show import request_html

        return request_html(self)


# --- builders: they read like the JSON they make -----------------------------------------------


def text(value: str) -> Text:
    return Text(value)


def _blocks(parts: tuple[str | Block, ...]) -> list[Block]:
    return [Text(p) if isinstance(p, str) else p for p in parts]


def system(*parts: str | Block) -> Message:
    """``system("You are Sundry's support agent...")``"""
    return Message("system", _blocks(parts))


def user(*parts: str | Block) -> Message:
    """``user("Where is my order?")`` or ``user(text(...), image(...))``"""
    return Message("user", _blocks(parts))


def assistant(*parts: str | Block) -> Message:
    """``assistant("Let me look that order up.", tool_call("c1", "search_orders", {...}))``"""
    return Message("assistant", _blocks(parts))


def tool(*results: ToolResult) -> Message:
    """A ``tool`` message holding one or more results: ``tool(tool_result("c1", "..."))``"""
    return Message("tool", list(results))


def tool_call(id: str, name: str, arguments: dict[str, Any] | None = None) -> ToolCall:
    return ToolCall(id, name, dict(arguments or {}))


def tool_result(call_id: str, text: str | list[Text | Image], is_error: bool = False) -> ToolResult:
    content = [Text(text)] if isinstance(text, str) else list(text)
    return ToolResult(call_id, content, is_error)


# --- load / dump ------------------------------------------------------------------------------


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
        return Text(_require(obj, "text", str, where))
    if kind == "tool_call":
        args = obj.get("arguments", {})
        if isinstance(args, str):
            raise FormatError(
                f"{where}.arguments: the neutral format holds arguments as a JSON object, not a "
                "string (OpenAI's wire format encodes them as a string; parse it first)"
            )
        if not isinstance(args, dict):
            raise FormatError(f"{where}.arguments: expected an object, got {type(args).__name__}")
        call = ToolCall(_require(obj, "id", str, where), _require(obj, "name", str, where), args)
        call.signature = obj.get("signature")
        call.raw_arguments = obj.get("raw_arguments")
        return call
    if kind == "tool_result":
        call_id = _require(obj, "call_id", str, where)
        if "content" in obj:
            raw = _require(obj, "content", list, where)
            content = [block_from_json(b, f"{where}.content[{i}]") for i, b in enumerate(raw)]
            bad = [b for b in content if not isinstance(b, Text | Image)]
            if bad:
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
