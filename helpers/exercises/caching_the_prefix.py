"""Used in lessons: 06.

Exercises of notebooks/06_caching_the_prefix.ipynb."""

from __future__ import annotations

from decimal import Decimal

from helpers.exercises import Result, check_equal
from helpers.messages import Request


def check_cached_tokens(answer: int, model: str) -> Result:
    from helpers.caching import openai_cached_tokens
    from helpers.models import model_info

    rule = model_info(model).cache
    expected = openai_cached_tokens(1500, rule["min_tokens"], rule["step_tokens"])
    return check_equal(
        answer,
        expected,
        hint="1,024 tokens, plus 128 for every whole 128-token step after that",
        success=f"Right: {expected}. The last {1500 - expected} shared tokens are paid in full.",
    )


def check_break_part(answer: str, previous: Request, current: Request) -> Result:
    from helpers.caching import cache_break

    expected = cache_break(previous, current).part
    return check_equal(
        answer,
        expected,
        hint="cache_break(base_prev, reordered).part",
        success=f"Right: {expected}. Everything from there on is paid in full.",
    )


def check_savings(answer: Decimal, requests: list[Request], model: str) -> Result:
    from helpers.cost import project_ticket

    off = project_ticket(requests, model, caching=False).total_usd
    on = project_ticket(requests, model).total_usd
    return check_equal(
        answer,
        off - on,
        hint="the no-cache ticket's total_usd minus the automatic-cache ticket's total_usd",
        success=f"Right: ${off - on:.6f}, {100 * (off - on) / off:.0f}% of this ticket.",
    )
