"""Used in lessons: none directly (imported by cost.tickets, tokens).

Counting rules ``anthropic-estimate`` and ``gemini-estimate``: labelled estimates.

Claude's and Gemini's tokenizers are not public, so ``pieces`` renders what each API is
documented to build (tools as JSON, the system text, each message with 3 framing tokens, an
assumption; for Anthropic, the documented tool-use system prompt from ``data/models.json``) and
counts it with the ``PROXY`` encoding. ``sentence`` says how far recorded bills were from such
counts (``data/estimate_spread.json``); ``Count.label`` prints it.

What it deliberately does not do: pretend the proxy is the real tokenizer, or correct the
estimate by the median (one factor does not fit short and long requests alike).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from helpers.examples import DATA
from helpers.messages import Image, Message, Reasoning, Request, Text, ToolCall, ToolResult
from helpers.models import ModelInfo
from helpers.tokens.encodings import PROXY, Piece, encode
from helpers.tokens.exactness import image_tokens

__all__ = ["measured", "message_pieces", "method", "pieces", "sentence", "tool_pieces"]

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
    out: list[Piece] = []
    labels["tools"] = f"{len(request.tools)} tool definitions"
    if anthropic:
        choice = _choice_type(request.tool_choice)
        overhead = (info.tool_use_overhead or {}).get(choice)
        if overhead is None:
            notes.append(f"no documented tool-use system prompt size for {info.id}: 0 used")
        else:
            out.append(Piece("tools", None, overhead, ("tool-use prompt", info.id, choice)))
            labels["tools"] += f" + tool-use system prompt ({overhead}, tool_choice {choice})"
    for k, tool in enumerate(request.tools):
        schema_key = "input_schema" if anthropic else "parameters"
        body = {"name": tool.name, "description": tool.description, schema_key: tool.parameters}
        out.append(Piece.of(f"tools[{k}]", encode(PROXY, json.dumps(body))))
        labels[f"tools[{k}]"] = tool.name
    return out


def message_pieces(i: int, message: Message, info: ModelInfo, labels: dict) -> list[Piece]:
    """One message: framing (an assumption) and its blocks."""
    prefix = f"messages[{i}]"
    labels[prefix] = message.role
    out = [Piece(prefix, None, FRAMING_PER_MESSAGE, ("framing", message.role))]
    for j, block in enumerate(message.content):
        part = f"{prefix}.content[{j}]"
        labels[part] = block.type
        images = [block] if isinstance(block, Image) else []
        if isinstance(block, ToolResult):
            images = [b for b in block.content if isinstance(b, Image)]
        for image in images:
            cost = image_tokens(image, info.image)
            out.append(Piece(part, None, cost.tokens, ("image", image.data or image.url)))
        text = _block_text(block)
        if text:
            out.append(Piece.of(part, encode(PROXY, text)))
    return out


def pieces(request: Request, info: ModelInfo) -> tuple[list[Piece], dict[str, str], list[str]]:
    """Pieces, row labels and notes for an estimate on an Anthropic or Gemini model."""
    labels: dict[str, str] = {}
    notes: list[str] = []
    out = tool_pieces(request, info, labels, notes)
    for i, message in enumerate(request.messages):
        out += message_pieces(i, message, info, labels)
    return out, labels, notes


SPREAD = DATA / "estimate_spread.json"


@cache
def measured() -> dict[str, Any]:
    """The committed measurement (regenerated by ``benchmarks/estimate_spread.py --write``)."""
    return json.loads(SPREAD.read_text(encoding="utf-8"))


def sentence(rule: str, model: str = "") -> str:
    """The measured spread of one counting rule in words, or "" if it was not measured.

    If ``model`` was not among the measured ones, the sentence says the requests were sent to
    other models (a newer tokenizer can count differently). The sizes of the measured requests
    are given too: a count far outside them is outside the measurement.
    """
    spread = measured()["spread"].get(rule)
    if not spread:
        return ""
    requests = [r for r in measured()["requests"] if r["rule"] == rule]
    models = {r["counted_as"] for r in requests}
    other = "" if not model or model in models else " to other models"
    sizes = f"{min(r['counted'] for r in requests):,}-{max(r['counted'] for r in requests):,}"
    return (
        f"on {spread['requests']} recorded requests{other} ({sizes} tokens) the bill was "
        f"{spread['low']:.2f}-{spread['high']:.2f}x this count (median {spread['median']:.2f})"
    )
