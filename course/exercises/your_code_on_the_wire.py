"""Used in lessons: 13.

Exercises of notebooks/13_your_code_on_the_wire.ipynb: count what an agent framework
(pydantic-ai) sent, find the mistakes of a framework set-up on the wire, and fix it. Every
expected value is read from the requests the learner (or the check itself) captured
(``standin.capturing``), never typed in."""

from __future__ import annotations

import asyncio
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

EX3 = Exercise(
    "13.3",
    idea="the run is more than one request, and each request of seen is counted on its own: "
    "which of them carried the tool definitions?",
    look="each s in seen has s.count, and s.count.part('tools') is what the tool definitions "
    "of that request cost; add them up over every request of seen.",
)
EX1 = Exercise(
    "13.1",
    idea="the code is not the wire: read the tools list of one of broken's requests, as it was "
    "sent.",
    look="for each tool t in broken[0].request.tools (the tools as read, in any format), look "
    "at t.name and t.description; or read the function entries of broken[0].body['tools']. The "
    "name to give is the one the wire shows, whatever the code calls the function.",
)
EX2 = Exercise(
    "13.2",
    idea="start from support_agent, run your version, and read the check's report of the wire: "
    "it names each problem and the requests it is in.",
    look="pydantic-ai has two doors for a system prompt (instructions=, and a system_prompt "
    "function): keep exactly one of them. And the framework reads the function it is given: a "
    "decorator must hand on get_order's name, docstring and signature (functools.wraps), or go.",
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
            return not_yet(EX3, "that is what one request's tool definitions cost", **info)
        if given == sum(c.total for c in counted):
            return not_yet(EX3, "that is every input token of the run, not the tools'", **info)
    return check_number(
        answer,
        expected,
        EX3,
        success=f"Right: the definitions went out with each of the {len(counted)} requests, "
        "and were read (and billed) each time. A framework's tool list is a fixed cost of "
        "every turn.",
    )


def tools_without_description(request: Any) -> list[str]:
    """The names of the tools a request (read in any format) declares with no description."""
    return [t.name for t in request.tools if not (t.description or "").strip()]


def check_lost_description(answer: Any, broken: Any) -> Result:
    """The name of the tool that reached the wire with an empty description."""
    request = broken[0].request
    names = tools_without_description(request)
    declared = {t.name for t in request.tools}
    named = answer.strip().strip("'\"`").strip() if isinstance(answer, str) else answer
    info = {"kind": "text", "expected": names[0], "accepted": (names[0],)}
    if isinstance(named, str) and named in declared and named not in names:
        return not_yet(EX1, f"{named!r} arrived with a description; another tool did not", **info)
    if isinstance(named, str) and named not in declared and named.strip():
        what = f"no tool on the wire is named {named!r}: give a name exactly as the body sent it"
        return not_yet(EX1, what, **info)
    return check_text(
        named,
        names[0],
        EX1,
        success=f"Right: {names[0]!r} is the function the framework was given. A decorator "
        "without functools.wraps hands on its wrapper: the wrapper's name, its empty docstring, "
        "and (*args, **kwargs) for parameters. The model chooses tools by their names and "
        "descriptions, and the code never showed this one.",
    )


def system_texts(request: Any) -> list[tuple[int, str]]:
    """(message index, text) of each text block of the system messages of a request read in any
    format (a system field is read as a system message)."""
    return [
        (i, block.text)
        for i, message in enumerate(request.messages)
        if message.role == "system"
        for block in message.content
        if getattr(block, "type", None) == "text"
    ]


def system_problem(request: Any, system_text: str) -> str | None:
    """What is wrong with the system prompt of one request, if anything: it must be sent exactly
    once, unchanged, and alone. Copies are counted as occurrences of the text, so two copies
    joined inside one message count twice."""
    texts = system_texts(request)
    copies = {i: 0 for i, _ in texts}
    for i, text in texts:
        copies[i] += text.count(system_text)
    total = sum(copies.values())
    if total == 0:
        return "the system prompt is not sent at all"
    if total > 1:
        where = ", ".join(
            f"messages[{i}]" + (f" ({n} copies)" if n > 1 else "") for i, n in copies.items() if n
        )
        return f"the system prompt is sent {total} times, in {where}, not once"
    if [text.strip() for _, text in texts] != [system_text.strip()]:
        sent = " + ".join(repr(text) for _, text in texts)
        return f"the system text sent is {sent}: not the prompt alone, unchanged"
    return None


MIN_DESCRIPTION_WORDS = 3  # fewer words tell the model nothing about when to choose the tool


def description_problems(request: Any) -> list[str]:
    """A tool with no description, or with one too short to say what the tool does."""
    problems = [f"tool {name!r} has no description" for name in tools_without_description(request)]
    for tool in request.tools:
        words = (tool.description or "").split()
        if 0 < len(words) < MIN_DESCRIPTION_WORDS:
            problems.append(
                f"tool {tool.name!r} is described as {tool.description!r}: too few words to "
                "tell the model what the tool does"
            )
    return problems


def wire_problems(seen: Any, system_text: str, before: Any) -> list[str]:
    """What is wrong on the wire, each with the requests it is in: a system prompt sent twice,
    changed or never, a tool missing or without a real description, a request the provider
    would refuse or warn about, no tool round trip. ``before`` is the broken set-up's request:
    every tool it described must still be there by name, and as many tools in all."""
    described = {t.name for t in before.tools if (t.description or "").strip()}
    found: dict[str, list[int]] = {}
    for s in seen:
        problems = []
        if s.request is None:
            problems.append(f"not read ({s.problem})")
        else:
            wrong_prompt = system_problem(s.request, system_text)
            problems += [wrong_prompt] if wrong_prompt else []
            problems += description_problems(s.request)
            missing = described - {t.name for t in s.request.tools}
            if missing:
                problems.append(f"tool {', '.join(sorted(missing))} is not declared")
            if len(s.request.tools) < len(before.tools):
                problems.append(
                    f"{len(s.request.tools)} tool(s) declared, where the set-up had "
                    f"{len(before.tools)}: keep every tool"
                )
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


def build_and_run(fixed_agent: Callable[[Any], Any], model_name: str, timeout: float = 60) -> Any:
    """Build the learner's agent on a fresh ``AsyncOpenAI`` client and ``await agent.run()``, all
    on an event loop of its own in a worker thread (a notebook's loop is already running), and
    close the client on that same loop: left open, it would close itself later on the kernel's
    loop and print "Event loop is closed" tracebacks. Returns what ``fixed_agent`` returned."""
    from openai import AsyncOpenAI
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    async def build_run_close() -> Any:
        client = AsyncOpenAI(max_retries=0)  # built under the capture: it reads its URL
        try:
            model = OpenAIChatModel(model_name, provider=OpenAIProvider(openai_client=client))
            agent = fixed_agent(model)
            if hasattr(agent, "run_sync"):
                await agent.run(QUESTION)
            return agent
        finally:
            await client.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, build_run_close()).result(timeout=timeout)


def check_fixed_agent(fixed_agent: Callable[[Any], Any], system_text: str, broken: Any) -> Result:
    """Build the learner's agent under a fresh capture, run it, and read what it sent."""
    from standin.capturing import capture

    info = {"kind": "function", "expected": "no problems on the wire"}
    if not_answered(fixed_agent):
        return _blank(EX2, **info)
    if not callable(fixed_agent):
        return not_yet(EX2, f"{fixed_agent!r} is not a function", **info)
    with capture() as seen:
        try:
            agent = build_and_run(fixed_agent, broken[0].model)
        except Exception as err:  # the learner's code: report it, never crash the notebook
            return not_yet(EX2, f"your agent raised {type(err).__name__}: {err}", **info)
        if agent is None:  # the body is still `...`, or it ends without `return`
            return _blank(EX2, **info)
        if not hasattr(agent, "run_sync"):
            return not_yet(EX2, f"your function returned {agent!r}, not an Agent", **info)
        problems = wire_problems(seen, system_text, broken[0].request)
    if problems:
        return not_yet(EX2, "on the wire: " + "; ".join(problems), **info)
    return Result(
        True,
        f"Right: {len(seen)} requests, each with the system prompt once and every tool "
        "described, all accepted without a warning. Read the wire after every change to a "
        "set-up: the code looked right before too.",
        EX2,
        **info,
    )
