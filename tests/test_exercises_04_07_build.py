"""The build exercises of lessons 04-07: each check refuses plausible wrong implementations,
naming the hidden case that failed and why, and accepts right ones written differently.

Cheap by design: the hidden cases are built in memory (no provider run) except where the real
SDK is the judge (07), which talks to a local provider on loopback.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from course import exercises
from course.exercises import array_is_rebuilt as ex04
from course.exercises import caching_the_prefix as ex06
from course.exercises import tools_are_context as ex05
from course.exercises import what_the_sdk_adds as ex07
from helpers.messages import Message, Request, Text, assistant, system, tool, user
from helpers.models import default_model

MODEL = default_model("openai")


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


def _stamp_after(request, when):
    return replace(
        request,
        tools=_by_name(request),
        messages=[*request.messages, user(f"Current time: {when}")],
    )


def _stamp_as_a_late_user_block(request, when):
    tools = sorted(request.tools, key=lambda t: t.description)  # any order of its own
    fresh = Request(request.model, list(request.messages), tools, request.tool_choice)
    fresh.max_tokens = request.max_tokens
    fresh.messages.append(Message("user", [Text("Current time: " + when)]))
    return fresh


@_settled
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
def _time_on_top(request, when):
    policy = system(f"Current time: {when}\n{request.messages[0].text}")
    return replace(request, messages=[policy, *request.messages[1:]])


@_settled
def _time_at_the_end_of_the_system_prompt(request, when):
    policy = system(f"{request.messages[0].text}\nCurrent time: {when}")
    return replace(request, messages=[policy, *request.messages[1:]])


@_settled
def _time_in_the_last_message(request, when):
    last = request.messages[-1]
    stamped = Message(last.role, [*last.content, Text(f"Current time: {when}")])
    return replace(request, messages=[*request.messages[:-1], stamped])


@_settled
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
    def in_the_task(request, when):
        task = user(f"Current time: {when}\n{request.messages[1].text}")
        return replace(request, messages=[request.messages[0], task, *request.messages[2:]])

    result = ex06.check_prepare(in_the_task, triage_requests, MODEL)
    assert not result and "breaks in messages[1]" in result.message


# ---- 07.1 retry_delay -------------------------------------------------------------------------


def _hint(headers):
    if "retry-after-ms" in headers:
        return float(headers["retry-after-ms"]) / 1000
    if "retry-after" in headers:
        return float(headers["retry-after"])
    return None


def _retry_right(status, headers, retries_done, max_retries=2):
    hint = _hint(headers)
    if retries_done >= max_retries or (hint is not None and hint > 120):
        return None
    verdict = headers.get("x-should-retry")
    if verdict == "false" or (verdict != "true" and status not in (408, 409, 429) and status < 500):
        return None
    return hint if hint is not None and hint > 0 else min(0.5 * 2**retries_done, 8)


RETRIED = {408, 409, 429} | set(range(500, 600))


def _retry_right_other_way(status, headers, retries_done, max_retries):
    """Same decision, written as a table of overrides, giving the jittered low end."""
    wait = _hint(headers)
    overrules = {"true": True, "false": False}.get(headers.get("x-should-retry", ""))
    retry = (
        retries_done < max_retries
        and not (wait is not None and wait > 120)
        and (overrules if overrules is not None else status in RETRIED)
    )
    if not retry:
        return False
    return wait if wait and wait > 0 else 0.75 * min(0.5 * 2**retries_done, 8)


@pytest.mark.parametrize("fn", [_retry_right, _retry_right_other_way])
def test_07_1_the_sdks_retry_decision_written_two_ways_passes(fn):
    result = ex07.check_retry(fn)
    assert result, result.message
    assert "All 19 hidden cases passed" in result.message


def _status_only(status, headers, retries_done, max_retries):
    if retries_done < 2 and (status in RETRIED):
        return 0.5 * 2**retries_done
    return None


def _milliseconds_read_as_seconds(status, headers, retries_done, max_retries):
    seconds = {**headers}
    if "retry-after-ms" in seconds:
        seconds["retry-after"] = seconds.pop("retry-after-ms")
    return _retry_right(status, seconds, retries_done)


def _no_limit_on_retries(status, headers, retries_done, max_retries):
    return _retry_right(status, headers, 0 if retries_done >= 2 else retries_done)


def _every_error_retried(status, headers, retries_done, max_retries):
    return _retry_right(500 if status < 500 else status, headers, retries_done)


def _no_backoff(status, headers, retries_done, max_retries):
    return _retry_right(status, headers, retries_done) and (_hint(headers) or 0.5)


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_status_only, "case 2 of 19", "the SDK waits 0.25 s"),
        (_milliseconds_read_as_seconds, "case 2 of 19", "the SDK tries again here"),
        (_no_backoff, "case 3 of 19", "between 0.75 and 1 s"),
        (_every_error_retried, "case 4 of 19", "the SDK gives up here"),
        (_no_limit_on_retries, "case 10 of 19", "the SDK gives up here"),
    ],
)
def test_07_1_wrong_retry_decisions_are_refused_on_the_case_that_shows_it(fn, case, why):
    result = ex07.check_retry(fn)
    assert not result and case in result.message and why in result.message, result.message


def test_07_1_the_judge_reads_the_sdks_own_backoff():
    """The range the check accepts is where the installed SDK's own wait falls."""
    import httpx
    import openai
    from openai._models import FinalRequestOptions

    client = openai.OpenAI(base_url="http://127.0.0.1:9/v1", api_key="unused")
    options = FinalRequestOptions.construct(method="post", url="/chat/completions")
    for done in (0, 1):
        low, high = ex07.sdk_retry(503, {}, done)
        waits = [
            client._calculate_retry_timeout(client.max_retries - done, options, httpx.Headers())
            for _ in range(50)
        ]
        assert all(low <= w <= high for w in waits) and max(waits) - min(waits) > 0
    assert ex07.sdk_retry(429, {"retry-after-ms": "250"}, 0) == (0.25, 0.25)
    assert ex07.sdk_retry(400, {}, 0) is None


def test_07_1_a_blank_body_is_not_answered_but_a_function_that_gives_up_everywhere_is_wrong():
    def blank(status, headers, retries_done, max_retries): ...

    assert "not answered yet" in ex07.check_retry(blank).message
    told = ex07.check_retry(lambda status, headers, done, most: False)
    assert not told and "case 1 of 19" in told.message and "tries again" in told.message


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


def test_07_1_the_judge_agrees_with_what_the_sdk_does_on_the_wire():
    """Two answers from a local provider on loopback: the SDK retries the one the judge says it
    retries (after the hinted wait) and raises on the one the judge says it gives up on."""
    import time

    import openai

    from helpers.examples import sundry
    from helpers.formats import render
    from standin import LOCAL_KEY, LocalProvider, RateLimited, ServerError

    with LocalProvider("sundry") as p:
        client = openai.OpenAI(base_url=p.base_url("openai"), api_key=LOCAL_KEY)
        body = render(sundry.opening(MODEL), "openai-chat").body
        p.inject(RateLimited(retry_after=0.01, retry_after_ms=250))
        started = time.monotonic()
        client.chat.completions.create(**body)
        waited = time.monotonic() - started
        first = p.recorder.exchanges[-2]
        headers = {k.lower(): v for k, v in first.response_headers if k.lower().startswith("retry")}
        low, high = ex07.sdk_retry(first.status, headers, 0)
        assert [e.status for e in p.recorder.exchanges[-2:]] == [429, 200]
        assert low == high == 0.25 and waited >= low
        p.recorder.clear()
        p.inject(ServerError(400))
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(**body)
        assert [e.status for e in p.recorder] == [400]
        assert ex07.sdk_retry(400, {}, 0) is None


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


def _stamp_only(request, when):
    return replace(request, messages=[*request.messages, user(f"Current time: {when}")])


def _sorted_in_place(request, when):
    request.tools.sort(key=lambda t: t.name)
    return _stamp_after(request, when)


def _fewer_tools(request, when):
    return replace(_stamp_after(request, when), tools=_by_name(request)[:3])


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


# ---- 07.2 send_once ---------------------------------------------------------------------------


def _send_right(client, body):
    import openai

    try:
        return client.with_options(max_retries=0).chat.completions.create(**body)
    except openai.RateLimitError as error:
        headers = error.response.headers
        if "retry-after-ms" in headers:
            return float(headers["retry-after-ms"]) / 1000
        return float(headers["retry-after"])


def _send_right_other_way(client, body):
    """A copied client, the status read off the error, every other error re-raised."""
    import openai

    try:
        return client.copy(max_retries=0).chat.completions.create(**body)
    except openai.APIStatusError as error:
        if error.status_code != 429:
            raise
        ms = error.response.headers.get("retry-after-ms")
        return int(ms) / 1000 if ms else float(error.response.headers["retry-after"])


@pytest.mark.parametrize("fn", [_send_right, _send_right_other_way])
def test_07_2_one_call_with_the_429_answered_written_two_ways_passes(fn):
    result = ex07.check_send_once(fn)
    assert result, result.message
    assert "All 5 hidden cases passed" in result.message


def _send_with_the_sdks_retries(client, body):
    return client.chat.completions.create(**body)


def _send_catching_every_error(client, body):
    import openai

    try:
        return client.with_options(max_retries=0).chat.completions.create(**body)
    except openai.APIStatusError as error:
        headers = error.response.headers
        ms = headers.get("retry-after-ms")
        return float(ms) / 1000 if ms else float(headers.get("retry-after", 0))


def _send_reading_seconds_only(client, body):
    import openai

    try:
        return client.with_options(max_retries=0).chat.completions.create(**body)
    except openai.RateLimitError as error:
        return float(error.response.headers["retry-after"])


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_send_with_the_sdks_retries, "case 2 of 5", "the SDK retried on its own"),
        (_send_reading_seconds_only, "case 2 of 5", "the server asked for 0.25 s"),
        (_send_catching_every_error, "case 4 of 5", "the caller should get the SDK's own"),
    ],
)
def test_07_2_wrong_senders_are_refused_on_the_case_that_shows_it(fn, case, why):
    result = ex07.check_send_once(fn)
    assert not result and case in result.message and why in result.message, result.message
    assert "with_options" not in result.message and "max_retries" not in result.message


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


def test_07_1_the_older_sdks_60_second_limit_is_refused_on_a_90_second_hint():
    """Walk 04-07b finding 3: giving up on any hint over 60 s (older SDKs) is told apart."""

    def sixty(status, headers, retries_done, max_retries):
        hint = _hint(headers)
        return (
            None if hint is not None and hint > 60 else _retry_right(status, headers, retries_done)
        )

    told = ex07.check_retry(sixty)
    assert not told and "case 12 of 19" in told.message
    assert "waits the 90 s the server asked for" in told.message


def test_04_1_results_sorted_by_id_are_refused_where_the_ids_do_not_sort_in_call_order():
    """Walk 04-07c finding 1: sorting the results by their ids is not the calls' order; case 5's
    calls are toolu_03, toolu_01, toolu_02."""

    def sorted_by_id(request, reply, results):
        tail = [Message("tool", sorted(results, key=lambda r: r.call_id))] if results else []
        return replace(request, messages=[*request.messages, reply.message, *tail])

    result = ex04.check_next_request(sorted_by_id)
    assert not result and "case 5 of 5" in result.message
    assert "not in the order of the calls" in result.message


def _seconds_hint_first(status, headers, retries_done, max_retries):
    swapped = {k: v for k, v in headers.items() if k != "retry-after-ms"}
    if "retry-after" not in headers:
        swapped = headers
    return _retry_right(status, swapped, retries_done)


def _server_verdict_first(status, headers, retries_done, max_retries):
    if retries_done < 2 and headers.get("x-should-retry") == "true":
        return _hint(headers) or 0.5 * 2**retries_done
    return _retry_right(status, headers, retries_done)


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_seconds_hint_first, "case 13 of 19", "the SDK waits 0.25 s"),
        (_server_verdict_first, "case 14 of 19", "the SDK gives up here"),
    ],
)
def test_07_1_the_order_of_the_headers_is_judged_where_two_disagree(fn, case, why):
    """Walk 04-07c finding 3: both hint headers with different values, and a server's "retry"
    with a wait over the SDK's limit, judged against the installed SDK."""
    result = ex07.check_retry(fn)
    assert not result and case in result.message and why in result.message, result.message


_sorted_by_name = _reordered(lambda request, wanted, tools: sorted(tools, key=lambda t: t.name))


def _settings_dropped(request, wanted, catalogue, budget):
    picked, left_out = _pick_right(request, wanted, catalogue, budget)
    return Request(request.model, request.messages, picked.tools), left_out


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_sorted_by_name, "case 1 of 11", "only the catalogue's order is the same"),
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


def _report_c4_retry(status, headers, retries_done, max_retries):
    """Walk c4 finding 1, the walker's code with the client's max_retries for its 2."""
    if retries_done >= max_retries:
        return None
    h = (
        float(headers["retry-after-ms"]) / 1000
        if "retry-after-ms" in headers
        else (float(headers["retry-after"]) if "retry-after" in headers else None)
    )
    if h is not None and h > 120:
        return None
    v = headers.get("x-should-retry")
    if v == "false":
        return None
    if v != "true" and not (status in (408, 409, 429) or status >= 500):
        return None
    return h if h is not None else 0.5 * 2**retries_done  # honours a 0 (or negative) hint


def _uncapped_backoff(status, headers, retries_done, max_retries):
    got = _retry_right(status, headers, retries_done, max_retries)
    return 0.5 * 2**retries_done if got == 8 else got


def _two_retries_always(status, headers, retries_done, max_retries):
    return _retry_right(status, headers, retries_done)


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_report_c4_retry, "case 15 of 19", "the server's own hint"),
        (_uncapped_backoff, "case 18 of 19", "your function waits 16.0 s"),
        (_two_retries_always, "case 17 of 19", "your function gave None"),
    ],
)
def test_07_1_a_hint_of_zero_the_backoffs_cap_and_the_clients_max_retries_are_judged(fn, case, why):
    """Walk c4 finding 1: a 0 (or negative) hint is not honoured by the SDK; the lifted task
    adds the client's max_retries, and with it the backoff's 8 s cap."""
    result = ex07.check_retry(fn)
    assert not result and case in result.message and why in result.message, result.message
    assert "def " not in result.message and "min(" not in result.message


def test_07_1_the_judge_agrees_with_the_sdk_on_a_zero_hint_and_the_cap():
    import httpx
    import openai
    from openai._models import FinalRequestOptions

    options = FinalRequestOptions.construct(method="post", url="/chat/completions")
    client = openai.OpenAI(base_url="http://127.0.0.1:9/v1", api_key="unused", max_retries=6)
    zero = httpx.Headers({"retry-after-ms": "0"})
    capped = [client._calculate_retry_timeout(1, options, httpx.Headers()) for _ in range(30)]
    assert all(6 <= w <= 8 for w in capped) and ex07.sdk_retry(500, {}, 5, 6) == (6.0, 8.0)
    zeros = [client._calculate_retry_timeout(6, options, zero) for _ in range(30)]
    assert all(0.375 <= w <= 0.5 for w in zeros)
    assert ex07.sdk_retry(429, {"retry-after-ms": "0"}, 0) == (0.375, 0.5)
    assert ex07.sdk_retry(500, {}, 5, 5) is None


def test_07_sdk_source_prints_the_sdks_three_methods_without_its_logging():
    code = ex07.sdk_source()
    for name in ("_should_retry", "_parse_retry_after_header", "_calculate_retry_timeout"):
        assert f"def {name}(" in code
    assert "log.debug" not in code and "MAX_RETRY_DELAY = 8.0" in code


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
