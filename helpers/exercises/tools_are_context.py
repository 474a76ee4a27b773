"""Used in lessons: 05.

Exercises of notebooks/05_tools_are_context.ipynb."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from helpers.exercises import Exercise, Result, check_number, check_text, not_answered, not_yet
from helpers.messages import Request

EX1 = Exercise(
    "05.1",
    nudge="tool definitions are one part of a request; swap in the bigger catalogue and count "
    "only that part.",
    pointer="with_tools(requests, tools) returns the requests with other tools; count(request)"
    ".part('tools') is the tools part (both used in 'Nine tools or fourteen').",
)
EX2 = Exercise(
    "05.2",
    nudge="each definition splits into a description, a name line and parameters; compare the "
    "parameters column only.",
    pointer="parts, from tool_parts in 'Which parts of a definition cost', has one entry per "
    "tool with .name and .parameters.",
)
EX3 = Exercise(
    "05.3",
    nudge="every tool definition rides on every request of a ticket, called or not; the ticket "
    "pays for yours as many times as it has requests.",
    pointer="with_tools(requests, tools) swaps the tools of every request (as in 'Nine tools or "
    "fourteen'); count(r).total for each request r, summed, gives a ticket's input tokens.",
)


def _catalogue():
    from helpers.examples import sundry

    return sundry.TOOLS + sundry.EXTRA_TOOLS


def check_fourteen_tools(answer: int, first: Request) -> Result:
    from helpers.cost import with_tools
    from helpers.tokens import count

    expected = count(with_tools([first], _catalogue())[0]).part("tools")
    return check_number(
        answer,
        expected,
        EX1,
        success=f"Right: {expected} tokens of tool definitions, on every request.",
    )


def check_costliest_parameters(answer: str, model: str) -> Result:
    from helpers.examples import sundry
    from helpers.tokens.tool_parts import tool_parts

    parts, _ = tool_parts(sundry.TOOLS, model)
    best = max(parts, key=lambda p: p.parameters)
    return check_text(
        answer,
        best.name,
        EX2,
        success=f"Right: {best.name}, {best.parameters} tokens of parameters.",
    )


def check_added_tool(answer: int, my_tool: Any, requests: list[Request], model: str) -> Result:
    """How many more input tokens the ticket sends with the learner's own tool added."""
    from helpers.cost import project_ticket, with_tools
    from helpers.examples import sundry
    from helpers.messages import Tool

    if not_answered(answer):
        return check_number(answer, 0, EX3, success="")  # says "not answered yet"
    if not isinstance(my_tool, Tool) or not my_tool.name or not my_tool.description:
        what = "my_tool is not yet a Tool with a name and a description"
        return not_yet(EX3, what, kind="number", expected=0, tolerance=Decimal(0))
    from helpers.tokens import count

    tools = [*sundry.TOOLS, my_tool]
    more = sum(count(r).total for r in with_tools(requests, tools))
    expected = more - sum(count(r).total for r in requests)
    before = project_ticket(requests, model, caching=False).total_usd
    after = project_ticket(with_tools(requests, tools), model, caching=False).total_usd
    return check_number(
        answer,
        expected,
        EX3,
        success=(
            f"Right: {my_tool.name} adds {expected} input tokens to this {len(requests)}-request "
            f"ticket ({expected // len(requests)} per request), ${before:.6f} -> ${after:.6f} "
            f"(+{100 * (after / before - 1):.1f}%), whether the agent calls it or not."
        ),
    )
