"""Used in lessons: none directly (imported by rules, rules.table).

OpenAI Responses: the shared rules, plus "a reasoning item is followed by what it produced".

The Responses API has no ``tool`` role: calls and results are typed *items* of ``input``
(``function_call``, ``function_call_output``), paired by ``call_id``. What it checks, as far as
public error reports show, is the pairing itself: every call has an output somewhere in
``input`` and every output has a call. Whether the output must come right after its call is not
documented, so a result that answers late keeps the core violation but no OpenAI text.

Reasoning items (``rs_...``) are replayed as input and OpenAI pairs each with the item it produced
*by id*: the item right after a reasoning item that carries an ``id`` must be that output item,
with its own id (``msg_...``, ``fc_...``, ``ctc_...``, ``ws_...``; or an ``item_reference``). An
assistant text replayed as a plain message (no id), a function call without its ``fc_...`` id, a
user turn, a tool output, or nothing at all: OpenAI answers 400 (a recorded refusal:
pydantic/pydantic-ai ``test_openai_responses_thinking_with_modified_history``). On the neutral
model: a reasoning block with an ``id`` is followed, in its assistant message, by a text or tool
call that keeps its Responses ``item_id`` (or by another reasoning block). ``pairing_on_the_wire``
applies the same rule to a body's ``input`` items, which can hold item types the neutral model
cannot (``standin.verdict`` uses it). Reasoning blocks without an ``id`` cannot be replayed to
Responses at all (the renderer drops them), so they are not checked.

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
    REASONING_ALONE: (
        "continuedev/continue#8933, openai/openai-node#1567, vercel/ai#7099 (fixed by sending the "
        "item ids: vercel/ai#7285); a recorded refusal: pydantic/pydantic-ai tests/models/"
        "cassettes/test_openai_responses/test_openai_responses_thinking_with_modified_history.yaml"
        " @ 07b87749 (reasoning item, then the assistant text without its msg_ id: 400)"
    ),
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
            v = Violation(
                "reasoning-not-followed",
                f"reasoning item {block.id!r} is not followed by the item it produced: {what}; "
                "OpenAI pairs a replayed reasoning item with its following item by id (keep the "
                "text or tool call that came with it, with its 'msg_...'/'fc_...' id)",
                i,
                j,
            )
            out.append(_answer(v, REASONING_ALONE, id=block.id))
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


def wire_violation(k: int, rid: str, what: str) -> Violation:
    """The ``reasoning-not-followed`` violation for ``input[k]`` (``pairing_on_the_wire``)."""
    v = Violation(
        "reasoning-not-followed",
        f"reasoning item {rid!r} is not followed by the item it produced ({what}); OpenAI "
        "pairs a replayed reasoning item with its following output item by id, so keep that "
        "item right after it, with its own id ('msg_...', 'fc_...')",
    )
    v.path = f"input[{k}]"
    return _answer(v, REASONING_ALONE, id=rid)


def _answer(v: Violation, template: str, **values: str | None) -> Violation:
    return set_provider_error(v, template.format(**values), SOURCES[template], "input")
