"""Used in lessons: 08.

Exercises of notebooks/08_reading_a_real_request.ipynb: four unlabelled dumps, four bugs.

``unlabelled_dumps(model)`` gives four OpenAI Chat request bodies from Sundry's support ticket,
named only "A" to "D". Each has one bug a real codebase produced. Two of them break the rules of
the list (the provider answers 400); two are valid JSON the provider accepts and that are still
wrong: only someone reading the request finds those. Exercise 1 runs the learner's
``find_silent_bugs`` on dumps they have not seen (other tickets, the bugs in other places and
words, several in one dump, a buyer's own second message, sound ones): it lists every silent bug
(``SILENT``, the two that ``check`` cannot find) with where it is. (Naming one bug per dump
scored 3 of 5 in walk b4, and counting user turns passed it; since then a finding is a place,
and a dump may hold several; walk b6 found the policy pasted twice untested, in both exercises:
a hidden case of each has it; walk b7 found a detector that flags any user turn sharing one
line, or the first 60 characters, with the policy accepted: a buyer quoting one rule line, and
one quoting the opening line, are sound hidden cases.) Exercise 2 (optional) runs their
``repair`` on dumps with all four bugs in other places (results before their calls, results
whose call is gone, both at once, the policy twice) and sends each result to a stand-in.
(An exercise that fixed the order alone scored 3 of 5 in walks; it is part of the repair since
issue 33. A discussion question on the swapped dump, graded as an optional 08.3, scored 3 in
walk b5: it is the lesson's prose after 08.2.)
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from course.exercises import Case, Exercise, Result, check_cases

if TYPE_CHECKING:
    from helpers.messages import Message

BUGS = (
    "missing description",
    "policy pasted into a user turn",
    "out of order after a retry",
    "result without its call",
)
_LETTERS = {"A": BUGS[2], "B": BUGS[0], "C": BUGS[3], "D": BUGS[1]}  # a fixed shuffle

SILENT = BUGS[:2]  # the two bugs the provider accepts: exercise 1 names them

EX1 = Exercise(
    "08.1",
    look="the case the check names and what your function gave for it; then, in that dump, "
    "the place your function named or missed: what is there, and what a sound request of that "
    "ticket holds there.",
    idea="neither bug breaks a rule of the list, so the provider takes both: one is something "
    "that should be there and is not, the other is a text that is there twice. A user turn is "
    "not a bug by itself (buyers write again), and a dump may hold either bug more than once, "
    "or both: each finding is one place, found from the body itself, whatever its words.",
    example="[system 'Be brief.', user 'Hi', user 'Note: Be brief.'] has one finding, at "
    "messages[2]; [system 'Be brief.', user 'Hi', assistant 'Hello', user 'Briefly, why?'] has "
    "none; three tools, the second with a name and parameters and nothing else, have one, at "
    "tools[1].",
)
EX2 = Exercise(
    "08.2",
    look="the case the check names and what it says. If it names a place: the first place where "
    "your repaired body differs from what a sound request of that ticket would hold (`first` is "
    "that ticket's first request). If it says the dump changed: each line of your function that "
    "writes into the dict it was given, rather than into a new one.",
    idea="each of the lesson's five checks, turned around, is a repair: whatever breaks one is "
    "what to undo, and what never changes during a ticket can be read from its first request. "
    "Nothing else in the body may move or change.",
    example="two of the four, smaller: with a first request whose tools are [a, b], a body "
    "whose b has lost its description gets back the first request's b, and [a, b] stay in "
    "their order; [system, user, tool answering c1, assistant calling c1] comes back as "
    "[system, user, assistant calling c1, tool answering c1].",
)


def three_round_trips() -> list[Message]:
    """Sundry's ticket after three round trips, the last with two calls at once (opaque ids):
    the longer history the hidden cases of lessons 08 and 10 start from."""
    from helpers.examples import sundry
    from helpers.messages import assistant, system, tool, tool_call, user

    order = {"order_id": "SO-48213"}
    look = tool_call("call_q7Wm2", "search_orders", {"query": "SO-48213"})
    check = tool_call("call_Lr84k", "check_refund_eligibility", {**order, "reason": "damaged"})
    refund = tool_call(
        "call_Zp27x", "issue_refund", {**order, "amount_usd": 129.0, "reason": "damaged"}
    )
    note = tool_call(
        "call_Hd5n1", "message_seller", {**order, "message": "Arrived damaged; refunded."}
    )
    return [
        system(sundry.SYSTEM_PROMPT),
        user(sundry.TICKET_TEXT),
        assistant("Let me look that order up.", look),
        tool(sundry.run_tool(look)),
        assistant("Checking the refund.", check),
        tool(sundry.run_tool(check)),
        assistant("Refunding and telling the seller.", refund, note),
        tool(sundry.run_tool(refund), sundry.run_tool(note)),
    ]


def _longer_ticket(model: str) -> dict[str, Any]:
    """``three_round_trips`` as an OpenAI Chat body."""
    from helpers.examples import sundry
    from helpers.formats import render
    from helpers.messages import Request

    return render(Request(model, three_round_trips(), list(sundry.TOOLS)), "openai-chat").body


def _turn_two(model: str) -> dict[str, Any]:
    from helpers.examples import sundry
    from helpers.formats import render

    return render(sundry.ticket(model), "openai-chat").body


def _first(model: str) -> dict[str, Any]:
    from helpers.examples import sundry
    from helpers.formats import render

    return render(sundry.opening(model), "openai-chat").body


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


def _diagnosis_cases(model: str) -> list[tuple[str, dict, list[tuple[str, str]]]]:
    """The hidden dumps of exercise 1: (what the case is, the dump, its findings: each silent
    bug with where it is, as ``(bug, "tools[i]" or "messages[i]")``; none for a sound dump)."""
    longer = _longer_ticket(model)
    _, ct_later = _crash_triage_ticket(model)

    def broken(body: dict, *changes: Callable[[dict], None]) -> dict:
        body = copy.deepcopy(body)
        for change in changes:
            change(body)
        return body

    def no_description(index: int) -> Callable[[dict], None]:
        return lambda body: body["tools"][index]["function"].pop("description")

    def pasted(at: int, text: str) -> Callable[[dict], None]:
        def paste(body: dict) -> None:
            policy = body["messages"][0]["content"]
            body["messages"].insert(at, {"role": "user", "content": text.format(policy)})

        return paste

    follow_up = copy.deepcopy(longer)  # the buyer writes again: a second user turn, a real one
    follow_up["messages"] += [
        {"role": "assistant", "content": "Done: $129.00 is on its way back to your card."},
        {"role": "user", "content": "Also, can I keep the case? The refund policy said $150."},
    ]
    long_follow_up = copy.deepcopy(longer)  # a buyer who writes at length: long, not pasted
    long_follow_up["messages"] += [
        {"role": "assistant", "content": "Done: $129.00 is on its way back to your card."},
        {"role": "user", "content": _LONG_FOLLOW_UP},
    ]

    policy_lines = longer["messages"][0]["content"].split("\n")
    rule = next(line for line in policy_lines if line.startswith("- Buyer protection"))
    quotes_a_rule = copy.deepcopy(longer)  # one rule of the policy, quoted back: sound
    quotes_a_rule["messages"] += [
        {"role": "assistant", "content": "Done: $129.00 is on its way back to your card."},
        {"role": "user", "content": f"Your help page says:\n{rule}\nDoes that cover the case?"},
    ]
    quotes_the_opening = copy.deepcopy(longer)  # the policy's opening line, quoted: sound
    quotes_the_opening["messages"] += [
        {"role": "assistant", "content": "Done: $129.00 is on its way back to your card."},
        {"role": "user", "content": f'Your first reply began "{policy_lines[0]}" Is this a bot?'},
    ]

    def emptied(index: int) -> Callable[[dict], None]:  # the key there, its text empty
        return lambda body: body["tools"][index]["function"].update(description="")

    ct_end = len(ct_later["messages"])
    lost, twice = SILENT
    return [
        (
            "a lost description, on another tool",
            broken(longer, no_description(1)),
            [(lost, "tools[1]")],
        ),
        (
            "the policy in the middle of a longer ticket",
            broken(longer, pasted(4, "Reminder:\n{}")),
            [(twice, "messages[4]")],
        ),
        ("a sound ticket, three round trips and two parallel calls", longer, []),
        ("the buyer writes again: a second user turn of their own, sound", follow_up, []),
        (
            "another agent's ticket, its first tool bare",
            broken(ct_later, no_description(0)),
            [(lost, "tools[0]")],
        ),
        (
            "another agent's ticket, the policy in other words around it",
            broken(ct_later, pasted(ct_end, "Remember your instructions:\n\n{}")),
            [(twice, f"messages[{ct_end}]")],
        ),
        ("another agent's ticket, sound", copy.deepcopy(ct_later), []),
        (
            "the buyer's long second message (over 1,500 characters), their own words, sound",
            long_follow_up,
            [],
        ),
        (
            "the buyer's second message quotes one rule line of the policy, sound",
            quotes_a_rule,
            [],
        ),
        (
            "the buyer's second message quotes the policy's opening line, sound",
            quotes_the_opening,
            [],
        ),
        (
            "a description emptied to '' (the key is there, the text is not)",
            broken(longer, emptied(3)),
            [(lost, "tools[3]")],
        ),
        (
            "a reminder mid-ticket, then the buyer's own second message",
            broken(follow_up, pasted(4, "Reminder:\n{}")),
            [(twice, "messages[4]")],
        ),
        (
            "the buyer's second message, then two tools bare and a reminder",
            broken(follow_up, no_description(2), no_description(7), pasted(11, "Reminder:\n{}")),
            [(lost, "tools[2]"), (lost, "tools[7]"), (twice, "messages[11]")],
        ),
        (
            "the policy pasted twice, in other words, around the buyer's second message",
            broken(
                follow_up,
                pasted(4, "Reminder:\n{}"),
                pasted(11, "Remember your instructions:\n\n{}"),
            ),
            [(twice, "messages[4]"), (twice, "messages[11]")],
        ),
    ]


_LONG_FOLLOW_UP = (
    "Thanks for the refund. Since you asked what happened, here is the whole story, because I "
    "want the seller to know. The box came on Tuesday and the courier left it in the rain by the "
    "gate, although I had asked for it to go to the neighbour at number 12. The cardboard was "
    "soft and one corner was crushed flat. Inside, the espresso cup set was in pieces: two of the "
    "four saucers cracked right across and one cup handle had snapped off clean. There was no "
    "bubble wrap at all, just a single sheet of brown paper folded around everything, so the "
    "cups knocked against each other the whole way. I took photos of the box, the paper and each "
    "broken piece before I touched anything, and I can send them if the seller wants them. I have "
    "bought from this shop three times before and it was always packed well, so I think someone "
    "new is packing the orders, or the courier changed. My sister ordered the same set last month "
    "and hers arrived fine, in a double box with foam corners. I am not angry, only disappointed, "
    "because it was a birthday present for my mother and her birthday is on Saturday. If the "
    "seller restocks the set before then I would happily buy it again, but only with proper "
    "packing. Also, can I keep the case? It is fine, and I would rather not post it back: the "
    "post office is a bus ride away and the case is worth less than the fare. And one more thing: "
    "the tracking page still says the parcel is out for delivery, so someone may want to fix "
    "that too. Thank you again for sorting this out so quickly, it is much appreciated."
)  # a real buyer's message, long and nothing pasted: over 1,500 characters


def _findings(got: Any) -> list[tuple[Any, Any]] | str:
    """The learner's findings as a sorted list of pairs, or why they cannot be read."""
    if isinstance(got, str) or not isinstance(got, list | tuple | set):
        return f"your function gave {got!r}, not a list of (bug, where) pairs"
    pairs = []
    for item in got:
        if not isinstance(item, list | tuple) or len(item) != 2:
            return f"your function gave {item!r} in its list, not a (bug, where) pair"
        bug, where = item
        if bug not in SILENT:
            return f"your function named {bug!r}, which is not one of SILENT"
        if not isinstance(where, str):
            return f"your function gave {where!r} as where, not a path like 'messages[3]'"
        pairs.append((bug, where.replace(" ", "")))
    return sorted(pairs)


def _diagnosis_judge(dump: dict, want: list[tuple[str, str]]) -> Callable[[Any], str | None]:
    def judge(got: Any) -> str | None:
        found = _findings(got)
        if isinstance(found, str):
            return found
        if len(set(found)) != len(found):
            return "your function names one finding twice: each place once"
        for bug, where in found:
            if (bug, where) in want:
                continue
            there = [w for b, w in want if b == bug]
            if not there:
                sound = "this dump is sound" if not want else f"this dump has no {bug!r}"
                why = f"{sound}: {_said_of(dump, where)}"
            else:
                why = f"this dump's {bug!r} is elsewhere: {_said_of(dump, where)}"
            return f"your function found {bug!r} at {where}, but {why}"
        missed = [(bug, where) for bug, where in want if (bug, where) not in found]
        if missed:
            return (
                f"this dump has {len(want)} silent bug(s), and your function missed one: a "
                f"{missed[0][0]!r} ({len(found)} finding(s) from yours)"
            )
        return None

    return judge


def _said_of(dump: dict, where: str) -> str:
    """What is at ``where`` in ``dump``, in a few words (why naming it there is wrong)."""
    import re

    match = re.fullmatch(r"(tools|messages)\[(\d+)\]", where)
    items = dump.get(match.group(1), []) if match else []
    if not match or int(match.group(2)) >= len(items):
        return (
            f"{where} is no place in this dump (where is written like 'messages[3]' or 'tools[4]')"
        )
    item = items[int(match.group(2))]
    if match.group(1) == "tools":
        return f"{item['function']['name']} has its description"
    if item["role"] == "user":
        policy = str(dump["messages"][0].get("content", ""))
        text = str(item.get("content", ""))
        if any(line.strip() and line in text for line in policy.split("\n")):
            return (
                "that user turn's words are its writer's own: it quotes a line of the policy, "
                "it does not hold the policy"
            )
        return "that user turn's words are its writer's own, not a text the body already holds"
    return f"that {item['role']} message holds no text the body already holds"


def check_silent_bugs(find_silent_bugs: Callable[[dict], list], model: str) -> Result:
    """Run the learner's ``find_silent_bugs(body)`` on hidden dumps (other tickets, other ids,
    other tools, the bugs in other places and words, several in one dump, a buyer who writes
    twice, sound ones); it must give every silent bug with where it is, as ``(bug, where)``
    pairs (``bug`` one of ``SILENT``, ``where`` like ``"tools[4]"`` or ``"messages[5]"``), in
    any order, and nothing for a sound dump."""
    from helpers.examples import sundry

    body = _bodies(model)["missing description"]
    lost = next(t["function"]["name"] for t in body["tools"] if "description" not in t["function"])
    said = next(t.description for t in sundry.TOOLS if t.name == lost)
    return check_cases(
        find_silent_bugs,
        [
            Case(name, (dump,), _diagnosis_judge(dump, want))
            for name, dump, want in _diagnosis_cases(model)
        ],
        EX1,
        success=(
            "Right: every silent bug found from the body alone and placed, wherever it sits, "
            "and a buyer's own second message left alone. Run it on your agent's dumps: without "
            f"its description, {lost} is a bare name to the model (the tool itself no longer "
            f'says "{said}"), and the policy pasted into a user turn reads as the buyer\'s '
            "words, paid for twice"
        ),
    )


# ---- exercise 2 (optional): repair a dump -----------------------------------------------------


def _crash_triage_ticket(model: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the first request, a later sound request) of a crash-triage ticket: another policy,
    other tools, so nothing of Sundry's may be hard-coded in a repair."""
    from helpers.examples import crash_triage
    from helpers.formats import render
    from helpers.messages import Request, assistant, tool, tool_call, tool_result

    opening = crash_triage.opening(model)
    look = tool_call("call_x81Tb", "search_code", {"query": "func ShippingQuote"})
    found = tool_result(look.id, "internal/orders/shipping.go:41: func ShippingQuote(o *Order)")
    later = Request(model, [*opening.messages, assistant(look), tool(found)], opening.tools)
    return render(opening, "openai-chat").body, render(later, "openai-chat").body


def _repair_cases(model: str) -> list[tuple[str, dict, dict, dict]]:
    """The hidden dumps of exercise 2: (what the case is, the dump, the ticket's first request,
    the sound body the repair must give back)."""
    first, longer = _first(model), _longer_ticket(model)
    cases = []

    def case(name: str, sound: dict, start: dict, breaking) -> None:
        broken = copy.deepcopy(sound)
        breaking(broken)
        cases.append((name, broken, start, sound))

    def no_description(index: int):
        return lambda body: body["tools"][index]["function"].pop("description")

    def reminder(at: int, text: str = "Reminder:\n{}"):
        def paste(body: dict) -> None:
            policy = body["messages"][0]["content"]
            body["messages"].insert(at, {"role": "user", "content": text.format(policy)})

        return paste

    def results_first(body: dict) -> None:  # every result of the last turn before its calls
        calls = max(i for i, m in enumerate(body["messages"]) if m.get("tool_calls"))
        tail = body["messages"][calls:]
        body["messages"][calls:] = [*tail[1:], tail[0]]

    def trimmed(body: dict) -> None:  # cut from the front, through the second call
        del body["messages"][1:5]

    sound_trimmed = copy.deepcopy(longer)
    del sound_trimmed["messages"][1:6]  # the same cut, with the orphan gone too
    case("a lost description, on another tool", _turn_two(model), first, no_description(1))
    case("a policy reminder in the middle of a longer ticket", longer, first, reminder(4))
    case("results before their two parallel calls", longer, first, results_first)
    case("a retry that put a result before its call", _turn_two(model), first, results_first)
    cases.append(("history trimmed from the front", _trim(longer), first, sound_trimmed))
    trimmed_retried = _trim(longer)
    results_first(trimmed_retried)
    cases.append(("a trimmed history, then a retry", trimmed_retried, first, sound_trimmed))
    ct_first, ct_later = _crash_triage_ticket(model)
    case("a retry in another agent's ticket", ct_later, ct_first, results_first)

    def two_bugs(body: dict) -> None:
        no_description(0)(body)
        reminder(len(body["messages"]), "Remember your instructions:\n\n{}")(body)

    case("two bugs in another agent's ticket", ct_later, ct_first, two_bugs)
    sound = {**longer, "temperature": 0.2, "tool_choice": "auto"}
    cases.append(("a sound dump, with settings of its own", copy.deepcopy(sound), first, sound))
    follow_up = copy.deepcopy(longer)  # the buyer writes again: a second user turn, a real one
    follow_up["messages"] += [
        {"role": "assistant", "content": "Done: $129.00 is on its way back to your card."},
        {"role": "user", "content": "Thanks! Do I need to send the broken one back?"},
    ]
    case("the buyer's second message, then a reminder", follow_up, first, reminder(9))

    def pasted_twice(body: dict) -> None:  # a helper that reminds on more than one turn
        reminder(4)(body)
        reminder(len(body["messages"]), "Remember your instructions:\n\n{}")(body)

    case(
        "the policy pasted twice, before and after the buyer's second message",
        follow_up,
        first,
        pasted_twice,
    )
    named = _turn_two(model)  # OpenAI Chat lets a message carry the writer's name
    named["messages"][1]["name"] = "maya"
    case(
        "a retry, the buyer's message with a field of its own ('name')", named, first, results_first
    )
    return cases


def _trim(body: dict) -> dict:
    trimmed = copy.deepcopy(body)
    del trimmed["messages"][1:5]
    return trimmed


def _repair_judge(sound: dict, post: Callable[[dict], str]) -> Callable[[Any], str | None]:
    """Right when the repaired body is the sound one, and the provider takes it."""
    from helpers.formats import FormatError, parse
    from helpers.rules import check

    policy = sound["messages"][0]["content"]

    def judge(got: Any) -> str | None:
        if not isinstance(got, dict):
            return f"your function returned a {type(got).__name__}, not a request body (a dict)"
        try:
            refused = check(parse(got, "openai-chat"), "openai-chat").errors
        except (FormatError, KeyError, TypeError, ValueError) as problem:
            return f"it is no longer an OpenAI Chat body: {problem}"
        if refused:
            said = post(got)  # in OpenAI's own words and numbering, as the learner's body is
            said = said.removeprefix("the provider answered ") if said else str(refused[0])
            return f"the provider would refuse it: {said}"
        names = {t["function"]["name"]: t for t in sound.get("tools", [])}
        for tool in got.get("tools", []):
            name = tool.get("function", {}).get("name")
            if names.get(name) != tool:
                return f"its tool {name!r} is not the one the ticket started with"
        if [t["function"]["name"] for t in got.get("tools", [])] != list(names):
            return "its list of tools is not the one the ticket started with"
        changed = sorted(
            k for k in {*got, *sound} if k != "messages" and got.get(k) != sound.get(k)
        )
        if changed:
            field = changed[0]
            was = repr(sound[field]) if field in sound else "no such field"
            now = repr(got[field]) if field in got else "it is gone"
            return (
                f"the field {field!r} changed (recorded: {was[:60]}; yours: {now[:60]}): a "
                "repair keeps every field but the messages as it was recorded"
            )
        messages = got.get("messages", [])
        for i, message in enumerate(messages[1:], start=1):
            if policy in str(message.get("content")):
                return f"messages[{i}] ({message.get('role')}) still holds the policy"
        want = sound["messages"]
        for i, (mine, right) in enumerate(zip(messages, want, strict=False)):
            if mine != right:
                return (
                    f"messages[{i}] ({mine.get('role')}) is not what the sound request holds "
                    "there: a message moved, went missing or changed"
                )
        if len(messages) != len(want):
            return f"it has {len(messages)} messages where the sound request has {len(want)}"
        return post(got)

    return judge


def _posting(provider: Any) -> Callable[[dict], str | None]:
    """Send a body to ``provider``: None when it answers 200, else what it said."""
    import httpx

    from standin import LOCAL_KEY

    def post(body: dict) -> str | None:
        sent = httpx.post(
            f"{provider.url}/v1/chat/completions",
            headers={"authorization": f"Bearer {LOCAL_KEY}"},
            json=body,
            timeout=30,
        )
        if sent.status_code == 200:
            return None
        try:
            error = sent.json()["error"]
            said = (
                f"{error['param']}: {error['message']}" if error.get("param") else error["message"]
            )
        except (ValueError, KeyError, TypeError):
            said = sent.text[:160]
        return f"the provider answered {sent.status_code}: {said}"

    return post


def _unchanged(
    touched: list[bool], judge: Callable[[Any], str | None]
) -> Callable[[Any], str | None]:
    """``judge``, after refusing a function that changed the recorded body it was given."""

    def judged(got: Any) -> str | None:
        if touched and touched[-1]:
            return (
                "your function changed the recorded body it was given: a dump is the evidence "
                "of what was sent, so the repair is a new body and the dump stays as it was "
                "recorded"
            )
        return judge(got)

    return judged


def check_repair(repair: Callable[[dict, dict], dict], model: str) -> Result:
    """Run the learner's ``repair(body, first)`` on hidden dumps (other tickets, other ids, bugs
    in other places, two at once, a sound one); each repaired body must be the sound request,
    and a fresh stand-in must answer it 200."""
    import functools

    from standin import LocalProvider

    touched: list[bool] = []  # per case: did the learner's function change the body it got

    @functools.wraps(repair)
    def watched(body: dict, first: dict) -> dict:
        recorded = copy.deepcopy(body)
        got = repair(body, first)
        touched.append(body != recorded)
        return got

    with LocalProvider("echo") as provider:
        post = _posting(provider)
        cases = [
            Case(name, (dump, first), _unchanged(touched, _repair_judge(sound, post)))
            for name, dump, first, sound in _repair_cases(model)
        ]
        return check_cases(
            watched if callable(repair) else repair,
            cases,
            EX2,
            success="Right: every dump comes back as the sound request of its ticket, and the "
            "provider takes each one. Run it on your own agent's dumps before you send them",
        )
