"""The build exercises of lessons 08-10 (issue 33): each check runs the learner's function on
hidden cases. For each, plausible wrong implementations are refused on the case that shows the
mistake, for the right reason, and right ones written in different ways are accepted.

08.1 ``find_silent_bugs(body)``: each of the two bugs the provider accepts in a recorded dump,
with where it is.
08.2 (optional) ``repair(body, first)``: a recorded OpenAI Chat body with all four of the
lesson's bugs (the two the provider refuses: results before their calls, results whose call is
gone).
09.1 ``guarded_run_tool(call, done)``: a refund limit per order across the ticket, enforced in
code before the refund runs (a refund split in two is refused).
10.1 ``compact(history, keep_last, summary)``: a shortened history that keeps the rules.
"""

from __future__ import annotations

import copy

import pytest

from course import exercises
from course.exercises import reading_a_request as ex08
from course.exercises import rules_of_the_list as ex10
from course.exercises import the_system_prompt as ex09
from helpers.examples import sundry
from helpers.examples.sundry import run_tool
from helpers.messages import tool_result, user
from helpers.models import default_model
from helpers.rules import turn_boundaries

MODEL = default_model("openai")


@pytest.fixture(autouse=True)
def _fresh():
    exercises.reset()


def _refused(result, case: str, reason: str) -> None:
    """The check refused, naming ``case`` and saying ``reason``."""
    assert not result, result.message
    assert f"({case}" in result.message, result.message
    assert reason in result.message, result.message


# ---- 08.2 (optional): repair a recorded dump, all four bugs ------------------------------


def _fix_order_by_ids(body):
    results = {m["tool_call_id"]: m for m in body["messages"] if m["role"] == "tool"}
    fixed = []
    for m in body["messages"]:
        if m["role"] != "tool":
            fixed.append(m)
            fixed += [results[c["id"]] for c in m.get("tool_calls") or [] if c["id"] in results]
    return {**body, "messages": fixed}


def _repair_by_rebuilding(body, first):
    policy = first["messages"][0]["content"]
    messages = [m for m in body["messages"][1:] if policy not in str(m.get("content"))]
    results = {m["tool_call_id"]: m for m in messages if m["role"] == "tool"}
    fixed = [body["messages"][0]]
    for m in messages:
        if m["role"] != "tool":
            fixed.append(m)
            fixed += [results[c["id"]] for c in m.get("tool_calls") or [] if c["id"] in results]
    return {**body, "tools": first["tools"], "messages": fixed}


def _repair_holding_back(body, first):
    """Another right one: in a copy, holds results back until their call."""
    body = copy.deepcopy(body)
    body["tools"] = copy.deepcopy(first["tools"])
    system = body["messages"][0]
    messages = [m for m in body["messages"][1:] if system["content"] not in (m["content"] or "")]
    called = {c["id"] for m in messages for c in m.get("tool_calls") or []}
    out, waiting = [system], []
    for m in messages:
        if m["role"] == "tool" and m["tool_call_id"] in called:
            seen = {c["id"] for o in out for c in o.get("tool_calls") or []}
            (out if m["tool_call_id"] in seen else waiting).append(m)
        elif m["role"] != "tool":
            out.append(m)
            ids = {c["id"] for c in m.get("tool_calls") or []}
            out += [w for w in waiting if w["tool_call_id"] in ids]
            waiting = [w for w in waiting if w["tool_call_id"] not in ids]
    body["messages"] = out
    return body


def test_08_2_right_repairs_written_differently_pass():
    assert ex08.check_repair(_repair_by_rebuilding, MODEL)
    assert ex08.check_repair(_repair_holding_back, MODEL)


def test_08_2_a_repair_that_drops_the_buyers_later_turns_or_edits_the_dump_is_refused():
    """Walk 08-10c, findings 1 and 2: a second user turn is real, and a dump is evidence."""

    def first_user_turn_only(body, first):  # the walker's repair: every later user turn goes
        out = _fix_order_by_ids(body)
        messages, seen_user = [], False
        for m in out["messages"]:
            if m["role"] == "user":
                if seen_user:
                    continue
                seen_user = True
            messages.append(m)
        return {**out, "tools": first["tools"], "messages": messages}

    _refused(
        ex08.check_repair(first_user_turn_only, MODEL),
        "the buyer's second message, then a reminder",
        "it has 10 messages where the sound request has 11",
    )

    def in_place(body, first):  # right, but the recorded body is rewritten
        repaired = _repair_by_rebuilding(body, first)
        body.clear()
        body.update(repaired)
        return body

    _refused(
        ex08.check_repair(in_place, MODEL),
        "a lost description, on another tool",
        "your function changed the recorded body it was given",
    )


def test_08_2_plausible_wrong_repairs_are_refused_on_the_case_that_shows_it():
    def history_only(body, first):  # fixes the messages, forgets the tools
        return {**_repair_by_rebuilding(body, first), "tools": body["tools"]}

    _refused(
        ex08.check_repair(history_only, MODEL),
        "a lost description, on another tool",
        "its tool 'get_order' is not the one the ticket started with",
    )

    def strips_the_text(body, first):  # empties the reminder instead of dropping it
        policy = first["messages"][0]["content"]
        kept = [body["messages"][0]] + [
            {**m, "content": m["content"].replace(policy, "")}
            if isinstance(m.get("content"), str)
            else m
            for m in body["messages"][1:]
        ]
        return _repair_by_rebuilding({**body, "messages": kept}, first)

    _refused(
        ex08.check_repair(strips_the_text, MODEL),
        "a policy reminder in the middle of a longer ticket",
        "messages[4] (user) is not what the sound request holds there",
    )

    def swaps_one_pair(body, first):  # undoes a retry's swap of two messages, no more
        policy = first["messages"][0]["content"]
        fixed = [m for m in body["messages"][1:] if policy not in str(m.get("content"))]
        for i in range(len(fixed) - 1):
            answered = {c["id"] for c in fixed[i + 1].get("tool_calls") or []}
            if fixed[i].get("tool_call_id") in answered:
                fixed[i], fixed[i + 1] = fixed[i + 1], fixed[i]
                break
        calls = {c["id"] for m in fixed for c in m.get("tool_calls") or []}
        fixed = [m for m in fixed if m["role"] != "tool" or m["tool_call_id"] in calls]
        return {**body, "tools": first["tools"], "messages": [body["messages"][0], *fixed]}

    _refused(
        ex08.check_repair(swaps_one_pair, MODEL),
        "results before their two parallel calls",
        "the provider would refuse it",
    )

    def sundrys_policy_only(body, first):  # the policy hard-coded, not read from the ticket
        return _repair_by_rebuilding(
            body, {**first, "messages": [{"content": sundry.SYSTEM_PROMPT}]}
        )

    _refused(
        ex08.check_repair(sundrys_policy_only, MODEL),
        "two bugs in another agent's ticket",
        "messages[4] (user) still holds the policy",
    )


def test_08_2_order_only_halfway_or_a_rewritten_dump_is_refused_on_the_case_that_shows_it():
    """The order bugs (an exercise of their own until issue 33) are now the repair's."""

    def tidy(body, first):  # the silent bugs undone, the order left as recorded
        policy = first["messages"][0]["content"]
        kept = [m for m in body["messages"][1:] if policy not in str(m.get("content"))]
        return {**body, "tools": first["tools"], "messages": [body["messages"][0], *kept]}

    def drops_orphans_only(body, first):  # the trim's bug, not the retry's
        out = tidy(body, first)
        calls = {c["id"] for m in out["messages"] for c in m.get("tool_calls") or []}
        kept = [m for m in out["messages"] if m["role"] != "tool" or m["tool_call_id"] in calls]
        return {**out, "messages": kept}

    _refused(
        ex08.check_repair(drops_orphans_only, MODEL),
        "results before their two parallel calls",
        "the provider would refuse it: 400: Invalid parameter: 'tool_call_id' of 'call_Zp27x' "
        "not found in 'tool_calls' of previous message",
    )

    def results_at_the_end(body, first):  # every result after the last message: wrong turn
        out = tidy(body, first)
        calls = {c["id"] for m in out["messages"] for c in m.get("tool_calls") or []}
        talk = [m for m in out["messages"] if m["role"] != "tool"]
        results = [m for m in out["messages"] if m.get("tool_call_id") in calls]
        return {**out, "messages": talk + results}

    _refused(
        ex08.check_repair(results_at_the_end, MODEL),
        "a policy reminder in the middle of a longer ticket",
        "the provider would refuse it",
    )

    def rewrites_the_dump(body, first):  # right messages, but the recorded body is gone
        body["messages"] = _repair_by_rebuilding(body, first)["messages"]
        body["tools"] = first["tools"]
        return body

    _refused(
        ex08.check_repair(rewrites_the_dump, MODEL),
        "a lost description, on another tool",
        "your function changed the recorded body it was given",
    )

    def keeps_three_fields(body, first):  # drops the settings a dump may carry
        fixed = _repair_by_rebuilding(body, first)
        return {key: fixed[key] for key in ("model", "messages", "tools")}

    _refused(
        ex08.check_repair(keeps_three_fields, MODEL),
        "a sound dump, with settings of its own",
        "the field 'temperature' changed (recorded: 0.2; yours: it is gone)",
    )


def test_08_2_a_repair_that_returns_no_body_is_told_so():
    told = ex08.check_repair(lambda body, first: body["messages"], MODEL)
    assert not told and "not a request body (a dict)" in told.message


# ---- 09.1: the refund guard, per order across the ticket ----------------------------------


def _guard_by_summing(call, done):
    if call.name == "issue_refund":
        order = call.arguments["order_id"]
        refunded = sum(
            float(c.arguments["amount_usd"])
            for c, r in done
            if c.name == "issue_refund" and c.arguments["order_id"] == order and not r.is_error
        )
        total = refunded + float(call.arguments["amount_usd"])
        if total > 100:
            return tool_result(call.id, f"refused: ${total} is over the $100 limit", is_error=True)
    return sundry.run_tool(call)


def _guard_by_ledger(call, done):
    """Another right one: a ledger per order, built from the results, an early return."""
    ledger: dict[str, float] = {}
    for c, r in done:
        if c.name == "issue_refund" and not r.is_error:
            order = c.arguments["order_id"]
            ledger[order] = ledger.get(order, 0) + c.arguments["amount_usd"]
    if call.name != "issue_refund":
        return sundry.run_tool(call)
    order, amount = call.arguments["order_id"], call.arguments["amount_usd"]
    if ledger.get(order, 0) + amount <= 100:
        return sundry.run_tool(call)
    text = f"Refund of ${amount} refused: {order} would pass the $100 limit; escalate."
    return tool_result(call.id, text, is_error=True)


def _per_call(call, done):  # the guard before issue 33: one call at a time
    if call.name == "issue_refund" and call.arguments["amount_usd"] > 100:
        return tool_result(call.id, "refused: above $100", is_error=True)
    return sundry.run_tool(call)


def test_09_1_right_guards_written_differently_pass():
    assert ex09.check_refund_guard(_guard_by_summing)
    assert ex09.check_refund_guard(_guard_by_ledger)


def test_09_1_plausible_wrong_guards_are_refused_on_the_case_that_shows_it():
    _refused(
        ex09.check_refund_guard(_per_call),
        "issue_refund(60.0) after a refund of 60.0 on the same order: a split refund",
        "with the $60.00 this order already got back, this refund brings it to $120.00, above the "
        "$100 limit",
    )

    def counts_refused_ones(call, done):  # a refused refund never reached the buyer
        if call.name == "issue_refund":
            order = call.arguments["order_id"]
            before = sum(
                c.arguments["amount_usd"]
                for c, r in done
                if c.name == "issue_refund" and c.arguments["order_id"] == order
            )
            if before + call.arguments["amount_usd"] > 100:
                return tool_result(call.id, "refused: above $100", is_error=True)
        return sundry.run_tool(call)

    _refused(
        ex09.check_refund_guard(counts_refused_ones),
        "issue_refund(80.0) after a refund of 120.0 that was refused",
        "an error result for a call the limit allows: the earlier refund of $120.00 ended in an "
        "error result",
    )

    def every_order_together(call, done):  # one limit for the whole ticket, all orders
        if call.name == "issue_refund":
            before = sum(
                c.arguments["amount_usd"]
                for c, r in done
                if c.name == "issue_refund" and not r.is_error
            )
            if before + call.arguments["amount_usd"] > 100:
                return tool_result(call.id, "refused: above $100", is_error=True)
        return sundry.run_tool(call)

    _refused(
        ex09.check_refund_guard(every_order_together),
        "issue_refund(80.0) on SO-48213 after a refund of 80.0 on another order",
        "an error result for a call the limit allows: the earlier refund of $80.00 was on another "
        "order",
    )

    def at_the_limit_too(call, done):  # $100 in all is allowed, not above it
        total = _ledger_total(call, done)
        if call.name == "issue_refund" and total >= 100:
            return tool_result(call.id, "refused: above $100", is_error=True)
        return sundry.run_tool(call)

    _refused(
        ex09.check_refund_guard(at_the_limit_too),
        "issue_refund(100.0), at the limit, not above it",
        "an error result for a call the limit allows",
    )

    def whole_dollars(call, done):  # int() drops the cents: $100.50 goes through
        if call.name == "issue_refund" and int(_ledger_total(call, done)) > 100:
            return tool_result(call.id, "refused: above $100", is_error=True)
        return sundry.run_tool(call)

    _refused(
        ex09.check_refund_guard(whole_dollars),
        "issue_refund(100.5), just above it",
        "the refund ran, and came back as a normal result (is_error is False)",
    )


def _ledger_total(call, done):
    """What this refund would bring its order to (0 for another tool)."""
    if call.name != "issue_refund":
        return 0
    order = call.arguments["order_id"]
    before = sum(
        c.arguments["amount_usd"]
        for c, r in done
        if c.name == "issue_refund" and c.arguments["order_id"] == order and not r.is_error
    )
    return before + call.arguments["amount_usd"]


def _imported_by_name(call, done):
    """Runs the refund first, through a name of its own (as `from ... import run_tool` gives)."""
    r = run_tool(call)
    if call.name == "issue_refund" and _ledger_total(call, done) > 100:
        return tool_result(call.id, "refused: above the $100 limit", is_error=True)
    return r


def test_09_1_a_guard_that_runs_the_refund_and_only_then_refuses_it_is_refused():
    """Walk 08-10, finding 1: the refund ran, so an error result after it comes too late."""

    def refuses_afterwards(call, done):
        r = sundry.run_tool(call)
        if call.name == "issue_refund" and _ledger_total(call, done) > 100:
            return tool_result(call.id, "refused: above the $100 limit", is_error=True)
        return r

    _refused(
        ex09.check_refund_guard(refuses_afterwards),
        "issue_refund(120.0), nothing refunded before",
        "the refund ran: your function handed this call to sundry.run_tool",
    )
    _refused(
        ex09.check_refund_guard(_imported_by_name),
        "issue_refund(120.0), nothing refunded before",
        "the refund ran",
    )
    assert sundry.run_tool is run_tool  # the check put the real one back


# ---- 10.1: another right cut, written by hand --------------------------------------------


def _compact_backward(history, keep_last, summary):
    """Another right one: moves the cut back over results, by hand, keeping a little more."""
    head = [m for m in history if m.role == "system"]
    rest = history[len(head) :]
    if len(rest) <= keep_last:
        return history
    k = len(rest) - keep_last
    while k < len(rest) and rest[k].role == "tool":
        k -= 1
    return head + [user(f"Summary so far: {summary}")] + rest[k:]


# ---- 10.1: the cut of a compaction -----------------------------------------------------


def _waiting(history, k):
    """The ids of the calls before ``k`` still waiting for their result at ``k``."""
    ids = set()
    for m in history[:k]:
        ids |= {c.id for c in m.tool_calls}
        ids -= {r.call_id for r in m.tool_results}
    return ids


def _start(history, keep_last):
    """The latest safe start that keeps at least ``keep_last`` messages (a rule by ids)."""
    start = len(history) - keep_last
    while history[start].role == "tool" or _waiting(history, start):
        start -= 1
    return start


def _compact_with_a_system_prompt(history, keep_last, summary):
    if len(history) - 1 <= keep_last:  # nothing to drop
        return list(history)
    return [history[0], user(summary), *history[_start(history, keep_last) :]]


def test_10_1_right_cuts_written_differently_pass():
    assert ex10.check_compact_cut(_compact_with_a_system_prompt, MODEL)
    assert ex10.check_compact_cut(_compact_backward, MODEL)


def test_10_1_plausible_wrong_cuts_are_refused_on_the_case_that_shows_it():
    def last_n(history, keep_last, summary):  # cuts anywhere
        return [history[0], user(summary), *history[-keep_last:]]

    _refused(
        ex10.check_compact_cut(last_n, MODEL),
        "two parallel calls, their results at the cut",
        "[result-without-call]",
    )

    def a_summary_of_its_own(history, keep_last, summary):  # not the summary it was given
        kept = _compact_with_a_system_prompt(history, keep_last, summary)
        return [kept[0], user("Summary of the conversation so far."), *kept[2:]]

    _refused(
        ex10.check_compact_cut(a_summary_of_its_own, MODEL),
        "two parallel calls",
        "no user message holding the summary",
    )

    def one_turn_too_many(history, keep_last, summary):  # back to the turn before, always
        start = _start(history, keep_last + 1)
        return [history[0], user(summary), *history[start:]]

    _refused(
        ex10.check_compact_cut(one_turn_too_many, MODEL),
        "a cut that lands on an assistant message",
        "the rules did not need that many",
    )


# ---- 08.1: find the silent bugs of a recorded dump, and where they are ----------------------


def _find_by_checks(body):
    messages = body["messages"]
    found = [
        ("missing description", f"tools[{i}]")
        for i, t in enumerate(body["tools"])
        if not t["function"].get("description")
    ]
    for i, m in enumerate(messages[1:], start=1):
        if messages[0]["content"] in str(m.get("content")):
            found.append(("policy pasted into a user turn", f"messages[{i}]"))
    return found


def _find_by_comparing(body):
    """Another right one: the user turns against the policy first, then the tools, as a set of
    lists, with a space in the path."""
    policy = next(m["content"] for m in body["messages"] if m["role"] == "system")
    found = {
        (ex08.SILENT[1], f"messages[ {i}]")
        for i, m in enumerate(body["messages"])
        if m["role"] == "user" and policy in m["content"]
    }
    for i, t in enumerate(body["tools"]):
        if not t["function"].get("description"):
            found.add((ex08.SILENT[0], f"tools[{i}]"))
    return [list(pair) for pair in found]


def test_08_1_right_diagnoses_written_differently_pass():
    assert ex08.check_silent_bugs(_find_by_checks, MODEL)
    assert ex08.check_silent_bugs(_find_by_comparing, MODEL)
    dumps = ex08.unlabelled_dumps(MODEL)  # and the lesson's two silent dumps are told apart
    named = sorted(bug for d in dumps.values() for bug, _ in _find_by_checks(d))
    assert named == sorted(ex08.SILENT)


def test_08_1_the_walkers_count_of_user_turns_is_refused_on_a_buyers_second_message():
    """Walk b4, finding 2: this code, the exact wrong answer of the walk, passed all six cases
    of the old task (one name per dump). It counts user turns, so a buyer who writes again is
    taken for a pasted policy. Its old form is refused because the task now asks for a list of
    findings; its logic, in the new form, on the case with the buyer's own second message."""
    SILENT, NEITHER = ex08.SILENT, "neither"

    def name_the_bug(body):
        if any("description" not in t["function"] for t in body.get("tools", [])):
            return SILENT[0]
        if sum(m["role"] == "user" for m in body["messages"]) > 1:
            return SILENT[1]
        return NEITHER

    assert "not a list of (bug, where) pairs" in ex08.check_silent_bugs(name_the_bug, MODEL).message

    def counts_user_turns(body):
        found = [b for b in _find_by_checks(body) if b[0] == SILENT[0]]
        users = [i for i, m in enumerate(body["messages"]) if m["role"] == "user"]
        return found + [(SILENT[1], f"messages[{i}]") for i in users[1:]]

    _refused(
        ex08.check_silent_bugs(counts_user_turns, MODEL),
        "the buyer writes again: a second user turn of their own, sound",
        "this dump is sound: that user turn's words are its writer's own",
    )


def test_08_1_plausible_wrong_diagnoses_are_refused_on_the_case_that_shows_it():
    def by_position(body):  # fitted to the lesson's four dumps
        found = []
        if "description" not in body["tools"][4]["function"]:
            found.append(("missing description", "tools[4]"))
        if body["messages"][-1]["role"] == "user" and len(body["messages"]) > 2:
            found.append(
                ("policy pasted into a user turn", f"messages[{len(body['messages']) - 1}]")
            )
        return found

    _refused(
        ex08.check_silent_bugs(by_position, MODEL),
        "a lost description, on another tool",
        "your function missed one: a 'missing description'",
    )

    def by_the_word_reminder(body):  # the lesson's dump says "Reminder:"; another agent may not
        found = [b for b in _find_by_checks(body) if b[0] == ex08.SILENT[0]]
        return found + [
            (ex08.SILENT[1], f"messages[{i}]")
            for i, m in enumerate(body["messages"])
            if "Reminder" in str(m.get("content"))
        ]

    _refused(
        ex08.check_silent_bugs(by_the_word_reminder, MODEL),
        "another agent's ticket, the policy in other words around it",
        "your function missed one: a 'policy pasted into a user turn'",
    )

    def first_finding_only(body):  # one name per dump, as the old task asked
        return _find_by_checks(body)[:1]

    _refused(
        ex08.check_silent_bugs(first_finding_only, MODEL),
        "the buyer's second message, then two tools bare and a reminder",
        "this dump has 3 silent bug(s), and your function missed one",
    )

    def the_last_user_turn_only(body):  # where the lesson's reminder sat: at the end
        found = [b for b in _find_by_checks(body) if b[0] == ex08.SILENT[0]]
        last = max(i for i, m in enumerate(body["messages"]) if m["role"] == "user")
        if last > 1 and body["messages"][0]["content"] in body["messages"][last]["content"]:
            found.append((ex08.SILENT[1], f"messages[{last}]"))
        return found

    _refused(
        ex08.check_silent_bugs(the_last_user_turn_only, MODEL),
        "a reminder mid-ticket, then the buyer's own second message",
        "your function missed one: a 'policy pasted into a user turn'",
    )

    def off_by_one(body):  # the place counted from 1
        return [(bug, where.replace("[", "[1+")) for bug, where in _find_by_checks(body)]

    _refused(
        ex08.check_silent_bugs(off_by_one, MODEL),
        "a lost description, on another tool",
        "is no place in this dump",
    )

    def the_next_place(body):  # a place, but the wrong one
        return [
            (bug, where.split("[")[0] + f"[{int(where.split('[')[1][:-1]) + 1}]")
            for bug, where in _find_by_checks(body)
        ]

    _refused(
        ex08.check_silent_bugs(the_next_place, MODEL),
        "a lost description, on another tool",
        "but this dump's 'missing description' is elsewhere: get_tracking has its description",
    )
    odd = ex08.check_silent_bugs(lambda body: [("broken", "messages[1]")], MODEL)
    assert not odd and "which is not one of SILENT" in odd.message


def test_08_1_the_walkers_over_broad_policy_detectors_are_refused_on_a_buyers_quote():
    """Walk b7, finding 1: both passed all 12 cases. One line shared with the policy, or its
    first 60 characters, is not the policy: a buyer may quote a rule, or the opening line."""

    def shares_a_line(body):
        found = [b for b in _find_by_checks(body) if b[0] == ex08.SILENT[0]]
        lines = [line for line in body["messages"][0]["content"].split("\n") if line.strip()]
        return found + [
            (ex08.SILENT[1], f"messages[{i}]")
            for i, m in enumerate(body["messages"][1:], start=1)
            if m["role"] == "user" and any(line in m["content"] for line in lines)
        ]

    _refused(
        ex08.check_silent_bugs(shares_a_line, MODEL),
        "the buyer's second message quotes one rule line of the policy, sound",
        "this dump is sound: that user turn's words are its writer's own: it quotes a line",
    )

    def its_first_60_characters(body):
        found = [b for b in _find_by_checks(body) if b[0] == ex08.SILENT[0]]
        start = body["messages"][0]["content"][:60]
        return found + [
            (ex08.SILENT[1], f"messages[{i}]")
            for i, m in enumerate(body["messages"][1:], start=1)
            if m["role"] == "user" and start in m["content"]
        ]

    _refused(
        ex08.check_silent_bugs(its_first_60_characters, MODEL),
        "the buyer's second message quotes the policy's opening line, sound",
        "this dump is sound: that user turn's words are its writer's own: it quotes a line",
    )


def test_10_1_a_summary_sent_as_a_system_message_is_told_so():
    """Walk 08-10c, finding 9: the hint names that mistake, not only a safe cut."""

    def summary_as_system(history, keep_last, summary):  # right cut, wrong role
        from helpers.messages import system

        return [history[0], system(summary), *history[_start(history, keep_last) :]]

    _refused(
        ex10.check_compact_cut(summary_as_system, MODEL),
        "two parallel calls, their results at the cut",
        "the summary went out as a system message",
    )


def test_10_1_one_message_asked_for_is_said_in_the_singular():
    def one_more_when_one(history, keep_last, summary):  # right, but keeps 2 when 1 is asked
        keep = 2 if keep_last == 1 else keep_last
        return [history[0], user(summary), *history[_start(history, keep) :]]

    _refused(
        ex10.check_compact_cut(one_more_when_one, MODEL),
        "a cut that lands on the buyer's follow-up",
        "you kept 2 messages of the history when 1 message was asked for",
    )


def test_10_1_the_walkers_forward_cut_is_refused_for_keeping_fewer_than_asked():
    """Walk b5, finding 3: this code, the walk's own, moved the cut forward (keeping less) and
    passed all four cases; with keep_last=1 it kept no message at all."""

    def forward(history, keep_last, summary):
        k = max(1, len(history) - keep_last)
        while k < len(history) and history[k].role == "tool":
            k += 1
        return [history[0], user(summary), *history[k:]]

    _refused(
        ex10.check_compact_cut(forward, MODEL),
        "two parallel calls, their results at the cut",
        "you kept 0 messages of the history when at least 1 message was asked for",
    )
    history = ex10._histories(MODEL)[4][1]  # keep_last=1, ending on a failed tool's result
    assert history[-1].role == "tool" and forward(history, 1, "s")[2:] == []


def test_10_1_the_ready_made_boundaries_are_refused_the_safe_cut_is_the_exercise():
    """Walk b5, finding 4: with turn_boundaries the exercise was three lines."""

    def nearest_boundary(history, keep_last, summary):  # the walk's own line
        want = len(history) - keep_last
        k = min(turn_boundaries(history), key=lambda c: (abs(c - want), c))
        return [history[0], user(summary), *history[k:]]

    refused = ex10.check_compact_cut(nearest_boundary, MODEL)
    assert not refused and "calls turn_boundaries" in refused.message, refused.message

    def through_a_function_of_ones_own(history, keep_last, summary):  # the helper one step away
        return _cut_by_the_helper(history, keep_last, summary)

    refused = ex10.check_compact_cut(through_a_function_of_ones_own, MODEL)
    assert not refused and "calls turn_boundaries" in refused.message, refused.message
    assert ex10.check_compact_cut(_compact_with_a_system_prompt, MODEL)  # a rule of one's own


boundaries = turn_boundaries  # the helper under another name


def _cut_by_the_helper(history, keep_last, summary):
    start = max(k for k in boundaries(history) if k <= len(history) - keep_last)
    return [history[0], user(summary), *history[start:]]


def test_10_1_a_compact_that_changes_the_callers_history_is_refused():
    """Walk b5, finding 5: as 08.2 refuses a repair that edits the dump."""

    def in_place(history, keep_last, summary):
        k = _start(history, keep_last)
        del history[1:k]
        history.insert(1, user(summary))
        return history

    _refused(
        ex10.check_compact_cut(in_place, MODEL),
        "two parallel calls, their results at the cut",
        "your function changed the history it was given",
    )


def test_08_1_the_walkers_length_rule_is_refused_on_a_buyers_long_second_message():
    """Walk b5, finding 1: this code, the walk's own, took any long later user turn for the
    pasted policy and passed all nine cases."""

    def f2(body):
        bugs = [
            ("missing description", f"tools[{n}]")
            for n, t in enumerate(body.get("tools") or [])
            if not t["function"].get("description")
        ]
        for n, m in enumerate(body["messages"]):
            if m["role"] == "user" and n > 1 and len(m["content"]) > 600:
                bugs.append(("policy pasted into a user turn", f"messages[{n}]"))
        return bugs

    _refused(
        ex08.check_silent_bugs(f2, MODEL),
        "the buyer's long second message (over 1,500 characters), their own words, sound",
        "this dump is sound: that user turn's words are its writer's own",
    )


def test_08_1_an_empty_description_is_a_missing_one():
    """Walk b5, finding 6: a description emptied to "" is as bare as one removed."""

    def by_the_key(body):  # the key looked for, not its text
        found = [b for b in _find_by_checks(body) if b[0] == ex08.SILENT[1]]
        return found + [
            (ex08.SILENT[0], f"tools[{i}]")
            for i, t in enumerate(body["tools"])
            if "description" not in t["function"]
        ]

    _refused(
        ex08.check_silent_bugs(by_the_key, MODEL),
        "a description emptied to ''",
        "your function missed one: a 'missing description'",
    )


def test_08_2_a_repair_that_rebuilds_messages_from_three_fields_is_refused():
    """Walk b5, finding 7: a message's other recorded fields (here a user's ``name``) stay."""

    def three_fields(body, first):
        repaired = _repair_by_rebuilding(body, first)
        keep = ("role", "content", "tool_calls", "tool_call_id")
        messages = [{k: m[k] for k in keep if k in m} for m in repaired["messages"]]
        return {**repaired, "messages": messages}

    _refused(
        ex08.check_repair(three_fields, MODEL),
        "a retry, the buyer's message with a field of its own ('name')",
        "messages[1] (user) is not what the sound request holds there",
    )


def test_09_1_a_refusal_with_the_wrong_call_id_is_told_about_the_id():
    """Walk b5, finding 8: the failing case's own words are about the id, not the limit."""

    def refusal_without_the_id(call, done):
        if call.name == "issue_refund" and call.arguments["amount_usd"] > 100:
            return tool_result("refusal", "refused: above the $100 limit", is_error=True)
        return run_tool(call)

    _refused(
        ex09.check_refund_guard(refusal_without_the_id),
        "issue_refund(120.0), nothing refunded before",
        "a result for 'refusal', but this call's id is 'call_r8Kd'",
    )


def test_08_1_the_walkers_first_pasted_policy_only_is_refused_on_a_policy_pasted_twice():
    """Walk b6, finding 1: this code, the walk's own, stops at the first pasted policy and
    passed all eleven cases."""

    def f(body):
        sysc = body["messages"][0]["content"]
        found = [
            ("missing description", f"tools[{n}]")
            for n, t in enumerate(body["tools"])
            if not t["function"].get("description")
        ]
        for n, m in enumerate(body["messages"]):
            if m["role"] == "user" and sysc[:200] in m["content"]:
                found.append(("policy pasted into a user turn", f"messages[{n}]"))
                break
        return found

    _refused(
        ex08.check_silent_bugs(f, MODEL),
        "the policy pasted twice, in other words",
        "this dump has 2 silent bug(s), and your function missed one: a 'policy pasted",
    )


def test_08_2_the_walkers_repair_of_the_first_pasted_policy_only_is_refused():
    """Walk b6, finding 1: the walk's repair removed only the first user turn holding the
    policy's first 300 characters, and passed all eleven cases."""

    def first_one_only(body, first):
        policy = first["messages"][0]["content"][:300]
        messages = list(body["messages"])
        pasted = [
            i
            for i, m in enumerate(messages)
            if i and m["role"] == "user" and policy in m["content"]
        ]
        if pasted:
            del messages[pasted[0]]
        results = {m["tool_call_id"]: m for m in messages if m["role"] == "tool"}
        fixed = [messages[0]]
        for m in messages[1:]:
            if m["role"] != "tool":
                fixed.append(m)
                fixed += [results[c["id"]] for c in m.get("tool_calls") or [] if c["id"] in results]
        return {**body, "tools": first["tools"], "messages": fixed}

    _refused(
        ex08.check_repair(first_one_only, MODEL),
        "the policy pasted twice",
        "(user) still holds the policy",
    )


def test_10_1_the_walkers_compact_that_sends_the_system_prompt_twice_is_refused():
    """Walk b6, finding 2: with keep_last covering the whole history, this code, the walk's
    own, sent [system, summary, system, user, ...]; nothing to drop means the history as it
    is."""

    def compact(history, keep_last, summary):
        start = len(history) - keep_last
        while start > 1 and history[start].role == "tool":
            start -= 1
        return [history[0], user(summary), *history[max(start, 0) :]]

    _refused(
        ex10.check_compact_cut(compact, MODEL),
        "keep_last covering the whole history",
        "your list holds the system prompt 2 times; this history has 8 messages, 7 after the "
        "system prompt, and keep_last=10: there is nothing to drop",
    )

    def summary_anyway(history, keep_last, summary):  # nothing dropped, a summary added
        if len(history) - 1 <= keep_last:
            return [history[0], user(summary), *history[1:]]
        return _compact_with_a_system_prompt(history, keep_last, summary)

    _refused(
        ex10.check_compact_cut(summary_anyway, MODEL),
        "keep_last covering the whole history",
        "your list has 9 messages; this history has 8 messages",
    )


def test_the_first_hint_fits_a_failure_that_is_not_a_place():
    """Walk b7, finding 3: after the input was changed in place, or with nothing to drop, the
    first hint ("Look at") points to what went wrong, not to a place in the list."""

    def in_place(body, first):  # right, but the recorded body is rewritten
        repaired = _repair_by_rebuilding(body, first)
        body.clear()
        body.update(repaired)
        return body

    exercises.reset()
    said = ex08.check_repair(in_place, MODEL).message
    assert "Look at:" in said and "writes into the dict it was given" in said, said

    def summary_anyway(history, keep_last, summary):  # a summary even when nothing is dropped
        if len(history) - 1 <= keep_last:
            return [history[0], user(summary), *history[1:]]
        return _compact_with_a_system_prompt(history, keep_last, summary)

    exercises.reset()
    said = ex10.check_compact_cut(summary_anyway, MODEL).message
    assert "nothing to drop" in said and "messages follow the system prompt" in said, said
