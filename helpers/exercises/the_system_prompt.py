"""Exercises of notebooks/09_the_system_prompt.ipynb."""

from __future__ import annotations

from helpers.exercises import Exercise, Result, check_number
from helpers.trace import Trace

EX1 = Exercise(
    "09.1",
    nudge="the prompt splits into paragraphs, and each one is counted on its own.",
    pointer="sections (from count_sections, under 'Anatomy') has one entry per paragraph, with "
    ".text and .tokens.",
)
EX2 = Exercise(
    "09.2",
    nudge="the system prompt is re-sent, unchanged, with every request of the run.",
    pointer="count_text(text, model) counts one copy; triage.steps has one step per request.",
)
EX3 = Exercise(
    "09.3",
    nudge="the model asked for a refund with a tool call, and the amount is one of the call's "
    "arguments.",
    pointer="jon_run.messages holds every message; look through each message's content for the "
    "tool_call block named issue_refund and read its .arguments.",
)


def check_steps_tokens(answer: int, model: str) -> Result:
    from helpers.examples import crash_triage
    from helpers.tokens.sections import count_sections

    sections = count_sections(crash_triage.SYSTEM_PROMPT, model)
    expected = next(s.tokens for s in sections if s.text.startswith("Steps:"))
    return check_number(
        answer,
        expected,
        EX1,
        success=f"Right: {expected} tokens, the largest paragraph, and the one that earns them.",
    )


def check_run_prompt_tokens(answer: int, run: Trace, model: str) -> Result:
    from helpers.examples import crash_triage
    from helpers.tokens import count_text

    expected = count_text(crash_triage.SYSTEM_PROMPT, model) * len(run.steps)
    return check_number(
        answer,
        expected,
        EX2,
        success=f"Right: {expected:,} tokens of the same text, once per request.",
    )


def check_refused_amount(answer: float, run: Trace) -> Result:
    calls = [
        b
        for m in run.messages
        for b in m.content
        if b.type == "tool_call" and b.name == "issue_refund"
    ]
    expected = calls[0].arguments["amount_usd"] if calls else 0
    return check_number(
        answer,
        expected,
        EX3,
        tolerance="0.005",
        unit="$",
        success=f"Right: ${expected:.2f}, refused by run_tool, whatever the prompt said.",
    )
