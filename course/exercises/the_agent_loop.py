"""Used in lessons: 11.

Exercises of notebooks/11_the_agent_loop.ipynb: the dispatch step the learner writes (11.1, run on
hidden replies). ``check_capped`` (a trace run with a budget, an old 11.3) is kept with its
tests. The optional 11.2 (a run ending on its finishing tool) and 11.3 (how a run ended, told
from its trace) went in issue 33's raise round: one helper call and a lookup, each scored 3 by
the walkers; the lesson now shows both as worked code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from course.exercises import (
    Exercise,
    Result,
    check_equal,
    not_answered,
    not_yet,
    with_fitting_example,
)
from helpers.meter import Trace

EX1 = Exercise(  # not in the lesson since the fix round of issue 33
    "11.9",
    look="how the trace you passed ends: how many requests it holds, and whether the calls of "
    "its last reply ever got their results back to the model.",
    idea="a loop ends in one of two ways: a reply with no calls, or a budget of requests used "
    "up; a budget smaller than the ticket needs ends it the second way, whatever the model "
    "was doing.",
    example="a ticket that needs 4 requests, given a budget of 3, stops right after its third "
    "reply: that reply's calls are run, and their results never reach the model.",
)
JON_ORDER = "SO-51877"  # the order in Jon's ticket (lesson 11, 'A batch of tickets')


def _first_user_text(trace: Trace) -> str:
    return next((m.text for m in trace.messages if m.role == "user"), "")


def check_capped(answer: Any) -> Result:
    """``answer``: the trace of Jon's ticket run with ``max_turns=2``."""
    if not_answered(answer):
        return check_equal(answer, None, EX1, success="")
    if not isinstance(answer, Trace):
        return not_yet(EX1, f"{type(answer).__name__} is not a trace; pass what run(...) returned")
    if JON_ORDER not in _first_user_text(answer):
        return not_yet(EX1, "this trace is not Jon's ticket (the espresso machine)")
    steps = answer.steps
    if len(steps) != 2:
        sent = f"{len(steps)} request{'s' if len(steps) != 1 else ''}"
        return not_yet(EX1, f"this trace has {sent}, not the 2 the cap allows")
    waiting = steps[-1].tool_names
    if not waiting:
        return not_yet(EX1, "this trace ends with a final answer, not with a call left waiting")
    return Result(
        True,
        f"Right: the loop stopped after 2 requests. The model's last call "
        f"({', '.join(waiting)}) was run, but its result was never sent back, and nobody "
        "answered the buyer. A budget needs an exit: tell the user, or hand over to a human.",
        EX1,
        expected="Jon's trace of 2 requests that ends waiting for tools",
    )


# ---- 11.1: the dispatch step, written by the learner ------------------------------------------

EX_DISPATCH = Exercise(
    "11.1",
    look="the case the check names, and what your function did with it: what it raised, or "
    "what it returned: how many results, for which call ids, in which order, and which of "
    "them are flagged as errors.",
    idea="each call of the reply gets exactly one result, whatever happens when the program "
    "tries to run it (lesson 10, rule 1): a missing function and an exception are outcomes to "
    "answer, flagged as errors, not reasons to stop; and only calls are dispatched, every other "
    "block is already in the history.",
    example="a reply holding one text block and calls to lookup('A') and lookup('B') needs two "
    "results, for the two ids in that order; if lookup('B') raises, its result says what went "
    "wrong and is flagged as an error, and the result for 'A' is unchanged.",
)

_ORDERS = {
    "SO-48213": {"item": "headphones", "total_usd": 89.0, "status": "delivered"},
    "SO-51877": {"item": "espresso machine", "total_usd": 289.0, "status": "delivered"},
    "SO-50102": {"item": "tea towels", "total_usd": 24.0, "status": "in transit"},
}
CEILING_USD = 150


def get_order(order_id: str) -> str:
    """One order's record (raises KeyError for an order that does not exist)."""
    import json

    return json.dumps({"order_id": order_id, **_ORDERS[order_id]})


def get_tracking(order_id: str) -> str:
    """Where an order's parcel is."""
    return f"{order_id}: {_ORDERS.get(order_id, {}).get('status', 'unknown')}"


def issue_refund(order_id: str, amount_usd: float) -> str:
    """Refund an order (raises ValueError above the ceiling)."""
    if amount_usd > CEILING_USD:
        raise ValueError(
            f"refused: ${amount_usd:.2f} is above the ${CEILING_USD} ceiling for automatic "
            "refunds; use escalate_to_human"
        )
    return f"refunded ${amount_usd:.2f} on {order_id}"


#: The functions the hidden cases run (a table name -> Python function, as a learner writes).
ORDER_TOOLS: dict[str, Callable[..., str]] = {
    "get_order": get_order,
    "get_tracking": get_tracking,
    "issue_refund": issue_refund,
}
_DECLARED = ["get_order", "get_tracking", "issue_refund", "escalate_to_human"]


def _declarations() -> list:
    from helpers.messages import Tool

    def params(*names: str) -> dict:
        props = {n: {"type": "number" if n == "amount_usd" else "string"} for n in names}
        return {"type": "object", "properties": props, "required": list(names)}

    return [
        Tool("get_order", "One order's record by its number.", params("order_id")),
        Tool("get_tracking", "Where an order's parcel is.", params("order_id")),
        Tool(
            "issue_refund", "Refund an order, up to the ceiling.", params("order_id", "amount_usd")
        ),
        Tool("escalate_to_human", "Hand the ticket to a person.", params("reason")),
    ]


def _results_of(got: Any) -> list | None:
    """The learner's results as a list of ToolResult (a ``tool`` message is fine too)."""
    from helpers.messages import Message, ToolResult

    if isinstance(got, Message):
        got = got.content
    if isinstance(got, (list, tuple)) and all(isinstance(r, ToolResult) for r in got):
        return list(got)
    return None


def _judge_dispatch(reply: Any, table: dict, outcomes: list[tuple[str, str]]) -> Callable:
    """A judge of one hidden case. ``outcomes``: per call of the reply, in order, ("ok", text
    the result must carry), ("raises", text of the error) or ("missing", the tool's name)."""
    from helpers.formats import render_for
    from helpers.messages import Request, ToolCall, system, tool, user
    from helpers.rules import check

    calls = [b for b in reply.content if isinstance(b, ToolCall)]

    def judge(got: Any) -> str | None:
        results = _results_of(got)
        if results is None:
            return f"your function gave a {type(got).__name__}: a list of tool results is expected"
        if len(results) != len(calls):
            return (
                f"{len(results)} result{'s' * (len(results) != 1)} for {len(calls)} "
                f"call{'s' * (len(calls) != 1)} in the reply"
            )
        ids, wanted = [r.call_id for r in results], [c.id for c in calls]
        if ids != wanted:
            return f"the results answer the ids {ids}, and the reply's calls are {wanted}, in order"
        for call, result, (kind, text) in zip(calls, results, outcomes, strict=True):
            where = f"the result for {call.id} ({call.name})"
            if kind == "ok" and result.is_error:
                said = result.text if len(result.text) <= 80 else result.text[:77] + "..."
                return (
                    f"{where} is flagged as an error, and the tool works when given the call's "
                    f"arguments as keyword arguments: your result says {said!r}"
                )
            if kind == "ok" and text not in result.text:
                return f"{where} does not carry what the tool returned"
            if kind != "ok" and not result.is_error:
                what = "raised an error" if kind == "raises" else "has no function in the table"
                return f"{where} is not flagged as an error, and the tool {what}"
            if kind == "raises" and text not in result.text:
                return f"{where} does not say what went wrong: the error's own text is missing"
            if kind == "missing" and text not in result.text:
                return f"{where} does not name the tool the program could not run"
        if not calls:
            return None
        request = Request(
            "",
            [system("Sundry support."), user("Help, please."), reply, tool(*results)],
            _declarations(),
        )
        for profile in ("openai-chat", "openai-responses", "anthropic", "gemini"):
            refused = [v for v in check(request, profile) if v.severity == "error"]
            if refused:
                return f"{profile} would refuse the history with your results: {refused[0].message}"
            try:
                render_for(request, profile)
            except Exception as err:  # the learner's results: report, don't crash
                return f"your results cannot be sent as {profile}: {err}"
        return None

    return judge


def dispatch_cases() -> list:
    """The hidden cases of 11.1: replies as a model sends them, and what each call must get."""
    from course.exercises import Case
    from helpers.messages import Reasoning, Text, assistant, tool_call

    refusal = "refused: $289.00 is above the $150 ceiling"
    replies = [
        (
            "one text block and one call",
            assistant("Let me look.", tool_call("c1", "get_order", {"order_id": "SO-48213"})),
            [("ok", '"item": "headphones"')],
        ),
        (
            "two calls at once",
            assistant(
                tool_call("t1", "get_order", {"order_id": "SO-50102"}),
                tool_call("t2", "get_tracking", {"order_id": "SO-50102"}),
            ),
            [("ok", '"item": "tea towels"'), ("ok", "SO-50102: in transit")],
        ),
        (
            "reasoning, text, then the same tool twice with other arguments",
            assistant(
                Reasoning("Two orders to compare."),
                Text("Checking both orders."),
                tool_call("b", "get_order", {"order_id": "SO-51877"}),
                tool_call("a", "get_order", {"order_id": "SO-48213"}),
            ),
            [("ok", '"item": "espresso machine"'), ("ok", '"item": "headphones"')],
        ),
        (
            "a tool that raises, beside one that works",
            assistant(
                tool_call("r1", "issue_refund", {"order_id": "SO-51877", "amount_usd": 289}),
                tool_call("r2", "get_tracking", {"order_id": "SO-51877"}),
            ),
            [("raises", refusal), ("ok", "SO-51877: delivered")],
        ),
        (
            "an order the tool cannot find (it raises another kind of error)",
            assistant(tool_call("k1", "get_order", {"order_id": "SO-99999"})),
            [("raises", "SO-99999")],
        ),
        (
            "a call to a tool the request declares and your table has no function for",
            assistant(
                tool_call("e1", "escalate_to_human", {"reason": "refund above the ceiling"}),
                tool_call("e2", "get_tracking", {"order_id": "SO-48213"}),
            ),
            [("missing", "escalate_to_human"), ("ok", "SO-48213: delivered")],
        ),
        (  # the fourth walk (d7): the commonest real failure, a call the function cannot take
            "a call missing an argument the tool needs: Python raises a TypeError",
            assistant(
                tool_call("m1", "issue_refund", {"order_id": "SO-50102"}),
                tool_call("m2", "get_tracking", {"order_id": "SO-50102"}),
            ),
            [("raises", "amount_usd"), ("ok", "SO-50102: in transit")],
        ),
        ("a reply with text only", assistant("Your refund is on its way."), []),
    ]
    return [
        Case(name, (reply, dict(ORDER_TOOLS)), _judge_dispatch(reply, ORDER_TOOLS, outcomes))
        for name, reply, outcomes in replies
    ]


def check_dispatch(answer_calls: Any) -> Result:
    """``answer_calls(reply, tools)``: the tool results answering every call of ``reply`` (an
    assistant message), running each with the function of that name in ``tools``."""
    from course.exercises import check_cases

    result = check_cases(
        answer_calls,
        dispatch_cases(),
        EX_DISPATCH,
        success="Right: every call answered, in the reply's order, failures flagged as errors "
        "and accepted by all four providers' rules. This is the step inside every agent loop; "
        "yours could replace run_tool's dispatch",
    )
    # the third hint: a smaller example of the mistake the failing case shows, where one fits
    return with_fitting_example(result, EX_DISPATCH, _DISPATCH_EXAMPLES)


#: Smaller examples for 11.1's third hint, by what the failing case's name or reason says (the
#: first that matches; otherwise the exercise's own example, a tool that raises).
_DISPATCH_EXAMPLES = [
    (
        "does not name the tool",
        "a reply calling a tool find that the table has no function for gets one result, "
        "flagged as an error, whose text names find.",
    ),
    (
        "no function",
        "a reply calling lookup('A') and a tool find that the table has no function for needs "
        "two results: the one for find is flagged as an error and names find, the one for 'A' "
        "carries what lookup returned.",
    ),
    (
        "the results answer the ids",
        "a reply calling lookup('B') with id x9 and then lookup('A') with id a1 needs the result "
        "for x9 first: the order of the calls in the reply, not of their names or ids.",
    ),
    (
        " in the reply",
        "a reply holding a reasoning block, one text block and one call to lookup('A') needs "
        "exactly one result: the other blocks are already in the history, and two calls of the "
        "same tool need two.",
    ),
]
