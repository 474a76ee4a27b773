"""Used in lessons: 01, 02, 03, 04, 05, 06, 09, 10, 11, 12.

Messages (a role and a list of blocks), tools, the request that carries them all, and the
builders (``user("...")``, ``assistant(...)``, ``tool(...)``) that read like the JSON they make.

Lesson 02's point: four roles, one list. The caller owns that list and sends all of it every
turn, tool definitions included. What comes back is a ``Reply``: one assistant message, why the
model stopped, and the ``Usage``, normalised. What this module does not do: know any provider.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from helpers.html import message_html, no_math, request_html
from helpers.messages.blocks import Block, Image, Text, ToolCall, ToolResult

Role = Literal["system", "user", "assistant", "tool"]
ROLES: tuple[str, ...] = ("system", "user", "assistant", "tool")


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
        return no_math(message_html(self))


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
        return no_math(request_html(self))


StopReason = Literal["end_turn", "tool_calls", "max_tokens", "refusal", "other"]


@dataclass
class Usage:
    """A reply's tokens, one rule for every provider, so cost arithmetic has one meaning.

    ``input_tokens`` counts **all** input tokens, cached or not (the Anthropic parser adds its
    cache reads and writes back in); ``cache_read_tokens`` and ``cache_write_tokens`` are parts
    of it. ``output_tokens`` counts all generated tokens, reasoning included (the Gemini parser
    adds thoughts in); ``reasoning_tokens`` is part of it. ``raw`` keeps the provider's own."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def uncached_input_tokens(self) -> int:
        return self.input_tokens - self.cache_read_tokens - self.cache_write_tokens


@dataclass
class Reply:
    """A provider's response, parsed: the message to append to the history, and its bill."""

    message: Message
    usage: Usage
    stop_reason: StopReason
    model: str = ""
    id: str = ""


# --- builders: they read like the JSON they make -----------------------------------------------


def _blocks(parts: tuple[str | Block, ...]) -> list[Block]:
    return [Text(p) if isinstance(p, str) else p for p in parts]


def system(*parts: str | Block) -> Message:
    """``system("You are Sundry's support agent...")``"""
    return Message("system", _blocks(parts))


def user(*parts: str | Block) -> Message:
    """``user("Where is my order?")`` or ``user("Look:", Image(url=...))``"""
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
