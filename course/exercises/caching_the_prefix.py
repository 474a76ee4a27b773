"""Used in lessons: 06.

Exercises of notebooks/06_caching_the_prefix.ipynb."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    as_number,
    check_cases,
    check_number,
    not_yet,
)
from helpers.messages import Request

EX1 = Exercise(
    "06.1",
    look="the rule under 'OpenAI: automatic, from 1,024 tokens, in steps of 128': the minimum, "
    "and how the tokens served grow above it.",
    idea="the tokens served do not grow with the shared prefix token by token: they jump to the "
    "minimum, then by one whole step at a time; the shortest prefix that serves enough is where "
    "the first jump at or past the amount lands.",
    example="with a minimum of 100 and steps of 10, serving at least 125 tokens needs a shared "
    "prefix of 130: one of 129 serves 120.",
)
EX2 = Exercise(
    "06.2",
    look="'What breaks a cache': where the time went in the first mistake, and where the cache "
    "broke. The check names the request whose read fell short, and where its prefix broke.",
    idea="a cache serves the longest prefix two requests share; something that changes every "
    "request must come after everything that does not, and the request must still keep the "
    "rules of the list.",
    example="two requests [A, B, C] and [A, B, C, D, E] share A, B and C. Put a changing line "
    "T inside A and they share nothing; put it after C in the first and after E in the second "
    "and they still share A, B and C.",
)
SERVED_GOAL = 2000  # exercise 1: the tokens OpenAI should serve from cache, at least


def shortest_prefix(goal: int, minimum: int, step: int) -> int:
    """The fewest shared tokens for which OpenAI's rule serves at least ``goal`` from cache."""
    if goal <= minimum:
        return minimum
    return minimum + step * -(-(goal - minimum) // step)


def check_cached_tokens(answer: Any, model: str) -> Result:
    """The shortest shared prefix that serves at least ``SERVED_GOAL`` tokens on ``model``."""
    from helpers.cost.caching import openai_cached_tokens
    from helpers.models import model_info

    rule = model_info(model).cache
    minimum, step = rule["min_tokens"], rule["step_tokens"]
    expected = shortest_prefix(SERVED_GOAL, minimum, step)
    value = as_number(answer)
    if value is not None and value != expected and value == value.to_integral_value():
        served = openai_cached_tokens(int(value), minimum, step)
        shared = f"two requests that share {int(value):,} tokens"
        what = (
            f"{shared} are served {served:,} from cache, under {SERVED_GOAL:,}"
            if served < SERVED_GOAL
            else f"{shared} are served enough from cache, and a shorter shared prefix would be too"
        )
        return not_yet(EX1, what, kind="number", expected=expected, tolerance=Decimal(0))
    return check_number(
        answer,
        expected,
        EX1,
        success=(
            f"Right: {expected:,}. Served tokens move in steps of {step}: {expected - 1:,} shared "
            f"tokens serve only {openai_cached_tokens(expected - 1, minimum, step):,}, so a "
            "prefix that grows a little may be served nothing more."
        ),
    )


TIMES = [f"2026-11-28T03:{12 + k // 3:02}:{(20 * k) % 60:02}Z" for k in range(8)]


def stamp_tickets(requests: list[Request], model: str) -> list[tuple[str, list[Request]]]:
    """The hidden tickets of exercise 2: consecutive requests of the run, the whole run, and a
    conversation that goes on after an answer (its last message is the user's)."""
    from dataclasses import replace

    from helpers.examples import crash_triage
    from helpers.messages import assistant, user

    opening = crash_triage.opening(model)
    answered = [
        *opening.messages,
        assistant("A nil Address in ShippingQuote, line 57: pickups have no address."),
        user("Which other functions read o.Address without a check?"),
    ]
    return [
        ("a ticket of two requests, this run's 3rd and 4th", requests[2:4]),
        (f"the whole run, {len(requests)} requests", requests),
        (
            "a conversation that goes on after an answer",
            [opening, replace(opening, messages=answered)],
        ),
    ]


def _stamp_judge(requests: list[Request], model: str) -> Callable[[Any], str | None]:
    from helpers.cost import cache_break, project_ticket
    from helpers.formats import FORMATS
    from helpers.models import model_info
    from helpers.rules import check

    step = model_info(model).cache["step_tokens"]
    plain = [t.cached_tokens for t in project_ticket(requests, model).turns]

    def judge(out: Any) -> str | None:
        stamped, given = out
        for k, (mine, sent) in enumerate(zip(given, requests, strict=True), start=1):
            if mine != sent:
                return (
                    f"your function changed the request it was given (request {k}): return a "
                    "changed copy, and leave the one you were given as it was"
                )
        for k, (mine, when) in enumerate(zip(stamped, TIMES, strict=False), start=1):
            if not isinstance(mine, Request):
                return f"for request {k} your function returned a {type(mine).__name__}"
            if when not in json.dumps(mine.to_json()):
                return f"request {k} does not carry its time, {when}: the model would not know it"
            for profile in FORMATS:
                broken = check(mine, profile)
                if not broken.accepted:
                    first = next(v for v in broken if v.severity == "error")
                    return f"{profile} would refuse request {k}: {first.message}"
        reads = [t.cached_tokens for t in project_ticket(stamped, model).turns]
        for k, (got, was) in enumerate(zip(reads, plain, strict=True), start=1):
            if got < was - step:
                where = cache_break(stamped[k - 2], stamped[k - 1])
                return (
                    f"request {k} of that ticket (numbered from 1) reads {got:,} tokens from "
                    f"the cache, and {was:,} without a stamp: {where}"
                )
        return None

    return judge


def _stamp_each(fn: Callable[[Request, str], Request]) -> Callable[[list[Request]], Any]:
    """The learner's stamp applied to each request of a ticket, a few seconds apart; returns
    the stamped requests and the requests it was given, afterwards."""

    @functools.wraps(fn)  # a stub check (``inspect.unwrap``) sees the learner's function
    def run(requests: list[Request]) -> Any:
        stamped = [fn(request, when) for request, when in zip(requests, TIMES, strict=False)]
        if any(out is None or out is ... for out in stamped):
            return None
        return stamped, requests

    return run


def check_stamp(
    stamp: Callable[[Request, str], Request], requests: list[Request], model: str
) -> Result:
    """Stamp each request of three hidden tickets with the learner's ``stamp`` and compare what
    the cache reads (the rule of ``model`` in ``helpers.cost.caching``) with what it reads
    without a stamp; every stamped request must also keep the rules of the list."""
    if not callable(stamp):
        return check_cases(stamp, [], EX2, success="")  # "not answered" / "not a function"
    cases = [
        Case(name, (ticket,), _stamp_judge(ticket, model))
        for name, ticket in stamp_tickets(requests, model)
    ]
    return check_cases(
        _stamp_each(stamp),
        cases,
        EX2,
        success=(
            "Right: every request knows its time, every format accepts it, and the cache reads "
            "as much as it does without a stamp. Stable first, changing last"
        ),
    )
