"""Exercises of notebooks/05_tools_are_context.ipynb."""

from __future__ import annotations

from helpers.exercises import Exercise, Result, check_number, check_text
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
    nudge="the extra definitions ride on every request of the ticket, so the difference adds "
    "up over all four.",
    pointer="with_tools(requests, catalogue) and count(r).total for each request r; compare "
    "the totals of both tickets.",
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


def check_per_request_extra(answer: int, requests: list[Request]) -> Result:
    from helpers.cost import with_tools
    from helpers.tokens import count

    more = sum(count(r).total for r in with_tools(requests, _catalogue()))
    expected = more - sum(count(r).total for r in requests)
    return check_number(
        answer,
        expected,
        EX3,
        success=(
            f"Right: {expected} more input tokens, {expected // len(requests)} per request, "
            "for tools the agent never called."
        ),
    )
