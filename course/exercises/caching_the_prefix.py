"""Used in lessons: 06.

Exercises of notebooks/06_caching_the_prefix.ipynb."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from course.exercises import (
    Exercise,
    Result,
    as_number,
    check_function,
    check_number,
    not_answered,
    not_yet,
)
from helpers.messages import Request

EX1 = Exercise(
    "06.1",
    idea="OpenAI caches nothing below a minimum, and above it only whole steps: round the "
    "shared prefix down to the last step that fits.",
    look="the rule is in the heading 'OpenAI: automatic, from 1,024 tokens, in steps of 128' "
    "and in model_info(model).cache; integer division (//) rounds down.",
)
EX2 = Exercise(
    "06.2",
    idea="a cache serves the longest prefix two requests share; something that changes every "
    "request must come after everything that does not.",
    look="'What breaks a cache' put the time at the start of the system prompt, and the "
    "cache broke there. Where in a request could a line change without changing anything that "
    "comes after it? A Request's .messages is a list; dataclasses.replace makes a changed copy.",
)
EX3 = Exercise(
    "06.3",
    idea="the saving is what the run costs without a cache minus what it costs with the "
    "automatic one; the printed prices are rounded to the millionth of a dollar.",
    look="tickets (under 'A ticket with and without caching') holds one priced ticket per "
    "(model, setting); each has .total_usd.",
)


def check_cached_tokens(answer: int, model: str) -> Result:
    from helpers.cost.caching import openai_cached_tokens
    from helpers.models import model_info

    rule = model_info(model).cache
    expected = openai_cached_tokens(1500, rule["min_tokens"], rule["step_tokens"])
    return check_number(
        answer,
        expected,
        EX1,
        success=f"Right: {expected}. The last {1500 - expected} shared tokens are paid in full.",
    )


def check_stamp(
    stamp: Callable[[Request, str], Request], previous: Request, current: Request, model: str
) -> Result:
    """Stamp two consecutive requests a few seconds apart with the learner's ``stamp`` and
    compare what OpenAI's cache would serve with what it serves without a stamp."""
    from helpers.cost.caching import cache_break, openai_cached_tokens
    from helpers.models import model_info

    rule = model_info(model).cache

    def cached(prev: Request, now: Request) -> int:
        shared = cache_break(prev, now).shared
        return openai_cached_tokens(shared, rule["min_tokens"], rule["step_tokens"])

    plain = cached(previous, current)
    times = ("2026-11-28T03:12:44Z", "2026-11-28T03:13:02Z")

    def effect(fn: Callable) -> Callable:
        def run(_: str) -> Any:
            stamped = []
            for request, when in zip((previous, current), times, strict=True):
                given = copy.deepcopy(request)
                out = fn(given, when)
                if given != request:  # the lesson's base_prev / base_now would change too
                    return (
                        "a stamp that changed the request it was given: return a changed copy "
                        "(dataclasses.replace, or copy.deepcopy first)"
                    )
                if out is None or out is ...:
                    return out
                if not isinstance(out, Request):
                    return f"a {type(out).__name__}, not a Request"
                if when not in json.dumps(out.to_json() if hasattr(out, "to_json") else str(out)):
                    return f"a request without the time {when} in it"
                stamped.append(out)
            got = cached(*stamped)
            if got >= plain - rule["step_tokens"]:
                return "the cache still works"
            return f"a cache that serves {got} tokens (without a stamp: {plain})"

        return run

    return check_function(
        effect(stamp) if callable(stamp) else stamp,
        [("two requests", "the cache still works")],
        EX2,
        describe=lambda _: "two consecutive requests",
        success=(
            f"Right: with your stamp the second request still gets {plain} tokens from the "
            "cache, and the model still knows the time. Stable first, changing last."
        ),
    )


def check_savings(answer: Decimal, requests: list[Request], model: str) -> Result:
    """The dollars saved, as the exercise asks: a ``Decimal`` (a float or a str is refused)."""
    from dataclasses import replace

    from helpers.cost import project_ticket

    off = project_ticket(requests, model, caching=False).total_usd
    on = project_ticket(requests, model).total_usd
    tolerance = "0.000001"  # the printed prices are rounded to 6 places
    if not not_answered(answer) and not isinstance(answer, Decimal):
        value = as_number(answer)
        close = value is not None and abs(value - (off - on)) <= Decimal(tolerance)
        return not_yet(
            EX3,
            f"you gave a {type(answer).__name__} ({answer!r:.40})"
            + (", and the amount is close" if close else "")
            + ": the exercise asks for a Decimal, which keeps dollars exact where a float rounds "
            "(0.1 + 0.2 != 0.3). Each .total_usd is a Decimal already",
            kind="decimal",
            expected=off - on,
            tolerance=Decimal(tolerance),
        )
    newest = _newest_openai_savings(requests)
    value = as_number(answer)
    if value is not None and abs(value - newest) <= Decimal(tolerance):
        return not_yet(
            EX3,
            "that is what the cache saves on gpt-6-luna, the run in the cell above: the exercise "
            "asks about this lesson's `model`",
            kind="decimal",
            expected=off - on,
            tolerance=Decimal(tolerance),
        )
    result = check_number(
        answer,
        off - on,
        EX3,
        tolerance=tolerance,
        unit="$",
        success=f"Right: ${off - on:.6f}, {100 * (off - on) / off:.0f}% of this ticket.",
    )
    return replace(result, kind="decimal")


def _newest_openai_savings(requests: list[Request]) -> Decimal:
    """What the cache saves on the same run on OpenAI's newest model (a likely mix-up)."""
    from dataclasses import replace

    from helpers.cost import project_ticket
    from helpers.models import current_model

    newest = current_model("openai")
    moved = [replace(r, model=newest) for r in requests]
    off, on = (project_ticket(moved, newest, caching=c).total_usd for c in (False, True))
    return off - on
