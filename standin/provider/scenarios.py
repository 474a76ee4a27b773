"""Used in lessons: 01, 03, 04, 05, 06, 07, 08, 09, 10, 11.

The stand-in's "model": scripted, deterministic scenarios.

A scenario is a function ``(turn: Turn) -> list[Block]``: given the conversation so far (neutral
messages, whatever wire format it came in), it returns the assistant's next content blocks. It
decides from the tool results it has seen, like a real model would, so the same scenario drives
any of the four wire formats, and a learner's agent loop gets the same story every run.

- ``sundry``: Maya's cracked headphones. Narrates "Let me look that order up." with
  ``search_orders``, checks eligibility, refunds with ``issue_refund`` when the amount is within
  the $150 ceiling and otherwise escalates with ``escalate_to_human``, then answers the buyer.
- ``sundry-reckless``: the same, but it tries to refund any amount; the ceiling enforced in
  ``helpers.examples.sundry.run_tool`` refuses, and the model escalates instead.
- ``crash-triage``: two ``read_file`` calls in parallel, then ``search_code`` and ``run_tests``
  in parallel, a failing test, the fix, the tests again, and a final report with the diff.
- ``echo``: repeats the last user text (for first requests and curl).
- ``general``: any client's request (``standin.provider.general``): it calls the request's own
  tools, honours its tool choice and structured output. ``serve``'s default.

A named story scripts only the requests it was written for (:func:`scripts`): one that declares
none of its tools, forbids tools, or asks for structured output goes to ``general`` instead.

When the request asks for reasoning, each turn starts with a ``Reasoning`` block carrying a
synthetic, provider-shaped signature (see :mod:`standin.provider.signatures`). What the stories
do not do: look at the tool *definitions*, sample, or vary. A custom scenario is any function of
the same shape: ``LocalProvider(scenario=my_function)``.
"""

from __future__ import annotations

import json
import re

from helpers.messages import Block, Text, ToolResult
from standin.provider import crash_story
from standin.provider.general import general
from standin.provider.turn import Scenario, Turn

__all__ = [
    "SCENARIOS",
    "Scenario",
    "Turn",
    "echo",
    "for_turn",
    "resolve",
    "scripts",
    "sundry",
    "sundry_reckless",
]


def echo(turn: Turn) -> list[Block]:
    return [*turn.thought("The user wants their words back."), Text(turn.user_text(last=True))]


def _first_name(ticket: str) -> str:
    last = ticket.strip().splitlines()[-1].strip() if ticket.strip() else ""
    return last if re.fullmatch(r"[A-Z][a-z]+", last) else "there"


def _reason(ticket: str) -> str:
    words = ticket.lower()
    missing = ("never arrived", "not arrived", "n't arrived", "didn't arrive", "not received")
    if any(w in words for w in missing):
        return "not_received"
    if any(w in words for w in ("cracked", "broken", "damaged", "smashed")):
        return "damaged"
    return "not_as_described"


_SORRY = {  # what went wrong, in the words of the reply
    "damaged": "arrived damaged",
    "not_received": "never arrived",
    "not_as_described": "wasn't as described",
}


def _json(result: ToolResult | None):
    try:
        return json.loads(result.text) if result and not result.is_error else None
    except json.JSONDecodeError:
        return None


def sundry(turn: Turn, reckless: bool = False) -> list[Block]:
    """Maya's ticket: look up, check, refund within the ceiling or escalate, answer."""
    ticket = turn.user_text()
    hi, reason = f"Hi {_first_name(ticket)}, ", _reason(ticket)
    done = turn.calls()
    if not done:
        found = re.search(r"SO-\d+", ticket) or re.search(r"(?<![\w.+-])[\w.+-]+@[\w.-]+", ticket)
        query = found.group() if found else ticket[:40]
        think = f"The buyer reports a {reason.replace('_', ' ')} item. Find the order first."
        search = turn.call("search_orders", {"query": query})
        return [*turn.thought(think), Text("Let me look that order up."), search]
    call, result = done[-1]
    order_id = call.arguments.get("order_id", "")
    if call.name == "search_orders":
        hits = _json(result)  # a client may send any result: read it, never fail on it
        order = hits[0] if isinstance(hits, list) and hits and isinstance(hits[0], dict) else {}
        if not order.get("order_id"):
            ask = "I couldn't find that order. Could you send its number (it starts with SO-)?"
            return [Text(hi + ask + " I'll pick this up as soon as you reply.")]
        item, total = order.get("item", "an item"), _amount(order.get("total_usd"))
        think = f"Found {order['order_id']} ({item}, ${total:.2f})."
        check = {"order_id": order["order_id"], "reason": reason}
        return [*turn.thought(think), turn.call("check_refund_eligibility", check)]
    if call.name == "check_refund_eligibility":
        facts = _json(result)
        facts = facts if isinstance(facts, dict) else {}
        if not facts.get("eligible"):
            why = facts.get("why", "it does not qualify")
            text = f"I checked order {order_id}: buyer protection doesn't cover it ({why}). "
            return [Text(hi + text + "The seller's own return policy may still help.")]
        amount = _amount(facts.get("max_refund_usd"))
        if amount > 150 and not reckless:
            return _escalate(turn, order_id, amount, f"${amount:.2f} is above my $150 limit.")
        think = f"Refund ${amount:.2f}: within my $150 limit." if amount <= 150 else "Refund it."
        note = f"We're sorry your order {_SORRY[reason]}; your refund is on its way."
        refund = {"order_id": order_id, "amount_usd": amount, "reason": reason}
        return [*turn.thought(think), turn.call("issue_refund", {**refund, "note_to_buyer": note})]
    if call.name == "issue_refund":
        amount = _amount(call.arguments.get("amount_usd"))
        if result is not None and result.is_error:
            return _escalate(turn, order_id, amount, "The refund was refused: escalate.")
        keep = " No need to send it back." if reason == "damaged" else ""
        text = (
            f"I'm sorry your order {_SORRY[reason]}. I've refunded ${amount:.2f} for order "
            f"{order_id}; it reaches your card within 5 business days.{keep}"
        )
        return [Text(hi + text)]
    if call.name == "escalate_to_human":
        ticket = _json(result)
        ticket_id = ticket.get("ticket", "") if isinstance(ticket, dict) else ""
        text = (
            f"I'm sorry your order {_SORRY[reason]}. A refund this size needs a specialist, so "
            f"I've passed your case on (ticket {ticket_id}) with everything I checked. They will "
            "reply within one business day."
        )
        return [Text(hi + text)]
    return [Text(hi + "thanks for your patience. I'm looking into it and will reply today.")]


def _escalate(turn: Turn, order_id: str, amount: float, think: str) -> list[Block]:
    summary = (
        f"Buyer reports a damaged item on {order_id}; eligible for buyer protection. Refund of "
        f"${amount:.2f} is above the $150 automatic limit. Recommend a full refund."
    )
    arguments = {"summary": summary, "priority": "normal", "order_id": order_id}
    return [*turn.thought(think), turn.call("escalate_to_human", arguments)]


def sundry_reckless(turn: Turn) -> list[Block]:
    return sundry(turn, reckless=True)


SCENARIOS: dict[str, Scenario] = {
    "sundry": sundry,
    "sundry-reckless": sundry_reckless,
    "crash-triage": crash_story.crash_triage,
    "echo": echo,
    "general": general,
}

_SUNDRY_TOOLS = {"search_orders", "check_refund_eligibility", "issue_refund", "escalate_to_human"}
#: The tools each story calls: a request declaring none of them is not that story's.
STORY_TOOLS: dict[Scenario, set[str]] = {
    sundry: _SUNDRY_TOOLS,
    sundry_reckless: _SUNDRY_TOOLS,
    crash_story.crash_triage: {
        "read_file",
        "search_code",
        "run_tests",
        "write_file",
        "file_issue",
        crash_story.FINISH,
    },
}


def scripts(scenario: Scenario, turn: Turn) -> bool:
    """Whether ``scenario`` was written for this request (any function not named here is)."""
    known = STORY_TOOLS.get(scenario)
    if known is None:
        return True
    options = turn.options
    if options.output_schema is not None or options.tool_choice == "none":
        return False
    return any(tool.name in known for tool in turn.request.tools)


def for_turn(scenario: Scenario, turn: Turn) -> Scenario:
    """``scenario`` if it scripts this request, else the general model."""
    return scenario if scripts(scenario, turn) else general


def resolve(scenario: str | Scenario) -> Scenario:
    """A scenario by name, or a function used as it is."""
    if callable(scenario):
        return scenario
    if scenario not in SCENARIOS:
        raise ValueError(f"unknown scenario {scenario!r} (known: {', '.join(SCENARIOS)})")
    return SCENARIOS[scenario]


def _amount(value: object) -> float:
    """A dollar amount from tool arguments or results a client may have edited (0 if none)."""
    try:
        amount = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0.0
    return amount if amount == amount and abs(amount) < 1e12 else 0.0  # no NaN, no infinity
