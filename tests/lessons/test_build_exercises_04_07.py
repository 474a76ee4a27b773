"""The build exercises of lessons 04-07: each check refuses plausible wrong implementations,
naming the hidden case that failed and why, and accepts right ones written differently.

Cheap by design: the hidden cases are built in memory (no provider run) except where the real
SDK is the judge (07), which talks to the stand-in on loopback.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from course import exercises
from course.exercises import array_is_rebuilt as ex04
from course.exercises import caching_the_prefix as ex06
from course.exercises import tools_are_context as ex05
from course.exercises import what_the_sdk_adds as ex07
from helpers.messages import Message, Request, Text, assistant, system, tool, user
from helpers.models import default_model

MODEL = default_model("openai")
CLAUDE = default_model("anthropic")


@pytest.fixture(autouse=True)
def _fresh():
    exercises.reset()


# ---- 04.1 next_request ------------------------------------------------------------------------


def _next_right(request, reply, results):
    messages = [*request.messages, reply.message]
    if results:
        order = [call.id for call in reply.message.tool_calls]
        messages.append(tool(*sorted(results, key=lambda r: order.index(r.call_id))))
    return replace(request, messages=messages)


def _next_right_other_way(request, reply, results):
    new = Request(
        request.model,
        list(request.messages),
        request.tools,
        request.tool_choice,
        request.max_tokens,
    )
    new.messages.append(reply.message)
    if reply.message.tool_calls:
        by_id = {r.call_id: r for r in results}
        new.messages.append(Message("tool", [by_id[c.id] for c in reply.message.tool_calls]))
    return new


@pytest.mark.parametrize("fn", [_next_right, _next_right_other_way])
def test_04_1_right_next_requests_written_two_ways_pass(fn):
    result = ex04.check_next_request(fn)
    assert result, result.message
    assert "All 5 hidden cases passed" in result.message


def _appends_in_place(request, reply, results):
    request.messages.append(reply.message)
    if results:
        request.messages.append(tool(*results))
    return request


def _one_message_per_result(request, reply, results):
    return replace(request, messages=[*request.messages, reply.message, *map(tool, results)])


def _always_a_tool_message(request, reply, results):
    return replace(request, messages=[*request.messages, reply.message, tool(*results)])


def _drops_failed_results(request, reply, results):
    kept = [r for r in results if not r.is_error]
    return _next_right(request, reply, kept)


def _keeps_the_text_only(request, reply, results):
    right = _next_right(request, reply, results).messages
    text_only = assistant(reply.message.text)
    return replace(
        request, messages=[*request.messages, text_only, *right[len(request.messages) + 1 :]]
    )


def _appends_bare_results(request, reply, results):  # the rehearsal's try: no tool message
    return replace(request, messages=[*request.messages, reply.message, *results])


def _loses_the_settings(request, reply, results):
    return Request(request.model, _next_right(request, reply, results).messages, request.tools)


def _restarts_from_the_task(request, reply, results):
    return _next_right(replace(request, messages=request.messages[:2]), reply, results)


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_appends_in_place, "case 1 of 5", "changed the request it was given"),
        (_keeps_the_text_only, "case 1 of 5", "not the model's reply as it came back"),
        (_restarts_from_the_task, "case 2 of 5", "does not start with all 4 messages"),
        (_one_message_per_result, "case 3 of 5", "one tool message right after it"),
        (_appends_bare_results, "case 1 of 5", "is a ToolResult, not a message"),
        (_drops_failed_results, "case 3 of 5", "failed ones too"),
        (_loses_the_settings, "case 3 of 5", "max_tokens differ"),
        (_always_a_tool_message, "case 4 of 5", "the request ends with the reply"),
    ],
)
def test_04_1_wrong_next_requests_are_refused_on_the_case_that_shows_it(fn, case, why):
    result = ex04.check_next_request(fn)
    assert not result
    assert case in result.message and why in result.message, result.message
    assert "messages.append" not in result.message and "replace(" not in result.message


def test_04_1_the_rules_of_the_list_judge_what_the_other_checks_let_through():
    """A request the appended-messages checks cannot tell (a tool message whose results answer
    calls of another id) is refused by a provider's rules, named."""
    from helpers.messages import tool_result

    def wrong_ids(request, reply, results):
        renamed = [tool_result("call_X", r.content, r.is_error) for r in results]
        tail = [tool(*renamed)] if renamed else []
        return replace(request, messages=[*request.messages, reply.message, *tail])

    result = ex04.check_next_request(wrong_ids)
    assert not result and "case 1 of 5" in result.message
    assert "the tool message does not hold" in result.message or "would refuse" in result.message


# ---- 06.1 prepare: tools in one order, the time after everything ----------------------


@pytest.fixture(scope="module")
def triage_requests(triage_trace):
    """The run's requests, as lesson 06 parses them."""
    from helpers.formats import parse

    return [parse(step.request_body, "openai-chat") for step in triage_trace.steps]


def _by_name(request):
    return sorted(request.tools, key=lambda t: t.name)


def _settled(fn):
    """A wrong stamp with the tools put in one order first: refused for the stamp alone."""

    def prepare(request, when):
        return fn(replace(request, tools=_by_name(request)), when)

    return prepare


def _marked(fn):
    """A stamp that returns the request alone, answered with the breakpoints 06.1 asks for
    (tools, system, and the last message it was given): judged for the stamp alone."""

    def prepare(request, when):
        kept = f"messages[{len(request.messages) - 1}]"
        return fn(request, when), ["tools", "system", kept]

    return prepare


@_marked
def _stamp_after(request, when):
    return replace(
        request,
        tools=_by_name(request),
        messages=[*request.messages, user(f"Current time: {when}")],
    )


@_marked
def _stamp_as_a_late_user_block(request, when):
    tools = sorted(request.tools, key=lambda t: t.description)  # any order of its own
    fresh = Request(request.model, list(request.messages), tools, request.tool_choice)
    fresh.max_tokens = request.max_tokens
    fresh.messages.append(Message("user", [Text("Current time: " + when)]))
    return fresh


@_settled
@_marked
def _stamp_as_a_late_system_line(request, when):
    return replace(request, messages=[*request.messages, system(f"Current time: {when}")])


def test_06_1_a_late_system_message_is_refused_for_where_the_wire_puts_it(triage_requests):
    """Walk 04-07c finding 2: a system message at the end draws a warning in every format and
    is moved into Anthropic's system and Gemini's systemInstruction, above the messages."""
    result = ex06.check_prepare(_stamp_as_a_late_system_line, triage_requests, MODEL)
    assert not result and "case 1 of 3" in result.message
    assert "anthropic and gemini move it" in result.message, result.message


@pytest.mark.parametrize("fn", [_stamp_after, _stamp_as_a_late_user_block])
def test_06_1_stamps_after_everything_written_two_ways_pass(fn, triage_requests):
    result = ex06.check_prepare(fn, triage_requests, MODEL)
    assert result, result.message
    assert "All 3 hidden cases passed" in result.message


@_settled
@_marked
def _time_on_top(request, when):
    policy = system(f"Current time: {when}\n{request.messages[0].text}")
    return replace(request, messages=[policy, *request.messages[1:]])


@_settled
@_marked
def _time_at_the_end_of_the_system_prompt(request, when):
    policy = system(f"{request.messages[0].text}\nCurrent time: {when}")
    return replace(request, messages=[policy, *request.messages[1:]])


@_settled
@_marked
def _time_in_the_last_message(request, when):
    last = request.messages[-1]
    stamped = Message(last.role, [*last.content, Text(f"Current time: {when}")])
    return replace(request, messages=[*request.messages[:-1], stamped])


@_settled
@_marked
def _time_forgotten(request, when):
    return replace(request, messages=[*request.messages, user("Current time: now")])


@pytest.mark.parametrize(
    ("fn", "why"),
    [
        (_time_on_top, "breaks in messages[0]"),
        (_time_at_the_end_of_the_system_prompt, "breaks in messages[0]"),
        (_time_in_the_last_message, "openai-chat would refuse request 1"),
        (_time_forgotten, "does not carry its time"),
    ],
)
def test_06_1_wrong_stamps_are_refused_with_where_the_cache_broke(fn, why, triage_requests):
    result = ex06.check_prepare(fn, triage_requests, MODEL)
    assert not result and "case 1 of 3" in result.message
    assert why in result.message, result.message


def test_06_1_a_stamp_in_the_users_first_message_breaks_the_conversation_case(triage_requests):
    """The task message comes right after tools and system prompt: stamping it leaves too
    short a prefix for OpenAI's minimum on every ticket."""

    @_settled
    @_marked
    def in_the_task(request, when):
        task = user(f"Current time: {when}\n{request.messages[1].text}")
        return replace(request, messages=[request.messages[0], task, *request.messages[2:]])

    result = ex06.check_prepare(in_the_task, triage_requests, MODEL)
    assert not result and "breaks in messages[1]" in result.message


RETRIED = {408, 409, 429} | set(range(500, 600))


# ---- 05.1 pick_tools --------------------------------------------------------------------------


def _tools_cost(request, tools):
    from helpers.tokens import count

    return count(replace(request, tools=tools)).part("tools") if tools else 0


def _pick_right(request, wanted, catalogue, budget):
    called = {call.name for message in request.messages for call in message.tool_calls}
    keep = set(called)
    for name in wanted:
        trial = [t for t in catalogue if t.name in keep | {name}]
        if name in {t.name for t in catalogue} and _tools_cost(request, trial) <= budget:
            keep.add(name)
    picked = replace(request, tools=[t for t in catalogue if t.name in keep])
    return picked, [n for n in wanted if n not in keep]


def _pick_right_other_way(request, wanted, catalogue, budget):
    chosen = [
        t
        for t in catalogue
        if any(
            t.name == b.name for m in request.messages for b in m.content if b.type == "tool_call"
        )
    ]
    left_out = []
    for name in wanted:
        tool = next((t for t in catalogue if t.name == name), None)
        if tool is not None and tool in chosen:
            continue
        trial = [t for t in catalogue if t in chosen or t is tool]
        new = Request(
            request.model, request.messages, trial, request.tool_choice, request.max_tokens
        )
        if tool is not None and _tools_cost(new, new.tools) <= budget:
            chosen = trial
        else:
            left_out.append(name)
    kept = Request(request.model, request.messages, chosen, request.tool_choice, request.max_tokens)
    return kept, left_out


@pytest.mark.parametrize("fn", [_pick_right, _pick_right_other_way])
def test_05_1_a_picker_written_two_ways_passes(fn):
    result = ex05.check_pick_tools(fn)
    assert result, result.message
    assert "All 11 hidden cases passed" in result.message


def _reordered(order):
    """The right pick, its tools put in another order by ``order(request, wanted, tools)``."""

    def pick(request, wanted, catalogue, budget):
        picked, left_out = _pick_right(request, wanted, catalogue, budget)
        return replace(picked, tools=order(request, wanted, picked.tools)), left_out

    return pick


_in_the_wanted_order = _reordered(
    lambda request, wanted, tools: sorted(
        tools, key=lambda t: wanted.index(t.name) if t.name in wanted else -1
    )
)


def _only_the_wanted(request, wanted, catalogue, budget):
    keep = [t for t in catalogue if t.name in wanted]
    return replace(request, tools=keep), [n for n in wanted if n not in {t.name for t in keep}]


def _wanted_looked_up_blindly(request, wanted, catalogue, budget):
    by_name = {t.name: t for t in catalogue}
    for name in wanted:  # every wanted name taken to be in the catalogue
        by_name[name]
    return _pick_right(request, wanted, catalogue, budget)


def _cut_in_place(request, wanted, catalogue, budget):
    request.tools = [t for t in request.tools if t.name in wanted]
    return request, []


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_cut_in_place, "case 1 of 11", "changed the request it was given"),
        (_in_the_wanted_order, "case 2 of 11", "a cache miss"),
        (_only_the_wanted, "case 3 of 11", "the history already called them"),
        (_wanted_looked_up_blindly, "case 10 of 11", "raised KeyError"),
    ],
)
def test_05_1_wrong_pickers_are_refused_on_the_case_that_shows_it(fn, case, why):
    result = ex05.check_pick_tools(fn)
    assert not result and case in result.message and why in result.message, result.message


# ---- walk 04-07 fixes ------------------------------------------------------------------------


def test_04_1_results_in_another_order_are_told_why_and_a_refusal_gives_no_method():
    """Walk finding 11: the order is a choice the check explains (a Gemini call without an id
    is paired by position); an edited argument is refused without telling how to build."""

    def reversed_results(request, reply, results):
        messages = [*request.messages, reply.message]
        return replace(
            request, messages=[*messages, *([tool(*reversed(results))] if results else [])]
        )

    result = ex04.check_next_request(reversed_results)
    assert not result and "case 3 of 5" in result.message
    assert "paired by position" in result.message
    told = ex04.check_next_request(_appends_in_place)
    assert not told and "new list" not in told.message and "as it went in" in told.message
    dropped = ex04.check_next_request(_drops_failed_results)
    assert not dropped and "paired by position" not in dropped.message


@_marked
def _stamp_only(request, when):
    return replace(request, messages=[*request.messages, user(f"Current time: {when}")])


def _sorted_in_place(request, when):
    request.tools.sort(key=lambda t: t.name)
    return _stamp_after(request, when)


def _fewer_tools(request, when):
    prepared, marks = _stamp_after(request, when)
    return replace(prepared, tools=_by_name(request)[:3]), marks


@pytest.mark.parametrize(
    ("fn", "why"),
    [
        (_stamp_only, "breaks in tools[0]"),  # the walked answer: the tools' order not settled
        (_sorted_in_place, "changed the request it was given"),
        (_fewer_tools, "offers 3 tool(s), not the 6"),
    ],
)
def test_06_1_tools_in_the_order_they_came_or_settled_wrongly_are_refused(fn, why, triage_requests):
    result = ex06.check_prepare(fn, triage_requests, MODEL)
    assert not result and "case 1 of 3" in result.message
    assert why in result.message, result.message
    assert "sort" not in result.message  # the method is the learner's to find


def test_06_1_a_refusal_numbers_the_request_within_its_ticket(triage_requests):
    """Walk finding 5: one numbering in the message."""
    result = ex06.check_prepare(_time_on_top, triage_requests, MODEL)
    assert not result and "request 2 of that ticket (numbered from 1)" in result.message
    assert "this run's 3rd and 4th" in result.message


WIRE_BODY = {
    "messages": [{"role": "user", "content": "Where is my order SO-50102?"}],
    "model": MODEL,
    "max_completion_tokens": 200,
    "temperature": 0,
}


def test_07_the_timeout_prediction_reveals_what_the_wire_shows():
    """07's prediction (once exercise 07.2): timeout=30 stays out of the body, and the SDK
    announces it in exactly one x-stainless-* header."""
    body, changed = ex07.wire_effect()
    assert body == WIRE_BODY and "timeout" not in body
    assert changed == {"x-stainless-read-timeout": "30"}


# ---- walk 04-07b fixes -----------------------------------------------------------------------


def test_04_1_results_handed_out_of_call_order_must_be_put_in_the_calls_order():
    """Walk 04-07b finding 2: a hidden case hands the results in another order than the calls;
    keeping them as handed is refused on that case, named, for the order."""

    def as_handed(request, reply, results):
        tail = [tool(*results)] if results else []
        return replace(request, messages=[*request.messages, reply.message, *tail])

    result = ex04.check_next_request(as_handed)
    assert not result and "case 5 of 5" in result.message
    assert "not in the order of the calls" in result.message


def test_04_1_results_sorted_by_id_are_refused_where_the_ids_do_not_sort_in_call_order():
    """Walk 04-07c finding 1: sorting the results by their ids is not the calls' order; case 5's
    calls are toolu_03, toolu_01, toolu_02."""

    def sorted_by_id(request, reply, results):
        tail = [Message("tool", sorted(results, key=lambda r: r.call_id))] if results else []
        return replace(request, messages=[*request.messages, reply.message, *tail])

    result = ex04.check_next_request(sorted_by_id)
    assert not result and "case 5 of 5" in result.message
    assert "not in the order of the calls" in result.message


_sorted_by_name = _reordered(lambda request, wanted, tools: sorted(tools, key=lambda t: t.name))


def _settings_dropped(request, wanted, catalogue, budget):
    picked, left_out = _pick_right(request, wanted, catalogue, budget)
    return Request(request.model, request.messages, picked.tools), left_out


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_sorted_by_name, "case 1 of 11", "only the catalogue's order is accepted"),
        (_in_the_wanted_order, "case 2 of 11", "they follow the order of wanted"),
        (_settings_dropped, "case 1 of 11", "max_tokens differ"),
    ],
)
def test_05_1_the_order_and_the_settings_are_refused_for_what_they_are(fn, case, why):
    """Walk 04-07c findings 4 and 7: a pick sorted by name is told the exercise's rule (not that
    it depends on wanted); a rebuilt request that loses its settings is refused."""
    result = ex05.check_pick_tools(fn)
    assert not result and case in result.message and why in result.message, result.message


# ---- walk 04-07 c4 fixes ----------------------------------------------------------------------


def _from_the_request_only(request, wanted, catalogue, budget):
    """Walk c4 (05.1): the walker's right answer before the catalogue: a filter of the tools the
    request holds (within the budget)."""
    picked, left_out = _pick_right(request, wanted, request.tools, budget)
    return picked, left_out


_the_requests_order_then_the_new_ones = _reordered(
    lambda request, wanted, tools: (
        [t for t in request.tools if t in tools] + [t for t in tools if t not in request.tools]
    )
)


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_from_the_request_only, "case 3 of 11", "the request given did not hold it"),
        (_the_requests_order_then_the_new_ones, "case 8 of 11", "only the catalogue's order"),
    ],
)
def test_05_1_a_pick_from_the_request_alone_or_in_its_order_is_refused(fn, case, why):
    """The lifted 05.1: the request holds an earlier step's pick, so the definitions and their
    order come from the agent's catalogue."""
    result = ex05.check_pick_tools(fn)
    assert not result and case in result.message and why in result.message, result.message


def test_04_1_one_tool_message_per_result_is_refused_with_geminis_own_words():
    """Walk c4 finding 2: the refusal quotes Gemini's response-count rule, as the order one
    names its reason; the order message says the pairing by position is an inference."""
    from helpers.rules.gemini import COUNT

    result = ex04.check_next_request(_one_message_per_result)
    assert not result and "case 3 of 5" in result.message
    assert COUNT.rstrip(".") in result.message

    def reversed_results(request, reply, results):
        tail = [tool(*reversed(results))] if results else []
        return replace(request, messages=[*request.messages, reply.message, *tail])

    told = ex04.check_next_request(reversed_results)
    assert not told and "paired by position (the series' inference" in told.message


# ---- walk 04-07 c5 fixes ----------------------------------------------------------------------


def test_06_1_time_text_in_the_last_tool_message_is_told_what_is_wrong_not_where_to_move_it(
    triage_requests,
):
    """Walk c5 finding 8: the refusal names the text block in the tool message and the rule,
    without handing over the placement (a user message after it)."""
    result = ex06.check_prepare(_time_in_the_last_message, triage_requests, MODEL)
    assert not result and "case 1 of 3" in result.message
    assert "openai-chat would refuse request 1" in result.message, result.message
    assert "text block inside a tool message" in result.message, result.message
    assert "user message" not in result.message, result.message


def _c5_filter(request, wanted, catalogue, budget):
    """Walk c5's right answer to the old 05.1 (a filter with two conditions), reporting what
    it left out: it never looks at the budget."""
    needed = set(wanted) | {c.name for m in request.messages for c in m.tool_calls}
    picked = replace(request, tools=[t for t in catalogue if t.name in needed])
    return picked, [n for n in wanted if n not in {t.name for t in picked.tools}]


def _definitions_summed(request, wanted, catalogue, budget):
    from helpers.tokens import tool_parts

    each = {p.name: p.total for p in tool_parts(catalogue, request.model)[0]}
    keep = {c.name for m in request.messages for c in m.tool_calls}
    for name in wanted:
        if name in each and name not in keep and sum(each[n] for n in keep) + each[name] <= budget:
            keep.add(name)
    picked = replace(request, tools=[t for t in catalogue if t.name in keep])
    return picked, [n for n in wanted if n not in keep]


def _each_counted_alone(request, wanted, catalogue, budget):
    alone = {t.name: _tools_cost(request, [t]) for t in catalogue}
    keep = {c.name for m in request.messages for c in m.tool_calls}
    for name in wanted:
        if (
            name in alone
            and name not in keep
            and sum(alone[n] for n in keep) + alone[name] <= budget
        ):
            keep.add(name)
    picked = replace(request, tools=[t for t in catalogue if t.name in keep])
    return picked, [n for n in wanted if n not in keep]


def _stops_at_the_first_too_big(request, wanted, catalogue, budget):
    keep = {c.name for m in request.messages for c in m.tool_calls}
    for name in wanted:
        trial = [t for t in catalogue if t.name in keep | {name}]
        if _tools_cost(request, trial) > budget:
            break
        keep.add(name)
    picked = replace(request, tools=[t for t in catalogue if t.name in keep])
    return picked, [n for n in wanted if n not in keep]


def _greedy_in_the_catalogues_order(request, wanted, catalogue, budget):
    ranked = [n for n in (t.name for t in catalogue) if n in wanted]
    picked, _ = _pick_right(request, ranked, catalogue, budget)
    return picked, [n for n in wanted if n not in {t.name for t in picked.tools}]


def _budget_for_the_wanted_only(request, wanted, catalogue, budget):
    called = {c.name for m in request.messages for c in m.tool_calls}
    bare = replace(request, messages=request.messages[:2])  # no calls: the budget for wanted
    picked, _ = _pick_right(bare, wanted, catalogue, budget)
    keep = {t.name for t in picked.tools} | called
    return (
        replace(request, tools=[t for t in catalogue if t.name in keep]),
        [n for n in wanted if n not in keep],
    )


def _calls_dropped_to_fit(request, wanted, catalogue, budget):
    picked, left_out = _pick_right(
        replace(request, messages=request.messages[:2]), wanted, catalogue, budget
    )
    return replace(picked, messages=request.messages), left_out


def _unknown_names_not_reported(request, wanted, catalogue, budget):
    picked, left_out = _pick_right(request, wanted, catalogue, budget)
    return picked, [n for n in left_out if n in {t.name for t in catalogue}]


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_c5_filter, "case 5 of 11", "the list costs more than its definitions"),
        (_definitions_summed, "case 5 of 11", "over the budget of"),
        (_each_counted_alone, "case 4 of 11", "cancel_order was wanted and still fits"),
        (_stops_at_the_first_too_big, "case 6 of 11", "get_tracking was wanted and still fits"),
        (_greedy_in_the_catalogues_order, "case 7 of 11", "wanted lists message_seller first"),
        (_budget_for_the_wanted_only, "case 8 of 11", "count against it"),
        (_calls_dropped_to_fit, "case 3 of 11", "the history already called them"),
        (_unknown_names_not_reported, "case 10 of 11", "does not name ['start_return']"),
    ],
)
def test_05_1_a_budget_picker_is_refused_where_its_rule_breaks(fn, case, why):
    """Walk c5 (05.1 scored 3 as a filter): the lifted task picks under a token budget; each
    wrong picker is refused on the hidden case that shows its mistake, and never shown code."""
    result = ex05.check_pick_tools(fn)
    assert not result and case in result.message and why in result.message, result.message
    assert "def " not in result.message and "count(" not in result.message.split("Look at")[0]


# ---- 07.1 assemble: a Chat Completions stream, by hand -----------------------------------------


def _assemble_right(chunks):
    message = {"role": "assistant", "content": None}
    calls = {}
    for chunk in chunks:
        for choice in chunk["choices"]:
            delta = choice["delta"]
            if delta.get("content"):
                message["content"] = (message["content"] or "") + delta["content"]
            for fragment in delta.get("tool_calls") or []:
                call = calls.setdefault(
                    fragment["index"], {"type": "function", "function": {"arguments": ""}}
                )
                if fragment.get("id"):
                    call["id"] = fragment["id"]
                    call["function"]["name"] = fragment["function"]["name"]
                call["function"]["arguments"] += fragment["function"].get("arguments") or ""
    if calls:
        message["tool_calls"] = [calls[index] for index in sorted(calls)]
    return message


def _assemble_right_other_way(chunks):
    text, opened, pieces = [], {}, {}
    for chunk in chunks:
        if not chunk["choices"]:
            continue  # the usage chunk
        delta = chunk["choices"][0]["delta"]
        text.append(delta.get("content") or "")
        for fragment in delta.get("tool_calls", []):
            function = fragment.get("function", {})
            if "id" in fragment:
                opened[fragment["index"]] = (fragment["id"], fragment["type"], function["name"])
            pieces.setdefault(fragment["index"], []).append(function.get("arguments", ""))
    message = {"role": "assistant", "content": "".join(text) or None}
    if opened:
        message["tool_calls"] = [
            {"id": i, "type": kind, "function": {"name": name, "arguments": "".join(pieces[n])}}
            for n, (i, kind, name) in sorted(opened.items())
        ]
    return message


@pytest.mark.parametrize("fn", [_assemble_right, _assemble_right_other_way])
def test_07_1_a_stream_assembled_two_ways_passes(fn):
    result = ex07.check_assemble(fn)
    assert result, result.message
    assert "All 6 hidden cases passed" in result.message


def _first_choice_always(chunks):
    message = {"role": "assistant", "content": ""}
    for chunk in chunks:
        message["content"] += chunk["choices"][0]["delta"].get("content") or ""
    return message


def _every_fragment_overwrites(chunks):
    message, calls = _assemble_right(chunks), {}
    for chunk in chunks:
        for choice in chunk["choices"]:
            for fragment in choice["delta"].get("tool_calls") or []:
                call = calls.setdefault(fragment["index"], {"function": {"arguments": ""}})
                call["id"], call["type"] = fragment.get("id"), fragment.get("type")
                call["function"]["name"] = fragment["function"].get("name")
                call["function"]["arguments"] += fragment["function"].get("arguments") or ""
    if calls:
        message["tool_calls"] = [calls[index] for index in sorted(calls)]
    return message


def _calls_by_arrival(chunks):
    """A fragment goes to the last call opened: right until two calls stream at once."""
    message, calls = _assemble_right(chunks), []
    for chunk in chunks:
        for choice in chunk["choices"]:
            for fragment in choice["delta"].get("tool_calls") or []:
                if "id" in fragment:
                    name = fragment["function"]["name"]
                    calls.append(
                        {
                            "id": fragment["id"],
                            "type": "function",
                            "function": {"name": name, "arguments": ""},
                        }
                    )
                calls[-1]["function"]["arguments"] += fragment["function"].get("arguments", "")
    message.pop("tool_calls", None)
    if calls:
        message["tool_calls"] = calls
    return message


def _calls_in_the_order_first_seen(chunks):
    message, order = _assemble_right(chunks), []
    for chunk in chunks:
        for choice in chunk["choices"]:
            order += [f["index"] for f in choice["delta"].get("tool_calls") or [] if "id" in f]
    if order:
        message["tool_calls"] = [message["tool_calls"][index] for index in order]
    return message


def _arguments_parsed(chunks):
    message = _assemble_right(chunks)
    for call in message.get("tool_calls", []):
        call["function"]["arguments"] = json.loads(call["function"]["arguments"])
    return message


def _content_none_added(chunks):
    message = {"role": "assistant", "content": ""}
    for chunk in chunks:
        for choice in chunk["choices"]:
            if "content" in choice["delta"]:
                message["content"] += choice["delta"]["content"]
    return message


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_first_choice_always, "case 1 of 6", "raised IndexError"),
        (_every_fragment_overwrites, "case 2 of 6", "tool call 0's id is None"),
        (_content_none_added, "case 2 of 6", "raised TypeError"),
        (_arguments_parsed, "case 2 of 6", "they stay one JSON string"),
        (_calls_by_arrival, "case 4 of 6", "not valid JSON"),
        (_calls_in_the_order_first_seen, "case 6 of 6", "tool call 0's id is 'call_D4'"),
    ],
)
def test_07_1_wrong_assemblers_are_refused_on_the_stream_that_shows_it(fn, case, why):
    """Walk c5 (07.1 scored 3 as the SDK's code transcribed): the core now builds what a learner
    owns once the SDK is dropped; each wrong assembler is refused on the hidden stream that
    shows its mistake, with why, and never shown code."""
    result = ex07.check_assemble(fn)
    assert not result and case in result.message and why in result.message, result.message
    assert "def " not in result.message and "setdefault" not in result.message


def test_07_1_the_hidden_streams_are_what_the_non_streamed_reply_holds():
    """The judge's expected messages are the streams' own: the series' assembler, on the same
    chunks as SSE bytes, gives each case's message (so the hidden cases cannot drift)."""
    from helpers import sse
    from helpers.formats import parse_response

    for case in ex07.assemble_cases():
        (chunks,) = case.args
        raw = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
        ours = sse.assemble(raw, "openai-chat").message
        mine = _assemble_right(chunks)
        whole = {"choices": [{"index": 0, "message": mine, "finish_reason": "stop"}]}
        whole |= {"id": "x", "object": "chat.completion", "model": "gpt-4o-mini"}
        assert parse_response(whole, "openai-chat").message == ours, case.name
        assert case.judge(mine) is None, case.name


def _walk_c6_assemble(chunks):
    """Walk c6's accepted answer, verbatim in effect: ``content`` starts as "" and
    ``tool_calls`` is always a list, empty on a text-only stream."""
    content, calls = "", {}
    for chunk in chunks:
        for choice in chunk["choices"]:
            d = choice["delta"]
            content += d.get("content") or ""
            for tc in d.get("tool_calls") or []:
                call = calls.setdefault(
                    tc["index"],
                    {"id": None, "type": "function", "function": {"name": "", "arguments": ""}},
                )
                if tc.get("id"):
                    call["id"] = tc["id"]
                fn = tc.get("function", {})
                call["function"]["name"] += fn.get("name") or ""
                call["function"]["arguments"] += fn.get("arguments") or ""
    return {
        "role": "assistant",
        "content": content,
        "tool_calls": [calls[i] for i in sorted(calls)],
    }


def _walk_c6_without_the_empty_list(chunks):
    """The same, the empty list left out: still content "" where no text came."""
    message = _walk_c6_assemble(chunks)
    if not message["tool_calls"]:
        del message["tool_calls"]
    return message


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_walk_c6_assemble, "case 1 of 6", "empty array. Expected an array with minimum length 1"),
        (_walk_c6_without_the_empty_list, "case 2 of 6", "holds None there"),
    ],
)
def test_07_1_walk_c6_a_message_openai_refuses_is_refused(fn, case, why):
    """Walk c6 (finding 1): tool_calls: [] on a text-only stream is OpenAI's 400 when the
    message goes back (openai/openai-python#2061, home-assistant/core#118577); content "" where
    the non-streamed reply holds None is not that reply."""
    result = ex07.check_assemble(fn)
    assert not result and case in result.message and why in result.message, result.message


# ---- walk 04-07 c6 fixes ----------------------------------------------------------------------


def _c6_reference(request, when):
    """Walk c6's accepted answer (and the old reference): tools in one order, the stamp as a
    trailing user message, and nothing said about breakpoints."""
    return replace(
        request,
        tools=_by_name(request),
        messages=[*request.messages, user(f"Current time: {when}")],
    )


def test_06_1_walk_c6_a_trailing_stamp_reads_nothing_where_the_cache_writes_at_breakpoints(
    triage_requests,
):
    """Walk c6 finding 2, checked: with the stamp last and the lesson's breakpoints (Claude) or
    OpenAI's implicit one (gpt-6-luna), nothing written is ever read again."""
    from helpers.cost import project_ticket
    from helpers.models import current_model

    stamped = [_c6_reference(r, w) for r, w in zip(triage_requests, ex06.TIMES, strict=False)]
    for name, marks in ((current_model("openai"), None), (CLAUDE, ["tools", "system", "last"])):
        ticket = project_ticket([replace(r, model=name) for r in stamped], name, breakpoints=marks)
        assert sum(t.cached_tokens for t in ticket.turns) == 0, name


@pytest.mark.parametrize(
    ("marks", "why"),
    [
        (["tools", "system", "last"], "marked ['tools', 'system', 'last']"),
        ([], "marked []"),
    ],
)
def test_06_1_walk_c6_a_breakpoint_on_the_stamp_is_refused_under_the_breakpoint_rule(
    marks, why, triage_requests
):
    def prepare(request, when):
        return _c6_reference(request, when), list(marks)

    result = ex06.check_prepare(prepare, triage_requests, MODEL)
    assert not result and "case 1 of 3" in result.message
    assert f"under {CLAUDE}'s cache rule" in result.message and why in result.message
    assert "writes only at breakpoints" in result.message, result.message
    assert "messages[" not in result.message.split("marked")[0]  # the place is the learner's


def test_06_1_the_request_alone_is_refused_for_what_it_lacks(triage_requests):
    result = ex06.check_prepare(_c6_reference, triage_requests, MODEL)
    assert not result and "returned a Request" in result.message
    assert "the list of parts to mark" in result.message


def test_06_1_the_last_kept_message_marked_alone_passes_under_every_rule(triage_requests):
    """Another right answer: any tool order of its own, one breakpoint, on the last message
    before the stamp (OpenAI's implicit one and Anthropic's earlier writes do the rest)."""

    def prepare(request, when):
        tools = sorted(request.tools, key=lambda t: t.description)
        kept = f"messages[{len(request.messages) - 1}]"
        return replace(request, tools=tools, messages=[*request.messages, user(when)]), [kept]

    result = ex06.check_prepare(prepare, triage_requests, MODEL)
    assert result, result.message
    assert "under automatic prefixes and under breakpoints alike" in result.message


# ---- walk 04-07 c7 fixes ----------------------------------------------------------------------


def _pick_sorted(request, wanted, catalogue, budget):
    """Walk c7 (05.1) finding 1, the walker's code: an accepted pick, then sorted by name."""
    r, left = _pick_right(request, wanted, catalogue, budget)
    return replace(r, tools=sorted(r.tools, key=lambda t: t.name)), left


def test_05_1_walk_c7_a_pick_sorted_by_name_is_refused_for_the_order_the_task_states():
    """The task now states the catalogue's order; the refusal names that order as the task's."""
    nb = json.loads(
        (
            Path(__file__).resolve().parents[2] / "notebooks" / "05_tools_are_context.ipynb"
        ).read_text()
    )
    task = next(
        "".join(c["source"]) for c in nb["cells"] if "pick_tools(request" in "".join(c["source"])
    )
    assert "in the catalogue's order" in task
    result = ex05.check_pick_tools(_pick_sorted)
    assert not result and "the task fixes one order" in result.message, result.message
