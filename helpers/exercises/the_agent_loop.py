"""Used in lessons: 11.

Exercises of notebooks/11_the_agent_loop.ipynb."""

from __future__ import annotations

from helpers.exercises import Result, check_equal
from helpers.trace import Trace


def check_batch_requests(answer: int, runs: dict[str, Trace]) -> Result:
    expected = sum(len(t.steps) for t in runs.values())
    return check_equal(
        answer,
        expected,
        hint="sum len(trace.steps) over runs.values()",
        success=f"Right: {expected} requests, each re-sending its ticket's whole history.",
    )


def check_escalated(answer: str, runs: dict[str, Trace]) -> Result:
    expected = next(
        name
        for name, t in runs.items()
        if "escalate_to_human" in [c for s in t.steps for c in s.tool_calls]
    )
    return check_equal(
        answer,
        expected,
        hint="look for escalate_to_human among each trace's step.tool_calls",
        success=f"Right: {expected!r}. Above $150, a human decides.",
    )


def check_parallel(answer: int, triage: Trace) -> Result:
    expected = max(len(s.tool_calls) for s in triage.steps)
    return check_equal(
        answer,
        expected,
        hint="max(len(step.tool_calls) for step in triage.steps)",
        success=f"Right: {expected} calls in one reply, answered by one tool message.",
    )
