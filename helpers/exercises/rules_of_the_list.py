"""Exercises of notebooks/10_rules_of_the_list.ipynb."""

from __future__ import annotations

from helpers.cost import Ticket
from helpers.exercises import Exercise, Result, check_number, check_one_of, check_text
from helpers.messages import Message, Request

EX1 = Exercise(
    "10.1",
    nudge="a tool call with no result breaks the first of the three rules; the checker names "
    "each rule with a short id.",
    pointer="check(history) (used in 'Three rules') returns a list of violations; each has a "
    ".rule.",
)
EX2 = Exercise(
    "10.2",
    nudge="a safe cut never separates a tool call from its result: it falls where one turn "
    "ends and the next begins.",
    pointer="turn_boundaries(history), used under 'Shortening without breaking', returns the "
    "positions where a cut is safe.",
)
EX3 = Exercise(
    "10.3",
    nudge="after compaction the start of the request changes, so the cache has nothing to "
    "serve until a new prefix has been sent once.",
    pointer="compacted.turns (the right-hand columns of the table) has .turn, .cached_tokens "
    "and .input_tokens for each request; compare the share cached.",
)


def check_dropped_rule(answer: str, dropped: Request) -> Result:
    from helpers.rules import check

    expected = check(dropped)[0].rule
    return check_text(
        answer,
        expected,
        EX1,
        success=f"Right: {expected}. The call c1 waits forever for its result.",
    )


def check_safe_cuts(answer: int, history: list[Message]) -> Result:
    from helpers.rules.cuts import turn_boundaries

    expected = len(turn_boundaries(history))
    return check_number(
        answer,
        expected,
        EX2,
        success=f"Right: {expected} of {len(history)} positions. Everywhere else, a pair is split.",
    )


def check_cache_miss_request(answer: int, compacted: Ticket) -> Result:
    """Several requests can tie for the lowest share (two in a row serve nothing from the
    cache after a compaction): each of them is a right answer."""
    later = compacted.turns[1:]
    lowest = min(t.cached_tokens / t.input_tokens for t in later)
    tied = [t.turn for t in later if t.cached_tokens / t.input_tokens == lowest]
    which = " and ".join(f"request {n}" for n in tied)
    return check_one_of(
        answer,
        tied,
        EX3,
        success=(
            f"Right: {which} {'tie' if len(tied) > 1 else 'has the lowest share'} "
            f"({lowest:.0%} cached): after the summary replaced old turns, the cache needs one "
            "request to learn the new prefix."
        ),
    )
