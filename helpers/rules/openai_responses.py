"""Used in lessons: 04, 08, 10.

OpenAI Responses: the shared rules, plus "a reasoning item is followed by what it produced".

The Responses API has no ``tool`` role: calls and results are typed *items* of ``input``
(``function_call``, ``function_call_output``), paired by ``call_id``. What it checks, as far as
public error reports show, is the pairing itself: every call has an output somewhere in
``input`` and every output has a call. Whether the output must come right after its call is not
documented, so a result that answers late keeps the core violation but no OpenAI text.

Reasoning items (``rs_...``) are replayed as input and must be followed by the item they produced
(a message or a function call). On the neutral model that means: a reasoning block carrying a
Responses item ``id`` may not be the last block of its assistant message. Reasoning blocks without
an ``id`` cannot be replayed to Responses at all (the renderer drops them), so they are not
checked.

**Numbering.** OpenAI's texts name call ids, not positions; ``param`` is always ``"input"``.
"""

from __future__ import annotations

from helpers.messages import Message, Reasoning, Tool, ToolResult
from helpers.rules.core import blocks
from helpers.rules.violation import Violation, set_provider_error

NO_OUTPUT = "No tool output found for function call {id}."
NO_CALL = "No tool call found for function call output with call_id {id}."
REASONING_ALONE = (
    "Item '{id}' of type 'reasoning' was provided without its required following item."
)
#: A ``previous_response_id`` the server does not have (never stored, or ``store: false``);
#: ``param: "previous_response_id"``, ``code: "previous_response_not_found"``.
NOT_STORED = "Previous response with id '{id}' not found."
SOURCES = {
    NOT_STORED: "maximhq/bifrost#2441 (OpenAI's answer passed through, store false)",
    NO_OUTPUT: "tjardoo/openai-client#124, lace-ai/gai#49",
    NO_CALL: "james-6-23/codex2api#414, continuedev/continue#10092",
    REASONING_ALONE: "continuedev/continue#8933, openai/openai-node#1567, vercel/ai#7099",
}


def check(messages: list[Message], tools: list[Tool], core: list[Violation]) -> list[Violation]:
    """The core violations with OpenAI's texts filled in, plus ``reasoning-not-followed``."""
    answered = {b.call_id for m in messages for _, b in blocks(m) if isinstance(b, ToolResult)}
    for v in core:
        if v.rule == "call-not-answered" and v.call_id not in answered:
            _answer(v, NO_OUTPUT, id=v.call_id)
        elif v.rule == "result-without-call":
            _answer(v, NO_CALL, id=v.call_id)
    return core + _reasoning_alone(messages)


def _reasoning_alone(messages: list[Message]) -> list[Violation]:
    out = []
    for i, message in enumerate(messages):
        if message.role != "assistant":
            continue
        found = list(blocks(message))
        if not found:
            continue
        j, last = found[-1]
        if isinstance(last, Reasoning) and last.id:
            v = Violation(
                "reasoning-not-followed",
                f"reasoning item {last.id!r} is the last block of this assistant message; on "
                "Responses a reasoning item must be followed by the message or function call it "
                "produced (keep the text or tool_call that came with it)",
                i,
                j,
            )
            out.append(_answer(v, REASONING_ALONE, id=last.id))
    return out


def _answer(v: Violation, template: str, **values: str | None) -> Violation:
    return set_provider_error(v, template.format(**values), SOURCES[template], "input")
