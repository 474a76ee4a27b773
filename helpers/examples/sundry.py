"""Used in lessons: 00, 01, 02, 03, 04, 05, 07, 08, 09, 10, 11, 14.

Sundry: the support agent of an online marketplace (nine tools, a $150 refund ceiling).
``ticket()`` is the conversation the lessons start from; ``run_tool(call)`` runs one call against
a small fake order database, where the refund ceiling is *enforced*, in code, whatever the model
was told or talked into.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from helpers.examples import DATA, argument_error, tools_in
from helpers.messages import (
    Request,
    Tool,
    ToolCall,
    ToolResult,
    assistant,
    system,
    tool,
    tool_call,
    tool_result,
    user,
)

__all__ = [
    "EXTRA_TOOLS", "HERE", "REFUND_CEILING_USD", "SYSTEM_PROMPT", "TICKET_TEXT", "TOOLS",
    "opening", "run_tool", "ticket",
]  # fmt: skip

HERE = DATA / "sundry"
REFUND_CEILING_USD = 150.0

TICKET_TEXT = (
    "Hi, my order SO-48213 arrived yesterday and the left ear cup of the headphones is "
    "cracked. I'd like a refund please.\n\nMaya"
)


SYSTEM_PROMPT: str = (HERE / "system_prompt.md").read_text(encoding="utf-8").strip()
TOOLS: list[Tool] = tools_in(HERE / "tools.json")
EXTRA_TOOLS: list[Tool] = tools_in(HERE / "extra_tools.json")


@cache
def _world() -> dict[str, Any]:
    return json.loads((HERE / "orders.json").read_text(encoding="utf-8"))


def _order(order_id: str) -> dict[str, Any] | None:
    return next((o for o in _world()["orders"] if o["order_id"] == order_id), None)


def _summary(order: dict[str, Any]) -> dict[str, Any]:
    keys = ("order_id", "item", "total_usd", "status", "delivered", "seller", "buyer_id")
    return {k: order[k] for k in keys}


def ticket(model: str = "") -> Request:
    """The Sundry request after one tool round trip: what turn 2 sends on the wire."""
    return Request(
        model=model,
        tools=list(TOOLS),
        messages=[
            system(SYSTEM_PROMPT),
            user(TICKET_TEXT),
            assistant(
                "Let me look that order up.",
                tool_call("c1", "search_orders", {"query": "SO-48213"}),
            ),
            tool(run_tool(tool_call("c1", "search_orders", {"query": "SO-48213"}))),
        ],
    )


def opening(model: str = "", text: str = TICKET_TEXT) -> Request:
    """The first request of a ticket: policy, tools and the buyer's message, nothing else."""
    return Request(model=model, tools=list(TOOLS), messages=[system(SYSTEM_PROMPT), user(text)])


# --- the tools, over the fake world --------------------------------------------------------------


def _ok(call: ToolCall, value: Any) -> ToolResult:
    return tool_result(call.id, json.dumps(value, ensure_ascii=False))


def _error(call: ToolCall, message: str) -> ToolResult:
    return tool_result(call.id, message, is_error=True)


def _eligibility(order: dict[str, Any], reason: str) -> dict[str, Any]:
    if reason == "changed_mind":
        return {"eligible": False, "why": "changing your mind is covered by the seller's policy"}
    if reason == "not_received":
        ok = order["status"] != "delivered"
        why = "not delivered yet" if ok else "tracking shows it was delivered"
        return {"eligible": ok, "max_refund_usd": order["total_usd"] if ok else 0, "why": why}
    if order["status"] != "delivered":
        return {"eligible": False, "why": "the order has not been delivered yet"}
    return {"eligible": True, "max_refund_usd": order["total_usd"], "why": "within 30 days"}


def run_tool(call: ToolCall) -> ToolResult:
    """Execute one Sundry tool call and answer it with a result carrying the call's id."""
    args = call.arguments
    error = argument_error(TOOLS + EXTRA_TOOLS, call)  # an unknown tool is answered below
    if error:
        where, message = error
        return _error(call, f"invalid arguments for {call.name} at {where}: {message}")
    world = _world()
    needs_order = {"get_order", "get_tracking", "check_refund_eligibility", "issue_refund"}
    order = _order(args.get("order_id", ""))
    if call.name in needs_order and order is None:
        return _error(call, f"no order with id {args.get('order_id')!r}")
    if call.name == "search_orders":
        query = str(args.get("query", "")).lower()
        status = args.get("status", "any")
        hits = [
            _summary(o)
            for o in world["orders"]
            if query in (o["order_id"].lower(), o["buyer_email"]) or query in o["item"].lower()
            if status in ("any", o["status"])
        ]
        return _ok(call, hits[:5])
    if call.name == "get_order":
        return _ok(call, order)
    if call.name == "get_tracking":
        return _ok(call, world["tracking"].get(order["order_id"], []))
    if call.name == "check_refund_eligibility":
        return _ok(call, _eligibility(order, args.get("reason", "")))
    if call.name == "issue_refund":
        amount = float(args.get("amount_usd", 0))
        if amount > REFUND_CEILING_USD:  # the rule lives here, in code
            return _error(
                call,
                f"refused: ${amount:.2f} is above the ${REFUND_CEILING_USD:.0f} ceiling for "
                "automatic refunds. Use escalate_to_human.",
            )
        if amount > order["total_usd"]:
            return _error(call, f"refused: ${amount:.2f} is more than the order total")
        return _ok(call, {"refunded_usd": amount, "order_id": order["order_id"], "eta_days": 5})
    if call.name == "escalate_to_human":
        return _ok(call, {"ticket": "H-3307", "queue": args.get("priority", "normal")})
    if call.name == "message_seller":
        return _ok(call, {"sent": True})
    if call.name == "get_buyer_profile":
        buyer = world["buyers"].get(args.get("buyer_id", ""))
        if buyer is None:
            return _error(call, f"no buyer with id {args.get('buyer_id')!r}")
        return _ok(call, buyer)
    if call.name == "search_help_center":
        words = str(args.get("query", "")).lower().split()
        hits = [a for a in world["help_center"] if any(w in a["text"].lower() for w in words)]
        return _ok(call, hits[:2])
    return _error(call, f"unknown tool {call.name!r}")
