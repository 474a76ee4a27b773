"""Used in lessons: 09.

Exercises of notebooks/09_the_system_prompt.ipynb: 09.1 runs the learner's refund guard on hidden
calls, each with the ticket's calls so far (a limit per order, across the ticket: a refund split
in two is refused). (Which paragraph costs most, an exercise until issue 33, is a
predict-then-see cell now; 09.2, ``set_system_prompt`` on bodies of all four formats, a lookup
of each format's field that scored 3 of 5 in walk b4, went in issue 33's fourth round.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    check_cases,
)
from helpers.messages import ToolCall, ToolResult

EX1 = Exercise(
    "09.1",
    look="the call the check names, and what `done` held before it: which refunds, on which "
    "orders, and how each of them ended; then what your function gave back.",
    idea="the limit is on what one order gets back in the whole ticket, not on one call: "
    "splitting a refund is the way around a per-call limit, and only what really reached the "
    "buyer counts toward it. A refused call never runs; every call the limit allows runs "
    "exactly as before.",
    example="a guard that lets each order return at most 3 items in the whole ticket: after a "
    "return of 2 items of order A went through, a return of 2 more of A is refused (4 for A), "
    "a return of 1 of A passes (3 for A), and a return of 3 of order B passes too (B had "
    "none back); after a return of 5 of order C that was itself refused, a return of 3 of C "
    "passes.",
)
LIMIT_USD = 100  # exercise 1's limit, stricter than sundry.run_tool's own $150 per call


def _refund_cases() -> list[tuple[str, Any, list, str | None]]:
    """The hidden cases of exercise 1: (what the case is, the call, ``done`` before it, why it
    must be refused or None when the limit allows it). Earlier refunds really ran (their
    results are ``sundry.run_tool``'s), but for the one an earlier guard refused."""
    from helpers.examples import sundry
    from helpers.messages import tool_call, tool_result

    def refund(id: str, amount: float, order: str = "SO-48213") -> ToolCall:
        return tool_call(
            id, "issue_refund", {"order_id": order, "amount_usd": amount, "reason": "damaged"}
        )

    def ran(call: ToolCall) -> tuple[ToolCall, ToolResult]:
        return call, sundry.run_tool(call)

    half = ran(refund("call_h4Ra", 60.0))
    fifty = ran(refund("call_f5Qe", 50.0))
    refused = refund("call_n0Tx", 120.0)
    refused_pair = (refused, tool_result(refused.id, "refused: above $100", is_error=True))
    elsewhere = ran(refund("call_e2Wq", 80.0, "SO-51877"))
    looked = ran(tool_call("call_s7Lm", "search_orders", {"query": "SO-48213"}))
    above = "this refund is above the $100 limit"
    return [
        ("issue_refund(120.0), nothing refunded before", refund("call_r8Kd", 120.0), [], above),
        ("issue_refund(80.0), nothing refunded before", refund("call_Tq3e", 80.0), [], None),
        ("issue_refund(100.0), at the limit, not above it", refund("call_Bn7w", 100.0), [], None),
        ("issue_refund(100.5), just above it", refund("call_Pz1s", 100.5), [], above),
        ("issue_refund(125), in whole dollars", refund("call_Wc5m", 125), [], above),
        (
            "issue_refund(60.0) after a refund of 60.0 on the same order: a split refund",
            refund("call_Sp2d", 60.0),
            [looked, half],
            "with the $60.00 this order already got back, this refund brings it to $120.00, above "
            "the $100 limit",
        ),
        (
            "issue_refund(50.0) after a refund of 50.0 on the same order: $100 in all",
            refund("call_Ad9k", 50.0),
            [fifty],
            None,
        ),
        (
            "issue_refund(80.0) after a refund of 120.0 that was refused",
            refund("call_Af3r", 80.0),
            [refused_pair],
            None,
        ),
        (
            "issue_refund(80.0) on SO-48213 after a refund of 80.0 on another order",
            refund("call_Ot6y", 80.0),
            [elsewhere],
            None,
        ),
        (
            "search_orders('SO-48213'), another tool, after a refund",
            tool_call("call_Yh2v", "search_orders", {"query": "SO-48213"}),
            [half],
            None,
        ),
        (
            "get_order('SO-48213'), another tool on the same order, after two refunds",
            tool_call("call_Ju9f", "get_order", {"order_id": "SO-48213"}),
            [half, fifty],
            None,
        ),
    ]


#: Why the limit allows a case's refund, said when a guard refuses it (the cases with a past).
ALLOWED = {  # by the ids of _refund_cases
    "call_Ad9k": ": with the $50.00 this order already got back, it comes to $100.00, not above",
    "call_Af3r": ": the earlier refund of $120.00 ended in an error result: nothing was refunded",
    "call_Ot6y": ": the earlier refund of $80.00 was on another order, SO-51877",
}


def check_refund_guard(guarded_run_tool: Callable[[ToolCall, list], ToolResult]) -> Result:
    """Run the learner's ``guarded_run_tool(call, done)`` on hidden calls, each with the
    ``(call, result)`` pairs of the ticket so far: refunds on both sides of the $100 limit
    (one in whole dollars), refunds split in two, after a refused refund, on another order, and
    other tools. The limit is per order across the ticket (refused refunds never ran). An error
    result must answer the call by its id and say why (name the limit); every other result must
    be the one ``sundry.run_tool`` gives (a guard that fakes a success is refused). While the
    check runs, ``sundry.run_tool`` is watched (the module's name, and any name in the learner's
    globals bound to it): a refund the limit refuses that reaches it has run, even if the guard
    then answers with an error."""
    from helpers.examples import sundry

    real = sundry.run_tool
    cases = _refund_cases()  # the earlier refunds run here, before the watch starts
    ran: list[str] = []  # the ids of the calls that reached sundry.run_tool

    def watched(call: ToolCall, *args: Any, **kwargs: Any) -> ToolResult:
        ran.append(getattr(call, "id", None))
        return real(call, *args, **kwargs)

    def judge(call: ToolCall, refused: str | None):
        def verdict(result: Any) -> str | None:
            if refused and call.id in ran and getattr(result, "is_error", False):
                return (
                    "the refund ran: your function handed this call to sundry.run_tool, and "
                    "only then refused it. A refund that ran cannot be taken back by an error "
                    "message: refuse before the action"
                )
            if refused and call.id in ran:
                return (
                    "the refund ran, and came back as a normal result (is_error is False): "
                    f"{refused}"
                )
            if not isinstance(result, ToolResult):
                return f"your function gave a {type(result).__name__}, not a tool result"
            if result.call_id != call.id:
                return (
                    f"a result for {result.call_id!r}, but this call's id is {call.id!r}: the "
                    "result's call_id must be call.id, since the model pairs a result with its "
                    "call by that id, a refusal as much as an allowed result (whatever the "
                    "limit says, this result answers nothing)"
                )
            if refused and (not result.is_error or result == real(call)):
                return (
                    "it came back as a normal result (is_error is False), as if the refund "
                    f"were allowed: {refused}"
                )
            if refused and str(LIMIT_USD) not in result.text:
                return f"an error result that does not say why (name the ${LIMIT_USD} limit)"
            if not refused and result.is_error and result != real(call):
                return "an error result for a call the limit allows" + ALLOWED.get(call.id, "")
            if not refused and result != real(call):
                return "a different result than sundry.run_tool gives: hand the call to it"
            return None

        return verdict

    names = getattr(guarded_run_tool, "__globals__", {})
    bound = [name for name, value in names.items() if value is real]
    sundry.run_tool = watched
    for name in bound:
        names[name] = watched
    try:
        return check_cases(
            guarded_run_tool,
            [Case(name, (call, done), judge(call, refused)) for name, call, done, refused in cases],
            EX1,
            success=(
                "Right: a refund that would take an order above $100, in one call or split "
                "over several, is refused before it runs, and the model reads why; what an "
                "earlier guard refused never counted, other orders and other tools run as "
                "before. No prompt can promise that"
            ),
        )
    finally:
        sundry.run_tool = real
        for name in bound:
            names[name] = real
