"""Used in lessons: 05.

Exercises of notebooks/05_tools_are_context.ipynb."""

from __future__ import annotations

import functools
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    check_cases,
)
from helpers.messages import Request

EX1 = Exercise(
    "05.1",
    look="which tools each hidden request's history has already called (its assistant "
    "messages' calls), which tools the request you were given holds (an earlier step's pick, "
    "perhaps), and the order of the catalogue.",
    idea="a picked tool list is still part of a conversation and of a cached prefix: the "
    "model must find a definition for every call it reads, and the cache needs the same pick "
    "to be the same bytes on every request, whatever the request held before.",
    example="with a catalogue [a, b, c, d, e], a request holding [c, a] whose history called c, "
    "and wanted [d, a], the picked list is [a, c, d].",
)


def _catalogue():
    from helpers.examples import sundry

    return sundry.TOOLS + sundry.EXTRA_TOOLS


# ---- exercise 1: a tool picker that keeps the request valid and cacheable ----------


def pick_cases() -> list[Case]:
    """The hidden requests of exercise 1: Maya's first request (all nine tools) and later ones of
    her ticket holding an earlier step's pick, with wanted lists in and out of the catalogue's
    order, a wanted tool the request does not hold, a name the agent does not have, and
    nothing wanted. The catalogue is Sundry's fourteen tools."""
    from dataclasses import replace

    from helpers.examples import sundry
    from helpers.messages import assistant, tool, tool_call, tool_result
    from helpers.models import default_model

    first = replace(sundry.opening(default_model("openai")), max_tokens=1024)
    call = tool_call("call_1", "search_orders", {"query": "SO-48213"})
    refund = tool_call("call_2", "check_refund_eligibility", {"order_id": "SO-48213"})
    later = replace(
        first,
        messages=[
            *first.messages,
            assistant(call),
            tool(tool_result("call_1", '{"order_id": "SO-48213", "status": "delivered"}')),
            assistant("Let me check the refund.", refund),
            tool(tool_result("call_2", '{"eligible": true}')),
        ],
    )
    by_name = {t.name: t for t in _catalogue()}
    picked = replace(later, tools=[by_name["search_orders"], by_name["check_refund_eligibility"]])
    swapped = replace(picked, tools=picked.tools[::-1])
    return [
        _pick_case(
            "the first request, wanting two tools in the catalogue's order",
            first,
            ["search_orders", "issue_refund"],
        ),
        _pick_case(
            "the first request, wanting the same two the other way round",
            first,
            ["issue_refund", "search_orders"],
        ),
        _pick_case(
            "a later request holding the two tools its history called, wanting a third",
            picked,
            ["escalate_to_human"],
        ),
        _pick_case(
            "wanting a tool the agent does not have", first, ["start_return", "search_orders"]
        ),
        _pick_case("the first request, wanting no tool at all", first, []),
        _pick_case(
            "a later request holding its two called tools the other way round, wanting "
            "cancel_order",
            swapped,
            ["cancel_order"],
        ),
    ]


def _pick_case(name: str, request: Request, wanted: list[str]) -> Case:
    return Case(name, (request, wanted), _pick_judge(request, wanted))


def _pick_judge(request: Request, wanted: list[str]) -> Any:
    from helpers.formats import FORMATS, render

    catalogue = _catalogue()
    called = {c.name for m in request.messages for c in m.tool_calls}
    keep = [t for t in catalogue if t.name in set(wanted) | called]

    def judge(out: Any) -> str | None:
        got, given = out
        if given != request:
            return "your function changed the request it was given: return a changed copy"
        if not isinstance(got, Request):
            return f"your function returned a {type(got).__name__}, not a Request"
        if got.messages != request.messages or got.model != request.model:
            return "the messages (or the model) changed: a tool picker changes only the tools"
        settings = [
            s for s in ("tool_choice", "max_tokens") if getattr(got, s) != getattr(request, s)
        ]
        if settings:
            return (
                f"the picked request's {', '.join(settings)} differ from the request given: a "
                "tool picker changes only the tools"
            )
        names = [t.name for t in got.tools]
        if len(set(names)) != len(names):
            return f"the picked list names a tool twice: {names}"
        unknown = [n for n in names if n not in {t.name for t in catalogue}]
        if unknown:
            return f"the picked list has {unknown}, which the agent's catalogue does not define"
        lost = [t.name for t in keep if t.name not in names]
        if lost:
            why = [n for n in lost if n in called]
            if why:
                return (
                    f"{why} left the list, but the history already called "
                    f"{'it' if len(why) == 1 else 'them'}: the model would read a call to a "
                    "tool the request no longer defines"
                )
            held = {t.name for t in request.tools}
            if any(n not in held for n in lost):
                return (
                    f"{lost} was wanted, and is not in the picked list: the request given did "
                    "not hold it, and the agent's catalogue does"
                )
            return f"{lost} was wanted, and is not in the picked list"
        extra = [n for n in names if n not in {t.name for t in keep}]
        if extra:
            return f"{extra} is neither wanted nor called: it costs tokens on every request"
        if got.tools != keep:
            order = [t.name for t in keep]
            asked = [n for n in wanted if n in names]  # in wanted's order: told only if it shows
            follows = len(asked) > 1 and asked == [n for n in names if n in wanted]
            why = (
                "they follow the order of wanted, so the same pick asked the other way round "
                "would be other bytes, and a cache miss"
                if follows
                else "the same pick must be the same bytes whatever the request held before, "
                "and only the catalogue's order is the same for every request of the agent"
            )
            return (
                f"the picked tools come as {names}, and the catalogue lists them as {order}: {why}"
            )
        for profile in FORMATS:
            render(got, profile)  # every format can carry it
        return None

    return judge


def _given_too(fn: Any) -> Any:
    @functools.wraps(fn)  # a stub check (``inspect.unwrap``) sees the learner's function
    def run(request: Request, wanted: list[str]) -> Any:
        got = fn(request, wanted, list(_catalogue()))
        return None if got is None or got is ... else (got, request)

    return run


def check_pick_tools(fn: Any) -> Result:
    """Run the learner's ``pick_tools(request, wanted, catalogue)`` on hidden requests, the
    catalogue being Sundry's fourteen tools."""
    if not callable(fn):
        return check_cases(fn, [], EX1, success="")
    return check_cases(
        _given_too(fn),
        pick_cases(),
        EX1,
        success=(
            "Right: only what is wanted or already called, from the catalogue in its own order, "
            "and the messages untouched: a smaller bill per request, the same bytes for the same "
            "pick at every step of the conversation"
        ),
    )
