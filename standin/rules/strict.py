"""Used in lessons: none directly (imported by rules.errors, rules.table, verdict, cli.check).

The ``anthropic-strict`` profile: Anthropic's rules of the list, plus what Amazon Bedrock and
older API versions refuse where the first-party API merges: user and assistant in turn on the
wire, a user message first. The texts are Anthropic's; Bedrock Converse's own words are quoted in
the violation's message. ``check`` and ``findings`` take every profile: the learner's
(``helpers.rules.PROFILES``) are ``helpers.rules``' own.
"""

from __future__ import annotations

from dataclasses import replace

from helpers import rules
from helpers.messages import Message, Request, message_from_json
from helpers.rules import Answer, Finding, Violation, Violations, judged
from helpers.rules.anthropic import anthropic_numbering

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
    """``helpers.rules.check`` under ``profile``, which may also be ``anthropic-strict``."""
    if profile != STRICT:
        return rules.check(request_or_messages, profile)
    first_party = rules.check(request_or_messages, "anthropic")  # reads and checks the input
    messages = list(getattr(request_or_messages, "messages", request_or_messages))
    messages = [message_from_json(m) if isinstance(m, dict) else m for m in messages]
    made = [replace(v, profile=STRICT) for v in first_party]  # the same decision: not portable
    made += [judged(f, STRICT, answer) for f, answer in alternation(messages)]
    return Violations(sorted(made, key=_position))


def findings(request: Request, profile: str) -> list[tuple[Finding, Answer | None]]:
    """``helpers.rules.findings`` under ``profile``, which may also be ``anthropic-strict``."""
    if profile != STRICT:
        return rules.findings(request, profile)
    return rules.findings(request, "anthropic") + alternation(list(request.messages))


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
