"""The build exercises of lessons 01-03 (issue 33): each refuses plausible wrong code, naming
the hidden case it fails and why, and accepts right code written in more than one way.

01.2 ``next_body`` is judged against a real stand-in on loopback (the provider refuses what
OpenAI refuses); 02.2 ``system_text`` and 03.2 ``handle_reply`` on hidden bodies and replies.
The predictions' explanations are computed from the data, never typed in."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from course import exercises
from course.exercises import content_is_a_list as ex03
from course.exercises import four_roles as ex02
from course.exercises import one_request as ex01
from standin import LocalProvider

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def fresh_hints():
    exercises.reset()
    yield
    exercises.reset()


# ---- 01.2: next_body(body, reply, run) -------------------------------------------------------


@pytest.fixture(scope="module")
def provider():
    with LocalProvider(scenario="sundry") as p:
        yield p


def _answers(message: dict, run, parse=json.loads) -> list[dict]:
    return [
        {
            "role": "tool",
            "tool_call_id": call["id"],
            "content": run(call["function"]["name"], parse(call["function"]["arguments"])),
        }
        for call in message.get("tool_calls") or []
    ]


def _spread(body, reply, run):  # the reference's way: a new dict around a new list
    message = reply["choices"][0]["message"]
    return {**body, "messages": [*body["messages"], message, *_answers(message, run)]}


def _deep_copy(body, reply, run):  # another right way: copy everything, then append
    new = copy.deepcopy(body)
    message = reply["choices"][0]["message"]
    new["messages"].append(message)
    new["messages"].extend(_answers(message, run))
    return new


def test_01_2_two_right_ways_pass_against_the_stand_in(provider):
    for right in (_spread, _deep_copy):
        verdict = ex01.check_next_body(right, provider)
        assert verdict, verdict.message
        assert "All 3 hidden cases passed" in verdict.message


def test_01_2_appending_to_the_callers_body_is_refused(provider):
    def in_place(body, reply, run):
        message = reply["choices"][0]["message"]
        body["messages"] += [message, *_answers(message, run)]
        return body

    told = ex01.check_next_body(in_place, provider)
    assert not told and "case 1 of 3 (one call, with narration)" in told.message
    assert "changed the body it was given" in told.message


def test_01_2_answering_only_the_first_call_is_refused_on_the_parallel_case(provider):
    def first_only(body, reply, run):
        message = reply["choices"][0]["message"]
        return {**body, "messages": [*body["messages"], message, *_answers(message, run)[:1]]}

    told = ex01.check_next_body(first_only, provider)
    assert not told and "case 2 of 3 (two calls at once and content null)" in told.message
    assert "the provider refused it (400)" in told.message and "call_Hq41" in told.message


def test_01_2_arguments_passed_as_the_wire_string_are_refused(provider):
    def unparsed(body, reply, run):
        message = reply["choices"][0]["message"]
        answers = _answers(message, run, parse=lambda text: text)
        return {**body, "messages": [*body["messages"], message, *answers]}

    told = ex01.check_next_body(unparsed, provider)
    assert not told and "received its arguments as a str" in told.message


def test_01_2_sending_only_the_new_messages_is_refused(provider):
    def only_new(body, reply, run):
        message = reply["choices"][0]["message"]
        return {**body, "messages": [body["messages"][0], message, *_answers(message, run)]}

    told = ex01.check_next_body(only_new, provider)
    assert not told and "does not start with the 2 messages sent before" in told.message


# ---- 02.2: system_text(body, format) ---------------------------------------------------------


def _system_text(join):
    def system_text(body, format):
        def text(value):
            return value if isinstance(value, str) else join(value)

        if format == "openai-chat":
            return text(body["messages"][0]["content"])
        if format == "openai-responses":
            return body.get("instructions") or joined(body["input"][0]["content"])
        if format == "anthropic":
            return text(body["system"])
        return text(body["systemInstruction"]["parts"])

    return system_text


def test_02_2_two_right_joins_pass_a_list_of_parts_is_refused():
    assert ex02.check_system_text(_system_text(lambda v: "".join(p["text"] for p in v)))
    assert ex02.check_system_text(_system_text(lambda v: " ".join(p["text"] for p in v)))
    told = ex02.check_system_text(_system_text(lambda v: v))  # Gemini's parts are a list already
    assert not told and "case 4 of 7 (a gemini body of another conversation" in told.message
    assert "the shape that holds the prompt, not the prompt's text" in told.message


# ---- 03.2: handle_reply(content) ---------------------------------------------------------------


def _texts(content):
    return [b["text"] for b in content if b["type"] == "text"]


def _by_match(content):
    to_show, to_run = [], []
    for block in content:
        match block:
            case {"type": "text", "text": text}:
                to_show.append(text)
            case {"type": "tool_use"}:
                to_run.append(block)
    return to_show, to_run


def _by_table(content):  # another right way: a table of handlers, unknown types skipped
    shown, run = [], []
    handlers = {"text": lambda b: shown.append(b["text"]), "tool_use": run.append}
    for block in content:
        handlers.get(block["type"], lambda b: None)(block)
    return tuple(shown), tuple(run)


def test_03_2_two_right_handlers_pass():
    for right in (_by_match, _by_table):
        verdict = ex03.check_reply_handler(right)
        assert verdict and "All 6 hidden cases passed" in verdict.message


@pytest.mark.parametrize(
    ("wrong", "case", "why"),
    [
        (  # a type that merely ends in tool_use: the server tool would run again
            lambda c: (_texts(c), [b for b in c if b["type"].endswith("tool_use")]),
            "case 5 of 6 (a server tool Anthropic already ran, then a call of yours)",
            "Anthropic already ran that one",
        ),
        (  # the first call only, as a loop that stops at the first tool_use
            lambda c: (_texts(c), [b for b in c if b["type"] == "tool_use"][:1]),
            "case 1 of 6 (reasoning, narration and two parallel calls)",
            "it runs 1 of the reply's 2 call(s)",
        ),
        (  # everything that is not a call is shown: the reasoning, and the unknown block
            lambda c: (
                [b.get("text", b.get("thinking")) for b in c if b["type"] != "tool_use"],
                [b for b in c if b["type"] == "tool_use"],
            ),
            "case 1 of 6 (reasoning, narration and two parallel calls)",
            "the buyer would read the model's reasoning",
        ),
        (  # every other block read as text: a block of a new type breaks it
            lambda c: (
                [b["text"] for b in c if b["type"] not in ("tool_use", "thinking")],
                [b for b in c if b["type"] == "tool_use"],
            ),
            "case 4 of 6 (a block of a type your code has never seen)",
            "raised KeyError",
        ),
    ],
)
def test_03_2_plausible_wrong_handlers_are_refused_naming_the_case(wrong, case, why):
    told = ex03.check_reply_handler(wrong)
    assert not told and case in told.message and why in told.message, told.message


# ---- predictions: explained from the data ------------------------------------------------------


def test_the_predictions_explanations_are_computed_from_the_data():
    from helpers.formats import render_for
    from helpers.messages import load_file
    from helpers.tokens.harmony import render_harmony

    crash = load_file(ROOT / "data" / "crash_triage" / "request.json")
    kinds = [i.get("type", "message") for i in render_for(crash, "openai-responses").body["input"]]
    why = ex03.responses_items_why(crash)
    assert f"{kinds.count('function_call')} function_call items" in why
    assert f"{kinds.count('message')} message items" in why
    shorter = copy.deepcopy(crash)
    shorter.messages = shorter.messages[:4]  # one round trip fewer: the explanation follows
    assert f"{len(shorter.messages)} neutral messages" in ex03.responses_items_why(shorter)

    from helpers.examples import sundry
    from helpers.models import default_model

    ticket = sundry.ticket(default_model("anthropic"))
    pieces = render_harmony(ticket).pieces
    markers = sum(p.startswith("<|") and p.endswith("|>") for p in pieces)
    assert ex02.markers_why(ticket).startswith(f"{markers} of its {len(pieces)} tokens")
