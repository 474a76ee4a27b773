"""Used in lessons: none directly (imported by caching, tokens).

Counting rules ``anthropic-estimate`` and ``gemini-estimate``: labelled estimates.

Claude's and Gemini's tokenizers are not public (offline), so an exact count is impossible
here. The estimate renders what each API is documented to build and counts it with o200k_base
as a *proxy* tokenizer:

- Anthropic: the documented tool-use system prompt (a per-model number of tokens from
  ``data/models.json``, by ``tool_choice``) + each tool as JSON Schema
  (``{"name", "description", "input_schema"}``) + the system text + each message: 3 framing
  tokens (an assumption) + its blocks (tool calls as ``{"name", "input"}`` JSON, results as
  text, images by area).
- Gemini: each function declaration as JSON + the ``systemInstruction`` text + each content:
  3 framing tokens (an assumption) + its parts.

The proxy can be off by tens of percent on real text (different vocabularies). The API says so:
``Count.estimate`` is True and ``Count.method`` names the proxy. For an exact number use live
mode (``standin.count_live``), which asks the provider's count-tokens endpoint.

What it deliberately does not do: pretend the proxy is the real tokenizer.
"""

from __future__ import annotations

import json
from typing import Any

from helpers.messages import Image, Message, Reasoning, Request, Text, ToolCall, ToolResult
from helpers.models import ModelInfo
from helpers.tokens.breakdown import Piece
from helpers.tokens.encodings import encode
from helpers.tokens.images import image_tokens

__all__ = ["PROXY", "method", "render"]

PROXY = "o200k_base"
FRAMING_PER_MESSAGE = 3  # an assumption (OpenAI's figure); neither provider publishes one


def _choice_type(choice: Any) -> str:
    if choice in (None, "auto"):
        return "auto"
    if choice == "none":
        return "none"
    if choice in ("required", "any"):
        return "any"
    return "tool"  # a forced tool, however it is spelled


def method(info: ModelInfo) -> str:
    if info.counting == "anthropic-estimate":
        return (
            f"estimate: {PROXY} as a proxy for Claude's tokenizer (not public) over the Anthropic "
            "rendering (tools as JSON Schema, system, messages, 3 tokens framing per message) + "
            "the documented tool-use system prompt from data/models.json"
        )
    return (
        f"estimate: {PROXY} as a proxy for Gemini's tokenizer (not public offline) over the "
        "Gemini rendering (function declarations as JSON, systemInstruction, contents, 3 tokens "
        "framing per content)"
    )


def _block_text(block: Any) -> str | None:
    if isinstance(block, Text):
        return block.text
    if isinstance(block, ToolCall):
        return json.dumps({"name": block.name, "input": block.arguments}, ensure_ascii=False)
    if isinstance(block, ToolResult):
        return block.text
    if isinstance(block, Reasoning):
        return block.text or None
    return None


def tool_pieces(request: Request, info: ModelInfo, labels: dict, notes: list) -> list[Piece]:
    """The tools part: the documented tool-use system prompt (Anthropic) and each tool's JSON."""
    if not request.tools:
        return []
    anthropic = info.counting == "anthropic-estimate"
    pieces: list[Piece] = []
    labels["tools"] = f"{len(request.tools)} tool definitions"
    if anthropic:
        choice = _choice_type(request.tool_choice)
        overhead = (info.tool_use_overhead or {}).get(choice)
        if overhead is None:
            notes.append(f"no documented tool-use system prompt size for {info.id}: 0 used")
        else:
            pieces.append(Piece("tools", None, overhead, ("tool-use prompt", info.id, choice)))
            labels["tools"] += f" + tool-use system prompt ({overhead}, tool_choice {choice})"
    for k, tool in enumerate(request.tools):
        schema_key = "input_schema" if anthropic else "parameters"
        body = {"name": tool.name, "description": tool.description, schema_key: tool.parameters}
        pieces.append(Piece.of(f"tools[{k}]", encode(PROXY, json.dumps(body))))
        labels[f"tools[{k}]"] = tool.name
    return pieces


def message_pieces(i: int, message: Message, info: ModelInfo, labels: dict) -> list[Piece]:
    """One message: framing (an assumption) and its blocks."""
    prefix = f"messages[{i}]"
    labels[prefix] = message.role
    pieces = [Piece(prefix, None, FRAMING_PER_MESSAGE, ("framing", message.role))]
    for j, block in enumerate(message.content):
        part = f"{prefix}.content[{j}]"
        labels[part] = block.type
        images = [block] if isinstance(block, Image) else []
        if isinstance(block, ToolResult):
            images = [b for b in block.content if isinstance(b, Image)]
        for image in images:
            cost = image_tokens(image, info.image)
            pieces.append(Piece(part, None, cost.tokens, ("image", image.data or image.url)))
        text = _block_text(block)
        if text:
            pieces.append(Piece.of(part, encode(PROXY, text)))
    return pieces


def render(request: Request, info: ModelInfo) -> tuple[list[Piece], dict[str, str], list[str]]:
    """Pieces, row labels and notes for an estimate on an Anthropic or Gemini model."""
    labels: dict[str, str] = {}
    notes: list[str] = []
    pieces = tool_pieces(request, info, labels, notes)
    for i, message in enumerate(request.messages):
        pieces += message_pieces(i, message, info, labels)
    return pieces, labels, notes
