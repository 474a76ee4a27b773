"""Used in lessons: 10.

Calls and results pair up: the heart of the rules of the list, checked on the neutral model.
Ids are unique; every call is answered once, after it and before the next assistant message;
every result answers a call of the assistant message just before it. ``turn_boundaries``: where
a history can be cut without breaking these. *How close* a result must be is the providers'.
"""

from __future__ import annotations

from helpers.messages import Message, ToolCall, ToolResult
from helpers.rules.core import blocks
from helpers.rules.violation import Finding


def check_pairing(messages: list[Message]) -> list[Finding]:
    """Find ids used twice, then walk the list matching results to the calls they answer:
    ``pending`` holds the calls of the latest assistant message that still wait for a result;
    the next assistant message (or the end of the list) closes that turn."""
    out: list[Finding] = []
    first_call: dict[str, tuple[int, int]] = {}
    for i, message in enumerate(messages):
        for j, block in blocks(message):
            if isinstance(block, ToolCall) and first_call.setdefault(block.id, (i, j)) != (i, j):
                ci, cj = first_call[block.id]
                what = (
                    f"call id {block.id!r} is already used by messages[{ci}].content[{cj}]; "
                    "results find their call by id, so ids must be unique across the whole "
                    "conversation"
                )
                out.append(Finding("duplicate-id", what, i, j, block.id))
    pending: list[tuple[str, int, int]] = []
    answered: dict[str, tuple[int, int]] = {}
    last_assistant: int | None = None
    for i, message in enumerate(messages):
        if getattr(message, "role", None) == "assistant":
            out += [_not_answered(call, i) for call in pending]
            pending = [(b.id, i, j) for j, b in blocks(message) if isinstance(b, ToolCall)]
            last_assistant = i
        for j, block in blocks(message):
            if not isinstance(block, ToolResult):
                continue
            cid = block.call_id
            match = next((p for p in pending if p[0] == cid), None)
            if match is not None:
                pending.remove(match)
                answered[cid] = (i, j)
            elif cid in answered:
                ai, aj = answered[cid]
                what = (
                    f"call {cid!r} is already answered by messages[{ai}].content[{aj}]; each "
                    "call gets exactly one result"
                )
                out.append(Finding("duplicate-result", what, i, j, cid))
            elif cid in first_call:
                out.append(_misplaced_result(i, j, cid, first_call[cid], last_assistant))
                answered[cid] = (i, j)
            else:
                what = f"no tool call has id {cid!r}: this result answers nothing (an orphan)"
                out.append(Finding("result-without-call", what, i, j, cid))
    return out + [_not_answered(call, None) for call in pending]


def _not_answered(call: tuple[str, int, int], next_assistant: int | None) -> Finding:
    cid, ci, cj = call
    limit = (
        "the end of the conversation"
        if next_assistant is None
        else f"the next assistant message (messages[{next_assistant}])"
    )
    what = (
        f"no tool_result answers this call before {limit}; every call must be answered by "
        "exactly one result carrying its id"
    )
    return Finding("call-not-answered", what, ci, cj, cid)


def _misplaced_result(
    i: int, j: int, cid: str, call_at: tuple[int, int], last_assistant: int | None
) -> Finding:
    ci, cj = call_at
    if (ci, cj) > (i, j):
        what = (
            f"this result comes before its call (messages[{ci}].content[{cj}]); the order of "
            "the list is the order of events, so a result must come after its call"
        )
        return Finding("result-before-call", what, i, j, cid)
    what = (
        f"this result answers the call in messages[{ci}], but the assistant message right "
        f"before it is messages[{last_assistant}]; results answer the calls of the assistant "
        "message just before them"
    )
    return Finding("result-wrong-turn", what, i, j, cid)


def turn_boundaries(messages: list[Message]) -> list[int]:
    """Indices ``k`` (past the leading system messages, which are always kept) where a history
    cut to ``messages[k:]`` can start: not at a tool message, and with every call before ``k``
    answered before ``k`` (else a result loses its call, or a call its result)."""
    first = next((i for i, m in enumerate(messages) if m.role != "system"), len(messages))
    open_calls: set[str] = set()
    safe = []
    for k in range(first, len(messages)):
        if messages[k].role != "tool" and not open_calls:
            safe.append(k)
        for block in messages[k].content:
            if isinstance(block, ToolCall):
                open_calls.add(block.id)
            elif isinstance(block, ToolResult):
                open_calls.discard(block.call_id)
    return safe
