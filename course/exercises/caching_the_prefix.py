"""Used in lessons: 06.

Exercises of notebooks/06_caching_the_prefix.ipynb."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    check_cases,
)
from helpers.messages import Request

EX1 = Exercise(
    "06.1",
    look="'What breaks a cache': the three mistakes, and where each one broke the shared "
    "prefix. The check names the request whose read fell short, and where its prefix broke.",
    idea="a cache serves the longest prefix two requests share, byte for byte: what is the same "
    "in every request must also be sent the same way every time, and what changes must come "
    "after all of it. The request must still keep the rules of the list.",
    example="two requests [A, B, C] and [A, B, C, D, E] share A, B and C. Send the second as "
    "[B, A, C, D, E] and they share nothing, though nothing was added or removed; put a "
    "changing line T inside A and they share nothing either.",
)
TIMES = [f"2026-11-28T03:{12 + k // 3:02}:{(20 * k) % 60:02}Z" for k in range(8)]


def stamp_tickets(requests: list[Request], model: str) -> list[tuple[str, list[Request]]]:
    """The hidden tickets of exercise 1: consecutive requests of the run, the whole run, and a
    conversation that goes on after an answer (its last message is the user's); in each, every
    request lists its tools in another order."""
    from dataclasses import replace

    from helpers.examples import crash_triage
    from helpers.messages import assistant, user

    opening = crash_triage.opening(model)
    answered = [
        *opening.messages,
        assistant("A nil Address in ShippingQuote, line 57: pickups have no address."),
        user("Which other functions read o.Address without a check?"),
    ]
    tickets = [
        ("a ticket of two requests, this run's 3rd and 4th", requests[2:4]),
        (f"the whole run, {len(requests)} requests", requests),
        (
            "a conversation that goes on after an answer",
            [opening, replace(opening, messages=answered)],
        ),
    ]
    return [(name, _shuffled(ticket, name)) for name, ticket in tickets]


def _shuffled(ticket: list[Request], seed: str) -> list[Request]:
    """The ticket as an agent that loads its tools from plugins sends it: the same tools, in
    another order in each request (never the order of the request before)."""
    import random
    from dataclasses import replace

    rng, out, last = random.Random(seed), [], None
    for request in ticket:
        tools = list(request.tools)
        while len(tools) > 1 and [t.name for t in tools] in ([t.name for t in request.tools], last):
            rng.shuffle(tools)
        last = [t.name for t in tools]
        out.append(replace(request, tools=tools))
    return out


def _stamp_judge(requests: list[Request], model: str) -> Callable[[Any], str | None]:
    from dataclasses import replace

    from helpers.cost import cache_break, project_ticket
    from helpers.formats import FORMATS, render
    from helpers.models import model_info
    from helpers.rules import check

    step = model_info(model).cache["step_tokens"]
    settled = [replace(r, tools=sorted(r.tools, key=lambda t: t.name)) for r in requests]
    plain = [t.cached_tokens for t in project_ticket(settled, model).turns]

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
            given = sorted(json.dumps(t.to_json()) for t in requests[k - 1].tools)
            if sorted(json.dumps(t.to_json()) for t in mine.tools) != given:
                return (
                    f"request {k} offers {len(mine.tools)} tool(s), not the {len(given)} it was "
                    "given, or changed one: a prepared request still offers every tool as it is"
                )
            if when not in json.dumps(mine.to_json()):
                return f"request {k} does not carry its time, {when}: the model would not know it"
            for profile in FORMATS:
                broken = check(mine, profile)
                if not broken.accepted:
                    first = next(v for v in broken if v.severity == "error")
                    said = first.message
                    if first.rule == "tool-message-content":  # what is wrong, not where to move it
                        said = (
                            f"{first.where} is a text block inside a tool message, and a "
                            "tool message holds only tool_result blocks"
                        )
                    return f"{profile} would refuse request {k}: {said}"
            late = next((v for v in check(mine, "anthropic") if v.rule == "system-not-first"), None)
            if late is not None:
                hoisted = [
                    name
                    for name, field in (("anthropic", "system"), ("gemini", "systemInstruction"))
                    if when in json.dumps(render(mine, name).body.get(field, ""))
                ]
                where = " and ".join(hoisted) or "no format"
                return (
                    f"request {k} has a system message after the conversation: every format warns "
                    f"({late.message}); and on the wire {where} move it into the request's "
                    "one system field, which comes before the messages: the time sits near the "
                    "top of every request there, and the cache breaks at it"
                )
        reads = [t.cached_tokens for t in project_ticket(stamped, model).turns]
        for k, (got, was) in enumerate(zip(reads, plain, strict=True), start=1):
            if got < was - step:
                where = cache_break(stamped[k - 2], stamped[k - 1])
                return (
                    f"request {k} of that ticket (numbered from 1) reads {got:,} tokens from "
                    f"the cache, and {was:,} with its tools in one order and no stamp: {where}"
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


def check_prepare(
    prepare: Callable[[Request, str], Request], requests: list[Request], model: str
) -> Result:
    """Prepare each request of three hidden tickets (their tools in another order in every
    request) with the learner's ``prepare`` and compare what the cache reads (the rule of
    ``model`` in ``helpers.cost.caching``) with what it reads for the same ticket with its
    tools in one order and no stamp; every prepared request must keep the rules of the list
    and every tool it was given."""
    if not callable(prepare):
        return check_cases(prepare, [], EX1, success="")  # "not answered" / "not a function"
    cases = [
        Case(name, (ticket,), _stamp_judge(ticket, model))
        for name, ticket in stamp_tickets(requests, model)
    ]
    return check_cases(
        _stamp_each(prepare),
        cases,
        EX1,
        success=(
            "Right: every request knows its time, every format accepts it, and the cache reads "
            "as much as it does with the tools in one order and no stamp. The same bytes first, "
            "what changes last: a step worth keeping just before your agent sends"
        ),
    )
