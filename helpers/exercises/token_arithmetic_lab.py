"""Used in lessons: 12.

Exercises of notebooks/12_token_arithmetic_lab.ipynb."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from helpers.exercises import Exercise, Result, check_number
from helpers.lab import Scenario, build_requests, cost_scenario

EX1 = Exercise(
    "12.1",
    nudge="a scenario is plain data: change one field (the tickets per day) and price it again.",
    pointer="replace(baseline, ...) from dataclasses makes the changed copy; cost_scenario(...) "
    "prices it and has .per_day (as in 'Which knob matters?').",
)
EX2 = Exercise(
    "12.2",
    nudge="the share is the tools part of the first request divided by all of its tokens.",
    pointer="build_requests(baseline) gives the scenario's requests; count(request).part('tools')"
    " and count(request).total count them.",
)
EX3 = Exercise(
    "12.3",
    nudge="cost grows with every extra request, because each re-sends the others; try more and "
    "more requests until the ticket crosses the line.",
    pointer="replace(baseline, tools=..., requests=..., caching=False) and cost_scenario(...)"
    ".per_ticket; a loop over the number of requests finds the first one above.",
)


def check_day_cost(answer: Decimal, baseline: Scenario) -> Result:
    expected = cost_scenario(replace(baseline, tickets_per_day=5000)).per_day
    return check_number(
        answer,
        expected,
        EX1,
        tolerance="0.005",
        unit="$",
        success=f"Right: ${expected:,.2f} a day, ${expected * 30:,.2f} a month.",
    )


def check_tools_share(answer: float, baseline: Scenario) -> Result:
    from helpers.tokens import count

    first = count(build_requests(baseline)[0])
    expected = first.part("tools") / first.total
    return check_number(
        answer,
        round(expected, 2),
        EX2,
        tolerance="0.005",
        success=f"Right: {expected:.0%} of the first request is tool definitions.",
    )


def check_break_even_requests(answer: int, baseline: Scenario) -> Result:
    expected = next(
        n
        for n in range(1, 200)
        if cost_scenario(replace(baseline, tools=14, requests=n, caching=False)).per_ticket
        > Decimal("0.005")
    )
    return check_number(
        answer,
        expected,
        EX3,
        success=f"Right: {expected} requests. Each one re-sends all the earlier ones.",
    )
