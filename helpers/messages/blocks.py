"""Used in lessons: 03, 11.

The five content blocks a message is made of: text, tool call, tool result, reasoning, image.

Lesson 03's point: ``content`` is always a list of these, never a bare string. Each block is a
plain dataclass with one literal ``type`` discriminator and a ``to_json()`` that gives exactly
its neutral JSON (``{"type": "text", "text": "..."}``). It knows no provider.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal


def _with_optional(out: dict[str, Any], block: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """``out`` plus each of the block's optional ``keys`` that is set (not None), in order."""
    out.update({key: getattr(block, key) for key in keys if getattr(block, key) is not None})
    return out


@dataclass
class Text:
    text: str
    #: The provider's id of the output item this text came in (OpenAI Responses' ``msg_...``),
    #: kept so a replay names the same item; equality ignores it.
    item_id: str | None = field(default=None, compare=False, repr=False)
    type: Literal["text"] = field(default="text", init=False, repr=False)

    def to_json(self) -> dict:
        return _with_optional({"type": "text", "text": self.text}, self, ("item_id",))


def dump_arguments(arguments: dict[str, Any]) -> str:
    """Compact JSON, like the models themselves emit: ``{"query":"SO-48213"}``."""
    return json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))


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
    #: The provider's id of the item that carried the call (OpenAI Responses' ``fc_...``, not
    #: the ``call_id``), kept so a replay names the same item; equality ignores it.
    item_id: str | None = field(default=None, compare=False, repr=False)
    type: Literal["tool_call"] = field(default="tool_call", init=False, repr=False)

    def to_json(self) -> dict:
        out = {"type": "tool_call", "id": self.id, "name": self.name, "arguments": self.arguments}
        return _with_optional(out, self, ("signature", "raw_arguments", "item_id"))


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
        out = {"type": "image", "media_type": self.media_type}
        return _with_optional(out, self, ("data", "url", "detail"))

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
        out = {"type": "reasoning", "text": self.text}
        _with_optional(out, self, ("signature", "provider", "id"))
        if self.redacted:
            out["redacted"] = True
        return out


Block = Text | ToolCall | ToolResult | Reasoning | Image
BLOCK_TYPES: tuple[str, ...] = ("text", "tool_call", "tool_result", "reasoning", "image")
