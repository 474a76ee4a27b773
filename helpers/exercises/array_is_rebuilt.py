"""Used in lessons: 04.

Exercises of notebooks/04_the_array_is_rebuilt.ipynb."""

from __future__ import annotations

from helpers.exercises import Exercise, Result, check_number
from helpers.messages import Request
from helpers.trace import Trace

EX1 = Exercise(
    "04.1",
    nudge="each request re-sends the whole list so far: the one before it, plus the reply and "
    "the tool result that came back.",
    pointer="ticket.steps holds one step per request (counting from 0); each step's "
    "request_body is the JSON that was sent.",
)
EX2 = Exercise(
    "04.2",
    nudge="every request is billed for all the input it sends, so the total is a sum over "
    "requests, not the last request alone.",
    pointer="triage_run.steps, and each step's reply.usage.input_tokens, as in the cell that "
    "draws the growth plot.",
)
EX3 = Exercise(
    "04.3",
    nudge="compaction keeps the system prompt, a summary and the last few messages; the saving "
    "is the difference between the two requests' token counts.",
    pointer="compact(request, keep_last, summary) and count(...).total, used in the cell under "
    "'The history is yours to edit'.",
)


def check_third_request(answer: int, ticket: Trace) -> Result:
    expected = len(ticket.steps[2].request_body["messages"])
    return check_number(
        answer,
        expected,
        EX1,
        success=f"Right: {expected}. Two more than the second request, which it starts with.",
    )


def check_billed_total(answer: int, run: Trace) -> Result:
    expected = run.total("input_tokens")
    return check_number(
        answer,
        expected,
        EX2,
        success=(
            f"Right: {expected:,} input tokens for {len(run.steps)} requests, "
            f"{expected / run.steps[0].reply.usage.input_tokens:.1f}x the first request."
        ),
    )


def check_saved_tokens(answer: int, full: Request, summary: str) -> Result:
    from helpers.cost import compact
    from helpers.tokens import count

    expected = count(full).total - count(compact(full, 2, summary)).total
    return check_number(
        answer,
        expected,
        EX3,
        success=f"Right: {expected} tokens saved on every later request, not just this one.",
    )
