"""Used in lessons: 09.

Exercises of notebooks/09_the_system_prompt.ipynb."""

from __future__ import annotations

from helpers.exercises import Result, check_equal
from helpers.trace import Trace


def check_steps_tokens(answer: int, model: str) -> Result:
    from helpers.examples import crash_triage
    from helpers.tokens.sections import count_sections

    sections = count_sections(crash_triage.SYSTEM_PROMPT, model)
    expected = next(s.tokens for s in sections if s.text.startswith("For each problem:"))
    return check_equal(
        answer,
        expected,
        hint="the section that holds the numbered steps",
        success=f"Right: {expected} tokens, the largest paragraph, and the one that earns them.",
    )


def check_run_prompt_tokens(answer: int, run: Trace, model: str) -> Result:
    from helpers.examples import crash_triage
    from helpers.tokens import count_text

    expected = count_text(crash_triage.SYSTEM_PROMPT, model) * len(run.steps)
    return check_equal(
        answer,
        expected,
        hint="the prompt's token count times the number of requests (len(triage.steps))",
        success=f"Right: {expected:,} tokens of the same text, once per request.",
    )


def check_refused_amount(answer: float, run: Trace) -> Result:
    calls = [
        b
        for m in run.messages
        for b in m.content
        if b.type == "tool_call" and b.name == "issue_refund"
    ]
    expected = calls[0].arguments["amount_usd"] if calls else None
    return check_equal(
        answer,
        expected,
        hint="look for the tool_call block named issue_refund and read arguments['amount_usd']",
        success=f"Right: ${expected:.2f}, refused by run_tool, whatever the prompt said.",
    )
