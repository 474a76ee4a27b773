"""Used in lessons: 01.

Exercises of notebooks/01_one_request.ipynb: read what the local provider recorded."""

from __future__ import annotations

from typing import Any

from course.exercises import (
    Exercise,
    Result,
    check_text,
    check_value,
    not_answered,
    not_yet,
)

EX1 = Exercise(
    "01.1",
    idea="the two requests went to the same place with the same client and the same key; "
    "only the body changed. Which header's value is computed from the body itself?",
    look="first_exchange.request_headers and second_exchange.request_headers are lists of "
    "(name, value) pairs; second_exchange.header(name) reads one value.",
)
EX2 = Exercise(
    "01.2",
    idea="the provider keeps nothing: the third request is the second one, plus the reply it "
    "got and the result of the call that reply asked for.",
    look="do what the cells under 'The answer is one more message' did, once more: "
    "second_message holds the new call; run_tool answers it; then post the longer list.",
)
EX3 = Exercise(
    "01.3",
    idea="the server can only refuse a request that really arrived without its key: post the "
    "body with no headers argument at all.",
    look="the httpx.post(...) call under 'Send it' passes the key in headers=...; copy it "
    "without that argument, and give the check what httpx.post returns.",
)


def _last(provider: Any):
    exchange = provider.recorder.last
    if exchange is None:
        raise ValueError("the provider has recorded nothing yet: run the cells above first")
    return exchange


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


def check_third_request(answer: Any, provider: Any) -> Result:
    """``answer``: the response to the learner's third request. Checks what the server got."""
    early = _blank_or_not_a_response(answer, EX2)
    if early is not None:
        return early
    status = answer.status_code
    sent = _last(provider).request_json or {}
    messages = sent.get("messages", [])
    roles = [m.get("role") for m in messages]
    calls = [c["id"] for c in (messages[-2].get("tool_calls") or [])] if len(messages) > 1 else []
    answered = [m.get("tool_call_id") for m in messages[-1:] if m.get("role") == "tool"]
    problem = (
        f"the provider answered {status}"
        if status != 200
        else f"the last request held {len(messages)} messages ({', '.join(map(str, roles))})"
        if len(messages) < 6 or roles[-2:] != ["assistant", "tool"]
        else "its last tool message does not answer the call just before it"
        if not calls or answered != calls[:1]
        else ""
    )
    if problem:
        return not_yet(EX2, problem)
    return Result(
        True,
        f"Right: {len(messages)} messages, accepted. Every request repeats everything before it: "
        "that is the whole series in one line.",
        EX2,
        expected="a 200 for the request with the next reply and result appended",
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
