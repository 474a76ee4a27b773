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
        messages.append(tool(*results))
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
        new.messages.append(Message("tool", list(results)))
    return new


@pytest.mark.parametrize("fn", [_next_right, _next_right_other_way])
def test_04_1_right_next_requests_written_two_ways_pass(fn):
    result = ex04.check_next_request(fn)
    assert result, result.message
    assert "all 4 hidden cases passed" in result.message


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
    return _next_right(request, replace(reply, message=assistant(reply.message.text)), results)


def _loses_the_settings(request, reply, results):
    return Request(request.model, _next_right(request, reply, results).messages, request.tools)


def _restarts_from_the_task(request, reply, results):
    return _next_right(replace(request, messages=request.messages[:2]), reply, results)


@pytest.mark.parametrize(
    ("fn", "case", "why"),
    [
        (_appends_in_place, "case 1 of 4", "changed the request it was given"),
        (_keeps_the_text_only, "case 1 of 4", "not the model's reply as it came back"),
        (_restarts_from_the_task, "case 2 of 4", "does not start with all 4 messages"),
        (_one_message_per_result, "case 3 of 4", "one tool message right after it"),
        (_drops_failed_results, "case 3 of 4", "failed ones too"),
        (_loses_the_settings, "case 3 of 4", "max_tokens differ"),
        (_always_a_tool_message, "case 4 of 4", "the request ends with the reply"),
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
        return _next_right(request, reply, renamed)

    result = ex04.check_next_request(wrong_ids)
    assert not result and "case 1 of 4" in result.message
    assert "the tool message does not hold" in result.message or "would refuse" in result.message


# ---- 06.2 stamp -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def triage_requests():
    """The crash-triage run's requests, as lesson 06 parses them (one local run, ~2 s)."""
    from helpers.examples import crash_triage
    from helpers.formats import parse
    from helpers.loop import run
    from standin import LocalProvider

    with LocalProvider(scenario="crash-triage") as p:
        workspace = crash_triage.Workspace()
        trace = run(
            crash_triage.opening(MODEL),
            lambda call: crash_triage.run_tool(call, workspace),
            format="openai-chat",
            base_url=p.url,
            finish=crash_triage.FINISH,
        )
    return [parse(step.request_body, "openai-chat") for step in trace.steps]


def _stamp_after(request, when):
    return replace(request, messages=[*request.messages, user(f"Current time: {when}")])


def _stamp_as_a_late_system_line(request, when):
    fresh = Request(request.model, list(request.messages), request.tools, request.tool_choice)
    fresh.max_tokens = request.max_tokens
    fresh.messages.append(Message("system", [Text("Current time: " + when)]))
    return fresh


@pytest.mark.parametrize("fn", [_stamp_after, _stamp_as_a_late_system_line])
def test_06_2_stamps_after_everything_written_two_ways_pass(fn, triage_requests):
    result = ex06.check_stamp(fn, triage_requests, MODEL)
    assert result, result.message
    assert "all 3 hidden cases passed" in result.message


def _time_on_top(request, when):
    policy = system(f"Current time: {when}\n{request.messages[0].text}")
    return replace(request, messages=[policy, *request.messages[1:]])


def _time_at_the_end_of_the_system_prompt(request, when):
    policy = system(f"{request.messages[0].text}\nCurrent time: {when}")
    return replace(request, messages=[policy, *request.messages[1:]])


def _time_in_the_last_message(request, when):
    last = request.messages[-1]
    stamped = Message(last.role, [*last.content, Text(f"Current time: {when}")])
    return replace(request, messages=[*request.messages[:-1], stamped])


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
def test_06_2_wrong_stamps_are_refused_with_where_the_cache_broke(fn, why, triage_requests):
    result = ex06.check_stamp(fn, triage_requests, MODEL)
    assert not result and "case 1 of 3" in result.message
    assert why in result.message, result.message


def test_06_2_a_stamp_in_the_users_first_message_breaks_the_conversation_case(triage_requests):
    """The task message comes right after tools and system prompt: stamping it leaves too
    short a prefix for OpenAI's minimum on every ticket."""

    def in_the_task(request, when):
        task = user(f"Current time: {when}\n{request.messages[1].text}")
        return replace(request, messages=[request.messages[0], task, *request.messages[2:]])

    result = ex06.check_stamp(in_the_task, triage_requests, MODEL)
    assert not result and "breaks in messages[1]" in result.message
