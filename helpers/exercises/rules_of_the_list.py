"""Used in lessons: 10.

Exercises of notebooks/10_rules_of_the_list.ipynb."""

from __future__ import annotations

from typing import Any

from helpers.cost import Ticket
from helpers.exercises import Exercise, Result, check_number, check_one_of, check_text
from helpers.messages import Message, Request

EX1 = Exercise(
    "10.1",
    nudge="the same broken order reaches another provider, which refuses it with an error of "
    "its own shape and wording; the message is inside the JSON it answers with.",
    pointer="render(...) in the 'anthropic' format gives .path and .body; post them to the "
    "provider with the headers, as the loop cell does; the error_text helper (from 'What each "
    "provider answers') reads the message out of the JSON.",
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


def check_order_error(answer: Any, broken: Request, provider: Any) -> Result:
    """The error text Anthropic's format gets for a history with results before the reply.
    The answer may be the message, or the error JSON holding it."""
    import httpx

    from helpers.formats import render
    from helpers.provider import LOCAL_KEY

    rendered = render(broken, "anthropic")
    response = httpx.post(
        provider.url + rendered.path,
        headers={"authorization": f"Bearer {LOCAL_KEY}"},
        json=rendered.body,
        timeout=30,
    )
    error = response.json().get("error", {}) if response.status_code >= 400 else {}
    expected = error.get("message", "(accepted)") if isinstance(error, dict) else str(error)
    if isinstance(answer, dict):  # the whole response, or its "error" object
        inner = answer.get("error", answer)
        answer = inner.get("message", answer) if isinstance(inner, dict) else inner
    return check_text(
        answer,
        expected,
        EX1,
        success=(
            f"Right: HTTP {response.status_code}, {expected[:60]}... Anthropic names the "
            "message by its index and insists each result follow its call in the previous "
            "message; OpenAI said the same in other words. One rule, four spellings."
        ),
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
