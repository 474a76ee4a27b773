"""Used in lessons: 13.

Exercises of notebooks/13_your_code_on_the_wire.ipynb: an audit of the wire the learner writes,
run on hidden requests in all four formats (13.1), the fix of a framework (pydantic-ai) set-up,
judged on what it sends and on whether its logger still sees every tool call (13.2, optional),
and what the tool definitions cost over a run (``check_tool_tokens``, a prediction in the lesson
since the fix round of issue 33, kept with its tests). The expected values are read from the
requests the learner (or the check itself) captured (``standin.capturing``), never typed in;
13.1's hidden requests are built here, each with the answer its construction makes true."""

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
#: A question the general model answers with get_order (its description says status and
#: seller), so a check sees that tool called and can look for its log line.
ORDER_QUESTION = "What is the status of order SO-48213, and who is its seller?"

EX3 = Exercise(  # not in the lesson since the fix round of issue 33 (a prediction there)
    "13.9",
    look="how many requests the first agent's run made, and what each of them carried besides "
    "the messages.",
    idea="tool definitions are not sent once per run: every request carries them again, and "
    "each request of a capture is counted on its own.",
    example="a run of 3 requests whose definitions cost 50 tokens each sent 150 tokens of "
    "definitions.",
)
EX1 = Exercise(  # not in the lesson since issue 33 (13.1 is the audit); kept with its tests
    "13.0",
    idea="the code is not the wire: read the tools list of one of broken's requests, as it was "
    "sent.",
    look="the tools of one of broken's requests as the wire has them: each one's name and "
    "description.",
)
EX2 = Exercise(
    "13.2",
    look="the check's report of the wire: each problem it names, and the requests it is in.",
    idea="the framework sends and runs what it is given, not what the code seems to say: a "
    "prompt given through two doors goes out twice; a tool is described by whatever function "
    "object reaches the framework (its name, docstring and signature), and only that object "
    "runs when the model calls the tool. Decorators apply from the bottom up.",
    example="a wrapper with no docstring of its own turns a documented function f(x) into a "
    "tool named 'wrapper' with no description and the wrapper's own parameters (args), not x; "
    "a decorator applied above the one that registers f "
    "wraps a function the framework never calls again.",
)
EX_AUDIT = Exercise(
    "13.1",
    look="the request the check names, and each of the two things your function returned for "
    "it: the copies it counted and the names it listed.",
    idea="a request read from the wire is neutral whatever its format: a system field becomes "
    "a system message, and one message can hold several text blocks, each possibly holding the "
    "prompt more than once. Only system text counts as the system prompt, and a description "
    "made of spaces says nothing.",
    example="system blocks 'P' and 'P\\n\\nP' send the prompt P three times; a user message that "
    "quotes P sends it zero times; tools ('a', '') and ('b', '   ') are both undescribed, in "
    "that order.",
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
    if total == 0 and texts:
        sent = " + ".join(repr(text) for _, text in texts)
        return f"the system text sent is {sent}: the prompt is not in it, word for word"
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


def wrapper_parameters(request: Any) -> list[str]:
    """Each tool declared with the parameters of a ``*args, **kwargs`` wrapper (an ``args`` array,
    a ``kwargs`` object) instead of its function's: the model cannot tell what to pass. Does not
    compare a schema with the function's signature (the check does not have the function)."""
    problems = []
    for t in request.tools:
        names = set((t.parameters or {}).get("properties") or {})
        if names and names <= {"args", "kwargs"}:
            problems.append(
                f"tool {t.name} takes a wrapper's parameters ({', '.join(sorted(names))}), not "
                "its function's: the model cannot tell what to pass"
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
            problems += wrapper_parameters(s.request)
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


def build_and_run(
    fixed_agent: Callable[[Any], Any],
    model_name: str,
    timeout: float = 60,
    question: str = QUESTION,
) -> Any:
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
                await agent.run(question)
            return agent
        finally:
            await client.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, build_run_close()).result(timeout=timeout)


def _unlogged(fixed_agent: Callable[[Any], Any], model_name: str, tool: str) -> str | None:
    """Run the learner's agent on a question the model answers by calling ``tool``; why the
    team's logger did not see that call, or None when it printed a line naming the tool."""
    import contextlib
    import io
    import json

    from standin.capturing import capture

    printed = io.StringIO()
    with capture() as again, contextlib.redirect_stdout(printed):
        build_and_run(fixed_agent, model_name, question=ORDER_QUESTION)
    bodies = json.dumps([s.body for s in again])
    if f'"name": "{tool}"' not in bodies or len(again) < 2:
        return f"asked {ORDER_QUESTION!r}, the model never got to call {tool}"
    if "no such order" in bodies:
        return (
            f"asked {ORDER_QUESTION!r}, the model called {tool}, and the tool answered 'no such "
            "order': what the model sent did not reach the function as its parameters"
        )
    if tool not in printed.getvalue():
        return (
            f"asked {ORDER_QUESTION!r}, the model called {tool}, and nothing was printed: the "
            "logger never saw that call (every tool call is to stay logged)"
        )
    return None


def check_fixed_agent(
    fixed_agent: Callable[[Any], Any],
    system_text: str,
    broken: Any,
    *,
    logged_tool: str | None = None,
) -> Result:
    """Build the learner's agent under a fresh capture, run it, and read what it sent. With
    ``logged_tool``, run it again on a question that calls that tool and require the team's
    logger to print a line naming it (the lesson asks for every call still logged). What the
    agent prints is captured, not shown."""
    import contextlib
    import io

    from standin.capturing import capture

    info = {"kind": "function", "expected": "no problems on the wire"}
    if not_answered(fixed_agent):
        return _blank(EX2, **info)
    if not callable(fixed_agent):
        return not_yet(EX2, f"{fixed_agent!r} is not a function", **info)
    printed = io.StringIO()  # a logger's lines are the check's to read, not the cell's output
    with capture() as seen, contextlib.redirect_stdout(printed):
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
    if logged_tool:
        try:
            silent = _unlogged(fixed_agent, broken[0].model, logged_tool)
        except Exception as err:  # the learner's code: report it, never crash the notebook
            return not_yet(EX2, f"your agent raised {type(err).__name__}: {err}", **info)
        if silent:
            return not_yet(EX2, silent, **info)
    logs = f", and {logged_tool}'s calls still logged" if logged_tool else ""
    return Result(
        True,
        f"Right: {len(seen)} requests, each with the system prompt once and every tool "
        f"described, all accepted without a warning{logs} (pydantic-ai's docs recommend "
        "instructions= for most uses: a system_prompt part stays in the message history). Read "
        "the wire after every change to a set-up: the code looked right before too.",
        EX2,
        **info,
    )


# ---- 13.1: an audit of the wire, written by the learner ---------------------------------------

AUDIT_PROMPT = "You are Sundry's support agent. Look the order up before you answer."


def _read_back(request: Any, format: str) -> Any:
    """The request as a capture reads it: rendered in ``format``, then parsed back."""
    from helpers.formats import parse, render_for

    return parse(render_for(request, format).body, format)


def audit_cases() -> list:
    """The hidden requests of 13.1, each read back from a body in one of the four formats."""
    from course.exercises import Case
    from helpers.messages import Request, Tool, system, user

    p = AUDIT_PROMPT
    ask = user("Hi, my order SO-48213 arrived cracked.")
    search = Tool("search_orders", "Find a buyer's orders by order number or e-mail address.")
    order = Tool("get_order", "Look up one order by its number: status, item and seller.")
    cases = [
        ("a clean request", "openai-chat", [system(p), ask], [search, order], (1, [])),
        (
            "the prompt in two system messages",
            "openai-chat",
            [system(p), system(p), ask],
            [search],
            (2, []),
        ),
        (
            "two copies joined in one system text",
            "anthropic",
            [system(f"{p}\n\n{p}"), ask],
            [search, order],
            (2, []),
        ),
        (
            "a tool with no description",
            "gemini",
            [system(p), ask],
            [search, Tool("wrapper", "")],
            (1, ["wrapper"]),
        ),
        (
            "a blank description, and a buyer who quotes the prompt",
            "openai-responses",
            [system(p), user(f"My last agent said: {p}")],
            [Tool("get_order", "   "), search],
            (1, ["get_order"]),
        ),
        ("no system prompt at all", "anthropic", [ask], [search], (0, [])),
        (
            "the prompt with a line added after it",
            "gemini",
            [system(f"{p}\nBe brief."), ask],
            [order],
            (1, []),
        ),
        (
            "two undescribed tools, in the order declared",
            "openai-chat",
            [system(p), ask],
            [Tool("track_parcel", ""), search, Tool("cancel_order", "")],
            (1, ["track_parcel", "cancel_order"]),
        ),
    ]
    return [
        Case(
            f"{name} ({fmt})",
            (_read_back(Request("", messages, tools), fmt), p),
            _judge_audit(want),
        )
        for name, fmt, messages, tools, want in cases
    ]


def _judge_audit(want: tuple[int, list[str]]) -> Callable[[Any], str | None]:
    copies, names = want

    def judge(got: Any) -> str | None:
        if not (isinstance(got, (tuple, list)) and len(got) == 2):
            shown = repr(got) if len(repr(got)) <= 60 else repr(got)[:57] + "..."
            return f"your function gave {shown}: a pair (copies, names) is expected"
        got_copies, got_names = got
        if got_copies != copies:
            return (
                f"your function counts {got_copies!r} copies of the system prompt, and this "
                f"request sends it {copies} time{'s' * (copies != 1)} as system text"
            )
        if not isinstance(got_names, (list, tuple)) or list(got_names) != names:
            return (
                f"your function lists {got_names!r} as the tools sent without a description, "
                f"and this request declares {names!r} so, in that order"
            )
        return None

    return judge


def check_audit(audit: Any, system_text: str, broken: Any) -> Result:
    """``audit(request, system_text)``: (how many times ``system_text`` is sent as system text,
    the names of the tools declared without a description), judged on hidden requests; then
    applied to the broken set-up's first request."""
    from course.exercises import check_cases

    cases = audit_cases()
    result = check_cases(
        audit, cases, EX_AUDIT, success="Right: your audit reads any format as the wire sent it"
    )
    if not result:
        return result
    copies, names = audit(broken[0].request, system_text)
    return Result(
        True,
        "Right: your audit reads any format as the wire sent it. On the colleague's set-up it "
        f"says: the prompt sent {copies} times, and {', '.join(map(repr, names)) or 'no tool'} "
        "without a description. Keep it: one assert on it in a test (the on_the_wire fixture) "
        f"catches both mistakes before a model sees them. All {len(cases)} hidden cases passed.",
        EX_AUDIT,
        expected=result.expected,
        kind="function",
    )
