"""Used in lessons: 04.

Exercises of notebooks/04_the_array_is_rebuilt.ipynb."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from course.exercises import (
    Exercise,
    Result,
    as_number,
    check_function,
    check_number,
    not_answered,
    not_yet,
)
from helpers.loop import Trace
from helpers.messages import Request

GOAL_TOKENS = 16_000  # exercise 2: the whole crash-triage ticket, compacted, bills less than this

EX1 = Exercise(
    "04.1",
    idea="each request re-sends the one before it and adds what the last turn produced: the "
    "assistant's reply and the answers to its tool calls. Compare the lengths of consecutive "
    "requests, not their contents.",
    look="trace.steps has one step per request; step.request_body['messages'] is the list "
    "that request sent, as in the cell under 'A ticket, turn by turn'.",
)
EX3 = Exercise(
    "04.3",
    idea="the quick model bills n·a for the first request's size sent n times, plus "
    "d·n(n−1)/2 for the growth sent again and again; the fraction is the growth part over the "
    "sum of both.",
    look="a and d are the variables printed under 'Growth: linear per turn, quadratic in "
    "total'; put n = 50 into both parts of the formula above that cell.",
)
EX2 = Exercise(
    "04.2",
    idea="compacting earlier shrinks every request after it, and keeping fewer messages shrinks "
    "each of them more; a request the compaction does not reach is sent as it was. The summary "
    "replaces the user's message, so it must restate the task.",
    look="compact_ticket(requests, at, summary, keep_last) from helpers.cost returns the "
    "whole ticket, compacted before request at (counting from 0). It shrinks a request only "
    "where there are more than keep_last messages to replace: with many kept, an early at "
    "changes nothing. Print the total of count(r).total for each at, for a few keep_last "
    "values, and pass the lesson's summary (or your own that says which crash the task is).",
)


def _added(trace: Trace) -> list[int]:
    sizes = [len(step.request_body["messages"]) for step in trace.steps]
    return [now - before for before, now in zip(sizes, sizes[1:], strict=False)]


def check_added_messages(fn: Callable[[Trace], list[int]], ticket: Trace, run: Trace) -> Result:
    """The learner's function on Maya's ticket and on the crash-triage run (parallel calls)."""
    names = {id(ticket): "Maya's ticket", id(run): "the crash-triage run"}
    growth = _added(run)
    if callable(fn):
        try:
            got = fn(ticket)
        except Exception:  # check_function reports it, with the ticket it failed on
            got = None
        if isinstance(got, (list, tuple)) and len(got) == len(ticket.steps) > 1:
            what = (
                f"for Maya's ticket your function gave {len(got)} values for its "
                f"{len(ticket.steps)} requests: the exercise asks, for each request after the "
                "first, what it added to the one before"
            )
            return not_yet(EX1, what, kind="function", expected=_added(ticket))
    return check_function(
        fn,
        [(ticket, _added(ticket)), (run, growth)],
        EX1,
        describe=lambda trace: names.get(id(trace), "a ticket"),
        success=(
            f"Right: Maya's ticket adds {_added(ticket)}; the crash triage adds {growth}. A turn "
            "with two parallel calls adds three Chat messages (the reply, then one tool message "
            "per result), and nothing is ever taken away."
        ),
    )


def _quick_model(run: Trace) -> tuple[int, int]:
    """The quick model's a (first request's size) and d (growth per turn) of a run."""
    sent = [step.reply.usage.input_tokens for step in run.steps]
    return sent[0], round((sent[-1] - sent[0]) / (len(sent) - 1))


def growth_share(run: Trace, turns: int = 50, repeats: float | None = None) -> float:
    """The quick model's growth part of a ``turns``-turn ticket, as a fraction of its input
    (``repeats``: how many times d is sent in all, n(n−1)/2 unless given)."""
    a, d = _quick_model(run)
    growth = d * (turns * (turns - 1) / 2 if repeats is None else repeats)
    return growth / (turns * a + growth)


def check_growth_share(answer: Any, run: Trace) -> Result:
    expected = growth_share(run)
    value = as_number(answer)
    near = Decimal("0.0005")  # 3 decimals: n²/2 in place of n(n−1)/2 moves the share by ~0.002
    info = {"kind": "number", "expected": round(expected, 4), "tolerance": near}
    places = -value.as_tuple().exponent if value is not None else 0
    if value is not None and places <= 2 and abs(value - Decimal(repr(expected))) <= 0.005:
        return not_yet(
            EX3,
            f"you gave {answer}: give the fraction to 3 decimals (or more); two places cannot "
            "tell the right share from a near miss",
            **info,
        )
    if value is not None:
        n, counted = 50, "the first request brings no growth, the second d, the third 2·d, …"
        slips = [
            (growth_share(run, repeats=n * n / 2), f"counts the growth n²/2 times: {counted}"),
            (growth_share(run, repeats=n * (n + 1) / 2), f"counts it n(n+1)/2 times: {counted}"),
            (1 - expected, "is the share of the n·a part, not of the growth"),
        ]
        for share, what in slips:
            far = abs(Decimal(repr(share)) - Decimal(repr(expected))) > near
            if far and abs(value - Decimal(repr(share))) <= near:
                return not_yet(EX3, f"you gave {answer}, which {what}", **info)
        if 1 < value <= 100 and abs(value / 100 - Decimal(repr(expected))) <= near:
            return not_yet(
                EX3, f"{answer} looks like a percentage: give a fraction (0.5, not 50)", **info
            )
    return check_number(
        answer,
        round(expected, 4),
        EX3,
        tolerance=str(near),
        success=(
            f"Right: {expected:.1%} of a 50-turn ticket's input is the history growing and being "
            "sent again; the first request's size is the rest. On long tickets, shortening the "
            "history (compaction) saves far more than trimming the system prompt."
        ),
    )


def check_compaction(
    fn: Callable[[list[Request]], list[Request]], requests: list[Request]
) -> Result:
    """Run the learner's compaction on the crash-triage ticket and price every request."""
    from helpers.rules import check
    from helpers.tokens import count

    if not_answered(fn) or not callable(fn):
        return check_function(fn, [], EX2, success="")  # "not answered" / "not a function"
    try:
        out = fn(copy.deepcopy(requests))
    except Exception as err:  # the learner's code: report it, do not crash the notebook
        return not_yet(EX2, f"your function raised {type(err).__name__}: {err}", kind="function")
    if not_answered(out):
        return check_function(out, [], EX2, success="")
    problem = _ticket_problem(out, requests)
    if problem:
        return not_yet(EX2, problem, kind="function")
    for k, request in enumerate(out):
        broken = check(request, "openai-chat")
        if len(broken):
            what = f"request {k + 1} breaks the rules of the list ({len(broken)} violation(s))"
            return not_yet(EX2, what, kind="function")
    before = [count(r).total for r in requests]
    after = [count(r).total for r in out]
    problem = _compaction_problem(out, requests, before, after)
    if problem:
        return not_yet(EX2, problem, kind="function")
    if sum(after) >= GOAL_TOKENS:
        return not_yet(
            EX2,
            f"per request {after}: {sum(after):,} input tokens in all, and the goal is less "
            f"than {GOAL_TOKENS:,}",
            kind="function",
        )
    return Result(
        True,
        f"Right: per request {after} instead of {before}: {sum(after):,} input tokens instead "
        f"of {sum(before):,} ({1 - sum(after) / sum(before):.0%} less). Every request after the "
        "compaction is smaller, and the list still keeps its rules.",
        EX2,
        kind="function",
    )


# words that report what a tool run found: a summary may only report what had happened
_OUTCOME = re.compile(r"\b(pass(?:es|ed)?|fail(?:s|ed|ing|ure)?)\b", re.I)
# ... unless the sentence says no result is known yet ("no test has run", "whether it passes")
_NO_RESULT_YET = re.compile(r"\b(no|not|whether|yet|unknown)\b|n't\b", re.I)


def _reported_outcome(summary: str) -> re.Match | None:
    """The first pass/fail word in a sentence that reports a result (not one that says none is
    known yet)."""
    for sentence in re.split(r"(?<=[.!?;])\s+|\n", summary):
        found = _OUTCOME.search(sentence)
        if found and not _NO_RESULT_YET.search(sentence):
            return found
    return None


def _compaction_problem(
    out: list[Request], requests: list[Request], before: list[int], after: list[int]
) -> str:
    """What makes ``out`` not one compaction of the run ('' when it is one): a request that got
    bigger, a compaction redone on every request, or a summary that reports a test result
    before any test had run."""
    for k, (was, now) in enumerate(zip(before, after, strict=True), start=1):
        if now > was:
            return (
                f"request {k} grew from {was:,} to {now:,} tokens: where there is nothing to "
                "replace, a compaction only adds the summary. Compact where it shrinks the "
                "request, and leave the requests before that point as the run sent them"
            )
    changed = [k for k, (mine, sent) in enumerate(zip(out, requests, strict=True)) if mine != sent]
    if not changed:
        return ""
    first = changed[0]
    for k in range(first + 1, len(out)):
        if out[k].messages[: len(out[k - 1].messages)] != out[k - 1].messages:
            return (
                f"request {k + 1} does not start with request {k}'s messages: a compaction "
                "happens once, at one point, and after it each request is the one before plus "
                "what its turn added (as compact_ticket builds it). Compacting each request on "
                "its own drops, turn after turn, messages your summary never covered"
            )
    run_messages = requests[first].messages
    summary = "\n".join(
        m.text for m in out[first].messages if m.role == "user" and m not in run_messages
    )
    tested = any(
        call.name == "run_tests" for m in requests[first].messages for call in m.tool_calls
    )
    outcome = _reported_outcome(summary)
    if outcome and not tested:
        return (
            f"your summary, from request {first + 1} on, reports a test result "
            f"({outcome.group(0)!r}), but at that point no test had run yet: the model would "
            "read what it had not been shown: the trace becomes fiction (see 'The history is "
            "yours to edit'). Compact later, or summarise only what those turns showed"
        )
    return ""


def _task_words(task: str) -> list[str]:
    """What a summary must name to restate the crash-triage task: the function that panicked
    in our module, and the kind of panic."""
    function = re.search(r"storefront/internal/\w+\.\(\*\w+\)\.(\w+)\(", task)
    return [function.group(1) if function else "", "nil"]


def _ticket_problem(out: Any, requests: list[Request]) -> str:
    """What makes ``out`` not a compaction of ``requests`` ('' when it is one)."""
    if not isinstance(out, list) or not all(isinstance(r, Request) for r in out):
        return "your function should return a list of Request objects, one per request"
    if len(out) != len(requests):
        return f"your function returned {len(out)} requests; the ticket has {len(requests)}"
    task = requests[0].messages[1].text
    for k, (mine, sent) in enumerate(zip(out, requests, strict=True), start=1):
        if [t.name for t in mine.tools] != [t.name for t in sent.tools]:
            return f"request {k} does not carry the run's tools, in the run's order"
        if not mine.messages or mine.messages[0] != sent.messages[0]:
            return f"request {k} does not start with the run's system prompt"
        if mine.messages[-1] != sent.messages[-1]:
            return f"request {k} lost its newest message (what that turn added)"
        users = [m.text for m in mine.messages if m.role == "user"]
        if task in users:
            continue
        if not users:
            return f"request {k} has neither the user's task nor a summary that restates it"
        summary = "\n".join(users).lower()
        missing = [w for w in _task_words(task) if w.lower() not in summary]
        if missing:
            words = len(summary.removeprefix("summary of the conversation so far:").split())
            return (
                f"request {k} replaces the user's task with a summary of {words} word(s) that "
                "does not restate it: the model would no longer know which crash it is triaging "
                "(the panic, and the function it hit)"
            )
    return ""
