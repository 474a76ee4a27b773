"""Used in lessons: 14.

The capstone's check (notebooks/14_repair_an_agent.ipynb): the learner's Sundry agent, run
against the stand-in in all four wire formats on hidden tickets, and what still breaks.

``diagnose(agent)`` runs the agent's ``run_ticket`` on three tickets the learner has not seen,
each in each format, on one stand-in reset between runs: one where the model narrates
beside its first call (the sundry story), one where the provider answers with a 429 the request
right after a refund was issued, and one where the model asks for two tools in one reply. Every
tool run is counted (a retry that runs a refund twice is seen even when the history looks
right) and its returned text kept (a result the model reads must be that text, whole), and the
refund log the agent prints is read (one line per refund run). It reads what reached the wire
with the tools the series taught (the verdict and ``check``, ``count``, the cost meter) and
names each problem by its symptom, never by its fix: the earliest on the first try, one more
with each try after it (the others only counted), and what has gone since the last try. The
budget of a ticket is what it costs when every request carries only what it needs (the
repaired twin, ``repaired_agent.py``, run on the same ticket), plus 10%.

Authors: the learner's file is ``notebooks/sundry_agent.py`` (``make student`` copies it beside
the learner's notebook; the lesson's "before" run loads this shipped file, never the learner's
copy); the reference notebook loads the repaired twin inside its solution region, so it shows ✓
while its other cells show the planted bugs. The lesson imports its tools from
``workbench.py`` (``rerun``, ``check_repaired_agent``) and ``agent_file.py`` (``load_agent``),
so it links learners there and not here; its solution region finds the twin through
``helpers.examples.ROOT``.
"""

from __future__ import annotations

import ast
import contextlib
import io
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from course.exercises import _WRONG_TRIES, EXERCISES, Exercise, Result, not_answered, not_yet
from course.exercises.agent_file import (
    SHIPPED,
    BrokenAgent,
    is_shipped,
    limit_at,
    load_agent,
    scenario,
)

__all__ = ["REPAIRED", "SHIPPED", "BrokenAgent", "check_repaired_agent", "diagnose", "load_agent"]

REPAIRED = Path(__file__).with_name("repaired_agent.py")  # the reference run's agent

MARGIN = Decimal("1.10")  # the budget: what a ticket needs, plus 10%

EX1 = Exercise(
    "14.1",
    look="the wire, one request at a time: what request 1 carries (each tool's whole "
    "definition, where the policy text appears), how each request differs from the one before "
    "it, the meter's cost per turn, and what happens around a 429 (the tools that ran, what "
    "the agent printed, the request after it).",
    idea="everything the model knows is in the request your code builds, rebuilt every turn: "
    "the history is append-only (each request starts with the one before it, unchanged), "
    "every call is answered once before the model speaks again, a tool is known to the model "
    "only by what its definition says, a step with a side effect must not run again when only "
    "the request failed, and every token is billed on every turn.",
    example="a reply with one text block and two calls holds three things to act on, not one; "
    "a list you append to inside a function that is retried grows once per try; a function "
    "wrapped by a decorator that copies nothing has the wrapper's empty docstring.",
)


@dataclass(frozen=True)
class Ticket:
    """One hidden ticket: the buyer's words, whether the model narrates beside its calls, which
    request (if any) the provider answers with a 429, and whether the model asks for two tools
    in one reply."""

    name: str
    text: str
    narrated: bool
    rate_limit_at: int = 0
    parallel: bool = False


TICKETS = (
    Ticket(
        "Jon's espresso machine",
        "Hello, the espresso machine from order SO-51877 came with a smashed water tank. "
        "Can I get my money back?\n\nJon",
        narrated=True,
    ),
    Ticket(  # search, eligibility, refund: the 429 lands on the request after the refund
        "Maya's headphones, again",
        "Order SO-48213: the headphones came broken, the left hinge snapped off. "
        "A refund, please.\n\nMaya",
        narrated=False,
        rate_limit_at=4,
    ),
    Ticket(
        "Maya's tea towels",
        "My tea towels (order SO-50102) never arrived. Could you refund them?\n\nMaya",
        narrated=False,
        parallel=True,
    ),
)
FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")

# The symptoms, by key (the tests name them); each report says what was seen, never the fix.
SYMPTOMS = {
    "dropped-call": "a reply's tool call was never run",
    "no-description": "a tool reaches the model without the description its docstring gives",
    "policy-twice": "the policy is not sent once, as the system prompt",
    "tools-grown": "the tool list is not Sundry's nine",
    "rewritten": "the history the model reads is not what happened",
    "broken-after-retry": "a retry repeats work already done",
    "no-refund-log": "a refund is missing from the refund log the finance team asked for",
    "over-budget": "a ticket costs more than its budget",
    "refused": "the provider refuses a request",
    "crashed": "run_ticket raised an error (that ticket stopped there: its later turns are not "
    "checked until it runs on)",
}


# The third hint, per symptom: a smaller case of the idea behind the first one still there.
EXAMPLES = {
    "dropped-call": "a reply with one text block and two calls holds three things to act on: "
    "the words for the buyer and two calls to run, each answered before the next request.",
    "no-description": "a function wrapped by a decorator that copies nothing answers to the "
    "wrapper's name and docstring, not its own; whatever builds a tool from it sends those.",
    "policy-twice": "a rule written in the system prompt and again inside a user message is "
    "read twice by the model and billed twice on every request.",
    "tools-grown": "a tool offered but never run still sends its whole definition, and is "
    "billed for it, on every request.",
    "rewritten": "request 2 extends request 1 only when it starts with request 1's messages, "
    "unchanged; and a result is the tool's only when every character the tool returned is in "
    "it: 100 of its 400 characters tell the model something the tool never said.",
    "broken-after-retry": "a list you append to inside a function that is retried grows once per "
    "try; a refund issued inside it is issued once per try.",
    "no-refund-log": "a decorator is code that runs around every call of the function it wraps: "
    "take it away and whatever it did on each call stops with it.",
    "over-budget": "twenty extra tokens on a request sent six times are a hundred and twenty "
    "tokens billed.",
    "refused": "a call without its result, or a result without its call, is refused before the "
    "model reads anything.",
    "crashed": "an error that names a message's index and a block points at the list your code "
    "built: print that list just before the request goes out.",
}


# --- the hidden model and provider ----------------------------------------------------------


@contextlib.contextmanager
def _counting_tool_runs() -> Iterator[tuple[Counter, dict[str, str]]]:
    """Count every tool run of Sundry's tools (by call id and name) while the block runs, and
    keep the text each run returned (by call id, copied before the agent can touch it): the
    real ``sundry.run_tool`` still answers each one."""
    from helpers.examples import sundry

    real, runs, returned = sundry.run_tool, Counter(), {}

    def counted(call: Any) -> Any:
        runs[(getattr(call, "id", ""), getattr(call, "name", ""))] += 1
        result = real(call)
        returned[getattr(call, "id", "")] = result.text
        return result

    sundry.run_tool = counted
    try:
        yield runs, returned
    finally:
        sundry.run_tool = real


# --- running one ticket ---------------------------------------------------------------------


@dataclass
class Run:
    """One ticket in one format: what reached the wire, how the agent's call ended, how many
    times each tool call ran (by call id and tool name), the text each call's tool returned (by
    call id), and what the agent printed."""

    ticket: Ticket
    format: str
    seen: list[Any]  # standin.capturing.ReadBack, one per request
    error: str = ""  # what run_ticket raised, if anything
    runs: Counter = None  # type: ignore[assignment]
    returned: dict[str, str] = field(default_factory=dict)
    printed: str = ""

    @property
    def answered(self) -> list[Any]:
        return [s for s in self.seen if s.status == 200]


@contextlib.contextmanager
def stand_in() -> Iterator[Any]:
    """One stand-in for many runs (``run_one`` resets it before each)."""
    from standin import LocalProvider

    with LocalProvider() as provider:
        yield provider


def run_one(agent: Any, ticket: Ticket, format: str, provider: Any = None) -> Run:
    """Run ``agent.run_ticket`` on one ticket; its prints are swallowed. ``provider``: a
    running stand-in to reuse (its records, faults and scenario are reset here); None: a fresh
    one for this run."""
    from standin.capturing import ReadBack

    if provider is None:
        with stand_in() as fresh:
            return run_one(agent, ticket, format, fresh)
    provider.recorder.clear()
    provider.faults.clear()
    provider.on_exchange = None
    provider.scenario = scenario(ticket.narrated, ticket.parallel)
    limit_at(provider, ticket.rate_limit_at)
    error, printed = "", io.StringIO()
    with _counting_tool_runs() as (runs, returned):
        try:
            with contextlib.redirect_stdout(printed):
                agent.run_ticket(ticket.text, format=format, base_url=provider.url)
        except Exception as err:  # the learner's code: report it, never crash the notebook
            error = f"{type(err).__name__}: {str(err)[:300]}"
    seen = [ReadBack(e, n) for n, e in enumerate(provider.recorder.exchanges, 1)]
    return Run(ticket, format, seen, error, runs, returned, printed.getvalue())


def ticket_cost(run: Run) -> Decimal | None:
    """What the provider billed for the ticket (the meter over every answered request), or
    None when the run did not finish (a refusal, an error, a call left unanswered)."""
    from helpers.cost import price
    from helpers.formats import parse_response

    if run.error or not run.answered or any(s.status >= 400 and s.status != 429 for s in run.seen):
        return None
    total = Decimal(0)
    for s in run.answered:
        reply = parse_response(s.exchange.response_json, run.format)
        total += price(reply.usage, s.model).total_usd
    last = parse_response(run.answered[-1].exchange.response_json, run.format)
    return None if last.message.tool_calls else total


_BUDGETS: dict[tuple[Ticket, str], Decimal] = {}


def budget(ticket: Ticket, format: str, provider: Any = None) -> Decimal:
    """The ticket's budget: the repaired agent's cost of it, plus 10% (worked out once per
    ticket and format; ``provider``: a running stand-in to reuse, see ``run_one``)."""
    if (ticket, format) not in _BUDGETS:
        cost = ticket_cost(run_one(_repaired(), ticket, format, provider))
        if cost is None:
            raise RuntimeError(f"the repaired agent did not finish {ticket.name} in {format}")
        _BUDGETS[ticket, format] = (cost * MARGIN).quantize(Decimal("0.0000001"))
    return _BUDGETS[ticket, format]


@cache
def _repaired() -> Any:
    return load_agent(REPAIRED)


# --- reading the wire ---------------------------------------------------------------------


def _policy_places(request: Any) -> tuple[int, list[str]]:
    """(how many system messages hold the policy, the other messages that hold it)."""
    from helpers.examples import sundry

    policy = sundry.SYSTEM_PROMPT.strip()
    head = policy[:160]
    systems, others = 0, []
    for i, m in enumerate(request.messages):
        text = m.text if m.role != "tool" else "".join(r.text for r in m.tool_results)
        if m.role == "system" and text.strip() == policy:
            systems += 1
        elif head in text:
            others.append(f"messages[{i}] ({m.role})")
    return systems, others


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def _policy_said(systems: int, others: list[str]) -> str:
    """Where request 1 holds the policy, when that is not once as its system prompt ("" when it
    is): a count while a system prompt holds it, the places when none does."""
    if systems == 1 and not others:
        return ""
    if systems:
        return f"request 1 holds the policy {_times(systems + len(others))}"
    if others:
        return f"request 1 holds the policy only in {', '.join(others)}, in no system prompt"
    return "request 1 holds no policy at all"


def _altered_result(run: Run) -> str:
    """The first result a request carries that is not the text its tool returned ("" when
    each is whole): the model would read something the tool never said."""
    names = {call_id: name for call_id, name in (run.runs or {})}
    for s in run.seen:
        if s.request is None:
            continue
        for m in s.request.messages:
            for r in m.tool_results if m.role == "tool" else []:
                sent, returned = r.text, run.returned.get(r.call_id)
                if returned is None or sent == returned or _same_json(sent, returned):
                    continue
                name = names.get(r.call_id, "a tool")
                return (
                    f"{run.ticket.name}: request {s.number} carries the result of {name} as "
                    f"{len(sent):,} characters, not the {len(returned):,} the tool returned: the "
                    "model reads a result the tool never gave"
                )
    return ""


def _same_json(a: str, b: str) -> bool:
    """Whether two texts are the same JSON value (a format may re-space what it carries)."""
    import json

    try:
        return json.loads(a) == json.loads(b)
    except ValueError:
        return False


def _first_change(before: list, after: list) -> int | None:
    """The first index where ``after`` does not repeat ``before`` (None: an extension; a last
    message that only grew, as when a format merges the next results into it, is one too)."""
    for i, message in enumerate(before):
        if i >= len(after) or after[i] != message:
            grew = (
                i == len(before) - 1
                and i < len(after)
                and after[i].role == message.role
                and after[i].content[: len(message.content)] == message.content
            )
            return None if grew else i
    return None


def docstrings(source: str) -> dict[str, str]:
    """Each function's docstring in an agent file's source, by function name (cleaned as
    ``inspect.getdoc`` cleans it); a file that does not parse gives none."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    return {
        node.name: doc
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (doc := ast.get_docstring(node))
    }


def _undescribed(tools: list[Any], docs: dict[str, str]) -> list[str]:
    """The tools sent without a description, or with one other than their handler's docstring
    (read from the file's source, so a wrapper cannot stand in for it)."""
    wrong = []
    for t in tools:
        sent = (t.description or "").strip()
        if not sent or (t.name in docs and sent != docs[t.name].strip()):
            wrong.append(f"{t.name} ({'no description' if not sent else repr(sent[:40])})")
    return wrong


def _symptoms(run: Run, docs: dict[str, str] | None = None, provider: Any = None) -> dict:
    """What this one run shows, symptom key -> what was seen. ``docs``: the handlers'
    docstrings the tools' descriptions should be (``docstrings`` of the agent's file);
    ``provider``: a running stand-in the budget may reuse."""
    from helpers.examples import sundry
    from helpers.formats import parse_response
    from helpers.rules import check

    found: dict[str, str] = {}
    where = f"{run.ticket.name}"
    first = next((s for s in run.seen if s.request is not None), None)
    if first is not None:
        wrong = _undescribed(first.request.tools, docs or {})
        if wrong:
            found["no-description"] = f"request 1 describes {', '.join(wrong)}"
        names = [t.name for t in first.request.tools]
        ours = {t.name for t in sundry.TOOLS}
        if set(names) != ours or len(names) != len(ours):
            tokens = first.count.part("tools") if first.count is not None else "?"
            found["tools-grown"] = (
                f"request 1 offers {len(names)} tools ({tokens} tokens of definitions, sent "
                "again every turn)"
            )
        if policy := _policy_said(*_policy_places(first.request)):
            found["policy-twice"] = policy
    answered = [s for s in run.answered if s.request is not None]  # what the model read
    for before, after in zip(answered, answered[1:], strict=False):
        k = _first_change(before.request.messages, after.request.messages)
        if k is not None and "rewritten" not in found:
            role = before.request.messages[k].role
            found["rewritten"] = (
                f"{where}: request {after.number} changed messages[{k}] ({role}), which request "
                f"{before.number} had sent: the model now reads a history of things that did "
                "not happen that way"
            )
    if "rewritten" not in found and (altered := _altered_result(run)):
        found["rewritten"] = altered
    limited = [s.number for s in run.seen if s.status == 429]
    twice = sorted((name, n) for (_, name), n in (run.runs or {}).items() if n > 1)
    if twice:
        after = f"request {limited[0]} got a 429; then " if limited else ""
        ran = ", ".join(f"{name} ran {n} times for one call" for name, n in twice)
        found["broken-after-retry"] = f"{where}: {after}{ran}"
    refunds = sum(n for (_, name), n in (run.runs or {}).items() if name == "issue_refund")
    logged = run.printed.count("[refund log]")
    if logged < refunds:
        found["no-refund-log"] = (
            f"{where}: issue_refund ran {_times(refunds)}; the refund log has {logged} "
            f"line{'s' * (logged != 1)} for it"
        )
    unanswered = set()  # requests that left a call of the model's without its result
    for s in run.seen:
        if s.request is None:
            continue
        messages = s.request.messages
        answered = {r.call_id for m in messages if m.role == "tool" for r in m.tool_results}
        asked = [c for m in messages if m.role == "assistant" for c in m.tool_calls]
        if missing := [c.name for c in asked if c.id not in answered]:
            unanswered.add(s.number)
            found.setdefault(
                "dropped-call",
                f"{where}: request {s.number} went out without a result for "
                f"{', '.join(missing)}, which the model had asked for",
            )
    for s in run.seen:
        if s.request is None or s.number in unanswered:
            continue
        errors = check(s.request, profile="portable").errors
        refused = s.accepted is False or (s.status >= 400 and s.status != 429)
        if not (errors or refused):
            continue
        first = s.verdict.first_error if refused and s.verdict is not None else None
        problem = first if first is not None else errors[0]
        why = str(problem)
        if limited and s.number > limited[0]:
            found.setdefault(
                "broken-after-retry",
                f"{where}: request {limited[0]} got a 429; request {s.number}, sent after it, "
                f"breaks the rules of the list ({why})",
            )
        else:
            found.setdefault("refused", f"{where}: request {s.number} breaks a rule ({why})")
    if run.answered and not run.error:
        last = parse_response(run.answered[-1].exchange.response_json, run.format)
        if last.message.tool_calls:
            names = ", ".join(c.name for c in last.message.tool_calls)
            text = last.message.text.strip()
            said = f'; the buyer was left with "{text}"' if text else ""
            found["dropped-call"] = (
                f"{where}: reply {run.answered[-1].number} asked for {names}, and the run "
                f"ended there: no request ever answered that call{said}"
            )
    if run.error and not ({"broken-after-retry", "refused", "dropped-call"} & set(found)):
        found["crashed"] = f"{where}: run_ticket raised {run.error}"
    cost = ticket_cost(run)
    if cost is not None:
        limit = budget(run.ticket, run.format, provider)
        if cost > limit:
            over = (cost / limit - 1) * 100
            found["over-budget"] = (
                f"{where} cost ${cost:.6f} against a budget of ${limit:.6f} ({over:.0f}% over; "
                "the budget is what the ticket needs, plus 10%)"
            )
    return found


def diagnose(agent: Any, formats: tuple[str, ...] = FORMATS) -> dict[str, dict[str, str]]:
    """Per format, every symptom the hidden tickets show: key -> what was seen (the first
    ticket that shows it; a crash names every ticket that crashed, each stops early)."""
    docs = docstrings(_source(agent) or SHIPPED.read_text(encoding="utf-8"))
    report: dict[str, dict[str, str]] = {}
    with stand_in() as provider:
        for format in formats:
            found: dict[str, str] = {}
            for ticket in TICKETS:
                run = run_one(agent, ticket, format, provider)
                for key, text in _symptoms(run, docs, provider).items():
                    if key == "crashed" and key in found:
                        found[key] += f"; also {text}"
                    found.setdefault(key, text)
            report[format] = found
    return report


def problems(report: dict[str, dict[str, str]]) -> list[str]:
    """Every symptom key the report holds, once each, in the order found (format by format,
    ticket by ticket, earliest request first)."""
    return list(dict.fromkeys(key for found in report.values() for key in found))


def describe(report: dict[str, dict[str, str]], named: int | None = None) -> str:
    """The report in words: formats that show the same symptoms are named together. ``named``:
    how many problems to name (the first ones of ``problems``); the others are only counted."""
    order = problems(report)
    shown = set(order if named is None else order[:named])
    groups: dict[tuple[str, ...], list[str]] = {}
    for format, found in report.items():
        groups.setdefault(tuple(found), []).append(format)
    parts = []
    for keys, formats in groups.items():
        if not keys:
            parts.append(f"{', '.join(formats)}: nothing breaks")
            continue
        every = len(formats) == len(FORMATS) > 1
        name = "in all four formats" if every else ", ".join(formats)
        first = report[formats[0]]
        said = [k for k in order if k in keys and k in shown]
        items = [f"({n}) {SYMPTOMS[k]}: {first[k]}" for n, k in enumerate(said, 1)]
        if hidden := len(keys) - len(said):
            items.append(f"{'and ' * bool(said)}{hidden} more, not named yet")
        parts.append(f"{name}, {len(keys)} problem{'s' * (len(keys) != 1)}: {'; '.join(items)}")
    return " | ".join(parts)


def _source(agent: Any) -> str:
    path = getattr(agent, "__file__", None)
    return Path(path).read_text(encoding="utf-8") if path and Path(path).is_file() else ""


# What the last check of this kernel found: (the wrong tries it left, its symptom keys); the
# next check, at that same count of tries, names what has gone since.
_LAST: list[tuple[int, list[str]]] = []


def _since_last(tries: int, now: list[str], tries_after: int) -> str:
    """The symptoms the last check found that are gone now ("" when none, or when that check
    belongs to another round of tries); remembers ``now`` for the next check."""
    before = _LAST[0][1] if _LAST and _LAST[0][0] == tries else []
    _LAST[:] = [(tries_after, now)]
    gone = [SYMPTOMS[k] for k in before if k not in now]
    return f". Gone since your last check: {'; '.join(gone)}" if gone else ""


def _adapted(key: str) -> Exercise:
    """EX1 with its third hint for the symptom ``key`` (the registry keeps EX1 itself)."""
    adapted = replace(EX1, example=EXAMPLES.get(key, EX1.example))
    EXERCISES[EX1.id] = EX1
    return adapted


def check_repaired_agent(agent: Any, formats: tuple[str, ...] = FORMATS) -> Result:
    """``agent``: your agent module (``load_agent("sundry_agent.py")``), run on hidden tickets
    in the four formats (tests may name fewer); right when no format shows any problem."""
    info = {"kind": "function", "expected": "an agent no hidden ticket finds a problem in"}
    if not_answered(agent):
        return Result(False, f"Exercise {EX1.id} is not answered yet: load your agent file and "
                      "pass it to the check.", EX1, **info)  # fmt: skip
    if isinstance(agent, BrokenAgent):
        return not_yet(EX1, repr(agent), **info)
    if not callable(getattr(agent, "run_ticket", None)):
        return not_yet(
            EX1, f"{type(agent).__name__} has no run_ticket(text, format=..., base_url=...)", **info
        )
    report = diagnose(agent, formats)
    order = problems(report)
    tries = _WRONG_TRIES.get(EX1.id, 0)  # wrong tries before this one
    if is_shipped(_source(agent)):
        _since_last(tries, order, tries)
        return Result(
            False,
            f"Exercise {EX1.id} is not answered yet: {Path(agent.__file__).name} is as shipped, "
            f"and the hidden tickets find {len(order)} problems in it. Find them on the wire "
            "with the cells above (the cards, check, count, the meter), repair the file, save "
            "it and run this cell again: from your first change on, this check names what "
            "still breaks, by its symptom, the earliest first and one more each time you run "
            "it.",
            EX1,
            **info,
        )
    if order:
        named = tries + 1  # the earliest on the first try, one more with each try after it
        gone = _since_last(tries, order, tries + 1)
        what = f"on the hidden tickets, still broken: {describe(report, named)}"
        if len(order) > named:
            what += " (each run of this check names one more)"
        what += gone
        return not_yet(_adapted(order[0]), what, **info)
    _LAST.clear()
    return Result(
        True,
        f"Right: {len(TICKETS)} hidden tickets in each of the {len(formats)} formats, every "
        "request accepted and within the rules, every call answered and run once, each result as "
        "its tool returned it, every refund logged, the policy once, nine described tools, each "
        "history an extension of the last, each ticket within its budget. You found it all on "
        "the wire: the code looked right before too.",
        EX1,
        **info,
    )
