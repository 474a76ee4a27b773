"""Used in lessons: none directly (imported by rules).

Calls and results pair up: the heart of the rules of the list, checked on the neutral model.

- Call ids are unique across the whole conversation (``duplicate-id``).
- Every call is answered by exactly one result carrying its id, after the call and before the
  next assistant message (``call-not-answered``, ``duplicate-result``).
- Every result answers a call of the assistant message just before it (``result-without-call``,
  ``result-before-call``, ``result-wrong-turn``).

Not checked here: *how close* the result must be; providers differ, so that is theirs.
"""

from __future__ import annotations

from helpers.messages import Message, ToolCall, ToolResult
from helpers.rules.core import blocks
from helpers.rules.violation import Finding


def check_pairing(messages: list[Message]) -> list[Finding]:
    """Walk the list once, matching results to the calls they answer.

    ``pending`` holds the calls of the latest assistant message that still wait for a result;
    the next assistant message (or the end of the list) closes that turn.
    """
    out: list[Finding] = []
    first_call: dict[str, tuple[int, int]] = {}
    for i, message in enumerate(messages):
        for j, block in blocks(message):
            if isinstance(block, ToolCall):
                if block.id in first_call:
                    ci, cj = first_call[block.id]
                    out.append(
                        Finding(
                            "duplicate-id",
                            f"call id {block.id!r} is already used by messages[{ci}].content"
                            f"[{cj}]; results find their call by id, so ids must be unique "
                            "across the whole conversation",
                            i,
                            j,
                            block.id,
                        )
                    )
                else:
                    first_call[block.id] = (i, j)

    pending: list[tuple[str, int, int]] = []
    answered: dict[str, tuple[int, int]] = {}
    last_assistant: int | None = None

    def close_turn(next_assistant: int | None) -> None:
        for cid, ci, cj in pending:
            limit = (
                f"the next assistant message (messages[{next_assistant}])"
                if next_assistant is not None
                else "the end of the conversation"
            )
            out.append(
                Finding(
                    "call-not-answered",
                    f"no tool_result answers this call before {limit}; every call must be "
                    "answered by exactly one result carrying its id",
                    ci,
                    cj,
                    cid,
                )
            )
        pending.clear()

    for i, message in enumerate(messages):
        if getattr(message, "role", None) == "assistant":
            close_turn(i)
            last_assistant = i
            pending += [(b.id, i, j) for j, b in blocks(message) if isinstance(b, ToolCall)]
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
                out.append(
                    Finding(
                        "duplicate-result",
                        f"call {cid!r} is already answered by messages[{ai}].content[{aj}]; "
                        "each call gets exactly one result",
                        i,
                        j,
                        cid,
                    )
                )
            elif cid in first_call:
                out.append(_misplaced_result(i, j, cid, first_call[cid], last_assistant))
                answered[cid] = (i, j)
            else:
                out.append(
                    Finding(
                        "result-without-call",
                        f"no tool call has id {cid!r}: this result answers nothing (an orphan)",
                        i,
                        j,
                        cid,
                    )
                )
    close_turn(None)
    return out


def _misplaced_result(
    i: int, j: int, cid: str, call_at: tuple[int, int], last_assistant: int | None
) -> Finding:
    ci, cj = call_at
    if (ci, cj) > (i, j):
        return Finding(
            "result-before-call",
            f"this result comes before its call (messages[{ci}].content[{cj}]); the order of "
            "the list is the order of events, so a result must come after its call",
            i,
            j,
            cid,
        )
    return Finding(
        "result-wrong-turn",
        f"this result answers the call in messages[{ci}], but the assistant message right "
        f"before it is messages[{last_assistant}]; results answer the calls of the assistant "
        "message just before them",
        i,
        j,
        cid,
    )
