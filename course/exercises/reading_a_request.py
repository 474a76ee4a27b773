"""Used in lessons: 08.

Exercises of notebooks/08_reading_a_real_request.ipynb: four unlabelled dumps, four bugs.

``unlabelled_dumps(model)`` gives four OpenAI Chat request bodies from Sundry's support ticket,
named only "A" to "D". Each has one bug a real codebase produced. Two of them break the rules
of the list (the provider answers 400); two are valid JSON the provider accepts and that are
still wrong: only someone reading the request finds those. Which dump has which bug is for the
learner to find; the checks know.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from course.exercises import Exercise, Result, check_text, check_value, not_yet

BUGS = (
    "missing description",
    "policy pasted into a user turn",
    "out of order after a retry",
    "result without its call",
)
_LETTERS = {"A": BUGS[2], "B": BUGS[0], "C": BUGS[3], "D": BUGS[1]}  # a fixed shuffle

EX1 = Exercise(
    "08.1",
    idea="two dumps are refused by the provider (read its error) and two are accepted; compare "
    "each one with the request as captured: the tools, where the policy appears, the order of "
    "the roles, the ids.",
    look="the cell under 'Find the bug' prints each dump's roles, check() and the provider's "
    "answer; then look inside: which tools lack a 'description' (dump['tools']), where the "
    "policy text appears, which tool_call_id has no matching call.",
)
EX2 = Exercise(
    "08.2",
    idea="every tool result names the call it answers by id; in one dump, one result names a "
    "call that is no longer in the request.",
    look="in that dump, collect the ids of every assistant message's tool_calls, then look "
    "at each tool message's tool_call_id.",
)
EX3 = Exercise(
    "08.3",
    idea="a result whose call is gone cannot be sent; the repair drops such results and "
    "leaves every other message exactly as it was.",
    look="the same two sets as in exercise 2: the call ids of the assistant messages and "
    "the tool_call_id of each tool message; build a new messages list without the orphans.",
)


def _longer_ticket(model: str) -> dict[str, Any]:
    """Three round trips of Sundry's ticket, the last with two calls at once (opaque ids)."""
    from helpers.examples import sundry
    from helpers.formats import render
    from helpers.messages import Request, assistant, system, tool, tool_call, user

    def call(id: str, name: str, args: dict[str, Any]):
        return tool_call(id, name, args)

    order = {"order_id": "SO-48213"}
    look = call("call_q7Wm2", "search_orders", {"query": "SO-48213"})
    check = call("call_Lr84k", "check_refund_eligibility", {**order, "reason": "damaged"})
    refund = call("call_Zp27x", "issue_refund", {**order, "amount_usd": 129.0, "reason": "damaged"})
    note = call("call_Hd5n1", "message_seller", {**order, "message": "Arrived damaged; refunded."})
    messages = [
        system(sundry.SYSTEM_PROMPT),
        user(sundry.TICKET_TEXT),
        assistant("Let me look that order up.", look),
        tool(sundry.run_tool(look)),
        assistant("Checking the refund.", check),
        tool(sundry.run_tool(check)),
        assistant("Refunding and telling the seller.", refund, note),
        tool(sundry.run_tool(refund), sundry.run_tool(note)),
    ]
    return render(Request(model, messages, list(sundry.TOOLS)), "openai-chat").body


def _turn_two(model: str) -> dict[str, Any]:
    from helpers.examples import sundry
    from helpers.formats import render

    return render(sundry.ticket(model), "openai-chat").body


def _bodies(model: str) -> dict[str, dict[str, Any]]:
    """The four broken bodies, by bug."""
    base = _turn_two(model)

    lost = copy.deepcopy(base)  # a tool registry that forgot one description
    lost["tools"][4]["function"].pop("description")

    doubled = copy.deepcopy(base)  # a helper that "reminds" the model of the policy each turn
    policy = doubled["messages"][0]["content"]
    doubled["messages"].append({"role": "user", "content": f"Reminder:\n{policy}"})

    shuffled = copy.deepcopy(base)  # a retry that appended the tool result before the call
    shuffled["messages"][2], shuffled["messages"][3] = (
        shuffled["messages"][3],
        shuffled["messages"][2],
    )

    orphan = _longer_ticket(model)  # history trimmed from the front, leaving a result behind
    del orphan["messages"][1:5]
    return dict(zip(BUGS, (lost, doubled, shuffled, orphan), strict=True))


def unlabelled_dumps(model: str) -> dict[str, dict[str, Any]]:
    """Four broken request bodies, named "A" to "D"; finding which bug is which is the job."""
    bodies = _bodies(model)
    return {letter: bodies[bug] for letter, bug in sorted(_LETTERS.items())}


def _normalised(answer: Any) -> Any:
    if isinstance(answer, str):
        try:
            answer = json.loads(answer)
        except ValueError:
            return answer
    if not isinstance(answer, dict):
        return answer
    return {
        str(k).strip().upper().removeprefix("DUMP ").strip(): str(v).strip().lower()
        for k, v in answer.items()
    }


def check_bug_map(answer: dict[str, str], model: str) -> Result:
    """``answer``: each dump's letter -> one of ``BUGS``."""
    normal = _normalised(answer)
    explain = ""
    if isinstance(normal, dict):
        right = sum(1 for k, v in normal.items() if _LETTERS.get(k) == v)
        unknown = sorted(v for v in normal.values() if v not in BUGS)
        explain = f"{right} of 4 dumps named right" + (
            f"; not one of BUGS: {unknown}" if unknown else ""
        )
    from helpers.examples import sundry

    body = _bodies(model)["missing description"]
    lost = next(t["function"]["name"] for t in body["tools"] if "description" not in t["function"])
    said = next(t.description for t in sundry.TOOLS if t.name == lost)
    result = check_value(
        normal,
        dict(_LETTERS),
        EX1,
        explain=explain,
        success=(
            "Right. The two the provider accepted are the dangerous ones: without its "
            f"description, {lost} is a bare name to the model (the tool itself no longer "
            f'says "{said}"), and the policy pasted into a user turn reads as the buyer\'s '
            "words, paid for twice."
        ),
    )
    return result


def _orphan_ids(body: dict[str, Any]) -> list[str]:
    calls = {c["id"] for m in body["messages"] for c in m.get("tool_calls") or []}
    return [
        m["tool_call_id"]
        for m in body["messages"]
        if m["role"] == "tool" and m["tool_call_id"] not in calls
    ]


def check_orphan_call_id(answer: str, model: str) -> Result:
    expected = _orphan_ids(_bodies(model)["result without its call"])[0]
    return check_text(
        answer,
        expected,
        EX2,
        success=f"Right: {expected}. It answers a call the trimmed request no longer contains.",
    )


def check_repair(drop_orphans: Callable[[dict], dict], model: str) -> Result:
    """Run the learner's repair on the trimmed dump and send the result to a local provider."""
    import httpx

    from standin import LOCAL_KEY, LocalProvider

    broken = _bodies(model)["result without its call"]
    info = {"kind": "function", "expected": "a body with the orphaned result dropped"}
    if drop_orphans is ... or drop_orphans is None:
        return check_value(..., None, EX3, success="")
    if not callable(drop_orphans):
        return check_value(drop_orphans, None, EX3, success="", explain="give the function")
    renamed = copy.deepcopy(broken)  # the same bug with another id: nothing may be hard-coded
    for message in renamed["messages"]:
        if message.get("tool_call_id") in set(_orphan_ids(broken)):
            message["tool_call_id"] = "call_Qm27x"
    sound = _turn_two(model)  # a body with no orphan: it must come back unchanged
    fixed = None
    for body in (renamed, sound, broken):
        given = copy.deepcopy(body)
        try:
            fixed = drop_orphans(given)
        except Exception as err:  # the learner's code: report, don't crash the notebook
            return check_value(object(), None, EX3, success="", explain=f"it raised {err!r}")
        if fixed is ...:
            return check_value(..., None, EX3, success="")
        if fixed is None and given != body:
            return not_yet(
                EX3,
                "your function returned None and changed the body it was given: build a new "
                "body and end the function with `return` and that body",
                **info,
            )
        if fixed is None:
            return Result(
                False,
                f"Exercise {EX3.id} is not answered yet: your function returned None. If its "
                "body is still `...`, replace it with your code; end it with `return` and the "
                f"repaired body. The idea: {EX3.idea}",
                EX3,
                **info,
            )
        if given != body:
            return not_yet(
                EX3, "your function changed the body it was given; build a new one", **info
            )
        orphans = set(_orphan_ids(body))
        want = {
            **body,
            "messages": [m for m in body["messages"] if m.get("tool_call_id") not in orphans],
        }
        if body is not broken and fixed != want:
            which = "a body with no orphan" if body is sound else "the same bug with another id"
            return not_yet(EX3, f"on {which} the result is not right", **info)
    expected = copy.deepcopy(broken)
    orphans = set(_orphan_ids(broken))
    expected["messages"] = [m for m in broken["messages"] if m.get("tool_call_id") not in orphans]
    with LocalProvider("echo") as provider:
        sent = httpx.post(
            f"{provider.url}/v1/chat/completions",
            headers={"authorization": f"Bearer {LOCAL_KEY}"},
            json=fixed,
            timeout=30,
        )
    status = f"the provider answered {sent.status_code}"
    if sent.status_code != 200:
        status += ": " + sent.json().get("error", {}).get("message", "")[:120]
    result = check_value(
        fixed,
        expected,
        EX3,
        explain=status if sent.status_code != 200 else f"{status}, but other messages changed",
        success=f"Right: {status}. Only the orphaned result went; everything else is untouched.",
    )
    return Result(result.ok, result.message, result.exercise, **info)
