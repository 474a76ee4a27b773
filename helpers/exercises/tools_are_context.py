"""Used in lessons: 05.

Exercises of notebooks/05_tools_are_context.ipynb."""

from __future__ import annotations

from helpers.exercises import Result, check_equal
from helpers.messages import Request


def _catalogue():
    from helpers.examples import sundry

    return sundry.TOOLS + sundry.EXTRA_TOOLS


def check_fourteen_tools(answer: int, first: Request) -> Result:
    from helpers.cost import with_tools
    from helpers.tokens import count

    expected = count(with_tools([first], _catalogue())[0]).part("tools")
    return check_equal(
        answer,
        expected,
        hint="count(with_tools(requests[:1], catalogue)[0]).part('tools')",
        success=f"Right: {expected} tokens of tool definitions, on every request.",
    )


def check_costliest_parameters(answer: str, model: str) -> Result:
    from helpers.examples import sundry
    from helpers.tokens.tool_parts import tool_parts

    parts, _ = tool_parts(sundry.TOOLS, model)
    best = max(parts, key=lambda p: p.parameters)
    return check_equal(
        answer,
        best.name,
        hint="max(parts, key=lambda p: p.parameters).name",
        success=f"Right: {best.name}, {best.parameters} tokens of parameters.",
    )


def check_per_request_extra(answer: int, requests: list[Request]) -> Result:
    from helpers.cost import with_tools
    from helpers.tokens import count

    more = sum(count(r).total for r in with_tools(requests, _catalogue()))
    expected = more - sum(count(r).total for r in requests)
    return check_equal(
        answer,
        expected,
        hint="sum count(r).total over with_tools(requests, catalogue), minus the same for requests",
        success=(
            f"Right: {expected} more input tokens, {expected // len(requests)} per request, "
            "for tools the agent never called."
        ),
    )
