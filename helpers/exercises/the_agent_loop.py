"""Used in lessons: 11.

Exercises of notebooks/11_the_agent_loop.ipynb."""

from __future__ import annotations

from typing import Any

from helpers.exercises import (
    Exercise,
    Result,
    check_number,
    check_text,
    check_value,
    not_answered,
    not_yet,
)
from helpers.trace import Trace

EX1 = Exercise(
    "11.1",
    nudge="the loop stops when a reply has no tool calls, or when it runs out of turns; give it "
    "fewer turns than the ticket needs and look at how the trace ends.",
    pointer="run(...) takes max_turns; call it as the error-result cell did for Jon's ticket "
    "(against reckless), with a smaller budget, and pass the trace to the check.",
)
EX2 = Exercise(
    "11.2",
    nudge="above the refund ceiling the agent hands over to a person, through a tool call.",
    pointer="each step of a trace has .tool_calls, the names of the tools it called; look for "
    "the handover tool in each trace of runs.",
)
EX3 = Exercise(
    "11.3",
    nudge="parallel calls come in one reply; count the calls of each reply and keep the biggest.",
    pointer="triage.steps (from the crash-triage batch) has one step per reply, each with "
    ".tool_calls.",
)


def check_capped(answer: Any) -> Result:
    """``answer``: the trace of Jon's ticket run with ``max_turns=2``."""
    if not_answered(answer):
        return check_value(answer, None, EX1, success="")
    if not isinstance(answer, Trace):
        return not_yet(EX1, f"{type(answer).__name__} is not a trace; pass what run(...) returned")
    steps = answer.steps
    if len(steps) != 2:
        return not_yet(EX1, f"this trace has {len(steps)} requests, not the 2 the cap allows")
    waiting = steps[-1].tool_calls
    if not waiting:
        return not_yet(
            EX1, "this trace ends with a final answer: use Jon's ticket, which needs more turns"
        )
    return Result(
        True,
        f"Right: the loop stopped after 2 requests with the model still asking for "
        f"{', '.join(waiting)}, and nobody answered the buyer. A budget needs an exit: tell the "
        "user, or hand over to a human.",
        EX1,
        expected="a trace of 2 requests that ends waiting for tools",
    )


def check_escalated(answer: str, runs: dict[str, Trace]) -> Result:
    expected = next(
        name
        for name, t in runs.items()
        if "escalate_to_human" in [c for s in t.steps for c in s.tool_calls]
    )
    return check_text(
        answer,
        expected,
        EX2,
        success=f"Right: {expected!r}. Above $150, a human decides.",
    )


def check_parallel(answer: int, triage: Trace) -> Result:
    expected = max(len(s.tool_calls) for s in triage.steps)
    return check_number(
        answer,
        expected,
        EX3,
        success=f"Right: {expected} calls in one reply, answered by one tool message.",
    )
