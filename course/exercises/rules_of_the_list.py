"""Used in lessons: 10.

Exercises of notebooks/10_rules_of_the_list.ipynb: 10.1 runs the learner's ``compact`` on
histories they have not seen and judges each result by the rules of the list in all four wire
formats; the optional ones: 10.2 prices the cut, 10.3 reads another provider's error text, 10.4
runs ``compact`` on every kind of history (no system prompt, keep_last=0, nothing to drop)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    check_cases,
    check_one_of,
    check_text,
    equals,
)
from helpers.messages import Message, Request, ToolCall

EX1 = Exercise(
    "10.1",
    look="the first message you keep after the summary: what it answers, and whether that is "
    "still in the list; then the messages before the cut that every request needs.",
    idea="a history can start again only where no call is waiting for its result (the safe "
    "cuts of 'Shortening without breaking'); when the number of messages to keep lands inside "
    "a turn, the cut moves to the nearest safe place, and nothing kept is rewritten.",
    example="in [system, user, assistant calling c1, tool answering c1] with keep_last=1, the "
    "last message alone is a result whose call is gone; [system, summary] and [system, "
    "summary, assistant calling c1, tool answering c1] both keep the rules.",
)
FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")


def _histories(model: str) -> list[tuple[str, list[Message], int]]:
    """The hidden cases of exercise 10.1: (what the case is, a history, keep_last)."""
    from helpers.examples import sundry
    from helpers.messages import assistant, system, tool, tool_call, user

    def call(id: str, name: str, **args: Any) -> ToolCall:
        return tool_call(id, name, args)

    order = {"order_id": "SO-48213"}
    look = call("call_q7Wm2", "search_orders", query="SO-48213")
    check_ = call("call_Lr84k", "check_refund_eligibility", **order, reason="damaged")
    refund = call("call_Zp27x", "issue_refund", **order, amount_usd=129.0, reason="damaged")
    note = call("call_Hd5n1", "message_seller", **order, message="Arrived damaged; refunded.")
    parallel = [
        system(sundry.SYSTEM_PROMPT),
        user(sundry.TICKET_TEXT),
        assistant("Let me look that order up.", look),
        tool(sundry.run_tool(look)),
        assistant("Checking the refund.", check_),
        tool(sundry.run_tool(check_)),
        assistant("Refunding and telling the seller.", refund, note),
        tool(sundry.run_tool(refund), sundry.run_tool(note)),
    ]
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
    no_system = parallel[1:]
    return [
        ("two parallel calls, their results at the cut", parallel, 1),
        ("an error result at the cut", errors, 5),
        ("a cut that lands on an assistant message", parallel, 2),
        ("a cut that lands on the buyer's follow-up", errors, 1),
        ("no system prompt", no_system, 3),
        ("keep_last=0: nothing of the history is kept", parallel, 0),
        ("a history no longer than keep_last", errors[:4], 3),
    ]


def _compact_judge(history: list[Message], keep_last: int, summary: str, model: str, tools):
    """The judge of one hidden history: the rules in every format, the system prompt first,
    the summary next, then an unchanged end of the history, as long as the rules allow."""
    from helpers.formats import FormatError, parse, render_for
    from helpers.rules import check, turn_boundaries

    head = [m for m in history if m.role == "system"]
    rest_start = len(head)
    if len(history) - rest_start <= keep_last:
        nothing = (
            "this history has no more than keep_last messages after the system prompt: there "
            "is nothing to drop, so it goes out as it is"
        )
        return equals(history, nothing)
    target = len(history) - keep_last
    cuts = [*turn_boundaries(history), len(history)]
    longest = len(history) - max(k for k in cuts if k <= target)
    shortest = len(history) - min(k for k in cuts if k >= target)

    def judge(got: Any) -> str | None:
        if not isinstance(got, list) or not all(isinstance(m, Message) for m in got):
            return f"your function returned a {type(got).__name__}, not a list of messages"
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
        if len(kept) > longest:
            return (
                f"you kept {_messages(len(kept))} of the history when {_messages(keep_last)} "
                f"{_were(keep_last)} asked for; the rules did not need that many"
            )
        if len(kept) < shortest:
            return (
                f"you kept {_messages(len(kept))} of the history when {_messages(keep_last)} "
                f"{_were(keep_last)} asked for; a cut that keeps the rules can keep more"
            )
        return None

    return judge


def _messages(n: int) -> str:
    return f"{n} message" if n == 1 else f"{n} messages"


def _were(n: int) -> str:
    return "was" if n == 1 else "were"


def _compact_cases(model: str, every_history: bool) -> list[Case]:
    from helpers.examples import sundry

    summary = "The buyer wants a refund for a damaged item; the order was found."
    histories = _histories(model)
    if not every_history:  # exercise 1: a system prompt, keep_last >= 1, something to drop
        histories = histories[:_WITH_SYSTEM_AND_SOMETHING_TO_DROP]
    return [
        Case(
            name,
            (history, keep, summary),
            _compact_judge(history, keep, summary, model, sundry.TOOLS),
        )
        for name, history, keep in histories
    ]


_WITH_SYSTEM_AND_SOMETHING_TO_DROP = 4  # the first cases of _histories


def check_compact_cut(compact: Callable[..., list[Message]], model: str) -> Result:
    """Exercise 10.1: run the learner's ``compact(history, keep_last, summary)`` on hidden
    histories that start with a system prompt and have more than ``keep_last`` (at least 1)
    messages after it: the cut must land where the rules of the list allow."""
    return check_cases(
        compact,
        _compact_cases(model, every_history=False),
        EX1,
        success="Right: every history keeps the system prompt, the summary and as much of its "
        "end as the rules allow, and every result is accepted in all four formats. Cut "
        "only where no call waits for its result",
    )


def check_compact(compact: Callable[..., list[Message]], model: str) -> Result:
    """Exercise 10.4 (optional): the same ``compact`` on every hidden history, also one with no
    system prompt, ``keep_last=0`` and one with nothing to drop."""
    return check_cases(
        compact,
        _compact_cases(model, every_history=True),
        EX4,
        success="Right: every history keeps its system prompt (if any), the summary and as much "
        "of its end as the rules allow, and every result is accepted in all four formats. "
        "keep_last=0 is the trap: a slice from the end by 0 takes everything",
    )


EX4 = Exercise(
    "10.4",
    look="the case the check names: does that history have a system prompt, how many messages "
    "does it have after it, and what does your function keep of it?",
    idea="the same cut as in exercise 1; what changes is what surrounds it: the summary opens "
    "the list when there is no system prompt, keeping none of the history keeps none of it, and "
    "a history with nothing to drop needs no summary.",
    example="with keep_last=0, [system, user, assistant] becomes [system, summary]; and [user, "
    "assistant] with keep_last=2 goes out as it is.",
)


EX2 = Exercise(
    "10.2",
    look="the table under '...and what it does to the cache': which requests get shorter after "
    "the cut, and which lose what the cache held.",
    idea="compacting early shrinks every later request, but each compaction also throws away "
    "the cached prefix; price each choice of `at` rather than guessing.",
    example="two candidate cuts priced side by side: the one that drops more history can still "
    "cost more if the requests after it read nothing from the cache.",
)
EX3 = Exercise(
    "10.3",
    look="the error the provider answers with: its status, and where in its JSON the sentence "
    "is (the cells under 'What each provider answers' read it for every format).",
    idea="the same broken order reaches another provider, which refuses it with an error of "
    "its own shape and wording; the message is inside the JSON it answers with.",
    example="a request that OpenAI Chat refuses with 'messages with role tool must be a "
    "response to a preceeding message' gets its own sentence, naming a path such as "
    "messages.0.content.0, from Anthropic.",
)


def check_order_error(answer: Any, broken: Request, provider: Any) -> Result:
    """The error text Anthropic's format gets for a history with results before the reply.
    The answer may be the message, or the error JSON holding it (a dict, its raw text, or the
    ``httpx.Response`` itself)."""
    import httpx

    from helpers.formats import render
    from standin import LOCAL_KEY

    rendered = render(broken, "anthropic")
    response = httpx.post(
        provider.url + rendered.path,
        headers={"authorization": f"Bearer {LOCAL_KEY}"},
        json=rendered.body,
        timeout=30,
    )
    error = response.json().get("error", {}) if response.status_code >= 400 else {}
    expected = error.get("message", "(accepted)") if isinstance(error, dict) else str(error)
    if isinstance(answer, httpx.Response):  # the response itself: its JSON holds the text
        answer = answer.json() if answer.content else answer.text
    if isinstance(answer, str) and answer.lstrip().startswith("{"):  # the raw JSON text
        import ast
        import contextlib
        import json

        try:
            answer = json.loads(answer)
        except ValueError:  # str() of the JSON read as a dict prints Python, not JSON
            with contextlib.suppress(ValueError, SyntaxError):  # else compared as a text
                answer = ast.literal_eval(answer)
    if isinstance(answer, dict):  # the whole response, or its "error" object
        inner = answer.get("error", answer)
        answer = inner.get("message", answer) if isinstance(inner, dict) else inner
    return check_text(
        answer,
        expected,
        EX3,
        success=(
            f"Right: HTTP {response.status_code}, {expected[:60]}... Anthropic names the "
            "message by its index and insists each result follow its call in the previous "
            "message; OpenAI said the same in other words. One rule, a spelling per provider."
        ),
    )


def check_cheapest_compaction(
    answer: Any,
    requests: list[Request],
    summary: str,
    model: str,
    final_reply: Any = None,
    ask: Any = None,
) -> Result:
    """The ``at`` (0-based request index) whose compacted run costs least. ``final_reply``: the
    run's last reply, billed too (as lessons 06 and 10 price the run); it is priced the same
    whatever ``at``, as if the model made the same calls after the compaction. The summary call
    is left out, as the exercise says; with ``ask`` (the instruction of the lesson's summary
    call) the success message also says which ``at`` is cheapest once that call is priced."""
    from helpers.cost import compact_ticket, project_ticket

    def price(run: list[Request]):
        return project_ticket(run, model, final_reply=final_reply).total_usd

    costs = {
        at: price(compact_ticket(requests, at=at, summary=summary, keep_last=2))
        for at in range(1, len(requests))
    }
    cheapest = min(costs.values())
    best = [at for at, cost in costs.items() if cost == cheapest]
    as_is = price(requests)
    return check_one_of(
        answer,
        best,
        EX2,
        success=(
            f"Right: at={best[0]}, ${cheapest:.6f} against ${as_is:.6f} sent as is (if the "
            "model makes the same calls after the cut). Compacting earlier makes every later "
            "request shorter, but it also throws away more of what the cache held; and the "
            "cheapest point is not the best one if the summary loses what the agent needs."
            + (_with_summary_call(costs, requests, summary, model, ask, as_is) if ask else "")
        ),
    )


def _with_summary_call(
    costs: dict, requests: list[Request], summary: str, model: str, ask: Any, as_is
) -> str:
    """One sentence: the cheapest ``at`` once the summary call is priced, as the lesson prices
    it (the history up to the cut and ``ask`` in, the summary out)."""
    from helpers.cost import project_ticket
    from helpers.messages import assistant

    def summary_call(at: int):
        call = Request(model, [*requests[at].messages, ask], list(requests[at].tools))
        asked = project_ticket([*requests[:at], call], model, final_reply=assistant(summary))
        return asked.turns[-1].cost_usd

    total = {at: cost + summary_call(at) for at, cost in costs.items()}
    at = min(total, key=total.get)
    dearer = [str(k) for k, cost in total.items() if cost > as_is]
    named = " and ".join([", ".join(dearer[:-1]), dearer[-1]] if len(dearer) > 1 else dearer)
    more = f"; at={named}, compacting costs more than not compacting" if dearer else ""
    return f" With the summary call priced too, the cheapest is at={at}, ${total[at]:.6f}{more}."
