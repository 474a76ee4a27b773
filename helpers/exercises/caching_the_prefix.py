"""Exercises of notebooks/06_caching_the_prefix.ipynb."""

from __future__ import annotations

from decimal import Decimal

from helpers.exercises import Exercise, Result, check_number, check_text
from helpers.messages import Request

EX1 = Exercise(
    "06.1",
    nudge="OpenAI caches nothing below a minimum, and above it only whole steps: round the "
    "shared prefix down to the last step that fits.",
    pointer="the rule is in the heading 'OpenAI: automatic, from 1,024 tokens, in steps of 128' "
    "and in model_info(model).cache; integer division (//) rounds down.",
)
EX2 = Exercise(
    "06.2",
    nudge="a cache serves the exact prefix two requests share; the first token that differs "
    "ends it, wherever that falls.",
    pointer="cache_break(previous, current) (from 'The prefix two requests share') says where "
    "two requests part; its .part names the place. The reordered request is in 'What breaks "
    "a cache'.",
)
EX3 = Exercise(
    "06.3",
    nudge="the saving is what the run costs without a cache minus what it costs with the "
    "automatic one.",
    pointer="tickets (under 'A ticket with and without caching') holds one priced ticket per "
    "(model, setting); each has .total_usd.",
)


def check_cached_tokens(answer: int, model: str) -> Result:
    from helpers.caching import openai_cached_tokens
    from helpers.models import model_info

    rule = model_info(model).cache
    expected = openai_cached_tokens(1500, rule["min_tokens"], rule["step_tokens"])
    return check_number(
        answer,
        expected,
        EX1,
        success=f"Right: {expected}. The last {1500 - expected} shared tokens are paid in full.",
    )


def check_break_part(answer: str, previous: Request, current: Request) -> Result:
    from helpers.caching import cache_break

    expected = cache_break(previous, current).part
    return check_text(
        answer,
        expected,
        EX2,
        success=f"Right: {expected}. Everything from there on is paid in full.",
    )


def check_savings(answer: Decimal, requests: list[Request], model: str) -> Result:
    from helpers.cost import project_ticket

    off = project_ticket(requests, model, caching=False).total_usd
    on = project_ticket(requests, model).total_usd
    return check_number(
        answer,
        off - on,
        EX3,
        tolerance="0.0000005",
        unit="$",
        success=f"Right: ${off - on:.6f}, {100 * (off - on) / off:.0f}% of this ticket.",
    )
