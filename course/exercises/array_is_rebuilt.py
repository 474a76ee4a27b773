"""Used in lessons: 04.

Exercises of notebooks/04_the_array_is_rebuilt.ipynb."""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    check_cases,
    check_function,
    not_answered,
    not_yet,
)
from helpers.messages import Reply, Request, ToolCall

GOAL_TOKENS = 15_000  # exercise 2: the whole crash-triage ticket, compacted, bills less than this

EX1 = Exercise(
    "04.1",
    look="the cell under 'A ticket, turn by turn' that compares request n with request n − 1: "
    "which messages are new in the later one, where they sit, and what the earlier ones became.",
    idea="your code owns the list, and the list is the record of the conversation so far: a "
    "record only grows, in the order things happened, and what was already sent never changes. "
    "The rest of the request is not part of the turn.",
    example="a request of 2 messages, a reply with one text block and one call, and its one "
    "result give a request of 4 messages: the same 2, the reply with both its blocks, then one "
    "tool message with the result. A reply that only answers gives 3 messages. Calls A then B "
    "whose results came back B first are answered A, B.",
)
EX2 = Exercise(
    "04.2",
    look="the tokens per request, before and after your compaction, printed above: which "
    "requests shrank, which did not, and by how much. "
    "The `at` and `keep_last` of compact_ticket decide both; a request with no more than "
    "keep_last messages to replace does not shrink at all.",
    idea="compacting earlier shrinks every request after it, and keeping fewer messages shrinks "
    "each of them more; a request the compaction does not reach is sent as it was. The summary "
    "replaces the user's message, so it must restate the task, and say only what the turns it "
    "replaces had shown.",
    example="a ticket of requests of 1,000, 2,000, 3,000 and 4,000 tokens bills 10,000. "
    "Compacted before the third request down to 1,500 (each later one still growing by 1,000), "
    "it bills 1,000 + 2,000 + 1,500 + 2,500 = 7,000; compacted only before the last, 7,500.",
)


def _reply(*blocks: Any) -> Reply:
    """A reply as the loop parses it (the usage does not matter here)."""
    from helpers.messages import Message, Usage

    calls = any(isinstance(b, ToolCall) for b in blocks)
    return Reply(Message("assistant", list(blocks)), Usage(), "tool_calls" if calls else "end_turn")


def next_request_cases() -> list[Case]:
    """The hidden cases of exercise 1: a turn of each shape the lesson's runs have, and three
    they do not (a failed tool, a reply with reasoning, results out of call order), on two
    agents."""
    from dataclasses import replace

    from helpers.examples import crash_triage, sundry
    from helpers.messages import Reasoning, Text, assistant, tool, tool_call, tool_result
    from helpers.models import default_model

    maya = sundry.opening(default_model("openai"))
    search = tool_call("call_A1", "search_orders", {"query": "SO-48213"})
    found = tool_result("call_A1", '{"order_id": "SO-48213", "status": "delivered"}')
    later = replace(maya, messages=[*maya.messages, assistant(search), tool(found)])
    eligible = tool_call("call_B2", "check_refund_eligibility", {"order_id": "SO-48213"})
    triage = replace(crash_triage.opening(default_model("anthropic")), max_tokens=2048)
    read_a = tool_call("toolu_01", "read_file", {"path": "internal/orders/shipping.go"})
    read_b = tool_call("toolu_02", "read_file", {"path": "internal/orders/missing.go"})
    read_c = tool_call("toolu_03", "read_file", {"path": "internal/api/orders.go"})
    thought = Reasoning("Read the file named in the trace.", "c2lnbmF0dXJl", "anthropic")
    return [
        _next_case(
            "a reply with one text block and one call",
            maya,
            _reply(Text("Let me look that order up."), search),
            [found],
        ),
        _next_case(
            "a later turn: the history already holds an earlier call and its result",
            later,
            _reply(eligible),
            [tool_result("call_B2", '{"eligible": true, "max_refund_usd": 89.0}')],
        ),
        _next_case(
            "two parallel calls, one of whose tools failed",
            triage,
            _reply(thought, read_a, read_b),
            [
                tool_result("toolu_01", "package orders\n\nfunc ShippingQuote(o *Order) {"),
                tool_result("toolu_02", "open internal/orders/missing.go: no such file", True),
            ],
        ),
        _next_case(
            "a final answer: no call, so no result",
            later,
            _reply(Text("Your order SO-48213 was delivered on Tuesday.")),
            [],
        ),
        _next_case(
            "three parallel calls whose results came back in another order than the calls",
            triage,
            _reply(read_c, read_a, read_b),  # ids that do not sort in the calls' order
            [
                tool_result("toolu_02", "open internal/orders/missing.go: no such file", True),
                tool_result("toolu_01", "package orders\n\nfunc ShippingQuote(o *Order) {"),
                tool_result("toolu_03", "package api\n\nfunc (h *Handler) Quote() {"),
            ],
        ),
    ]


def _next_case(name: str, request: Request, reply: Reply, results: list) -> Case:
    """One hidden case: the learner's function sees copies; the judge sees what it returned
    and the request it was given, afterwards (``_given_too`` wraps the function)."""
    return Case(name, (request, reply, results), _next_judge(request, reply, results))


def _next_judge(request: Request, reply: Reply, results: list) -> Callable[[Any], str | None]:
    from helpers.formats import FORMATS, render
    from helpers.rules import check

    def judge(out: Any) -> str | None:
        got, given = out
        if given != request:
            return (
                "your function changed the request it was given: the record of what was already "
                "sent now says something that was never sent. The request you were given must "
                "come out of your function as it went in"
            )
        if not isinstance(got, Request):
            return f"your function returned a {type(got).__name__}, not a Request"
        before = request.messages
        if got.messages[: len(before)] != before:
            lost = next(
                (i for i, m in enumerate(before) if i >= len(got.messages) or got.messages[i] != m),
                len(before),
            )
            return (
                f"the new request does not start with all {len(before)} messages of the request "
                f"just sent, unchanged: message {lost} ({before[lost].role}) is missing, moved or "
                "rewritten"
            )
        added = got.messages[len(before) :]
        kinds = ", ".join(b.type for b in reply.message.content)
        if not added or added[0] != reply.message:
            return (
                f"the message after the earlier ones is not the model's reply as it came back "
                f"(one assistant message with all its blocks: {kinds})"
            )
        rest = added[1:]
        if not results and rest:
            return (
                f"the reply made no call, yet your function added {len(rest)} message(s) after "
                "it: with nothing to answer, the request ends with the reply"
            )
        if results and (len(rest) != 1 or rest[0].role != "tool"):
            return (
                f"the reply's {len(results)} call(s) should be answered by one tool message right "
                f"after it; your function added {len(rest)} message(s) after the reply "
                f"({', '.join(m.role for m in rest) or 'none'})"
            )
        order = [call.id for call in reply.message.tool_calls]
        wanted = sorted(results, key=lambda r: order.index(r.call_id))
        if results and rest[0].content != wanted:
            if sorted(rest[0].content, key=_call_id) == sorted(results, key=_call_id):
                every = "both" if len(results) == 2 else f"all {len(results)}"
                return (
                    f"the tool message holds {every} results, but not in the order "
                    "of the calls in the reply (they may come back in any order): OpenAI and "
                    "Anthropic pair a result with its call by id, but a Gemini call without an "
                    "id is paired by position, so the calls' order is the one every format "
                    "reads right"
                )
            return (
                f"the tool message does not hold the {len(results)} result(s) as the caller gave "
                "them (every one, failed ones too, each unchanged)"
            )
        settings = ("model", "tools", "tool_choice", "max_tokens")
        changed = [s for s in settings if getattr(got, s) != getattr(request, s)]
        if changed:
            return (
                f"the new request's {', '.join(changed)} differ from the request just sent: only "
                "the list grows, the rest of the request stays as it was"
            )
        for profile in FORMATS:
            broken = check(got, profile)
            if not broken.accepted:
                first = next(v for v in broken if v.severity == "error")
                return f"{profile} would refuse it: {first.message}"
            render(got, profile)  # every format can carry it
        return None

    return judge


def _call_id(block: Any) -> str:
    return str(getattr(block, "call_id", ""))


def _given_too(fn: Callable) -> Callable:
    """The learner's function, returning what it made and the request it was given afterwards
    (so a judge can tell a function that edits its argument)."""

    @functools.wraps(fn)  # a stub check (``inspect.unwrap``) sees the learner's function
    def run(request: Request, reply: Reply, results: list) -> Any:
        got = fn(request, reply, results)
        return None if got is None or got is ... else (got, request)

    return run


def check_next_request(fn: Callable[[Request, Reply, list], Request]) -> Result:
    """Run the learner's ``next_request`` on the hidden cases; each is judged by the list's rules
    in all four formats and by what was appended."""
    if not callable(fn):
        return check_cases(fn, [], EX1, success="")  # "not answered" / "not a function"
    return check_cases(
        _given_too(fn),
        next_request_cases(),
        EX1,
        success=(
            "Right: the request just sent, unchanged, then the reply, then one message with "
            "every result, in the calls' order; nothing after a final answer. Every format "
            "accepts each one"
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
            f"per request {after} (the run sent {before}): {sum(after):,} input tokens in all, "
            f"and the goal is less than {GOAL_TOKENS:,}",
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


# a claim that an action was done, and the tool whose call would have shown it done
_ACTIONS = {
    "write_file": re.compile(r"\b(wrote|written|fixed|patched|edited)\b", re.I),
    "file_issue": re.compile(r"\bfiled\b|\bissue (?:is|was|has been) (?:opened|created)\b", re.I),
}


def _claimed_action(summary: str, replaced: list) -> tuple[str, str] | None:
    """The first action the summary says was done (a file written, an issue filed) whose tool
    the replaced turns never called: (what it says, the tool); None if there is none."""
    called = {call.name for m in replaced for call in m.tool_calls}
    for sentence in re.split(r"(?<=[.!?;])\s+|\n", summary):
        if _NO_RESULT_YET.search(sentence):
            continue
        for name, claim in _ACTIONS.items():
            found = claim.search(sentence)
            if found and name not in called:
                return found.group(0), name
    return None


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
    kept = out[first].messages
    replaced = [m for m in requests[first].messages[1:] if m not in kept]
    sent = requests[first].messages
    summary = "\n".join(m.text for m in kept if m.role == "user" and m not in sent)
    tested = any(call.name == "run_tests" for m in replaced for call in m.tool_calls)
    outcome = _reported_outcome(summary)
    if outcome and not tested:
        return (
            f"your summary, from request {first + 1} (numbered from 1) on, reports a test "
            f"result ({outcome.group(0)!r}), but no test had run in the turns it replaces: "
            "where a test ran in a turn you keep, the model reads its output there; where none "
            "had run yet, the model reads what it was never shown (the trace becomes fiction, "
            "see 'The history is yours to edit'). Summarise only what the replaced turns showed"
        )
    ahead = _names_from_later(summary, [requests[first].messages[0], *replaced], requests[-1])
    if ahead:
        return (
            f"your summary, from request {first + 1} (numbered from 1) on, names {ahead[0]!r}, "
            "which the run only showed in a later turn, not in the turns it replaces. "
            "Summarise only what the replaced turns showed"
        )
    claimed = _claimed_action(summary, replaced)
    if claimed:
        return (
            f"your summary, from request {first + 1} (numbered from 1) on, says {claimed[0]!r}, "
            f"but no {claimed[1]} call happened in the turns it replaces: the model reads "
            "progress that was never made (the trace becomes fiction). Summarise only what the "
            "replaced turns showed"
        )
    return ""


# a name a summary could only have copied from a turn: an id, a file, a CamelCase test name...
_NAME_LIKE = re.compile(r"[A-Za-z][\w./:-]*\w")


def _names_from_later(summary: str, replaced: list, last: Request) -> list[str]:
    """Names in ``summary`` that the replaced messages (with the system prompt) and the tools
    never showed, and that the run's last request holds (a later turn showed them)."""
    import json

    shown = [m.to_json() for m in replaced] + [t.to_json() for t in last.tools]
    seen = json.dumps(shown, ensure_ascii=False)
    later = json.dumps(last.to_json(), ensure_ascii=False)
    names = [
        w for w in _NAME_LIKE.findall(summary) if re.search(r"\d|_|\.\w|[a-z][A-Z]", w) or "-" in w
    ]
    return [w for w in names if w not in seen and w in later]


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
