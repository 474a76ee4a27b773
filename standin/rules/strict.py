"""Used in lessons: none directly (imported by rules.errors, rules.table, verdict, cli.check).

The ``anthropic-strict`` profile: Anthropic's rules of the list, plus what Amazon Bedrock and
older API versions refuse where the first-party API merges: user and assistant in turn on the
wire, a user message first. The texts are Anthropic's; Bedrock Converse's own words are quoted in
the violation's message. ``check`` and ``findings`` take every profile: the learner's
(``helpers.rules.PROFILES``) are ``helpers.rules``' own.
"""

from __future__ import annotations

import re
from dataclasses import replace

from helpers import rules
from helpers.messages import Message, Request, ToolCall, message_from_json
from helpers.rules import Answer, Finding, Violation, Violations, judged
from helpers.rules.anthropic import WireMessage, anthropic_numbering
from standin.providers import FORMATS, of

STRICT = "anthropic-strict"
#: Every profile the stand-in checks: the learner's, and the strict one beside ``anthropic``.
PROFILES: tuple[str, ...] = (
    "portable",
    "openai-chat",
    "openai-responses",
    "anthropic",
    STRICT,
    "gemini",
)
ALTERNATE = (
    'messages: roles must alternate between "user" and "assistant", but found multiple '
    '"{role}" roles in a row'
)
FIRST_USER = 'messages: first message must use the "user" role'
ID_PATTERN = "messages.{w}.content.{b}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
#: Amazon Bedrock Converse words the strict rules its own way (quoted in the violation message).
BEDROCK_ALTERNATE = (
    "A conversation must alternate between user and assistant roles. Make sure the conversation "
    "alternates between user and assistant roles and try again."
)
BEDROCK_FIRST_USER = (
    "A conversation must start with a user message. Try again with a conversation that starts "
    "with a user message."
)


def check(request_or_messages: Request | list[Message], profile: str = "portable") -> Violations:
    """``helpers.rules.check`` under ``profile``, which may also be ``anthropic-strict``; the
    ``anthropic`` profiles also check the id pattern."""
    if not _with_ids(profile):
        return rules.check(request_or_messages, profile)
    first_party = rules.check(request_or_messages, "anthropic")  # reads and checks the input
    messages = list(getattr(request_or_messages, "messages", request_or_messages))
    messages = [message_from_json(m) if isinstance(m, dict) else m for m in messages]
    first_party += [judged(f, "anthropic", a) for f, a in id_patterns(messages)]
    if profile != STRICT:
        return Violations(sorted(first_party, key=_position))
    made = [replace(v, profile=STRICT) for v in first_party]  # the same decision: not portable
    made += [judged(f, STRICT, answer) for f, answer in alternation(messages)]
    return Violations(sorted(made, key=_position))


def findings(request: Request, profile: str) -> list[tuple[Finding, Answer | None]]:
    """``helpers.rules.findings`` under ``profile``, which may also be ``anthropic-strict``."""
    messages, tools = list(request.messages), list(request.tools)
    if not _with_ids(profile):
        return rules.findings(messages, tools, profile)
    found = rules.findings(messages, tools, "anthropic") + id_patterns(messages)
    return found + alternation(messages) if profile == STRICT else found


def _with_ids(profile: str) -> bool:
    """Whether ``profile`` checks Anthropic's id pattern: its own (``ID_PATTERNS``) or strict."""
    return profile == STRICT or (profile in FORMATS and of(profile).ID_PATTERNS)


def _position(v: Violation) -> tuple[int, int]:
    """``helpers.rules.check``'s order: list order, request-level first, ties as found."""
    return (
        -1 if v.message_index is None else v.message_index,
        -1 if v.block_index is None else v.block_index,
    )


def alternation(messages: list[Message]) -> list[tuple[Finding, Answer]]:
    """The strict rules on Anthropic's ``messages`` list: a user message first, then user and
    assistant in turn (tool messages become user messages)."""
    wire = anthropic_numbering(messages)
    out = []
    if wire and wire[0].role != "user":
        what = (
            f"after the system prompt the first message is {wire[0].role}, but the strict rules "
            f"want a user message first. Bedrock Converse answers: {BEDROCK_FIRST_USER}"
        )
        f = Finding("first-must-be-user", what, wire[0].neutral_indices[0])
        out.append((f, Answer(FIRST_USER)))
    for w in range(1, len(wire)):
        role = wire[w].role
        if role == wire[w - 1].role:
            what = (
                f"on the wire this {role} message follows another {role} message (tool "
                "messages become user messages); the first-party API merges them, the strict "
                "rules (Bedrock, older API versions) reject them. Bedrock Converse answers: "
                f"{BEDROCK_ALTERNATE}"
            )
            f = Finding("roles-must-alternate", what, wire[w].neutral_indices[0])
            out.append((f, Answer(ALTERNATE.format(role=role))))
    return out


def id_patterns(messages: list[Message]) -> list[tuple[Finding, Answer]]:
    """Anthropic takes tool_use ids matching ``^[a-zA-Z0-9_-]+$`` only (``call-id-pattern``)."""
    wire: list[WireMessage] = anthropic_numbering(messages)
    out = []
    for w, message in enumerate(wire):
        for b, (i, j, block) in enumerate(message.parts):
            if isinstance(block, ToolCall) and not _ID.match(block.id):
                what = (
                    f"call id {block.id!r} has characters Anthropic does not accept: ids match "
                    "^[a-zA-Z0-9_-]+$ (letters, digits, _ and -)"
                )
                f = Finding("call-id-pattern", what, i, j, block.id)
                out.append((f, Answer(ID_PATTERN.format(w=w, b=b))))
    return out
