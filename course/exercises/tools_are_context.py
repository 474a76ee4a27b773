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
    look="what each hidden request's history has already called, what the picked tools cost "
    "as the request carries them, and which wanted tool comes first.",
    idea="a picked list is still part of a conversation and of a cached prefix: every call "
    "the model reads needs its definition whatever the budget, the tools part costs what the "
    "whole list costs in the request, a less-wanted tool never takes a more-wanted one's place, "
    "and the same pick must be the same bytes on every request.",
    example="with a catalogue [a, b, c, d], a history that called c, wanted [d, a, b] and a "
    "budget that holds c and d and one more small tool but not b: the request sends [a, c, d] "
    "if a fits with c and d, and reports [b] left out.",
)


def _catalogue():
    from helpers.examples import sundry

    return sundry.TOOLS + sundry.EXTRA_TOOLS


# ---- exercise 1: a tool picker under a token budget ---------------------------------


def _tools_cost(request: Request, names: list[str] | set[str]) -> int:
    """Tokens of the tools part when ``request`` sends the catalogue's tools named ``names``."""
    from dataclasses import replace

    from helpers.tokens import count

    tools = [t for t in _catalogue() if t.name in names]
    return count(replace(request, tools=tools)).part("tools") if tools else 0


def pick_cases() -> list[Case]:
    """The hidden requests of exercise 1: Maya's first request (all nine tools) and later ones of
    her ticket holding an earlier step's pick, with budgets the wanted tools fit in, fit in only
    in part (the most-wanted too big, two of three, the calls taking most of it, a budget just
    under what the tools cost with the list's own framing) or not at all (the history's calls
    alone cost more), a name the agent does not have, and nothing wanted. Each budget is
    computed from the counts, with a few tokens of room either side of the line it tests."""
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
    called = ["search_orders", "check_refund_eligibility"]
    picked = replace(later, tools=[by_name[n] for n in called])
    swapped = replace(picked, tools=picked.tools[::-1])
    small = ["get_tracking", "get_order", "cancel_order"]
    three = _tools_cost(first, small)
    return [
        _pick_case(
            "the first request, a budget three wanted tools fit in, in the catalogue's order",
            first,
            ["search_orders", "get_order", "issue_refund"],
            400,
        ),
        _pick_case(
            "the first request, the same three wanted the other way round",
            first,
            ["issue_refund", "get_order", "search_orders"],
            400,
        ),
        _pick_case(
            "a later request holding the two tools its history called, wanting a third",
            picked,
            ["escalate_to_human"],
            400,
        ),
        _pick_case(
            f"three small tools and a budget of {three + 7}: they fit together, with 7 to spare",
            first,
            small,
            three + 7,
        ),
        _pick_case(
            f"the same three and a budget of {three - 8}: their definitions alone would fit",
            first,
            small,
            three - 8,
        ),
        _pick_case(
            "the most-wanted tool does not fit the budget, the next two do",
            first,
            ["issue_refund", "get_tracking", "get_order"],
            _tools_cost(first, {"get_tracking", "get_order"}) + 5,
        ),
        _pick_case(
            "two of three wanted fit, and not every two",
            first,
            ["message_seller", "get_tracking", "get_order"],
            _tools_cost(first, {"message_seller", "get_tracking"}) + 2,
        ),
        _pick_case(
            "a later request whose called tools leave room for one of two wanted",
            swapped,
            ["cancel_order", "escalate_to_human"],
            _tools_cost(later, {*called, "cancel_order"}) + 5,
        ),
        _pick_case(
            "a later request whose called tools alone cost more than the budget",
            picked,
            ["get_tracking"],
            _tools_cost(later, set(called)) - 30,
        ),
        _pick_case(
            "wanting a tool the agent does not have", first, ["start_return", "search_orders"], 400
        ),
        _pick_case("the first request, wanting no tool at all", first, [], 400),
    ]


def _pick_case(name: str, request: Request, wanted: list[str], budget: int) -> Case:
    return Case(name, (request, wanted, budget), _pick_judge(request, wanted, budget))


def _reference(request: Request, wanted: list[str], budget: int) -> tuple[list[str], list[str]]:
    """The names sent (catalogue order) and left out (wanted's order) by the rule of the task."""
    names = {t.name for t in _catalogue()}
    keep = {c.name for m in request.messages for c in m.tool_calls}
    for name in wanted:
        if name in names and name not in keep and _tools_cost(request, keep | {name}) <= budget:
            keep.add(name)
    sent = [t.name for t in _catalogue() if t.name in keep]
    return sent, [n for n in wanted if n not in keep]


def _pick_judge(request: Request, wanted: list[str], budget: int) -> Any:
    from helpers.formats import FORMATS, render
    from helpers.tokens import count, tool_parts

    catalogue = _catalogue()
    called = {c.name for m in request.messages for c in m.tool_calls}
    sent, left = _reference(request, wanted, budget)
    keep = [t for t in catalogue if t.name in sent]

    def judge(out: Any) -> str | None:
        mine, given = out
        if given != request:
            return "your function changed the request it was given: return a changed copy"
        if not (isinstance(mine, tuple) and len(mine) == 2):
            return (
                f"your function returned a {type(mine).__name__}: return two things, the picked "
                "request and the list of wanted names it does not send"
            )
        got, left_out = mine
        if not isinstance(got, Request):
            return f"the first thing returned is a {type(got).__name__}, not a Request"
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
        by_name = {t.name: t for t in catalogue}
        unknown = [n for n in names if n not in by_name]
        if unknown:
            return f"the picked list has {unknown}, which the agent's catalogue does not define"
        if [t for t in got.tools if t != by_name[t.name]]:
            return "a picked definition differs from the catalogue's: send them as they are"
        dropped = [n for n in sent if n in called and n not in names]
        if dropped:
            return (
                f"{dropped} left the list, but the history already called "
                f"{'it' if len(dropped) == 1 else 'them'}: the model would read a call to a "
                "tool the request no longer defines, whatever the budget"
            )
        extra = [n for n in names if n not in called and n not in wanted]
        if extra:
            return f"{extra} is neither wanted nor called: it costs tokens on every request"
        cost = count(got).part("tools") if got.tools else 0
        if cost > budget and set(names) != called:
            parts, _ = tool_parts(got.tools, got.model)
            alone = sum(p.total for p in parts)
            why = (
                f"; their definitions alone add up to {alone}, and the list costs more than "
                "its definitions"
                if alone <= budget
                else ""
            )
            if called and _tools_cost(request, set(names) - called) <= budget:
                why += "; the called tools are in the request too, and count against it"
            return (
                f"the picked tools cost {cost} tokens as the request carries them, over the "
                f"budget of {budget}{why}"
            )
        if set(names) != set(sent):
            rank = {n: k for k, n in enumerate(wanted)}
            out_of = sorted((n for n in sent if n not in names), key=rank.__getitem__)
            instead = sorted((n for n in names if n not in sent), key=rank.__getitem__)
            if out_of and instead:
                return (
                    f"{instead} is sent and {out_of} is not, but wanted lists {out_of[0]} "
                    f"{'first' if rank[out_of[0]] < rank[instead[0]] else 'too'}: a less-wanted "
                    "tool never takes a more-wanted one's place"
                )
            fits = _tools_cost(request, set(names) | {out_of[0]})
            held = (
                ""
                if out_of[0] in {t.name for t in request.tools}
                else ("; the request given did not hold it, and the agent's catalogue does")
            )
            return (
                f"{out_of[0]} was wanted and still fits: with it the tools would cost {fits} "
                f"tokens, within the budget of {budget}{held}"
            )
        if got.tools != keep:
            order = [t.name for t in keep]
            asked = [n for n in wanted if n in names]  # in wanted's order: told only if it shows
            follows = len(asked) > 1 and asked == [n for n in names if n in wanted]
            why = (
                "they follow the order of wanted, so the same pick asked the other way round "
                "would be other bytes, and a cache miss"
                if follows
                else "the same pick must be the same bytes whatever the request held before, "
                "and the task fixes one order: only the catalogue's order is accepted"
            )
            return (
                f"the picked tools come as {names}, and the catalogue lists them as {order}: {why}"
            )
        if not isinstance(left_out, list) or list(left_out) != left:
            missing = [n for n in left if n not in (left_out or [])]
            what = (
                f"it does not name {missing}, wanted and not sent"
                if missing
                else "it must name exactly the wanted tools the request does not send, in "
                "wanted's order"
            )
            return f"the request is right, and the left-out list is {left_out!r}: {what}"
        for profile in FORMATS:
            render(got, profile)  # every format can carry it
        return None

    return judge


def _given_too(fn: Any) -> Any:
    @functools.wraps(fn)  # a stub check (``inspect.unwrap``) sees the learner's function
    def run(request: Request, wanted: list[str], budget: int) -> Any:
        got = fn(request, wanted, list(_catalogue()), budget)
        return None if got is None or got is ... else (got, request)

    return run


def check_pick_tools(fn: Any) -> Result:
    """Run the learner's ``pick_tools(request, wanted, catalogue, budget)`` on hidden requests,
    the catalogue being Sundry's fourteen tools; it returns the picked request and the wanted
    names it does not send."""
    if not callable(fn):
        return check_cases(fn, [], EX1, success="")
    return check_cases(
        _given_too(fn),
        pick_cases(),
        EX1,
        success=(
            "Right: the called tools always, then the wanted ones most-wanted first while the "
            "list as the request carries it fits the budget, in the catalogue's own order, and "
            "what could not go said out loud: a bill you set per step, and the same bytes for "
            "the same pick"
        ),
    )
