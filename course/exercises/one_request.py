"""Used in lessons: 01.

Exercises of notebooks/01_one_request.ipynb: read what the local provider recorded."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from course.exercises import (
    Case,
    Exercise,
    Result,
    check_cases,
    check_text,
    check_value,
    not_answered,
    not_yet,
)

EX1 = Exercise(
    "01.1",
    look="the headers of the two requests side by side, as the dump under 'What went over the "
    "wire' prints them: `first_exchange` and `second_exchange` hold the same lists of "
    "(name, value) pairs.",
    idea="the two requests went to the same place with the same client and the same key; only "
    "the body changed. One header's value is computed from the body itself.",
    example="a request whose body grows from 10 bytes to 25 changes exactly one header, by 15.",
)
EX2 = Exercise(
    "01.2",
    look="the cell under 'The answer is one more message' that answered the first call: what it "
    "took from the reply, what it appended to the list, and in what shape.",
    idea="the provider keeps nothing: the next request is the whole conversation so far, then the "
    "reply as it came, then one answer per call, each tied to its call by the call's id. On the "
    "wire the arguments are a JSON string; a tool needs them as data.",
    example="a body of 2 messages and a reply with two calls give a body of 5 messages: the 2, "
    "the reply's message, then one tool message per call, in the calls' order; the 2-message "
    "body itself stays as it was.",
)
EX3 = Exercise(
    "01.3",
    look="the dump under 'What went over the wire': which line carries the key, and which part of "
    "the cell under 'Send it' put it there.",
    idea="the server can only refuse a request that really arrived without its key; the check "
    "reads the answer to such a request (the response object, not its text).",
    example="a curl call to the same URL with the body but no authorization header gets the same "
    "refusal as yours should.",
)


def check_changed_header(answer: str, first: Any, second: Any) -> Result:
    """The header(s) whose value differs between two recorded requests (any letter case)."""
    names = [k for k, _ in second.request_headers]
    changed = [k.lower() for k in names if first.header(k) != second.header(k)]
    expected = changed[0] if changed else "(none)"
    return check_text(
        answer,
        expected,
        EX1,
        spellings=changed[1:],
        ignore_case=True,  # HTTP header names are case-insensitive (RFC 9110, section 5.1)
        success=(
            f"Right: {expected}, {first.header(expected)} -> {second.header(expected)} bytes. "
            "Same path, same client, same key: only the body grew, by the two messages you "
            "appended."
        ),
    )


def _blank_or_not_a_response(answer: Any, exercise: Any) -> Result | None:
    """What to say when ``answer`` is still blank or is not what ``httpx.post`` returned."""
    if not_answered(answer):
        return check_value(answer, None, exercise, success="")
    if getattr(answer, "status_code", None) is None:
        return not_yet(
            exercise,
            f"{type(answer).__name__} is not an HTTP response; pass what httpx.post returned",
        )
    return None


# ---- 01.2: the next request, as a function ------------------------------------------------------


def _call(id: str, name: str, arguments: dict) -> dict:
    text = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
    return {"id": id, "type": "function", "function": {"name": name, "arguments": text}}


def _reply(content: str | None, *calls: dict) -> dict:
    """A Chat Completions reply as the provider sends it (the fields a real one carries)."""
    message = {"role": "assistant", "content": content, "refusal": None, "annotations": []}
    message["tool_calls"] = list(calls)
    choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": "tool_calls"}
    return {"id": "chatcmpl-hidden", "object": "chat.completion", "choices": [choice]}


def _output(name: str, arguments: Any) -> str:
    """What the check's tools return: a short text naming the tool and what it was given."""
    given = (
        ", ".join(sorted(arguments)) if isinstance(arguments, dict) else type(arguments).__name__
    )
    return f"{name} ran with {given}: ok"


def _hidden_cases() -> list[tuple[str, dict, dict]]:
    """(what the case is, the body just sent, the reply to it): a conversation the lesson never
    sent (the crash-triage agent's), at its first turn and at a later one."""
    from helpers.examples import crash_triage
    from helpers.formats import render_for
    from helpers.models import default_model

    body = render_for(crash_triage.opening(default_model("openai")), "openai-chat").body
    search = _call("call_k2V9", "search_code", {"query": "o.Address.Country"})
    tests = _call("call_Hq41", "run_tests", {"packages": "./internal/orders/..."})
    issue = _call(
        "call_x7Lm",
        "file_issue",
        {"title": "ShippingQuote panics — nil Address", "labels": ["bug", "p1"], "body": "{}"},
    )
    first = _reply("The panic is in ShippingQuote; let me find the line.", search)
    later = copy.deepcopy(body)
    later["messages"] += [
        first["choices"][0]["message"],
        {"role": "tool", "tool_call_id": "call_k2V9", "content": "orders/shipping.go:57"},
    ]
    return [
        ("one call, with narration", body, first),
        ("two calls at once and content null", body, _reply(None, search, tests)),
        (
            "a later turn, with arguments holding a list and non-ASCII text",
            later,
            _reply(None, issue),
        ),
    ]


@dataclass
class _Attempt:
    """What the learner's ``next_body`` did on one case: its result, and what it did on the way."""

    body: Any
    changed_its_input: bool
    ran: list[tuple[str, Any]]


def _judge_next_body(body: dict, reply: dict, post: Callable[[Any], Any]):
    message = reply["choices"][0]["message"]
    calls = message["tool_calls"]

    def judge(got: _Attempt) -> str | None:
        if got.changed_its_input:
            return (
                "your function changed the body it was given, which its caller still holds: "
                "return a new body and leave that one as it was"
            )
        if not isinstance(got.body, dict):
            return f"your function returned {type(got.body).__name__}, not a request body (a dict)"
        strings = [name for name, arguments in got.ran if isinstance(arguments, str)]
        if strings:
            return (
                f"the tool {strings[0]} received its arguments as a str, as the wire carries "
                "them: a tool needs the data they spell"
            )
        if len(got.ran) != len(calls):
            return f"it ran {len(got.ran)} tool(s) for a reply that asks for {len(calls)}"
        try:
            response = post(got.body)
        except (TypeError, ValueError) as err:
            return f"the body could not be sent as JSON ({err})"
        if response.status_code != 200:
            try:
                said = response.json()["error"]["message"]
            except (ValueError, KeyError, TypeError):
                said = response.text[:200]
            return f"the provider refused it ({response.status_code}): {said}"
        sent = got.body.get("messages", [])
        before = body["messages"]
        if sent[: len(before)] != before:
            return (
                f"the new body does not start with the {len(before)} messages sent before: the "
                "provider keeps nothing, so the model would not see them"
            )
        if len(sent) <= len(before) or sent[len(before)] != message:
            return "the reply's message is not in the new body as it came, right after the others"
        answers = sent[len(before) + 1 :]
        outputs = [
            _output(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls
        ]
        if [a.get("content") for a in answers] != outputs:
            return "the tool messages do not carry what the tools returned, one per call, in order"
        if {k: v for k, v in got.body.items() if k != "messages"} != {
            k: v for k, v in body.items() if k != "messages"
        }:
            return "the model or the tools differ from the body sent before: keep them as they were"
        return None

    return judge


def check_next_body(fn: Any, provider: Any) -> Result:
    """The learner's ``next_body(body, reply, run)`` on replies it has not seen: each result is
    posted to ``provider`` (which refuses what OpenAI refuses, in OpenAI's words), then read."""
    import httpx

    from standin import LOCAL_KEY

    def post(body: Any):
        return httpx.post(
            f"{provider.url}/v1/chat/completions",
            headers={"authorization": f"Bearer {LOCAL_KEY}"},
            json=body,
        )

    def attempt(body: dict, reply: dict) -> _Attempt | None:
        before, ran = copy.deepcopy(body), []

        def run(name: str, arguments: Any) -> str:
            ran.append((name, arguments))
            return _output(name, arguments)

        got = fn(body, reply, run)
        return None if got is None or got is ... else _Attempt(got, body != before, ran)

    cases = [
        Case(name, (body, reply), _judge_next_body(body, reply, post))
        for name, body, reply in _hidden_cases()
    ]
    return check_cases(
        attempt if callable(fn) else fn,
        cases,
        EX2,
        success="Right: the whole list again, the reply as it came, one answer per call tied by "
        "its id, and the provider took each one. That is the protocol under every stateless chat "
        "API, in one function you can reuse",
    )


def check_missing_key(answer: Any, provider: Any) -> Result:
    """``answer``: the response to a request sent without the key. Checks what the server got."""
    early = _blank_or_not_a_response(answer, EX3)
    if early is not None:
        return early
    status = answer.status_code
    if status != 401:  # 401: the provider's answer to a request that carries no usable key
        return not_yet(
            EX3,
            f"the provider answered {status}: that request still carried a key; leave the "
            "headers argument out",
        )
    try:
        message = answer.json()["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = answer.text[:80]
    return Result(
        True,
        f"Right: {status}, {message!r} (OpenAI's own words). The key "
        "rides in the authorization header of every request, so every dump in this series "
        "redacts it.",
        EX3,
        expected="a refusal of the request sent with no key",
    )
