"""Used in lessons: 12.

Exercises of notebooks/12_token_arithmetic_lab.ipynb."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from helpers.exercises import Result, check_equal
from helpers.lab import Scenario, build_requests, cost_scenario


def check_day_cost(answer: Decimal, baseline: Scenario) -> Result:
    expected = cost_scenario(replace(baseline, tickets_per_day=5000)).per_day
    return check_equal(
        answer,
        expected,
        hint="cost_scenario(replace(baseline, tickets_per_day=5000)).per_day",
        success=f"Right: ${expected:,.2f} a day, ${expected * 30:,.2f} a month.",
    )


def check_tools_share(answer: float, baseline: Scenario) -> Result:
    from helpers.tokens import count

    first = count(build_requests(baseline)[0])
    expected = round(first.part("tools") / first.total, 2)
    return check_equal(
        answer,
        expected,
        hint="count(first).part('tools') / count(first).total, rounded to 2 decimals",
        success=f"Right: {expected:.0%} of the first request is tool definitions.",
    )


def check_break_even_requests(answer: int, baseline: Scenario) -> Result:
    expected = next(
        n
        for n in range(1, 200)
        if cost_scenario(replace(baseline, tools=14, requests=n, caching=False)).per_ticket
        > Decimal("0.005")
    )
    return check_equal(
        answer,
        expected,
        hint="try n = 1, 2, 3, ... with replace(baseline, tools=14, requests=n, caching=False)",
        success=f"Right: {expected} requests. Each one re-sends all the earlier ones.",
    )
