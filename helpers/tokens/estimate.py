"""Used in lessons: none directly (imported by tokens, tokens.gemini, tokens.harmony).

Counting rules ``anthropic-estimate`` and ``gemini-estimate``: labelled estimates.

Claude's and Gemini's tokenizers are not public, so what each API is documented to build (tools
as JSON, the system text, each message with 3 framing tokens, an assumption; for Anthropic, the
documented tool-use system prompt) is counted with the ``PROXY`` encoding, and ``sentence`` says
how far recorded bills were from such counts (``data/estimate_spread.json``).

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
from helpers.tokens.exactness import image_tokens
from helpers.tokens.seen import CUT, Seen, Sized

FRAMING_PER_MESSAGE = 3  # an assumption (OpenAI's figure); neither provider publishes one


#: tool_choice, however each format spells it, as the type the tool-use prompt sizes are kept by
CHOICES = {None: "auto", "auto": "auto", "none": "none", "required": "any", "any": "any"}


def block_text(block: Any) -> str | None:
    """The text counted for one block: a tool call as JSON, else its text (None if none)."""
    if isinstance(block, ToolCall):
        return json.dumps({"name": block.name, "input": block.arguments}, ensure_ascii=False)
    if isinstance(block, Text | ToolResult | Reasoning):
        return block.text or None
    return None


def _tool_use_prompt(request: Request, info: ModelInfo) -> tuple[str, int | None]:
    """Anthropic's documented tool-use system prompt: the tool_choice type and its size."""
    choice = request.tool_choice
    kind = CHOICES.get(choice, "tool") if isinstance(choice, str | None) else "tool"
    return kind, (info.tool_use_overhead or {}).get(kind)


def tool_seen(request: Request, info: ModelInfo, notes: list) -> list[Seen]:
    """The tools part: the documented tool-use system prompt (Anthropic) and each tool's JSON."""
    if not request.tools:
        return []
    anthropic = info.counting == "anthropic-estimate"
    out: list[Seen] = []
    if anthropic:
        choice, overhead = _tool_use_prompt(request, info)
        if overhead is None:
            notes.append(f"no documented tool-use system prompt size for {info.id}: 0 used")
        else:
            out.append(("tools", Sized(overhead, ("tool-use prompt", info.id, choice))))
    for k, tool in enumerate(request.tools):
        schema_key = "input_schema" if anthropic else "parameters"
        body = {"name": tool.name, "description": tool.description, schema_key: tool.parameters}
        out += [(f"tools[{k}]", json.dumps(body)), (f"tools[{k}]", CUT)]  # each on its own
    return out


def message_seen(i: int, message: Message, info: ModelInfo) -> list[Seen]:
    """One message: framing (an assumption) and its blocks, each text tokenized on its own."""
    prefix = f"messages[{i}]"
    out: list[Seen] = [(prefix, Sized(FRAMING_PER_MESSAGE, ("framing", message.role)))]
    for j, block in enumerate(message.content):
        part = f"{prefix}.content[{j}]"
        out += images_seen(part, block, info)
        if text := block_text(block):
            out += [(part, text), (part, CUT)]
    return out


def images_seen(part: str, block: Any, info: ModelInfo) -> list[Seen]:
    """The images of one block (an image, or those inside a tool result), charged by size."""
    images = [block] if isinstance(block, Image) else []
    if isinstance(block, ToolResult):
        images = [b for b in block.content if isinstance(b, Image)]
    out: list[Seen] = []
    for image in images:
        cost = image_tokens(image, info.image)
        out.append((part, Sized(cost.tokens, ("image", image.data or image.url))))
    return out


def seen(request: Request, info: ModelInfo) -> tuple[list[Seen], list[str]]:
    """What is counted for an estimate on an Anthropic or Gemini model, and notes."""
    notes: list[str] = []
    out = tool_seen(request, info, notes)
    for i, message in enumerate(request.messages):
        out += message_seen(i, message, info)
    return out, notes


def labels(request: Request, info: ModelInfo) -> dict[str, str]:
    """A readable label for every part of the request (the breakdown's second column)."""
    out = {f"tools[{k}]": tool.name for k, tool in enumerate(request.tools)}
    if request.tools:
        out["tools"] = f"{len(request.tools)} tool definitions"
        choice, overhead = _tool_use_prompt(request, info)
        if info.counting == "anthropic-estimate" and overhead is not None:
            out["tools"] += f" + tool-use system prompt ({overhead}, tool_choice {choice})"
    return out | message_labels(request)


def message_labels(request: Request) -> dict[str, str]:
    """Each message by its role, each block by its type."""
    out = {}
    for i, message in enumerate(request.messages):
        out[f"messages[{i}]"] = message.role
        for j, block in enumerate(message.content):
            out[f"messages[{i}].content[{j}]"] = block.type
    return out


SPREAD = DATA / "estimate_spread.json"


@cache
def measured() -> dict[str, Any]:
    """The committed measurement (regenerated by ``benchmarks/estimate_spread.py --write``)."""
    return json.loads(SPREAD.read_text(encoding="utf-8"))


def sentence(rule: str, model: str = "") -> str:
    """The measured spread of one counting rule in words ("" if not measured), with the sizes
    measured (a count far outside them is outside the measurement) and whether ``model`` was
    among the models measured (a newer tokenizer can count differently)."""
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
