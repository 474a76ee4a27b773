"""Used in lessons: none directly (imported by rules).

Anthropic Messages: the shared rules in Anthropic's numbering, plus its own rules.

``anthropic`` (the first-party API): tool results open the next turn (``results-not-first``),
ids match ``^[a-zA-Z0-9_-]+$`` (``call-id-pattern``), content is non-empty except an optional
final assistant message; consecutive same-role turns are merged, not refused.
``anthropic-strict`` (Amazon Bedrock, older API versions) adds user/assistant alternation,
user first. ``anthropic_numbering`` mirrors the renderer, so ``messages.N.content.M`` counts what
is sent. Not checked: the extended-thinking rules and prefill. Texts and numbering evidence:
``docs/evidence.md`` (Rules).
"""

from __future__ import annotations

import re
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
ID_PATTERN = "messages.{w}.content.{b}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
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
ALTERNATE = (
    'messages: roles must alternate between "user" and "assistant", but found multiple '
    '"{role}" roles in a row'
)
FIRST_USER = 'messages: first message must use the "user" role'
#: Amazon Bedrock Converse words the strict rules its own way (quoted in the violation message).
BEDROCK_ALTERNATE = (
    "A conversation must alternate between user and assistant roles. Make sure the conversation "
    "alternates between user and assistant roles and try again."
)
BEDROCK_FIRST_USER = (
    "A conversation must start with a user message. Try again with a conversation that starts "
    "with a user message."
)
_ID = re.compile(r"^[a-zA-Z0-9_-]+$")


@dataclass
class WireMessage:
    """One message of Anthropic's ``messages`` list and the neutral messages it was made from."""

    role: str
    neutral_indices: list[int] = field(default_factory=list)
    #: ``(i, j, block)`` in wire order: the wire block index is the position in this list.
    parts: list[tuple[int, int, Any]] = field(default_factory=list)


def anthropic_numbering(messages: list[Message]) -> list[WireMessage]:
    """The ``messages`` list the Anthropic renderer sends (see the module docstring).

    It mirrors ``helpers.formats.anthropic_render``: system messages leave the list; a user message
    right after a tool message joins it; blocks Anthropic cannot take are left out (reasoning
    from another provider or without a signature, an image outside a user message), and so is
    a message that had content but has none left. A message that was empty to begin with keeps
    its place: the renderer leaves it out too (with a note), but a body written by hand keeps
    it, and that is the body Anthropic answers about.
    """
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
    messages: list[Message], tools: list[Tool], core: list[Finding], strict: bool = False
) -> list[tuple[Finding, Answer | None]]:
    """Core findings with Anthropic's answers, plus Anthropic's rules (and the strict ones)."""
    wire = anthropic_numbering(messages)
    at = {(i, j): (w, b) for w, m in enumerate(wire) for b, (i, j, _) in enumerate(m.parts)}
    wire_of = {i: w for w, m in enumerate(wire) for i in m.neutral_indices}
    missing, not_first, unexpected = _pairing(wire)
    kept: list[tuple[Finding, Answer | None]] = []
    for f in core:
        key = (f.message_index, f.block_index)
        answer = None
        if f.rule == "empty-content" and f.block_index is None:
            w = wire_of.get(f.message_index)
            if w is not None and not wire[w].parts:
                if w == len(wire) - 1 and wire[w].role == "assistant":
                    continue  # Anthropic allows an empty final assistant message
                answer = _answer(EMPTY_MESSAGE, w=w)
        elif f.rule == "empty-content":
            block = messages[f.message_index].content[f.block_index]
            answer = _answer(BLANK_TEXT if block.text else EMPTY_TEXT)
        elif f.rule == "call-not-answered" and key in missing:
            answer = Answer(missing[key])
        elif (f.rule.startswith("result-") or f.rule == "duplicate-result") and key in unexpected:
            answer = Answer(unexpected[key])
        elif f.rule == "duplicate-result" and key in at:
            answer = _answer(DUPLICATE_RESULT, w=at[key][0], b=at[key][1], id=f.call_id)
        elif f.rule == "duplicate-id" and key in at and _same_message_duplicate(wire, *at[key]):
            answer = _answer(DUPLICATE, w=at[key][0], b=at[key][1])
        elif f.rule == "no-messages" and not wire:
            answer = _answer(NO_MESSAGES)
        elif f.rule == "duplicate-tool":
            answer = _answer(TOOL_NAMES)
        kept.append((f, answer))
    extra = not_first + _id_patterns(wire)
    if strict:
        extra += _alternation(wire)
    return kept + extra


class _Part(NamedTuple):
    """A block, where Anthropic sees it (``messages.w.content.b``) and where we do (``i, j``)."""

    w: int
    b: int
    i: int
    j: int
    block: Any


def _pairing(wire: list[WireMessage]):
    """Anthropic's tool_use/tool_result check, on turns (runs of same-role wire messages).

    Returns three things: the text for each unanswered call ``(i, j)``, the
    ``results-not-first`` violations, and the text for each unexpected result ``(i, j)``.
    """
    roles, turns = [], []
    for role, ws in groupby(range(len(wire)), key=lambda w: wire[w].role):
        roles.append(role)
        turns.append([_Part(w, b, *part) for w in ws for b, part in enumerate(wire[w].parts)])
    missing: dict[tuple[int, int], str] = {}
    not_first: list[tuple[Finding, Answer]] = []
    unexpected: dict[tuple[int, int], str] = {}
    for t, parts in enumerate(turns):
        if roles[t] == "user":
            asked = {p.block.id for p in (turns[t - 1] if t else []) if _is(p, ToolCall)}
            for p in parts:
                if _is(p, ToolResult) and p.block.call_id not in asked:
                    unexpected[(p.i, p.j)] = UNEXPECTED.format(w=p.w, b=p.b, id=p.block.call_id)
            continue
        following = turns[t + 1] if t + 1 < len(turns) else []
        lead = 0  # how many tool_result blocks open the next turn
        while lead < len(following) and _is(following[lead], ToolResult):
            lead += 1
        leading = {p.block.call_id for p in following[:lead]}
        late = {p.block.call_id for p in following[lead:] if _is(p, ToolResult)} - leading
        unanswered = [p for p in parts if _is(p, ToolCall) and p.block.id not in leading]
        if not unanswered:
            continue
        text = MISSING.format(w=unanswered[0].w, ids=", ".join(p.block.id for p in unanswered))
        for call in unanswered:
            if call.block.id in late:  # answered in the next turn, but after other blocks
                not_first.append(_not_first(call.i, following[lead].i, call.block.id, text))
            else:
                missing[(call.i, call.j)] = text
    return missing, not_first, unexpected


def _is(part: _Part, kind: type) -> bool:
    return isinstance(part.block, kind)


def _not_first(call_at: int, between: int, call_id: str, text: str) -> tuple[Finding, Answer]:
    f = Finding(
        "results-not-first",
        f"this message sits between the tool calls of messages[{call_at}] and the result for "
        f"{call_id!r}; Anthropic puts both in one user turn, and there the tool_result blocks "
        "must come first: move this message after the results",
        between,
        None,
        call_id,
    )
    return f, Answer(text)


def _same_message_duplicate(wire: list[WireMessage], w: int, b: int) -> bool:
    """Public reports show the duplicate check inside one message; across messages is unknown."""
    call = wire[w].parts[b][2]
    return any(isinstance(p[2], ToolCall) and p[2].id == call.id for p in wire[w].parts[:b])


def _id_patterns(wire: list[WireMessage]) -> list[tuple[Finding, Answer]]:
    out = []
    for w, message in enumerate(wire):
        for b, (i, j, block) in enumerate(message.parts):
            if isinstance(block, ToolCall) and not _ID.match(block.id):
                f = Finding(
                    "call-id-pattern",
                    f"call id {block.id!r} has characters Anthropic does not accept: ids match "
                    "^[a-zA-Z0-9_-]+$ (letters, digits, _ and -)",
                    i,
                    j,
                    block.id,
                )
                out.append((f, _answer(ID_PATTERN, w=w, b=b)))
    return out


def _alternation(wire: list[WireMessage]) -> list[tuple[Finding, Answer]]:
    out = []
    if wire and wire[0].role != "user":
        f = Finding(
            "first-must-be-user",
            f"after the system prompt the first message is {wire[0].role}, but the strict rules "
            f"want a user message first. Bedrock Converse answers: {BEDROCK_FIRST_USER}",
            wire[0].neutral_indices[0],
        )
        out.append((f, _answer(FIRST_USER)))
    for w in range(1, len(wire)):
        if wire[w].role == wire[w - 1].role:
            role = wire[w].role
            first = wire[w].neutral_indices[0]
            f = Finding(
                "roles-must-alternate",
                f"on the wire this {role} message follows another {role} message (tool "
                "messages become user messages); the first-party API merges them, the strict "
                f"rules (Bedrock, older API versions) reject them. Bedrock Converse answers: "
                f"{BEDROCK_ALTERNATE}",
                first,
            )
            out.append((f, _answer(ALTERNATE, role=role)))
    return out


def _answer(template: str, **values: Any) -> Answer:
    return Answer(template.format(**values))
