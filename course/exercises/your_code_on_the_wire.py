"""Used in lessons: 13.

Exercises of notebooks/13_your_code_on_the_wire.ipynb: an audit of the wire the learner writes,
run on hidden requests in all four formats (13.1), the team's logger fixed for every tool it
wraps (13.2, optional: hidden tools, sync, async and refusing, each run on a pydantic-ai agent
and compared on the wire with the bare tool), and what the tool definitions cost over a run
(``check_tool_tokens``, a prediction in the lesson since the fix round of issue 33, kept with
its tests). The expected values are read from the
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
EX_AUDIT = Exercise(
    "13.1",
    look="the request the check names, and each of the two things your function returned for "
    "it: the paragraphs it reported and the names it listed.",
    idea="a request read from the wire is neutral whatever its format: a system field becomes "
    "a system message, one message can hold several text blocks, and one block can hold the "
    "same paragraph twice. Only system text is the system prompt, and a description made of "
    "spaces says nothing.",
    example="system blocks 'A' and 'B\\n\\nA' send A twice, so the audit reports ['A']; a user "
    "message whose paragraph is A adds nothing; tools ('a', '') and ('b', '   ') are both "
    "undescribed, in that order.",
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


# ---- 13.2: the team's logger, fixed for every tool it wraps ----------------------------------

EX2 = Exercise(
    "13.2",
    look="the tool the check names and the difference it reports: its definition on the wire "
    "(name, description, parameters), what the model got back from the call, or the line "
    "your logger printed.",
    idea="a framework reads a tool from the function object it is handed: its name, its "
    "docstring, its signature, and whether calling it gives a result or something to await. "
    "A wrapper is a new function object, so it must carry all of that over from the tool, and "
    "let the tool's outcome through untouched, a result or an error, to the log line and to "
    "the model alike.",
    example="wrapping def double(x): 'Double x.' in a bare def wrapper(*args, **kwargs) declares "
    "a tool named 'wrapper', with no description, whose parameters are an array args and "
    "additionalProperties: true (any keyword at all), where double declared one number x; and "
    "a plain wrapper around async def fetch() holds a coroutine object, not fetch's result, "
    "when it prints.",
)

_LOG_ORDERS = {"SO-48213": {"status": "delivered", "item": "Ceramic mug", "seller": "Kiln & Co"}}


def get_order(order_id: str) -> str:
    """Look up one order by its number: status, item and seller."""
    import json

    return json.dumps(_LOG_ORDERS.get(order_id, {"error": "no such order"}))


def search_orders(query: str, limit: int = 5) -> str:
    """Find a buyer's orders by order number or e-mail address.

    Args:
        query: an order number like SO-48213, or the buyer's e-mail address.
        limit: at most this many orders, newest first.
    """
    import json

    return json.dumps([_LOG_ORDERS.get(query, {"error": "no match"})][:limit])


async def get_tracking(order_id: str) -> str:
    """Track one parcel by its order number: carrier and last scan."""
    import json

    await asyncio.sleep(0)  # a real one would await its carrier's API here
    return json.dumps({"order": order_id, "carrier": "Parcelway", "last_scan": "Leeds depot"})


def issue_refund(order_id: str, amount_usd: float) -> str:
    """Refund an order, up to $150; a larger refund goes to a human."""
    from pydantic_ai import ModelRetry

    if amount_usd > 150:
        raise ModelRetry(f"refunds over $150 need a human: {order_id} asked ${amount_usd:.2f}")
    return f"refunded ${amount_usd:.2f} on {order_id}"


#: (case name, tool, a question the stand-in's model answers by calling that tool)
LOGGED_TOOLS = (
    ("get_order, a documented tool", get_order, ORDER_QUESTION),
    (
        "search_orders, with an Args: section and a parameter with a default",
        search_orders,
        "Find my orders: SO-48213",
    ),
    (
        "get_tracking, an async tool",
        get_tracking,
        "Where is the parcel of order SO-48213? Track it please.",
    ),
    (
        "issue_refund, a tool that refuses with ModelRetry",
        issue_refund,
        "Please refund $289 on order SO-51877.",
    ),
)


def _tool_run(tool: Any, question: str, model_name: str) -> tuple[list, list, str]:
    """Register ``tool`` alone on a pydantic-ai agent, run ``question`` under a fresh capture:
    (tool definitions of the first request, tool messages of the last, what was printed)."""
    import contextlib
    import io

    from pydantic_ai import Agent

    from standin.capturing import capture

    printed = io.StringIO()
    with capture() as seen, contextlib.redirect_stdout(printed):
        build_and_run(lambda model: Agent(model, tools=[tool]), model_name, question=question)
    if not len(seen):
        return [], [], printed.getvalue()
    definitions = seen[0].body.get("tools", [])
    answers = [m.get("content") for m in seen[-1].body.get("messages", []) if m["role"] == "tool"]
    return definitions, answers, printed.getvalue()


_BARE: dict[str, tuple[list, list, str]] = {}


def _bare_run(tool: Any, question: str, model_name: str) -> tuple[list, list, str]:
    key = f"{tool.__name__} {question} {model_name}"
    if key not in _BARE:
        _BARE[key] = _tool_run(tool, question, model_name)
    return _BARE[key]


def _outcome(tool: Any, question: str, model_name: str) -> tuple[str, str]:
    """("returned" or "raised", the text the log line must show), from the bare tool's run."""
    _, answers, _ = _bare_run(tool, question, model_name)
    text = answers[0] if answers else ""
    if text.startswith('{"error":'):  # pydantic-ai's retry prompt: the ModelRetry's message
        import json

        return "raised", json.loads(text)["error"]
    return "returned", text


def _judge_logged(tool: Any, question: str, model_name: str) -> Callable[[Any], str | None]:
    def judge(got: Any) -> str | None:
        name = tool.__name__
        if not callable(got):
            return f"your function returned {got!r}, not a function the framework can register"
        want_defs, want_answers, _ = _bare_run(tool, question, model_name)
        try:
            defs, answers, printed = _tool_run(got, question, model_name)
        except Exception as err:  # the learner's wrapper: report it, never crash the notebook
            return f"the agent with your wrapped {name} raised {type(err).__name__}: {err}"
        if defs != want_defs:
            sent = [d.get("function", d) for d in defs]
            want = want_defs[0]["function"]
            if not sent:
                return f"no tool was declared where {name} should be"
            got_def = sent[0]
            if got_def.get("name") != want["name"]:
                return f"the tool went on the wire as {got_def.get('name')!r}, not {name!r}"
            if got_def.get("description") != want.get("description"):
                return (
                    f"{name} went on the wire described as {got_def.get('description')!r}, "
                    f"where the tool itself is described as {want.get('description')!r}"
                )
            return (
                f"{name}'s parameters on the wire are {json_short(got_def.get('parameters'))}, "
                f"where the tool itself declares {json_short(want.get('parameters'))}"
            )
        if answers != want_answers:
            return (
                f"after the call the model got back {answers!r}, where {name} itself answers "
                f"{want_answers!r}"
            )
        kind, shows = _outcome(tool, question, model_name)
        lines = [line for line in printed.splitlines() if name in line]
        if not lines:
            return f"the model called {name} and nothing printed names it: the call was not logged"
        calls = max(1, len(want_answers))
        if len(lines) > calls:
            return (
                f"your logger printed {len(lines)} lines naming {name} for {calls} "
                f"call{'s' * (calls != 1)}: each call prints one line, with its outcome on it"
            )
        if not any(shows in line for line in lines):
            return (
                f"your log line for {name} reads {lines[0][:120]!r}: it does not show what the "
                f"call {kind} ({shows[:60]!r})"
            )
        return None

    return judge


def json_short(value: Any, limit: int = 160) -> str:
    """``value`` as compact JSON, cut at ``limit`` characters."""
    import json

    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_logged(logged: Any, model_name: str) -> Result:
    """``log_calls(tool)``: the team's logger, returning what the framework registers instead of
    ``tool``. Judged on hidden tools (sync, documented with Args:, async, refusing with
    ModelRetry), each run alone on a pydantic-ai agent under its own capture and compared with
    the bare tool's run: the same definition on the wire, the same answer to the model, and a
    printed line naming the tool and showing what it returned or raised. Does not judge the
    line's wording."""
    from course.exercises import Case, check_cases

    cases = [
        Case(name, (tool,), _judge_logged(tool, question, model_name))
        for name, tool, question in LOGGED_TOOLS
    ]
    return check_cases(
        logged,
        cases,
        EX2,
        success="Right: every tool you wrap reaches the wire as itself, answers the model as "
        "itself, errors included, and leaves a line with its outcome. A wrapper is invisible "
        "in the code and plain on the wire: read the wire after adding one",
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
    from helpers.messages import Request, Text, Tool, system, user

    p, q = AUDIT_PROMPT, "Be brief."
    ask = user("Hi, my order SO-48213 arrived cracked.")
    search = Tool("search_orders", "Find a buyer's orders by order number or e-mail address.")
    order = Tool("get_order", "Look up one order by its number: status, item and seller.")
    cases = [
        ("a clean request", "openai-chat", [system(p), ask], [search, order], ([], [])),
        (
            "the prompt in two system messages",
            "openai-chat",
            [system(p), system(p), ask],
            [search],
            ([p], []),
        ),
        (
            "two copies joined in one system text",
            "anthropic",
            [system(f"{p}\n\n{p}"), ask],
            [search, order],
            ([p], []),
        ),
        (  # the fourth walk: an audit that read only each system message's first block
            "the prompt in two blocks of one system field",
            "anthropic",
            [system(Text(p), Text(p)), ask],
            [search],
            ([p], []),
        ),
        (
            "a tool with no description",
            "gemini",
            [system(p), ask],
            [search, Tool("wrapper", "")],
            ([], ["wrapper"]),
        ),
        (
            "a blank description, and a buyer who quotes the prompt",
            "openai-responses",
            [system(p), user(f"My last agent said:\n\n{p}")],
            [Tool("get_order", "   "), search],
            ([], ["get_order"]),
        ),
        ("no system prompt at all", "anthropic", [ask], [search], ([], [])),
        (
            "two paragraphs each sent twice, in the order first sent",
            "gemini",
            [system(f"{p}\n\n{q}"), system(f"{q}\n\n{p}"), ask],
            [order],
            ([p, q], []),
        ),
        (
            "one paragraph sent three times, reported once",
            "openai-responses",
            [system(f"{p}\n\n{p}"), system(p), ask],
            [order],
            ([p], []),
        ),
        (
            "a paragraph of two lines, sent twice",
            "openai-responses",
            [system(f"{p}\n{q}"), system(f"{p}\n{q}"), ask],
            [order],
            ([f"{p}\n{q}"], []),
        ),
        (
            "the same paragraph, once with a line break after it",
            "openai-chat",
            [system(f"{p}\n"), system(p), ask],
            [order],
            ([p], []),
        ),
        (
            "two undescribed tools, in the order declared",
            "openai-chat",
            [system(p), ask],
            [Tool("track_parcel", ""), search, Tool("cancel_order", "")],
            ([], ["track_parcel", "cancel_order"]),
        ),
    ]
    return [
        Case(
            f"{name} ({fmt})",
            (_read_back(Request("", messages, tools), fmt),),
            _judge_audit(want),
        )
        for name, fmt, messages, tools, want in cases
    ]


def _short(value: Any, limit: int = 60) -> str:
    shown = repr(value)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def _judge_audit(want: tuple[list[str], list[str]]) -> Callable[[Any], str | None]:
    repeated, names = want

    def judge(got: Any) -> str | None:
        if not (isinstance(got, (tuple, list)) and len(got) == 2):
            return f"your function gave {_short(got)}: a pair (paragraphs, names) is expected"
        got_repeated, got_names = got
        if not isinstance(got_repeated, (list, tuple)) or list(got_repeated) != repeated:
            sent = (
                f"sends {len(repeated)} paragraph{'s' * (len(repeated) != 1)} of system text "
                f"more than once: {_short(repeated, 90)}"
                if repeated
                else "sends no paragraph of system text more than once"
            )
            return (
                f"your function reports {_short(got_repeated, 90)} as system text sent more than "
                f"once, and this request {sent}"
            )
        if not isinstance(got_names, (list, tuple)) or list(got_names) != names:
            return (
                f"your function lists {got_names!r} as the tools sent without a description, "
                f"and this request declares {names!r} so, in that order"
            )
        return None

    return judge


def check_audit(audit: Any, broken: Any) -> Result:
    """``audit(request)``: (the paragraphs of system text sent more than once, the names of the
    tools declared without a description), judged on hidden requests; then applied to the broken
    set-up's first request. Is not told the prompt."""
    from course.exercises import check_cases

    cases = audit_cases()
    result = check_cases(
        audit, cases, EX_AUDIT, success="Right: your audit reads any format as the wire sent it"
    )
    if not result:
        return result
    repeated, names = audit(broken[0].request)
    twice = "; ".join(_short(text, 50) for text in repeated) or "nothing"
    return Result(
        True,
        "Right: your audit reads any format as the wire sent it, and needs no prompt to be told. "
        f"On the colleague's set-up it says: sent more than once, {twice}; and "
        f"{', '.join(map(repr, names)) or 'no tool'} without a description. Keep it: one assert "
        "on it in a test (the on_the_wire fixture) catches both mistakes on any agent before a "
        f"model sees them. All {len(cases)} hidden cases passed.",
        EX_AUDIT,
        expected=result.expected,
        kind="function",
    )
