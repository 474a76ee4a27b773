"""Used in lessons: 04.

Exercises of notebooks/04_the_array_is_rebuilt.ipynb."""

from __future__ import annotations

from helpers.exercises import Result, check_equal
from helpers.messages import Request
from helpers.trace import Trace


def check_third_request(answer: int, ticket: Trace) -> Result:
    expected = len(ticket.steps[2].request_body["messages"])
    return check_equal(
        answer,
        expected,
        hint="len(ticket.steps[2].request_body['messages']) (steps count from 0)",
        success=f"Right: {expected}. Two more than the second request, which it starts with.",
    )


def check_billed_total(answer: int, run: Trace) -> Result:
    expected = run.total("input_tokens")
    return check_equal(
        answer,
        expected,
        hint="sum the input_tokens of every step's reply.usage",
        success=(
            f"Right: {expected:,} input tokens for {len(run.steps)} requests, "
            f"{expected / run.steps[0].reply.usage.input_tokens:.1f}x the first request."
        ),
    )


def check_saved_tokens(answer: int, full: Request, summary: str) -> Result:
    from helpers.cost import compact
    from helpers.tokens import count

    expected = count(full).total - count(compact(full, 2, summary)).total
    return check_equal(
        answer,
        expected,
        hint="count(final_request).total - count(compact(final_request, 2, summary)).total",
        success=f"Right: {expected} tokens saved on every later request, not just this one.",
    )
