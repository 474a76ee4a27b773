"""Used in lessons: 14.

The capstone's check (notebooks/14_repair_an_agent.ipynb): the learner's Sundry agent, run
against the stand-in in all four wire formats on hidden tickets, and what still breaks.

``diagnose(agent)`` runs the agent's ``run_ticket`` on three tickets the learner has not seen,
each in each format, on a fresh local provider: one where the model narrates beside its first
call (the sundry story), one where it only calls, and one where the provider answers the second
request with a 429. It reads what reached the wire with the tools the series taught (the
verdict and ``check``, ``count``, the cost meter) and names each problem by its symptom, never
by its fix. The budget of a ticket is what it costs when every request carries only what it
needs (the repaired twin, ``repaired_agent.py``, run on the same ticket), plus 10%.

Authors: the learner's file is ``notebooks/sundry_agent.py`` (``make student`` copies it beside
the learner's notebook); the reference notebook loads the repaired twin inside its solution
region, so it shows ✓ while its other cells show the planted bugs.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import sys
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from course.exercises import Exercise, Result, not_answered, not_yet
from helpers.examples import ROOT  # the checkout, found as the lessons find their data

SHIPPED = ROOT / "notebooks" / "sundry_agent.py"  # what learners get, bugs and all
REPAIRED = Path(__file__).with_name("repaired_agent.py")  # the reference run's agent
MARGIN = Decimal("1.10")  # the budget: what a ticket needs, plus 10%

EX1 = Exercise(
    "14.1",
    look="the wire, one request at a time: what request 1 carries (tools, their descriptions, "
    "where the policy text appears), how each request differs from the one before it, the "
    "meter's cost per turn, and what the requests look like when the provider answers 429.",
    idea="everything the model knows is in the request your code builds, rebuilt every turn: "
    "the history is append-only (each request starts with the one before it, unchanged), "
    "every call is answered once before the model speaks again, a tool is known to the model "
    "only by what its definition says, and every token of it is billed on every turn.",
    example="a reply with one text block and one call holds two things to act on, not one; a "
    "retry that repeats a step which already appended something sends it twice; a function "
    "wrapped by a decorator that copies nothing has the wrapper's empty docstring.",
)


@dataclass(frozen=True)
class Ticket:
    """One hidden ticket: the buyer's words, whether the model narrates beside its calls, and
    whether the provider rate-limits the second request."""

    name: str
    text: str
    narrated: bool
    rate_limited: bool = False


TICKETS = (
    Ticket(
        "Jon's espresso machine",
        "Hello, the espresso machine from order SO-51877 came with a smashed water tank. "
        "Can I get my money back?\n\nJon",
        narrated=True,
    ),
    Ticket(
        "Maya's headphones, again",
        "Order SO-48213: the headphones came broken, the left hinge snapped off. "
        "A refund, please.\n\nMaya",
        narrated=False,
    ),
    Ticket(
        "Maya's tea towels",
        "My tea towels (order SO-50102) never arrived. Could you refund them?\n\nMaya",
        narrated=False,
        rate_limited=True,
    ),
)
FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")

# The symptoms, by key (the tests name them); each report says what was seen, never the fix.
SYMPTOMS = {
    "dropped-call": "a reply's tool call was never run",
    "no-description": "a tool reaches the model without a description",
    "policy-twice": "the policy is not sent once, as the system prompt",
    "tools-grown": "the tool list is not Sundry's nine",
    "rewritten": "an earlier turn changed after it was sent",
    "broken-after-retry": "after a 429, the history breaks the rules of the list",
    "over-budget": "a ticket costs more than its budget",
    "refused": "the provider refuses a request",
    "crashed": "run_ticket raised an error",
}


@dataclass(frozen=True)
class BrokenAgent:
    """An agent file that did not load: which file, and why (its error and line)."""

    path: Path
    error: str

    def run_ticket(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(repr(self))

    def __repr__(self) -> str:
        return f"{self.path.name} does not load: {self.error}"


def load_agent(path: str | Path = "sundry_agent.py") -> ModuleType | BrokenAgent:
    """The agent file read afresh from disk (your latest edits, no restart needed). A file that
    does not load (a typo, an import error) gives a ``BrokenAgent`` that says why and where."""
    import traceback

    path = Path(path).resolve()
    if not path.is_file():
        return BrokenAgent(path, f"there is no file {path} (run make student to get it back)")
    name = f"_agent_{hashlib.sha256(str(path).encode()).hexdigest()[:8]}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    except Exception as err:  # the learner's file: say what and where, no traceback
        frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename == str(path)]
        line = getattr(err, "lineno", None) or (frames[-1].lineno if frames else None)
        where = f" (line {line})" if line and not isinstance(err, SyntaxError) else ""
        return BrokenAgent(path, f"{type(err).__name__}: {err}{where}")
    sys.modules[name] = module
    return module


def rerun(
    format: str = "anthropic",
    text: str = "",
    *,
    narrated: bool = True,
    rate_limit_second: bool = False,
    agent: Any = None,
    path: str | Path = "sundry_agent.py",
) -> tuple[Any, Any]:
    """Your agent (the file, read afresh) run once under capture: ``(trace, seen)``, the meter
    and every request as cards. ``text``: the buyer's message (default: Maya's ticket);
    ``narrated=False``: a model that calls tools without a word beside them;
    ``rate_limit_second``: the provider answers request 2 with a 429. When ``run_ticket``
    raises, the error is printed and the trace is empty: ``seen`` still shows the wire."""
    from helpers.examples import sundry
    from helpers.loop import Trace
    from standin import capture
    from standin.provider.faults import RateLimited, Slow

    agent = agent if agent is not None else load_agent(path)
    trace = Trace(format, "(no trace: run_ticket raised)")
    with capture(_scenario(narrated)) as seen:
        if rate_limit_second:
            seen.provider.inject(Slow(0))
            seen.provider.inject(RateLimited(retry_after=0))
        try:
            trace = agent.run_ticket(
                text or sundry.TICKET_TEXT, format=format, base_url=seen.provider.url
            )
        except Exception as err:  # your code: shown, not raised, so the wire can be read
            print(f"run_ticket raised {type(err).__name__}: {err}")
    return trace, seen


# --- running one ticket ---------------------------------------------------------------------


@dataclass
class Run:
    """One ticket in one format: what reached the wire, and how the agent's call ended."""

    ticket: Ticket
    format: str
    seen: list[Any]  # standin.capturing.Seen, one per request
    error: str = ""  # what run_ticket raised, if anything

    @property
    def answered(self) -> list[Any]:
        return [s for s in self.seen if s.status == 200]


def _scenario(narrated: bool):
    from helpers.messages import Text, ToolCall
    from standin.provider.scenarios import sundry

    if narrated:
        return sundry

    def sundry_quiet(turn):  # the same story, without words beside the calls
        blocks = sundry(turn)
        calls = any(isinstance(b, ToolCall) for b in blocks)
        return [b for b in blocks if not (calls and isinstance(b, Text))]

    return sundry_quiet


def run_one(agent: Any, ticket: Ticket, format: str) -> Run:
    """Run ``agent.run_ticket`` on one ticket, on a fresh stand-in; its prints are swallowed."""
    from standin import LocalProvider
    from standin.capturing import Seen
    from standin.provider.faults import RateLimited, Slow

    error = ""
    with LocalProvider(_scenario(ticket.narrated)) as provider:
        if ticket.rate_limited:
            provider.inject(Slow(0))  # the first request goes through...
            provider.inject(RateLimited(retry_after=0))  # ...the second gets a 429
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                agent.run_ticket(ticket.text, format=format, base_url=provider.url)
        except Exception as err:  # the learner's code: report it, never crash the notebook
            error = f"{type(err).__name__}: {str(err)[:300]}"
        seen = [Seen(e, n) for n, e in enumerate(provider.recorder.exchanges, 1)]
    return Run(ticket, format, seen, error)


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


@cache
def budget(ticket: Ticket, format: str) -> Decimal:
    """The ticket's budget: the repaired agent's cost of it, plus 10%."""
    cost = ticket_cost(run_one(load_agent(REPAIRED), ticket, format))
    if cost is None:
        raise RuntimeError(f"the repaired agent did not finish {ticket.name} in {format}")
    return (cost * MARGIN).quantize(Decimal("0.0000001"))


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


def _symptoms(run: Run) -> dict[str, str]:
    """What this one run shows, symptom key -> what was seen."""
    from helpers.examples import sundry
    from helpers.formats import parse_response
    from helpers.rules import check

    found: dict[str, str] = {}
    where = f"{run.ticket.name}"
    first = next((s for s in run.seen if s.request is not None), None)
    if first is not None:
        nameless = [t.name for t in first.request.tools if not (t.description or "").strip()]
        if nameless:
            found["no-description"] = f"request 1 offers {', '.join(nameless)} with no description"
        names = [t.name for t in first.request.tools]
        ours = {t.name for t in sundry.TOOLS}
        if set(names) != ours or len(names) != len(ours):
            tokens = first.count.part("tools") if first.count is not None else "?"
            extra = len([n for n in names if n not in ours])
            found["tools-grown"] = (
                f"request 1 offers {len(names)} tools ({tokens} tokens of definitions, sent "
                f"again every turn); {extra} of them are not among Sundry's support tools"
            )
        systems, others = _policy_places(first.request)
        if others or systems != 1:
            places = ", ".join(others) or "no system message"
            found["policy-twice"] = (
                f"request 1 holds the policy {systems + len(others)} times "
                f"(as the system prompt: {systems}; elsewhere: {places})"
            )
    answered = [s for s in run.answered if s.request is not None]  # what the model read
    for before, after in zip(answered, answered[1:], strict=False):
        k = _first_change(before.request.messages, after.request.messages)
        if k is not None and "rewritten" not in found:
            role = before.request.messages[k].role
            found["rewritten"] = (
                f"{where}: request {after.number} changed messages[{k}] ({role}), which request "
                f"{before.number} had sent: the history is no longer what happened, and no "
                "cached prefix reaches past it"
            )
    limited = [s.number for s in run.seen if s.status == 429]
    for s in run.seen:
        if s.request is None:
            continue
        errors = check(s.request, profile="portable").errors
        refused = s.accepted is False or (s.status >= 400 and s.status != 429)
        if not (errors or refused):
            continue
        why = s.verdict.first_error if refused and s.verdict is not None else str(errors[0])
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
    if run.error and not ({"broken-after-retry", "refused"} & set(found)):
        found["crashed"] = f"{where}: run_ticket raised {run.error}"
    cost = ticket_cost(run)
    if cost is not None:
        limit = budget(run.ticket, run.format)
        if cost > limit:
            over = (cost / limit - 1) * 100
            found["over-budget"] = (
                f"{where} cost ${cost:.6f} against a budget of ${limit:.6f} ({over:.0f}% over; "
                "the budget is what the ticket needs, plus 10%)"
            )
    return found


def diagnose(agent: Any, formats: tuple[str, ...] = FORMATS) -> dict[str, dict[str, str]]:
    """Per format, every symptom the hidden tickets show: key -> what was seen (first seen)."""
    report: dict[str, dict[str, str]] = {}
    for format in formats:
        found: dict[str, str] = {}
        for ticket in TICKETS:
            for key, text in _symptoms(run_one(agent, ticket, format)).items():
                found.setdefault(key, text)
        report[format] = found
    return report


def describe(report: dict[str, dict[str, str]]) -> str:
    """The report in words: formats that show the same symptoms are named together."""
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
        items = "; ".join(f"({n}) {SYMPTOMS[k]}: {first[k]}" for n, k in enumerate(keys, 1))
        parts.append(f"{name}, {len(keys)} problem{'s' * (len(keys) != 1)}: {items}")
    return " | ".join(parts)


def _source(agent: Any) -> str:
    path = getattr(agent, "__file__", None)
    return Path(path).read_text(encoding="utf-8") if path and Path(path).is_file() else ""


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
    if SHIPPED.is_file() and _source(agent) == SHIPPED.read_text(encoding="utf-8"):
        return Result(
            False,
            f"Exercise {EX1.id} is not answered yet: {Path(agent.__file__).name} is as shipped. "
            f"What the hidden tickets find in it now: {describe(report)}",
            EX1,
            **info,
        )
    if any(report.values()):
        return not_yet(EX1, f"on the hidden tickets, still broken: {describe(report)}", **info)
    return Result(
        True,
        f"Right: {len(TICKETS)} hidden tickets in each of the {len(formats)} formats, every "
        "request accepted and within the rules, every call answered, the policy once, nine "
        "described tools, each history an extension of the last, each ticket within its budget. "
        "You found it all on the wire: the code looked right before too.",
        EX1,
        **info,
    )
