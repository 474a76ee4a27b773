"""Used in lessons: 05.

Exercises of notebooks/05_tools_are_context.ipynb."""

from __future__ import annotations

import functools
import json
import re
from decimal import Decimal
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    as_number,
    check_cases,
    check_number,
    not_answered,
    not_yet,
)
from helpers.messages import Request, Tool

EX1 = Exercise(
    "05.1",
    look="the cell under 'Nine tools or fourteen': what it puts beside the ticket's own "
    "requests to compare; and, for the budget, the parts of a definition under 'Which parts of "
    "a definition cost', with the rendering under 'What the model sees'.",
    idea="every tool definition rides on every request of a ticket, called or not, in the form "
    "the model reads (not the JSON you wrote); the ticket pays for yours as many times as it "
    "has requests. To fit a budget, keep what the model needs to call the tool right and look "
    "at which part of yours costs the most.",
    example="a tool of 50 tokens added to a ticket of 3 requests adds 150 input tokens, even if "
    "the agent never calls it; one of 70 tokens over a budget of 50 must lose 20, and the "
    "check's parts say where they are.",
)
EX2 = Exercise(
    "05.2",
    look="which tools each hidden request's history has already called (its assistant "
    "messages' calls), and the order of the tools in the request you were given.",
    idea="a picked tool list is still part of a conversation and of a cached prefix: the "
    "model must find a definition for every call it reads, and the cache needs the same pick "
    "to be the same bytes on every request.",
    example="with tools [a, b, c, d], a history that called c, and wanted [d, a], the picked "
    "list is [a, c, d].",
)


def _catalogue():
    from helpers.examples import sundry

    return sundry.TOOLS + sundry.EXTRA_TOOLS


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


def _return_tool_problem(tool: Tool) -> str:
    """What keeps ``tool`` from being a usable start_return ('' when nothing does): the model
    must know when to call it and be able to fill an order id and a reason from a fixed list."""
    words = len(tool.description.split())
    if words < 5:
        return (
            f"my_tool's description has {words} word(s): the model decides when to call a tool "
            "from its description, so say what it does (and when) in a sentence"
        )
    props = tool.parameters.get("properties", {}) if isinstance(tool.parameters, dict) else {}
    required = tool.parameters.get("required", []) if isinstance(tool.parameters, dict) else []
    missing = [p for p in ("order_id", "reason") if p not in props or p not in required]
    if missing:
        return (
            f"my_tool does not require {' and '.join(missing)}: a return needs the order and "
            "its reason, so both are properties, and both required"
        )
    enum = props["reason"].get("enum") if isinstance(props["reason"], dict) else None
    if not isinstance(enum, list) or len(enum) < 3:
        return "my_tool's reason is not a fixed list of at least three values (an enum)"
    if len({json.dumps(v, sort_keys=True) for v in enum}) < 3:
        return f"my_tool's reason enum {enum} has fewer than three different values"
    return ""


def check_added_tool(
    answer: int, my_tool: Any, requests: list[Request], model: str, budget: int | None = None
) -> Result:
    """How many more input tokens the ticket sends with the learner's own tool added; with a
    ``budget``, the tool must also be a usable start_return adding at most that many tokens
    to each request (a refusal names the tool's parts, so the learner sees what to trim)."""
    from helpers.cost import project_ticket, with_tools
    from helpers.examples import sundry

    if not_answered(answer):
        return check_number(answer, 0, EX1, success="")  # says "not answered yet"
    if not isinstance(my_tool, Tool) or not my_tool.name or not my_tool.description:
        what = "my_tool is not yet a Tool with a name and a description"
        return not_yet(EX1, what, kind="number", expected=0, tolerance=Decimal(0))
    from standin.rules.schemas import schema_error

    problem = schema_error(my_tool.parameters)
    if problem is not None:  # a provider would refuse the request: no cost to compare
        what = f"my_tool's parameters are not a valid JSON Schema ({problem}): refused"
        return not_yet(EX1, what, kind="number", expected=0, tolerance=Decimal(0))
    refused = provider_refusal(my_tool, sundry.TOOLS)
    if refused:
        return not_yet(EX1, refused, kind="number", expected=0, tolerance=Decimal(0))
    from helpers.tokens import count

    tools = [*sundry.TOOLS, my_tool]
    more = sum(count(r).total for r in with_tools(requests, tools))
    expected = more - sum(count(r).total for r in requests)
    if budget is not None:
        unusable = _return_tool_problem(my_tool)
        if unusable:
            return not_yet(EX1, unusable, kind="number", expected=expected, tolerance=Decimal(0))
        per = expected // len(requests)
        if per > budget:
            from helpers.tokens import tool_parts

            part = tool_parts([my_tool], model)[0][0]
            what = (
                f"my_tool adds {per} tokens to every request, over the budget of {budget}; "
                f"its parts: description {part.description}, name line {part.signature}, "
                f"parameters {part.parameters} (the rest is framing)"
            )
            return not_yet(EX1, what, kind="number", expected=expected, tolerance=Decimal(0))
    before = project_ticket(requests, model, caching=False).total_usd
    after = project_ticket(with_tools(requests, tools), model, caching=False).total_usd
    slip = _added_tool_slip(answer, my_tool, len(requests), expected, model)
    if slip:
        return not_yet(EX1, slip, kind="number", expected=expected, tolerance=Decimal(0))
    return check_number(
        answer,
        expected,
        EX1,
        success=(
            f"Right: {my_tool.name} adds {expected} input tokens to this {len(requests)}-request "
            f"ticket ({expected // len(requests)} per request), ${before:.6f} -> ${after:.6f} "
            f"(+{100 * (after / before - 1):.1f}%), whether the agent calls it or not."
        ),
    )


def _added_tool_slip(answer: Any, tool: Tool, requests: int, expected: int, model: str) -> str:
    """A recognised mistake in exercise 1's answer, in one sentence ('' when none is): the
    tool's JSON counted in place of what the model reads, or one request counted, not all."""
    import json

    from helpers.tokens import count_text

    value = as_number(answer)
    if value is None or value == expected:
        return ""
    wire = {"type": "function", "function": tool.to_json()}
    forms = [tool.to_json(), wire, tool.parameters]
    counts = {count_text(json.dumps(f), model) for f in forms}
    counts |= {count_text(json.dumps(f, indent=2), model) for f in forms}
    if value in counts or value in {n * requests for n in counts}:
        return (
            f"{answer} is what the JSON of my_tool counts to (or that, once per request): the "
            "model reads the tools rendered in another form, with framing around them"
        )
    if value * requests == expected:
        return f"{answer} is what one request carries more; the ticket has {requests} requests"
    return ""


# ---- exercise 2: a tool picker that keeps the request valid and cacheable ----------


def pick_cases() -> list[Case]:
    """The hidden requests of exercise 2: Maya's first request and a later one of her ticket,
    with wanted lists in and out of the catalogue's order, with a name the agent does not have,
    and with nothing wanted."""
    from dataclasses import replace

    from helpers.examples import sundry
    from helpers.messages import assistant, tool, tool_call, tool_result
    from helpers.models import default_model

    first = replace(sundry.opening(default_model("openai")), max_tokens=1024)
    call = tool_call("call_1", "search_orders", {"query": "SO-48213"})
    refund = tool_call("call_2", "check_refund_eligibility", {"order_id": "SO-48213"})
    later = replace(
        first,
        messages=[
            *first.messages,
            assistant(call),
            tool(tool_result("call_1", '{"order_id": "SO-48213", "status": "delivered"}')),
            assistant("Let me check the refund.", refund),
            tool(tool_result("call_2", '{"eligible": true}')),
        ],
    )
    return [
        _pick_case(
            "the first request, wanting two tools in the list's order",
            first,
            ["search_orders", "issue_refund"],
        ),
        _pick_case(
            "the first request, wanting the same two the other way round",
            first,
            ["issue_refund", "search_orders"],
        ),
        _pick_case(
            "a later request whose history called two tools, wanting a third",
            later,
            ["escalate_to_human"],
        ),
        _pick_case(
            "wanting a tool the agent does not have", first, ["start_return", "search_orders"]
        ),
        _pick_case("the first request, wanting no tool at all", first, []),
    ]


def _pick_case(name: str, request: Request, wanted: list[str]) -> Case:
    return Case(name, (request, wanted), _pick_judge(request, wanted))


def _pick_judge(request: Request, wanted: list[str]) -> Any:
    from helpers.formats import FORMATS, render
    from helpers.tokens import count

    called = {c.name for m in request.messages for c in m.tool_calls}
    keep = [t for t in request.tools if t.name in set(wanted) | called]

    def judge(out: Any) -> str | None:
        got, given = out
        if given != request:
            return "your function changed the request it was given: return a changed copy"
        if not isinstance(got, Request):
            return f"your function returned a {type(got).__name__}, not a Request"
        if got.messages != request.messages or got.model != request.model:
            return "the messages (or the model) changed: a tool picker changes only the tools"
        settings = [
            s for s in ("tool_choice", "max_tokens") if getattr(got, s) != getattr(request, s)
        ]
        if settings:
            return (
                f"the picked request's {', '.join(settings)} differ from the request given: a "
                "tool picker changes only the tools"
            )
        names = [t.name for t in got.tools]
        if len(set(names)) != len(names):
            return f"the picked list names a tool twice: {names}"
        unknown = [n for n in names if n not in {t.name for t in request.tools}]
        if unknown:
            return f"the picked list has {unknown}, which the request's tools do not define"
        lost = [t.name for t in keep if t.name not in names]
        if lost:
            why = [n for n in lost if n in called]
            if why:
                return (
                    f"{why} left the list, but the history already called "
                    f"{'it' if len(why) == 1 else 'them'}: the model would read a call to a "
                    "tool the request no longer defines"
                )
            return f"{lost} was wanted, and is not in the picked list"
        extra = [n for n in names if n not in {t.name for t in keep}]
        if extra:
            return f"{extra} is neither wanted nor called: it costs tokens on every request"
        if got.tools != keep:
            order = [t.name for t in request.tools if t.name in names]
            follows = [n for n in wanted if n in names] == [n for n in names if n in wanted]
            why = (
                "they follow the order of wanted, so the same pick asked the other way round "
                "would be other bytes, and a cache miss"
                if follows
                else "the exercise asks for the request's order, the one every request of the "
                "agent already sends"
            )
            return f"the picked tools come as {names}, and the request lists them as {order}: {why}"
        for profile in FORMATS:
            render(got, profile)  # every format can carry it
        before, after = count(request).part("tools"), count(got).part("tools")
        if after > before:
            return f"the tools part grew from {before} to {after} tokens"
        return None

    return judge


def _given_too(fn: Any) -> Any:
    @functools.wraps(fn)  # a stub check (``inspect.unwrap``) sees the learner's function
    def run(request: Request, wanted: list[str]) -> Any:
        got = fn(request, wanted)
        return None if got is None or got is ... else (got, request)

    return run


def check_pick_tools(fn: Any) -> Result:
    """Run the learner's ``pick_tools(request, wanted)`` on hidden requests."""
    if not callable(fn):
        return check_cases(fn, [], EX2, success="")
    return check_cases(
        _given_too(fn),
        pick_cases(),
        EX2,
        success=(
            "Right: only what is wanted or already called, in the list's own order, and the "
            "messages untouched: a smaller bill per request, the same bytes for the same pick"
        ),
    )
