"""Used in lessons: 13.

Exercises of notebooks/13_your_code_on_the_wire.ipynb: count what an agent framework
(pydantic-ai) sent, find the mistakes of a framework set-up on the wire, and fix it. Every
expected value is read from the requests the learner (or the check itself) captured
(``standin.capturing``), never typed in."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from course.exercises import (
    Exercise,
    Result,
    _blank,
    as_number,
    check_number,
    check_text,
    not_answered,
    not_yet,
)

QUESTION = "Hi, my order SO-48213 arrived cracked."

EX1 = Exercise(
    "13.1",
    nudge="an agent loop sends the tool definitions again with every request, and each request "
    "is counted on its own; the run's share is the sum over its requests.",
    pointer="each s in seen has s.count, and s.count.part('tools') is what the tool definitions "
    "of that request cost; add them up over every request of seen.",
)
EX2 = Exercise(
    "13.2",
    nudge="a tool's description is what the model reads to choose it; on the wire it is a field "
    "of each entry of the request's tools list, and an empty one tells the model nothing.",
    pointer="for each tool t in broken[0].request.tools (the tools as read, in any format), look "
    "at t.name and t.description; or read the function entries of broken[0].body['tools'].",
)
EX3 = Exercise(
    "13.3",
    nudge="the system prompt belongs in one place, and the framework has two doors for it "
    "(instructions=, and a system_prompt function); only a docstring, not a comment above the "
    "function, becomes a tool's description.",
    pointer="copy support_agent and change two things: keep instructions=SYSTEM and drop the "
    "house_rules function with its decorator; and give get_order its comment as a docstring, "
    "inside the function.",
)


def tool_tokens(seen: Any) -> int:
    """Input tokens of the tool definitions over every request of a capture."""
    return sum(s.count.part("tools") for s in seen if s.count is not None)


def check_tool_tokens(answer: Any, seen: Any) -> Result:
    """The tool definitions' input tokens over the whole run, read from the learner's capture."""
    from decimal import Decimal

    counted = [s.count for s in seen if s.count is not None]
    expected = tool_tokens(seen)
    given = as_number(answer) if not not_answered(answer) else None
    info = {"kind": "number", "expected": expected, "tolerance": Decimal(0)}
    if given is not None and given != expected:
        if len(counted) > 1 and given in {c.part("tools") for c in counted}:
            return not_yet(EX1, "that is what one request's tool definitions cost", **info)
        if given == sum(c.total for c in counted):
            return not_yet(EX1, "that is every input token of the run, not the tools'", **info)
    return check_number(
        answer,
        expected,
        EX1,
        success=f"Right: the definitions went out with each of the {len(counted)} requests, "
        "and were read (and billed) each time. A framework's tool list is a fixed cost of "
        "every turn.",
    )


def tools_without_description(request: Any) -> list[str]:
    """The names of the tools a request (read in any format) declares with no description."""
    return [t.name for t in request.tools if not (t.description or "").strip()]


def check_lost_description(answer: Any, broken: Any) -> Result:
    """The name of the tool that reached the wire without a description."""
    request = broken[0].request
    names = tools_without_description(request)
    declared = {t.name for t in request.tools}
    named = answer.strip().strip("'\"`").strip() if isinstance(answer, str) else answer
    info = {"kind": "text", "expected": names[0], "accepted": (names[0],)}
    if isinstance(named, str) and named in declared and named not in names:
        return not_yet(EX2, f"{named!r} arrived with a description; another tool did not", **info)
    if isinstance(named, str) and named not in declared and named.strip():
        what = f"no tool on the wire is named {named!r}: give a name exactly as the body sent it"
        return not_yet(EX2, what, **info)
    return check_text(
        named,
        names[0],
        EX2,
        success="Right: its comment never left your machine. The framework reads the docstring; "
        "the description went out empty, and the model chooses tools by their descriptions.",
    )


def system_copies(body: dict, system_text: str) -> list[str]:
    """Where a request body carries the system prompt: a system field, or a message."""
    places = [
        key
        for key in ("system", "instructions", "system_instruction", "systemInstruction")
        if system_text in str(body.get(key) or "")
    ]
    for key in ("messages", "input", "contents"):
        items = body.get(key)
        if isinstance(items, list):
            places += [f"{key}[{i}]" for i, m in enumerate(items) if system_text in str(m)]
    return places


def wire_problems(seen: Any, system_text: str, tool_names: set[str]) -> list[str]:
    """What is wrong on the wire, each with the requests it is in: a system prompt sent twice or
    never, a tool missing or without a description, a request the provider would refuse or warn
    about, no tool round trip."""
    found: dict[str, list[int]] = {}
    for s in seen:
        problems = []
        if s.request is None:
            problems.append(f"not read ({s.problem})")
        else:
            places = system_copies(s.read, system_text)
            if not places:
                problems.append("the system prompt is not sent at all")
            elif len(places) > 1:
                problems.append(f"the system prompt is in {', '.join(places)}, not once")
            bare = tools_without_description(s.request)
            problems += [f"tool {name!r} has no description" for name in bare]
            missing = tool_names - {t.name for t in s.request.tools}
            if missing:
                problems.append(f"tool {', '.join(sorted(missing))} is not declared")
            if s.accepted is False or s.status >= 400:
                problems.append(s.verdict_text())
            problems += [f"warned: {w.message}" for w in s.verdict.violations.warnings]
        for problem in problems:
            found.setdefault(problem, []).append(s.number)
    listed = [
        f"{problem} (request{'s' * (len(numbers) > 1)} {', '.join(map(str, numbers))})"
        for problem, numbers in found.items()
    ]
    if len(seen) < 2:
        listed.append(f"{len(seen)} request(s): the run never made a tool round trip")
    return listed


def run_in_own_loop(agent: Any, question: str, timeout: float = 60) -> Any:
    """``agent.run_sync(question)`` in a worker thread: its event loop is its own, so this works
    inside a notebook too, where the kernel's loop is already running."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(agent.run_sync, question).result(timeout=timeout)


def check_fixed_agent(fixed_agent: Callable[[Any], Any], system_text: str, broken: Any) -> Result:
    """Build the learner's agent under a fresh capture, run it, and read what it sent."""
    from openai import AsyncOpenAI
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    from standin.capturing import capture

    info = {"kind": "function", "expected": "no problems on the wire"}
    if not_answered(fixed_agent):
        return _blank(EX3, **info)
    if not callable(fixed_agent):
        return not_yet(EX3, f"{fixed_agent!r} is not a function", **info)
    tool_names = {t.name for t in broken[0].request.tools}
    with capture() as seen:
        client = AsyncOpenAI(max_retries=0)  # built inside: it reads the stand-in's URL
        model = OpenAIChatModel(broken[0].model, provider=OpenAIProvider(openai_client=client))
        try:
            agent = fixed_agent(model)
            if agent is None:  # the body is still `...`, or it ends without `return`
                return _blank(EX3, **info)
            if not hasattr(agent, "run_sync"):
                return not_yet(EX3, f"your function returned {agent!r}, not an Agent", **info)
            run_in_own_loop(agent, QUESTION)
        except Exception as err:  # the learner's code: report it, never crash the notebook
            return not_yet(EX3, f"your agent raised {type(err).__name__}: {err}", **info)
        problems = wire_problems(seen, system_text, tool_names)
    if problems:
        return not_yet(EX3, "on the wire: " + "; ".join(problems), **info)
    return Result(
        True,
        f"Right: {len(seen)} requests, each with the system prompt once and every tool "
        "described, all accepted without a warning. Read the wire after every change to a "
        "set-up: the code looked right before too.",
        EX3,
        **info,
    )
