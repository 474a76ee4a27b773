"""Used in lessons: 04.

Exercises of notebooks/04_the_array_is_rebuilt.ipynb."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    check_cases,
)
from helpers.messages import Message, Reply, Request, ToolCall
from helpers.rules.gemini import COUNT

EX1 = Exercise(
    "04.1",
    look="the cell under 'A ticket, turn by turn' that compares request n with request n − 1: "
    "which messages are new in the later one, where they sit, and what the earlier ones became.",
    idea="your code owns the list, and the list is the record of the conversation so far: a "
    "record only grows, in the order things happened, and what was already sent never changes. "
    "The rest of the request is not part of the turn.",
    example="a request of 2 messages, a reply with one text block and one call, and its one "
    "result give a request of 4 messages: the same 2, the reply with both its blocks, then one "
    "tool message with the result. A reply that only answers gives 3 messages. Calls A then B "
    "whose results came back B first are answered A, B.",
)


def _reply(*blocks: Any) -> Reply:
    """A reply as the loop parses it (the usage does not matter here)."""
    from helpers.messages import Message, Usage

    calls = any(isinstance(b, ToolCall) for b in blocks)
    return Reply(Message("assistant", list(blocks)), Usage(), "tool_calls" if calls else "end_turn")


def next_request_cases() -> list[Case]:
    """The hidden cases of exercise 1: a turn of each shape the lesson's runs have, and three
    they do not (a failed tool, a reply with reasoning, results out of call order), on two
    agents."""
    from dataclasses import replace

    from helpers.examples import crash_triage, sundry
    from helpers.messages import Reasoning, Text, assistant, tool, tool_call, tool_result
    from helpers.models import default_model

    maya = sundry.opening(default_model("openai"))
    search = tool_call("call_A1", "search_orders", {"query": "SO-48213"})
    found = tool_result("call_A1", '{"order_id": "SO-48213", "status": "delivered"}')
    later = replace(maya, messages=[*maya.messages, assistant(search), tool(found)])
    eligible = tool_call("call_B2", "check_refund_eligibility", {"order_id": "SO-48213"})
    triage = replace(crash_triage.opening(default_model("anthropic")), max_tokens=2048)
    read_a = tool_call("toolu_01", "read_file", {"path": "internal/orders/shipping.go"})
    read_b = tool_call("toolu_02", "read_file", {"path": "internal/orders/missing.go"})
    read_c = tool_call("toolu_03", "read_file", {"path": "internal/api/orders.go"})
    thought = Reasoning("Read the file named in the trace.", "c2lnbmF0dXJl", "anthropic")
    return [
        _next_case(
            "a reply with one text block and one call",
            maya,
            _reply(Text("Let me look that order up."), search),
            [found],
        ),
        _next_case(
            "a later turn: the history already holds an earlier call and its result",
            later,
            _reply(eligible),
            [tool_result("call_B2", '{"eligible": true, "max_refund_usd": 89.0}')],
        ),
        _next_case(
            "two parallel calls, one of whose tools failed",
            triage,
            _reply(thought, read_a, read_b),
            [
                tool_result("toolu_01", "package orders\n\nfunc ShippingQuote(o *Order) {"),
                tool_result("toolu_02", "open internal/orders/missing.go: no such file", True),
            ],
        ),
        _next_case(
            "a final answer: no call, so no result",
            later,
            _reply(Text("Your order SO-48213 was delivered on Tuesday.")),
            [],
        ),
        _next_case(
            "three parallel calls whose results came back in another order than the calls",
            triage,
            _reply(read_c, read_a, read_b),  # ids that do not sort in the calls' order
            [
                tool_result("toolu_02", "open internal/orders/missing.go: no such file", True),
                tool_result("toolu_01", "package orders\n\nfunc ShippingQuote(o *Order) {"),
                tool_result("toolu_03", "package api\n\nfunc (h *Handler) Quote() {"),
            ],
        ),
    ]


def _next_case(name: str, request: Request, reply: Reply, results: list) -> Case:
    """One hidden case: the learner's function sees copies; the judge sees what it returned
    and the request it was given, afterwards (``_given_too`` wraps the function)."""
    return Case(name, (request, reply, results), _next_judge(request, reply, results))


def _next_judge(request: Request, reply: Reply, results: list) -> Callable[[Any], str | None]:
    from helpers.formats import FORMATS, render
    from helpers.rules import check

    def judge(out: Any) -> str | None:
        got, given = out
        if given != request:
            return (
                "your function changed the request it was given: the record of what was already "
                "sent now says something that was never sent. The request you were given must "
                "come out of your function as it went in"
            )
        if not isinstance(got, Request):
            return f"your function returned a {type(got).__name__}, not a Request"
        stray = next((i for i, m in enumerate(got.messages) if not isinstance(m, Message)), None)
        if stray is not None:
            return (
                f"the new request's messages[{stray}] is a {type(got.messages[stray]).__name__}, "
                "not a message: a request's list holds messages, each with its role"
            )
        before = request.messages
        if got.messages[: len(before)] != before:
            lost = next(
                (i for i, m in enumerate(before) if i >= len(got.messages) or got.messages[i] != m),
                len(before),
            )
            return (
                f"the new request does not start with all {len(before)} messages of the request "
                f"just sent, unchanged: message {lost} ({before[lost].role}) is missing, moved or "
                "rewritten"
            )
        added = got.messages[len(before) :]
        kinds = ", ".join(b.type for b in reply.message.content)
        if not added or added[0] != reply.message:
            return (
                f"the message after the earlier ones is not the model's reply as it came back "
                f"(one assistant message with all its blocks: {kinds})"
            )
        rest = added[1:]
        if not results and rest:
            return (
                f"the reply made no call, yet your function added {len(rest)} message(s) after "
                "it: with nothing to answer, the request ends with the reply"
            )
        if results and (len(rest) != 1 or rest[0].role != "tool"):
            return (
                f"the reply's {len(results)} call(s) should be answered by one tool message right "
                f"after it; your function added {len(rest)} message(s) after the reply "
                f"({', '.join(m.role for m in rest) or 'none'}). Gemini reads a tool message as "
                f'one turn of responses and refuses any other count: "{COUNT.rstrip(".")}"'
            )
        order = [call.id for call in reply.message.tool_calls]
        wanted = sorted(results, key=lambda r: order.index(r.call_id))
        if results and rest[0].content != wanted:
            if sorted(rest[0].content, key=_call_id) == sorted(results, key=_call_id):
                every = "both" if len(results) == 2 else f"all {len(results)}"
                return (
                    f"the tool message holds {every} results, but not in the order "
                    "of the calls in the reply (they may come back in any order): OpenAI and "
                    "Anthropic pair a result with its call by id, but a Gemini call without an "
                    "id is paired by position (the series' inference from two indirect "
                    "sources: see the lesson's Sources), so the calls' order is the one every "
                    "format reads right"
                )
            return (
                f"the tool message does not hold the {len(results)} result(s) as the caller gave "
                "them (every one, failed ones too, each unchanged)"
            )
        settings = ("model", "tools", "tool_choice", "max_tokens")
        changed = [s for s in settings if getattr(got, s) != getattr(request, s)]
        if changed:
            return (
                f"the new request's {', '.join(changed)} differ from the request just sent: only "
                "the list grows, the rest of the request stays as it was"
            )
        for profile in FORMATS:
            broken = check(got, profile)
            if not broken.accepted:
                first = next(v for v in broken if v.severity == "error")
                return f"{profile} would refuse it: {first.message}"
            render(got, profile)  # every format can carry it
        return None

    return judge


def _call_id(block: Any) -> str:
    return str(getattr(block, "call_id", ""))


def _given_too(fn: Callable) -> Callable:
    """The learner's function, returning what it made and the request it was given afterwards
    (so a judge can tell a function that edits its argument)."""

    @functools.wraps(fn)  # a stub check (``inspect.unwrap``) sees the learner's function
    def run(request: Request, reply: Reply, results: list) -> Any:
        got = fn(request, reply, results)
        return None if got is None or got is ... else (got, request)

    return run


def check_next_request(fn: Callable[[Request, Reply, list], Request]) -> Result:
    """Run the learner's ``next_request`` on the hidden cases; each is judged by the list's rules
    in all four formats and by what was appended."""
    if not callable(fn):
        return check_cases(fn, [], EX1, success="")  # "not answered" / "not a function"
    return check_cases(
        _given_too(fn),
        next_request_cases(),
        EX1,
        success=(
            "Right: the request just sent, unchanged, then the reply, then one message with "
            "every result, in the calls' order; nothing after a final answer. Every format "
            "accepts each one"
        ),
    )
