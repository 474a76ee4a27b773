"""Used in lessons: none directly (imported by rules).

Anthropic Messages: the shared rules in Anthropic's numbering, plus tool results first in
the next turn (``results-not-first``) and no empty content but a final assistant message.
Same-role turns are merged, not refused (the stand-in's ``anthropic-strict`` refuses them).
``anthropic_numbering`` mirrors the renderer. Evidence: ``docs/evidence.md`` (Rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, NamedTuple

from helpers.messages import Image, Message, Reasoning, Tool, ToolCall, ToolResult
from helpers.rules.core import blocks
from helpers.rules.violation import Answer, Finding

MISSING = (
    "messages.{w}: `tool_use` ids were found without `tool_result` blocks immediately after: "
    "{ids}. Each `tool_use` block must have a corresponding `tool_result` block in the next "
    "message."
)
UNEXPECTED = (
    "messages.{w}.content.{b}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. "
    "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
)
DUPLICATE = "messages.{w}.content.{b}: `tool_use` ids must be unique"
DUPLICATE_RESULT = (
    "messages.{w}.content.{b}: each tool_use must have a single result. Found multiple "
    "`tool_result` blocks with id: {id}"
)
EMPTY_MESSAGE = (
    "messages.{w}: all messages must have non-empty content except for the optional final "
    "assistant message"
)
EMPTY_TEXT = "messages: text content blocks must be non-empty"
BLANK_TEXT = "messages: text content blocks must contain non-whitespace text"
NO_MESSAGES = "messages: at least one message is required"
TOOL_NAMES = "tools: Tool names must be unique."


@dataclass
class WireMessage:
    """One message of Anthropic's ``messages`` list and the neutral messages it was made from."""

    role: str
    neutral_indices: list[int] = field(default_factory=list)
    #: ``(i, j, block)`` in wire order: the wire block index is the position in this list.
    parts: list[tuple[int, int, Any]] = field(default_factory=list)


def anthropic_numbering(messages: list[Message]) -> list[WireMessage]:
    """The ``messages`` list the Anthropic renderer sends (``formats.anthropic_render``).
    System messages leave the list; a user message right after a tool message joins it; blocks
    Anthropic cannot take are left out (reasoning without its signature, an image outside a user
    message), and so is a message left with nothing. A message empty from the start keeps its
    place, as in a body written by hand: that is the body Anthropic answers about."""
    wire: list[WireMessage] = []
    previous = None
    for i, message in enumerate(messages):
        if message.role == "system":
            continue
        parts = [(i, j, b) for j, b in blocks(message) if _sent(b, message.role)]
        if message.role == "user" and previous == "tool" and wire:
            wire[-1].neutral_indices.append(i)
            wire[-1].parts += parts
        elif parts or not message.content:
            role = "assistant" if message.role == "assistant" else "user"
            wire.append(WireMessage(role, [i], parts))
        previous = message.role
    return wire


def _sent(block: Any, role: str) -> bool:
    if isinstance(block, Reasoning):
        return block.provider in (None, "anthropic") and block.signature is not None
    if isinstance(block, Image):
        return role == "user"
    return True


def check(
    messages: list[Message], tools: list[Tool], core: list[Finding]
) -> list[tuple[Finding, Answer | None]]:
    """Core findings with Anthropic's answers, plus Anthropic's own rules."""
    wire = anthropic_numbering(messages)
    at = {(i, j): (w, b) for w, m in enumerate(wire) for b, (i, j, _) in enumerate(m.parts)}
    wire_of = {i: w for w, m in enumerate(wire) for i in m.neutral_indices}
    paired, not_first = _pairing(wire)
    kept: list[tuple[Finding, Answer | None]] = []
    for f in core:
        key = (f.message_index, f.block_index)
        text = None
        if f.rule == "empty-content" and f.block_index is None:
            w = wire_of.get(f.message_index)
            if w is not None and not wire[w].parts:
                if w == len(wire) - 1 and wire[w].role == "assistant":
                    continue  # Anthropic allows an empty final assistant message
                text = EMPTY_MESSAGE.format(w=w)
        elif f.rule == "empty-content":
            block = messages[f.message_index].content[f.block_index]
            text = BLANK_TEXT if block.text else EMPTY_TEXT
        elif key in paired and (f.rule in _PAIRED or f.rule.startswith("result-")):
            text = paired[key]
        elif f.rule == "duplicate-result" and key in at:
            text = DUPLICATE_RESULT.format(w=at[key][0], b=at[key][1], id=f.call_id)
        elif f.rule == "duplicate-id" and key in at and _same_message_duplicate(wire, *at[key]):
            text = DUPLICATE.format(w=at[key][0], b=at[key][1])
        elif f.rule == "no-messages" and not wire:
            text = NO_MESSAGES
        elif f.rule == "duplicate-tool":
            text = TOOL_NAMES
        kept.append((f, Answer(text) if text else None))
    return kept + not_first


#: The core rules Anthropic's pairing check answers (with ``result-*``), by the block's place.
_PAIRED = ("call-not-answered", "duplicate-result")


class _Part(NamedTuple):
    """A block, where Anthropic sees it (``messages.w.content.b``) and where we do (``i, j``)."""

    w: int
    b: int
    i: int
    j: int
    block: Any


def _pairing(wire: list[WireMessage]):
    """Anthropic's tool_use/tool_result check, on turns (runs of same-role wire messages).
    It returns the text for each unanswered call and each unexpected result, by its ``(i, j)``,
    and the ``results-not-first`` findings."""
    turns = []  # (role, the turn's blocks)
    for role, ws in groupby(range(len(wire)), key=lambda w: wire[w].role):
        turns.append((role, [_Part(w, b, *p) for w in ws for b, p in enumerate(wire[w].parts)]))
    texts: dict[tuple[int, int], str] = {}
    not_first: list[tuple[Finding, Answer]] = []
    for t, (role, parts) in enumerate(turns):
        if role == "user":
            before = turns[t - 1][1] if t else []
            asked = {p.block.id for p in before if isinstance(p.block, ToolCall)}
            for p in parts:
                if isinstance(p.block, ToolResult) and p.block.call_id not in asked:
                    texts[p.i, p.j] = UNEXPECTED.format(w=p.w, b=p.b, id=p.block.call_id)
            continue
        following = turns[t + 1][1] if t + 1 < len(turns) else []
        lead = 0  # how many tool_result blocks open the next turn
        while lead < len(following) and isinstance(following[lead].block, ToolResult):
            lead += 1
        leading = {p.block.call_id for p in following[:lead]}
        late = {p.block.call_id for p in following[lead:] if isinstance(p.block, ToolResult)}
        unanswered = [
            p for p in parts if isinstance(p.block, ToolCall) and p.block.id not in leading
        ]
        if not unanswered:
            continue
        text = MISSING.format(w=unanswered[0].w, ids=", ".join(p.block.id for p in unanswered))
        for call in unanswered:
            if call.block.id in late:  # answered in the next turn, but after other blocks
                not_first.append(_not_first(call.i, following[lead].i, call.block.id, text))
            else:
                texts[call.i, call.j] = text
    return texts, not_first


def _not_first(call_at: int, between: int, call_id: str, text: str) -> tuple[Finding, Answer]:
    what = (
        f"this message sits between the tool calls of messages[{call_at}] and the result for "
        f"{call_id!r}; Anthropic puts both in one user turn, and there the tool_result blocks "
        "must come first: move this message after the results"
    )
    return Finding("results-not-first", what, between, None, call_id), Answer(text)


def _same_message_duplicate(wire: list[WireMessage], w: int, b: int) -> bool:
    """Public reports show the duplicate check inside one message; across messages is unknown."""
    call = wire[w].parts[b][2]
    return any(isinstance(p[2], ToolCall) and p[2].id == call.id for p in wire[w].parts[:b])
