"""Used in lessons: none directly (imported by rules).

Gemini ``generateContent``: the shared rules, plus where function calls and responses may sit.
A call turn follows a user or response turn (``call-turn-position``), a response turn follows
its call turn (``response-turn-position``) with one response per call (``response-count``).
``gemini_turns`` mirrors the renderer. Sources and numbering: ``docs/evidence.md`` (Rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from helpers.messages import Message, Reasoning, Tool, ToolCall, ToolResult
from helpers.rules.core import blocks
from helpers.rules.violation import Answer, Finding

CALL_TURN = (
    "Please ensure that function call turn comes immediately after a user turn or after a "
    "function response turn."
)
RESPONSE_TURN = (
    "Please ensure that function response turn comes immediately after a function call turn."
)
COUNT = (
    "Please ensure that the number of function response parts is equal to the number of "
    "function call parts of the function call turn."
)
EMPTY_PARTS = "* GenerateContentRequest.contents[{n}].parts: contents.parts must not be empty."


@dataclass
class GeminiTurn:
    """One ``Content`` of Gemini's ``contents``: ``user``, ``model`` or ``response``."""

    kind: str
    neutral_index: int
    calls: list[tuple[int, int, ToolCall]] = field(default_factory=list)
    results: list[tuple[int, int, ToolResult]] = field(default_factory=list)


def gemini_turns(messages: list[Message]) -> list[GeminiTurn]:
    """The ``contents`` list the Gemini renderer sends (``formats.gemini_render``), as turns.
    System messages leave the list, each tool message is its own function-response turn, and a
    turn left with nothing Gemini takes (only another provider's reasoning) is left out. A message
    empty from the start keeps its place, as in a body written by hand."""
    turns: list[GeminiTurn] = []
    for i, message in enumerate(messages):
        if message.role == "system":
            continue
        kind = {"assistant": "model", "tool": "response"}.get(message.role, "user")
        found = [(j, b) for j, b in blocks(message) if _sent(b)]
        if message.content and not found:
            continue
        calls = [(i, j, b) for j, b in found if isinstance(b, ToolCall)]
        results = [(i, j, b) for j, b in found if isinstance(b, ToolResult)]
        turns.append(GeminiTurn(kind, i, calls, results))
    return turns


def _sent(block: object) -> bool:
    return not isinstance(block, Reasoning) or block.provider in (None, "gemini")


def check(
    messages: list[Message], tools: list[Tool], core: list[Finding]
) -> list[tuple[Finding, Answer | None]]:
    """The core findings (Gemini has no text for them) plus Gemini's three turn rules."""
    turns = gemini_turns(messages)
    out = [(f, _core_answer(f, turns)) for f in core]
    for n, turn in enumerate(turns):
        before = turns[n - 1] if n > 0 else None
        if turn.kind == "model" and turn.calls:
            if before is None or before.kind == "model":
                out.append(_call_turn(turn, before))
            after = turns[n + 1] if n + 1 < len(turns) else None
            if after is not None and after.kind != "response":
                out.append(_no_responses(turn, after))
        elif turn.kind == "response":
            if before is None or before.kind != "model" or not before.calls:
                out.append(_response_turn(turn, before))
            elif len(turn.results) != len(before.calls):
                out.append(_count(turn, before))
    return out


def _core_answer(f: Finding, turns: list[GeminiTurn]) -> Answer | None:
    """Gemini's answer to a shared finding: a turn with no parts, a call answered twice."""
    if f.rule == "empty-content" and f.block_index is None:
        n = next((n for n, t in enumerate(turns) if t.neutral_index == f.message_index), None)
        return None if n is None else Answer(EMPTY_PARTS.format(n=n))
    if f.rule != "duplicate-result":
        return None
    for n, turn in enumerate(turns):
        if any((i, j) == (f.message_index, f.block_index) for i, j, _ in turn.results):
            before = turns[n - 1] if n else None
            if before and before.calls and len(turn.results) != len(before.calls):  # refused
                return Answer(COUNT)
    return None


def _call_turn(turn: GeminiTurn, before: GeminiTurn | None) -> tuple[Finding, Answer]:
    i, j, call = turn.calls[0]
    where = (
        "the history starts with it"
        if before is None
        else f"it follows another model turn (messages[{before.neutral_index}])"
    )
    what = (
        "on Gemini a turn with function calls must come right after a user turn or a "
        f"function-response turn, but {where}"
    )
    return Finding("call-turn-position", what, i, j, call.id), Answer(CALL_TURN)


def _response_turn(turn: GeminiTurn, before: GeminiTurn | None) -> tuple[Finding, Answer]:
    i, j, result = turn.results[0] if turn.results else (turn.neutral_index, None, None)
    follows = (
        "nothing"
        if before is None
        else f"messages[{before.neutral_index}], which is not a turn with function calls"
    )
    what = (
        "on Gemini function responses must come right after the turn with the function calls, "
        f"but this one follows {follows}"
    )
    f = Finding("response-turn-position", what, i, j, result.call_id if result else None)
    return f, Answer(RESPONSE_TURN)


def _no_responses(turn: GeminiTurn, after: GeminiTurn) -> tuple[Finding, Answer]:
    """A function-call turn followed by a turn that answers none of its calls (a result
    dropped, say by compaction): Gemini counts zero responses and refuses it."""
    asked = [c.id for _, _, c in turn.calls]
    what = (
        f"the function-call turn (messages[{turn.neutral_index}]) has {len(asked)} call(s) but "
        f"the next turn (messages[{after.neutral_index}]) holds no function response; on "
        "Gemini every call is answered in the turn right after it"
    )
    return Finding("response-count", what, after.neutral_index, None, asked[0]), Answer(COUNT)


def _count(turn: GeminiTurn, before: GeminiTurn) -> tuple[Finding, Answer]:
    """Placed at the turn (naming the first call left unanswered), else at the first result too
    many: one no call asked for, else a call answered twice."""
    answered = [r.call_id for _, _, r in turn.results]
    asked = [c.id for _, _, c in before.calls]
    unanswered = [cid for cid in asked if cid not in answered]
    extra = [(i, j, r) for i, j, r in turn.results if r.call_id not in asked]
    repeated = [(i, j, r) for n, (i, j, r) in enumerate(turn.results) if r.call_id in answered[:n]]
    i, j, call_id = turn.neutral_index, None, unanswered[0] if unanswered else None
    if not unanswered and (extra or repeated):
        i, j, result = (extra or repeated)[0]
        call_id = result.call_id
    what = (
        f"the function-call turn (messages[{before.neutral_index}]) has {len(asked)} "
        f"call(s) but this function-response turn has {len(answered)} response(s); on Gemini "
        "they must be equal, one response per call"
    )
    return Finding("response-count", what, i, j, call_id), Answer(COUNT)
