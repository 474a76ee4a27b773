"""Used in lessons: none directly (imported by rules).

OpenAI Responses: the shared rules, plus "a reasoning item is followed by what it produced".

Calls and results are ``input`` items paired by ``call_id``: every call has an output and every
output a call. A replayed reasoning item with an ``id`` must be followed by the item it produced,
with that item's own id (``reasoning-not-followed``); ``pairing_on_the_wire`` applies the same
rule to a body's ``input`` items, which may hold types the neutral model cannot. Whether an
output must come right after its call is not documented, so it is not refused. OpenAI's texts
name ids, not positions; ``param`` is ``"input"``. Evidence: ``docs/evidence.md`` (Rules).
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
#: A ``previous_response_id`` the server does not have (never stored, or ``store: false``);
#: ``param: "previous_response_id"``, ``code: "previous_response_not_found"``.
NOT_STORED = "Previous response with id '{id}' not found."
SOURCES = {
    NOT_STORED: "maximhq/bifrost#2441 (OpenAI's answer passed through, store false)",
    NO_OUTPUT: "tjardoo/openai-client#124, lace-ai/gai#49",
    NO_CALL: "james-6-23/codex2api#414, continuedev/continue#10092",
    DUPLICATE: (
        "NousResearch/hermes-agent#102629 (2026-09-04) and mnfst/llm-gateway#2858 (2026-09-10), "
        "both as passed on by a gateway ('a strict Responses provider'); the same item id twice "
        "is 'Duplicate item found with id ...' (openai/openai-agents-python#1789)"
    ),
    REASONING_ALONE: (
        "continuedev/continue#8933, openai/openai-node#1567, vercel/ai#7099 (fixed by sending the "
        "item ids: vercel/ai#7285); a recorded refusal: pydantic/pydantic-ai tests/models/"
        "cassettes/test_openai_responses/test_openai_responses_thinking_with_modified_history.yaml"
        " @ 07b87749 (reasoning item, then the assistant text without its msg_ id: 400)"
    ),
}


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
            if after is None:
                what = "it is the last block of this assistant message"
            else:
                what = f"the {after.type} after it has no Responses item id (item_id)"
            f = Finding(
                "reasoning-not-followed",
                f"reasoning item {block.id!r} is not followed by the item it produced: {what}; "
                "OpenAI pairs a replayed reasoning item with its following item by id (keep the "
                "text or tool call that came with it, with its 'msg_...'/'fc_...' id)",
                i,
                j,
            )
            out.append((f, _answer(REASONING_ALONE, id=block.id)))
    return out


#: Input items that are never what a reasoning item produced: the caller's, not the model's.
_NOT_PRODUCED = ("function_call_output", "custom_tool_call_output", "computer_call_output")


def pairing_on_the_wire(items: list) -> list[tuple[int, str, str]]:
    """``(k, reasoning id, what follows)`` for each reasoning item ``input[k]`` with an ``id``
    that is not followed by the item it produced, matched by id as OpenAI matches it."""
    out = []
    for k, item in enumerate(items):
        if not isinstance(item, dict) or item.get("type") != "reasoning":
            continue
        rid = item.get("id")
        if not isinstance(rid, str) or not rid:
            continue
        after = items[k + 1] if k + 1 < len(items) else None
        if not isinstance(after, dict):
            out.append((k, rid, "nothing follows it"))
            continue
        kind = after.get("type", "message")
        role = after.get("role")
        if kind == "item_reference" or kind == "reasoning":
            continue
        if kind in _NOT_PRODUCED or (kind == "message" and role != "assistant"):
            shown = f"a {role} message" if kind == "message" else f"a {kind} item"
            out.append((k, rid, f"input[{k + 1}] is {shown}, which the model did not produce"))
        elif not isinstance(after.get("id"), str) or not after.get("id"):
            shown = "an assistant message" if kind == "message" else f"a {kind} item"
            out.append((k, rid, f"input[{k + 1}] is {shown} without its id"))
    return out


def wire_finding(k: int, rid: str, what: str) -> tuple[Finding, Answer]:
    """The ``reasoning-not-followed`` finding for ``input[k]`` (``pairing_on_the_wire``), with
    OpenAI's answer; the caller places it at ``input[k]``."""
    f = Finding(
        "reasoning-not-followed",
        f"reasoning item {rid!r} is not followed by the item it produced ({what}); OpenAI "
        "pairs a replayed reasoning item with its following output item by id, so keep that "
        "item right after it, with its own id ('msg_...', 'fc_...')",
    )
    return f, _answer(REASONING_ALONE, id=rid)


def _answer(template: str, **values: str | None) -> Answer:
    return Answer(template.format(**values), SOURCES[template], "input")
