"""Used in lessons: none directly (imported by rules).

OpenAI Responses: the shared rules, plus "a reasoning item is followed by what it produced"
(``reasoning-not-followed``; the stand-in checks the same on a body's own ``input``). Whether an
output must come right after its call is not documented, so it is not refused. OpenAI's texts
name ids, not positions. Evidence: ``docs/evidence.md`` (Rules).
"""

from __future__ import annotations

from helpers.messages import Message, Reasoning, Tool, ToolResult
from helpers.rules.core import blocks
from helpers.rules.violation import Answer, Finding

NO_OUTPUT = "No tool output found for function call {id}."
NO_CALL = "No tool call found for function call output with call_id {id}."
DUPLICATE = (
    "Duplicate function_call_output for call_id '{id}'. Each function_call must have exactly "
    "one matching function_call_output"
)
REASONING_ALONE = (
    "Item '{id}' of type 'reasoning' was provided without its required following item."
)


def check(
    messages: list[Message], tools: list[Tool], core: list[Finding]
) -> list[tuple[Finding, Answer | None]]:
    """The core findings with OpenAI's answers, plus ``reasoning-not-followed``."""
    answered = {b.call_id for m in messages for _, b in blocks(m) if isinstance(b, ToolResult)}
    out: list[tuple[Finding, Answer | None]] = []
    for f in core:
        answer = None
        if f.rule == "call-not-answered" and f.call_id not in answered:
            answer = _answer(NO_OUTPUT, id=f.call_id)
        elif f.rule == "result-without-call":
            answer = _answer(NO_CALL, id=f.call_id)
        elif f.rule == "duplicate-result":
            answer = _answer(DUPLICATE, id=f.call_id)
        out.append((f, answer))
    return out + _reasoning_alone(messages)


def _reasoning_alone(messages: list[Message]) -> list[tuple[Finding, Answer]]:
    out = []
    for i, message in enumerate(messages):
        if message.role != "assistant":
            continue
        found = list(blocks(message))
        for n, (j, block) in enumerate(found):
            if not isinstance(block, Reasoning) or not block.id:
                continue
            after = found[n + 1][1] if n + 1 < len(found) else None
            if isinstance(after, Reasoning) or getattr(after, "item_id", None):
                continue
            missing = (
                "it is the last block of this assistant message"
                if after is None
                else f"the {after.type} after it has no Responses item id (item_id)"
            )
            what = (
                f"reasoning item {block.id!r} is not followed by the item it produced: {missing}; "
                "OpenAI pairs a replayed reasoning item with its following item by id (keep the "
                "text or tool call that came with it, with its 'msg_...'/'fc_...' id)"
            )
            f = Finding("reasoning-not-followed", what, i, j)
            out.append((f, _answer(REASONING_ALONE, id=block.id)))
    return out


def _answer(template: str, **values: str | None) -> Answer:
    return Answer(template.format(**values), "input")
