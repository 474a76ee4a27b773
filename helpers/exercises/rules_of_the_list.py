"""Used in lessons: 10.

Exercises of notebooks/10_rules_of_the_list.ipynb."""

from __future__ import annotations

from helpers.cost import Ticket
from helpers.exercises import Result, check_equal
from helpers.messages import Message, Request


def check_dropped_rule(answer: str, dropped: Request) -> Result:
    from helpers.rules import check

    expected = check(dropped)[0].rule
    return check_equal(
        answer,
        expected,
        hint="check(dropped) returns violations; read .rule of the first",
        success=f"Right: {expected}. The call c1 waits forever for its result.",
    )


def check_safe_cuts(answer: int, history: list[Message]) -> Result:
    from helpers.rules.cuts import turn_boundaries

    expected = len(turn_boundaries(history))
    return check_equal(
        answer,
        expected,
        hint="len(turn_boundaries(history))",
        success=f"Right: {expected} of {len(history)} positions. Everywhere else, a pair is split.",
    )


def check_cache_miss_request(answer: int, compacted: Ticket) -> Result:
    expected = min(compacted.turns[1:], key=lambda t: t.cached_tokens / t.input_tokens).turn
    return check_equal(
        answer,
        expected,
        hint="for each turn after the first, cached_tokens / input_tokens; take the smallest",
        success=f"Right: request {expected}, the first one after the summary replaced old turns.",
    )
