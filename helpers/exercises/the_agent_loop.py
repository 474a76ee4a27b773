"""Exercises of notebooks/11_the_agent_loop.ipynb."""

from __future__ import annotations

from helpers.exercises import Exercise, Result, check_number, check_text
from helpers.trace import Trace

EX1 = Exercise(
    "11.1",
    nudge="every trace keeps one step per request it sent; the batch is all three traces.",
    pointer="runs (from 'A batch of tickets') maps each ticket's name to its trace; each trace "
    "has .steps.",
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


def check_batch_requests(answer: int, runs: dict[str, Trace]) -> Result:
    expected = sum(len(t.steps) for t in runs.values())
    return check_number(
        answer,
        expected,
        EX1,
        success=f"Right: {expected} requests, each re-sending its ticket's whole history.",
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
