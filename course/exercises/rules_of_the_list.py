"""Used in lessons: 10.

Exercises of notebooks/10_rules_of_the_list.ipynb: 10.1 runs the learner's ``compact`` on
histories they have not seen (calls made two at once, failed tools, histories ending on a
result, one with nothing to drop) and judges each result by the rules of the list in all four
wire formats. It keeps at least ``keep_last`` messages, or the fewest more the rules need;
the safe-cut test is the learner's own (a function calling ``turn_boundaries`` is told so:
with it, walk b5 found the exercise three lines long), and the history given stays as it was.
Each provider's error text is a predict-then-see cell of the lesson, not graded. (An optional
10.2, the same function on every kind of history, scored 3 of 5 in walks, edge cases of one
function: it went, in issue 33.)"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    check_cases,
    not_yet,
)
from helpers.formats import FORMATS
from helpers.messages import Message, Request, ToolCall

EX1 = Exercise(
    "10.1",
    look="what the check says about the case it names. If it names a rule or a message: in that "
    "history, the message your list keeps first after the summary, its role, and whether every "
    "call before it has its result before it. If it says there was nothing to drop: how many "
    "messages follow the system prompt, against keep_last. If it says the history changed: each "
    "line of your function that writes into the list it was given, rather than into a new one.",
    idea="a history can start again only where no call is left waiting for its result, and a "
    "result never opens it (its call would be gone): one assistant message may hold several "
    "calls, answered by several results, and a failed tool's result is a result too. When the "
    "number to keep lands inside a turn, the cut moves so that you keep more, never fewer, and "
    "nothing kept is rewritten.",
    example="in [system, user, assistant calling c1 and c2, tool answering c1, tool answering "
    "c2] with keep_last=1, the last message alone is a result whose call is gone, and so is the "
    "last two; keeping the last three keeps the rules.",
)


def _histories(model: str) -> list[tuple[str, list[Message], int]]:
    """The hidden cases of exercise 10.1: (what the case is, a history, keep_last)."""
    from course.exercises.reading_a_request import three_round_trips
    from helpers.examples import sundry
    from helpers.messages import assistant, system, tool, tool_call, user

    def call(id: str, name: str, **args: Any) -> ToolCall:
        return tool_call(id, name, args)

    parallel = three_round_trips()
    jon = {"order_id": "SO-51877"}
    big = call("toolu_01Bq", "issue_refund", **jon, amount_usd=289.0, reason="damaged")
    up = call("toolu_01Xe", "escalate_to_human", summary="Damaged espresso machine, $289.")
    errors = [
        system(sundry.SYSTEM_PROMPT),
        user("My espresso machine (order SO-51877) arrived broken. Refund it, please."),
        assistant(big),
        tool(sundry.run_tool(big)),  # an error result: above the ceiling
        assistant("A specialist will take this over.", up),
        tool(sundry.run_tool(up)),
        assistant("Done: a specialist will reply within one business day."),
        user("Thanks. Can I also keep the case?"),
    ]
    look = call("call_9Gk", "get_tracking", **jon)
    both = [  # two calls at once, one of them failing: one tool message holds both results
        system(sundry.SYSTEM_PROMPT),
        user("Order SO-51877 arrived broken. Where is the replacement? And refund the first one."),
        assistant("Checking the tracking and refunding.", look, big),
        tool(sundry.run_tool(look), sundry.run_tool(big)),  # the second result is an error
        assistant("The refund is above what I may issue; a specialist will take it over."),
        user("Fine. How long will that take?"),
    ]
    return [
        ("two parallel calls, their results at the cut", parallel, 1),
        ("an error result at the cut", errors, 5),
        ("a cut that lands on an assistant message", parallel, 2),
        ("a cut that lands on the buyer's follow-up", errors, 1),
        ("keep_last=1, the history ending on a failed tool's result", errors[:4], 1),
        ("two calls at once, one failed, their results at the cut", both[:4], 1),
        ("a cut on the reply after two calls at once, one failed", both, 2),
        ("keep_last covering the whole history: nothing to drop", errors, 10),
    ]


def _compact_judge(history: list[Message], keep_last: int, summary: str, model: str, tools):
    """The judge of one hidden history: the rules in every format, the system prompt first,
    the summary next, then an unchanged end of the history, as long as the rules allow."""
    from helpers.formats import FormatError, parse, render_for
    from helpers.rules import check, turn_boundaries

    head = [m for m in history if m.role == "system"]
    rest_start = len(head)
    if len(history) - rest_start <= keep_last:
        return _nothing_to_drop(history, keep_last)
    target = len(history) - keep_last
    cuts = turn_boundaries(history)  # the answer's own rule is the learner's; this is the judge's
    fewest = len(history) - max(k for k in cuts if k <= target)

    def judge(got: Any) -> str | None:
        if not isinstance(got, list) or not all(isinstance(m, Message) for m in got):
            return f"your function returned a {type(got).__name__}, not a list of messages"
        if any(m.role == "system" and summary in m.text for m in got):
            return (
                "the summary went out as a system message: it is not a standing instruction "
                "but what happened so far, and the exercise asks for it in a user message"
            )
        if got[: len(head)] != head:
            return "the list does not start with the history's system prompt, unchanged"
        if any(m.role == "system" for m in got[len(head) :]):
            return "the system prompt appears again later in the list: a request holds it once"
        after = got[len(head) : len(head) + 1]
        if not after or after[0].role != "user" or summary not in after[0].text:
            if head:
                return "right after the system prompt there is no user message holding the summary"
            return (
                "the list does not open with a user message holding the summary (this "
                "history has no system prompt)"
            )
        kept = got[len(head) + 1 :]
        if kept and history[-len(kept) :] != kept:
            return "the messages after the summary are not the end of the history, unchanged"
        request = Request(model, got, list(tools))
        broken = check(request)
        if broken:
            return f"it breaks a rule of the list: {broken[0]}"
        for wire in FORMATS:
            try:
                rendered = render_for(request, wire)
            except FormatError as problem:
                return f"it cannot even be written in {wire}: {problem}"
            refused = check(parse(rendered.body, wire), wire).errors
            if refused:
                return f"{wire} would refuse it: {refused[0]}"
        if len(kept) < keep_last:
            return (
                f"you kept {_messages(len(kept))} of the history when at least "
                f"{_messages(keep_last)} {_were(keep_last)} asked for: move the cut so that "
                "you keep more, never fewer"
            )
        if len(kept) > fewest:
            return (
                f"you kept {_messages(len(kept))} of the history when {_messages(keep_last)} "
                f"{_were(keep_last)} asked for; the rules did not need that many"
            )
        return None

    return judge


def _nothing_to_drop(history: list[Message], keep_last: int) -> Callable[[Any], str | None]:
    """The judge of a history with no more than ``keep_last`` messages after its system prompt:
    nothing to drop, so the history goes out as it is (walk b6 found a compaction that sent
    the system prompt twice there)."""
    nothing = (
        f"this history has {_messages(len(history))}, {len(history) - 1} after the system "
        f"prompt, and keep_last={keep_last}: there is nothing to drop, so it goes out as it is"
    )

    def judge(got: Any) -> str | None:
        if got == history:
            return None
        if not isinstance(got, list) or not all(isinstance(m, Message) for m in got):
            return f"your function returned a {type(got).__name__}, not a list of messages"
        systems = sum(m.role == "system" for m in got)
        if systems > 1:
            return f"your list holds the system prompt {systems} times; {nothing}"
        return f"your list has {_messages(len(got))}; {nothing}"

    return judge


def _messages(n: int) -> str:
    return f"{n} message" if n == 1 else f"{n} messages"


def _were(n: int) -> str:
    return "was" if n == 1 else "were"


def _compact_cases(model: str) -> list[Case]:
    from helpers.examples import sundry

    summary = "The buyer wants a refund for a damaged item; the order was found."
    return [
        Case(
            name,
            (history, keep, summary),
            _compact_judge(history, keep, summary, model, sundry.TOOLS),
        )
        for name, history, keep in _histories(model)
    ]


def _names(code: Any) -> set[str]:
    """Every global or attribute name a function's code (and the code nested in it) uses."""
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _names(const)
    return names


def _uses_the_helper(fn: Any, seen: set[int] | None = None) -> bool:
    """Whether ``fn``, or a function of the learner's it calls by a global name, uses the
    lesson's ``turn_boundaries`` (by that name, or by another bound to it)."""
    from helpers.rules import turn_boundaries

    seen = set() if seen is None else seen
    code = getattr(fn, "__code__", None)
    if code is None or id(code) in seen:
        return False
    seen.add(id(code))
    names = _names(code)
    if "turn_boundaries" in names:
        return True
    found = getattr(fn, "__globals__", {})
    for name in names:
        value = found.get(name)
        if value is turn_boundaries:
            return True
        module = getattr(value, "__module__", "") or ""
        ours = module.startswith(("helpers", "course", "standin"))  # the series' own code
        if callable(value) and not ours and _uses_the_helper(value, seen):
            return True
    return False


def check_compact_cut(compact: Callable[..., list[Message]], model: str) -> Result:
    """Exercise 10.1: run the learner's ``compact(history, keep_last, summary)`` on hidden
    histories that start with a system prompt (``keep_last`` at least 1): the cut must keep at
    least ``keep_last`` messages, or the fewest more the rules of the list need; a history with
    no more than ``keep_last`` messages after its system prompt comes back as it is (nothing to
    drop); and the history given must stay as it was. The safe-cut test is the
    exercise: a function that calls the lesson's ``turn_boundaries`` is told so."""
    import functools

    if _uses_the_helper(compact):
        return not_yet(
            EX1,
            "your function calls turn_boundaries: this exercise is that test itself, so write "
            "your own rule for where a history may start again (it is what you will need on "
            "your own agent's history, whatever its shape)",
        )
    touched: list[bool] = []  # per case: did the learner's function change the list it got

    @functools.wraps(compact)
    def watched(history: list[Message], keep_last: int, summary: str) -> Any:
        recorded = copy.deepcopy(history)
        got = compact(history, keep_last, summary)
        touched.append(history != recorded)
        return got

    def unchanged(judge: Callable[[Any], str | None]) -> Callable[[Any], str | None]:
        def judged(got: Any) -> str | None:
            if touched and touched[-1]:
                return (
                    "your function changed the history it was given: that list is the agent's "
                    "record of the run, so return a new list and leave the history as it was"
                )
            return judge(got)

        return judged

    return check_cases(
        watched if callable(compact) else compact,
        [Case(c.name, c.args, unchanged(c.judge)) for c in _compact_cases(model)],
        EX1,
        success="Right: every history keeps the system prompt, the summary and at least "
        "keep_last messages of its end (the fewest more the rules need), and every result is "
        "accepted in all four formats. Your rule: start again only where no call waits for "
        "its result",
    )
