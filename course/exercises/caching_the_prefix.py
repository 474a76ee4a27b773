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
    look="'What breaks a cache' for where a prefix broke, and 'Anthropic: breakpoints you place' "
    "for what a breakpoint writes. The check names the ticket, the model and the request "
    "whose read fell short.",
    idea="a cache serves the longest prefix two requests share, byte for byte: what is the same "
    "in every request must be sent the same way every time, and what changes must come after "
    "all of it. Where the cache is written at breakpoints, a later request reads only a prefix "
    "an earlier one wrote: one must end where the next request still agrees.",
    example="two requests [A, B, C] and [A, B, C, D, E] share A, B and C. Send the second as "
    "[B, A, C, D, E] and they share nothing. Send [A, B, C, T1] then [A, B, C, D, E, T2] with a "
    "breakpoint only at the end (on T1): the second shares A, B, C, but nobody wrote that "
    "prefix alone.",
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


#: The cache rules the check reads under: automatic prefixes (OpenAI before GPT-5.6), and
#: breakpoints (Anthropic; OpenAI from GPT-5.6 on, one implicit at the latest message).
def judged_models(model: str) -> list[str]:
    """The lesson's model, then the Anthropic and current OpenAI models whose caches write at
    breakpoints."""
    from helpers.models import current_model, default_model

    return list(dict.fromkeys([model, default_model("anthropic"), current_model("openai")]))


def ticket_reads(requests: list[Request], marks: list[list[str]], model: str) -> list[int]:
    """Tokens each request of a ticket reads from ``model``'s cache, each request with its own
    breakpoints (``marks[k]``, part paths as ``helpers.cost.breakpoint_positions`` reads them):
    Anthropic reads the longest prefix written before and writes at its breakpoints; OpenAI
    from GPT-5.6 on also has one at each request's latest message and reads only a written
    prefix that ends at a breakpoint, its own or an earlier request's. Cold start, one ticket."""
    from dataclasses import replace

    from helpers.cost import project_ticket
    from helpers.cost.caching import anthropic_turn, breakpoint_positions
    from helpers.models import model_info
    from helpers.tokens import count, token_keys

    info = model_info(model)
    rule, kind = info.cache, info.cache.get("kind")
    if kind not in ("anthropic-breakpoints", "openai-breakpoints"):
        ticket = project_ticket([replace(r, model=model) for r in requests], model)
        return [t.cached_tokens for t in ticket.turns]
    counts = [count(replace(r, model=model), info) for r in requests]
    minimum, out = rule["min_tokens"], []
    written: list = []
    earlier: set[int] = set()
    for counted, asked in zip(counts, marks, strict=True):
        now = token_keys(counted)[0]
        if kind == "anthropic-breakpoints":
            out.append(
                anthropic_turn(now, breakpoint_positions(counted, asked), written, minimum)[0]
            )
            continue
        own = set(breakpoint_positions(counted, [*asked, "last"]))
        places = [p for p in own | earlier if minimum <= p <= len(now)]
        read = max((p for p in places if now[:p] in written), default=0)
        written += [now[:p] for p in own if p >= minimum and p > read]
        earlier |= own
        out.append(read)
    return out


_PLAIN_MARKS = {"anthropic-breakpoints": ["tools", "system", "last"]}


def _stamp_judge(requests: list[Request], model: str) -> Callable[[Any], str | None]:
    from dataclasses import replace

    from helpers.cost import cache_break
    from helpers.cost.caching import MAX_BREAKPOINTS, breakpoint_positions
    from helpers.formats import FORMATS, render
    from helpers.models import model_info
    from helpers.rules import check
    from helpers.tokens import count

    settled = [replace(r, tools=sorted(r.tools, key=lambda t: t.name)) for r in requests]
    plain = {}
    for name in judged_models(model):
        kind = model_info(name).cache.get("kind", "")
        plain[name] = ticket_reads(settled, [_PLAIN_MARKS.get(kind, [])] * len(settled), name)

    def judge(out: Any) -> str | None:
        answers, given = out
        for k, (mine, sent) in enumerate(zip(given, requests, strict=True), start=1):
            if mine != sent:
                return (
                    f"your function changed the request it was given (request {k}): a "
                    "prepared request is a new one; the loop keeps the one it gave you as its "
                    "record, and the next turn starts from it"
                )
        stamped, marks = [], []
        for k, (answer, when) in enumerate(zip(answers, TIMES, strict=False), start=1):
            if not (isinstance(answer, tuple) and len(answer) == 2):
                return (
                    f"for request {k} your function returned a {type(answer).__name__}: return "
                    "two things, the prepared request and the list of parts to mark"
                )
            mine, marked = answer
            if not isinstance(mine, Request):
                return f"for request {k} your function returned a {type(mine).__name__}"
            if not isinstance(marked, list) or not all(isinstance(m, str) for m in marked):
                return f"request {k}'s breakpoints are not a list of part names"
            if len(marked) > MAX_BREAKPOINTS:
                return (
                    f"request {k} marks {len(marked)} parts: Anthropic refuses more than "
                    f"{MAX_BREAKPOINTS} cache_control blocks"
                )
            try:
                breakpoint_positions(count(mine), marked)
            except ValueError as err:
                return f"request {k}: {err}"
            stamped.append(mine)
            marks.append(marked)
            given_tools = sorted(json.dumps(t.to_json()) for t in requests[k - 1].tools)
            if sorted(json.dumps(t.to_json()) for t in mine.tools) != given_tools:
                return (
                    f"request {k} offers {len(mine.tools)} tool(s), not the {len(given_tools)} "
                    "it was given, or changed one: a prepared request still offers every tool"
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
        for name, was_read in plain.items():
            reads = ticket_reads(stamped, marks, name)
            step = model_info(name).cache.get("step_tokens", 1)
            for k, (got, was) in enumerate(zip(reads, was_read, strict=True), start=1):
                if got >= was - step:
                    continue
                why = cache_break(stamped[k - 2], stamped[k - 1]) if k > 1 else ""
                kind = model_info(name).cache.get("kind", "")
                if kind != "openai-prefix" and (
                    k > 1 and cache_break(stamped[k - 2], stamped[k - 1]).shared > got
                ):
                    own = kind == "openai-breakpoints"  # OpenAI's own mark on the latest message
                    implicit = ", or its latest message, OpenAI's own" if own else ""
                    why = (
                        f"it shares {cache_break(stamped[k - 2], stamped[k - 1]).shared:,} tokens "
                        f"with request {k - 1}, but {name} writes only at breakpoints, and no "
                        f"breakpoint of request {k - 1} (marked {marks[k - 2]}{implicit}) ends "
                        "where the two still agree"
                    )
                return (
                    f"under {name}'s cache rule, request {k} of that ticket (numbered from 1) "
                    f"reads {got:,} tokens from the cache, and {was:,} with its tools in one "
                    f"order and no stamp: {why}"
                )
        return None

    return judge


def _stamp_each(fn: Callable[[Request, str], Any]) -> Callable[[list[Request]], Any]:
    """The learner's ``prepare`` applied to each request of a ticket, a few seconds apart;
    returns its answers and the requests it was given, afterwards."""

    @functools.wraps(fn)  # a stub check (``inspect.unwrap``) sees the learner's function
    def run(requests: list[Request]) -> Any:
        answers = [fn(request, when) for request, when in zip(requests, TIMES, strict=False)]
        if any(out is None or out is ... for out in answers):
            return None
        return answers, requests

    return run


def check_prepare(
    prepare: Callable[[Request, str], Any], requests: list[Request], model: str
) -> Result:
    """Prepare each request of three hidden tickets (their tools in another order in every
    request) with the learner's ``prepare`` (a copy and the parts to mark with a cache
    breakpoint) and compare what the cache reads under ``model``'s rule and under the
    breakpoint rules of Anthropic and of OpenAI from GPT-5.6 on (``ticket_reads``) with what
    it reads for the same ticket with its tools in one order, no stamp and the lesson's
    breakpoints; every prepared request must keep the rules of the list and every tool."""
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
            "as much as it does with the tools in one order and no stamp, under automatic "
            "prefixes and under breakpoints alike: the same bytes first, what changes last, "
            "and the breakpoint on the last block that stays. A step worth keeping just before "
            "your agent sends (mark the blocks as your provider spells it: Anthropic's "
            "cache_control, OpenAI's prompt_cache_breakpoint)"
        ),
    )
