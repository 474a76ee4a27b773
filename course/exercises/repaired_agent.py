"""Used in lessons: 14.

Sundry's support agent, repaired: the reference run of lesson 14 (the capstone) loads this twin
of the agent as shipped (``notebooks/sundry_agent.py``; a learner edits the copy ``make
student`` puts beside their notebook, ``student/sundry_agent.py``, or on Colab the shipped file
itself), with each planted bug fixed (the comments say which).

``run_ticket(text, format=..., base_url=...)`` works one buyer's message to an answer against
any provider in the four wire formats (plain HTTP, no SDK) and returns the run as a ``Trace``:
``print(trace)`` is the cost meter of lesson 11, ``trace.final_text`` the answer.
"""

from __future__ import annotations

import functools
import inspect
import ssl
import time
from collections.abc import Callable

import httpx

from helpers.cost import price
from helpers.examples import sundry
from helpers.formats import family, parse_response, render
from helpers.loop import ProviderError, auth_headers, send
from helpers.messages import (
    Message,
    Reply,
    Request,
    Text,
    Tool,
    ToolCall,
    ToolResult,
    system,
    tool,
    tool_result,
    user,
)
from helpers.meter import Step, Trace
from helpers.models import default_model

LOCAL_KEY = "sk-local-on-the-wire"  # the stand-in's placeholder key (a real key: from the env)
MAX_TURNS = 8
RETRY_WAIT_SECONDS = 0.05  # a 429 (rate limited): wait this long, then try again
SHORTEN_AT = 100  # characters: older tool results are cut to this length
TLS = ssl.create_default_context()  # made once: loading the certificates takes a while

# --- the tools ------------------------------------------------------------------------------


def refund_log(handler: Callable[[ToolCall], ToolResult]) -> Callable[[ToolCall], ToolResult]:
    """Print every refund as it is made: the finance team asked for a trail."""

    @functools.wraps(handler)  # fixed: the wrapper keeps the handler's name and docstring
    def wrapper(call):
        print(
            f"  [refund log] {call.arguments.get('order_id')}: ${call.arguments.get('amount_usd')}"
        )
        return handler(call)

    return wrapper


def search_orders(call: ToolCall) -> ToolResult:
    """Find a buyer's orders by order number (SO-12345), the buyer's email, or words from
    the item name. Returns at most 5 orders, newest first."""
    return sundry.run_tool(call)


def get_order(call: ToolCall) -> ToolResult:
    """Get one order's full details: items, amounts, seller, buyer, delivery date and
    status."""
    return sundry.run_tool(call)


def get_tracking(call: ToolCall) -> ToolResult:
    """Get the carrier tracking events for an order, oldest first."""
    return sundry.run_tool(call)


def check_refund_eligibility(call: ToolCall) -> ToolResult:
    """Check whether an order qualifies for buyer protection, and the largest refund
    allowed."""
    return sundry.run_tool(call)


@refund_log
def issue_refund(call: ToolCall) -> ToolResult:
    """Refund a buyer for an order. Refunds above $150 are refused: use escalate_to_human
    instead. Check eligibility first."""
    return sundry.run_tool(call)


def escalate_to_human(call: ToolCall) -> ToolResult:
    """Hand the ticket to a human specialist with a summary and your recommendation. Use
    for refunds above $150."""
    return sundry.run_tool(call)


def message_seller(call: ToolCall) -> ToolResult:
    """Send a message to the seller of an order. The buyer does not see it."""
    return sundry.run_tool(call)


def get_buyer_profile(call: ToolCall) -> ToolResult:
    """Get a buyer's account: name, member since, and past refunds."""
    return sundry.run_tool(call)


def search_help_center(call: ToolCall) -> ToolResult:
    """Search Sundry's help center articles. Returns titles and short excerpts."""
    return sundry.run_tool(call)


#: Every tool the agent can run, by the name the model calls it by.
HANDLERS: dict[str, Callable[[ToolCall], ToolResult]] = {
    "search_orders": search_orders,
    "get_order": get_order,
    "get_tracking": get_tracking,
    "check_refund_eligibility": check_refund_eligibility,
    "issue_refund": issue_refund,
    "escalate_to_human": escalate_to_human,
    "message_seller": message_seller,
    "get_buyer_profile": get_buyer_profile,
    "search_help_center": search_help_center,
}
PARAMETERS = {t.name: t.parameters for t in sundry.TOOLS + sundry.EXTRA_TOOLS}


def tool_list() -> list[Tool]:
    """The tools the model is offered: each handler, described by its docstring (fixed: the
    nine this agent runs; the returns team's five wait for the release that runs them)."""
    return [Tool(name, inspect.getdoc(fn) or "", PARAMETERS[name]) for name, fn in HANDLERS.items()]


def run_tool(call: ToolCall) -> ToolResult:
    handler = HANDLERS.get(call.name)
    if handler is None:
        return tool_result(call.id, f"unknown tool {call.name!r}", is_error=True)
    return handler(call)


# --- the conversation ---------------------------------------------------------------------------


def with_policy(text: str) -> str:
    """The buyer's message with the policy in front, so that the model cannot miss it."""
    return f"{sundry.SYSTEM_PROMPT}\n\n---\n\n{text}"


def opening(ticket: str) -> list[Message]:
    """The first messages of a ticket: the policy, and the buyer's words."""
    return [system(sundry.SYSTEM_PROMPT), user(ticket)]  # fixed: the policy once, as system


def read_reply(reply: Reply) -> tuple[str, list[ToolCall]]:
    """What the model wants: the text to show the buyer, and the tools to run."""
    text, calls = "", []
    for block in reply.message.content:  # fixed: every block, by its type
        if isinstance(block, ToolCall):
            calls.append(block)
        elif isinstance(block, Text):
            text += block.text
    return text, calls


def tidy(history: list[Message]) -> None:
    """Fixed: the history is append-only; a turn once sent is never rewritten in place."""


# --- talking to the provider --------------------------------------------------------------------


def ask(
    client: httpx.Client, format: str, model: str, history: list[Message], trace: Trace
) -> Reply:
    """One model call: the whole history and the tools, rendered in ``format``; the reply and
    its cost go on the trace (the meter)."""
    request = Request(model=model, messages=history, tools=tool_list(), max_tokens=1024)
    rendered = render(request, format)
    raw, headers = send(client, format, rendered.body, rendered.path)
    reply = parse_response(raw, format)
    step = Step(len(trace.steps) + 1, rendered.body, raw, reply, headers, len(history))
    step.cost_usd = price(reply.usage, model).total_usd
    trace.steps.append(step)
    return reply


def with_retry(attempt: Callable[[], Reply], tries: int = 3) -> Reply:
    """Run ``attempt``; when the provider answers 429 (rate limited), wait and run it again."""
    for n in range(1, tries + 1):
        try:
            return attempt()
        except ProviderError as error:
            if error.status != 429 or n == tries:
                raise
            time.sleep(RETRY_WAIT_SECONDS)
    raise AssertionError("unreachable")


def run_ticket(
    text: str, *, format: str, base_url: str, api_key: str = LOCAL_KEY, model: str = ""
) -> Trace:
    """Work one ticket to an answer; the returned trace has every turn, its tokens and cost."""
    model = model or default_model(family(format))
    history = opening(text)
    trace = Trace(format, model, messages=history)
    calls: list[ToolCall] = []
    headers = auth_headers(format, api_key)
    with httpx.Client(base_url=base_url, headers=headers, timeout=60, verify=TLS) as client:
        for _ in range(MAX_TURNS):
            # fixed: only the request is retried; each message is appended once, in order
            reply = with_retry(lambda: ask(client, format, model, history, trace))
            history.append(reply.message)
            answer, calls = read_reply(reply)
            if not calls:
                return trace
            history.append(tool(*[run_tool(call) for call in calls]))
    return trace
