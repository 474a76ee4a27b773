"""Used in lessons: 05.

Exercises of notebooks/05_tools_are_context.ipynb."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from course.exercises import (
    Exercise,
    Result,
    as_number,
    check_number,
    check_text,
    not_answered,
    not_yet,
)
from helpers.messages import Request, Tool

EX1 = Exercise(
    "05.1",
    idea="each provider renders the same tool list its own way, so the count depends on the "
    "model the request is addressed to; count only the tools part, with `fourteen`.",
    look="the provider table under 'What Sundry's request is made of' builds "
    "Request(model, messages, tools) with default_model(...) and reads .part('tools'); "
    "fourteen (in the 'Nine tools or fourteen' cell) holds all fourteen tools.",
)
EX2 = Exercise(
    "05.2",
    idea="the five new tools have not been counted yet; count each whole definition "
    "(description, name line and parameters) and compare.",
    look="tool_parts(tools, model), used under 'Which parts of a definition cost', gives one "
    "entry per tool with .name and .total; sundry.EXTRA_TOOLS holds the five new ones.",
)
EX3 = Exercise(
    "05.3",
    idea="every tool definition rides on every request of a ticket, called or not; the ticket "
    "pays for yours as many times as it has requests.",
    look="with_tools(requests, tools) swaps the tools of every request (as the optional tool "
    "picker does); count(r).total for each request r, summed, gives a ticket's input tokens.",
)


def _catalogue():
    from helpers.examples import sundry

    return sundry.TOOLS + sundry.EXTRA_TOOLS


def check_claude_fourteen(answer: int, first: Request) -> Result:
    from helpers.messages import Request as Req
    from helpers.models import default_model
    from helpers.tokens import count

    claude = default_model("anthropic")
    fourteen = count(Req(claude, first.messages, _catalogue()))
    expected = fourteen.part("tools")
    nine = count(Req(claude, first.messages, first.tools)).part("tools")
    slips = {  # the likely wrong numbers, and what each one is
        count(Req(first.model, first.messages, _catalogue())).part("tools"): (
            f"that is the count for {first.model}: the request must be addressed to Claude"
        ),
        nine: "that is Claude's count for the nine tools, not the fourteen",
        fourteen.total: "that is the whole request; only its tools part is asked",
    }
    value = as_number(answer)
    if value is not None and value != expected and int(value) == value and int(value) in slips:
        what = f"you gave {answer!r}: {slips[int(value)]}"
        return not_yet(EX1, what, kind="number", expected=expected, tolerance=Decimal(0))
    return check_number(
        answer,
        expected,
        EX1,
        success=(
            f"Right: {expected:,} tokens of tools for {claude} with fourteen (an estimate: the "
            f"lesson's proxy), {expected - nine:+,} over nine, on every request. The same five "
            "tools cost each provider a different amount."
        ),
    )


def check_costliest_new_tool(answer: str, model: str) -> Result:
    from helpers.examples import sundry
    from helpers.tokens import tool_parts

    parts, _ = tool_parts(sundry.EXTRA_TOOLS, model)
    top = max(p.total for p in parts)
    best = [p for p in parts if p.total == top]  # a tie: every costliest tool is right
    if isinstance(answer, str):  # `name` or NAME: the same tool
        answer = answer.strip().strip("`'\"").strip()
        new_names = {p.name.lower() for p in parts}
        if answer and answer.lower() not in new_names:
            known = {t.name.lower() for t in sundry.TOOLS}
            where = " (it is one of the nine)" if answer.lower() in known else ""
            what = f"{answer!r} is not one of the five new names{where}: see sundry.EXTRA_TOOLS"
            return not_yet(EX2, what, kind="text", expected=best[0].name)
    return check_text(
        answer,
        best[0].name,
        EX2,
        spellings=[p.name for p in best[1:]],
        ignore_case=True,
        success=(
            f"Right: {best[0].name}, {top} tokens on every request ({best[0].parameters} of them "
            "its parameters), called or not."
        ),
    )


_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def provider_refusal(tool: Tool, others: list[Tool]) -> str:
    """Why a provider would refuse ``tool`` added after ``others`` ('' if none), in its words:
    OpenAI's name pattern (vercel/ai#1972, brekkylab/ailoy#109), Anthropic's unique names
    (anthropics/claude-code#10687) and its object input_schema (Kilo-Org/kilocode#12238)."""
    i = len(others)
    if not _NAME.match(tool.name):
        return (
            f"my_tool's name {tool.name!r} is refused: OpenAI answers \"Invalid "
            f"'tools[{i}].function.name': string does not match pattern. Expected a string that "
            "matches the pattern '^[a-zA-Z0-9_-]+$'.\" (letters, digits, _ and -, at most 64)"
        )
    if any(other.name == tool.name for other in others):
        return (
            f'a tool named {tool.name!r} is already in the list: Anthropic answers "tools: Tool '
            'names must be unique." (the model calls a tool by its name)'
        )
    kind = tool.parameters.get("type") if isinstance(tool.parameters, dict) else None
    if kind is None:
        return (
            'my_tool\'s parameters have no "type": Anthropic answers '
            f'"tools.{i}.custom.input_schema.type: Field required" (write '
            '"type": "object", with its "properties")'
        )
    if kind != "object":
        return f'my_tool\'s parameters are of type {kind!r}: a tool takes "type": "object"'
    return ""


def check_added_tool(answer: int, my_tool: Any, requests: list[Request], model: str) -> Result:
    """How many more input tokens the ticket sends with the learner's own tool added."""
    from helpers.cost import project_ticket, with_tools
    from helpers.examples import sundry

    if not_answered(answer):
        return check_number(answer, 0, EX3, success="")  # says "not answered yet"
    if not isinstance(my_tool, Tool) or not my_tool.name or not my_tool.description:
        what = "my_tool is not yet a Tool with a name and a description"
        return not_yet(EX3, what, kind="number", expected=0, tolerance=Decimal(0))
    from standin.rules.schemas import schema_error

    problem = schema_error(my_tool.parameters)
    if problem is not None:  # a provider would refuse the request: no cost to compare
        what = f"my_tool's parameters are not a valid JSON Schema ({problem}): refused"
        return not_yet(EX3, what, kind="number", expected=0, tolerance=Decimal(0))
    refused = provider_refusal(my_tool, sundry.TOOLS)
    if refused:
        return not_yet(EX3, refused, kind="number", expected=0, tolerance=Decimal(0))
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
