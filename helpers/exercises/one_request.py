"""Used in lessons: 01.

Exercises of notebooks/01_one_request.ipynb: read what the local provider recorded."""

from __future__ import annotations

from typing import Any

from helpers.exercises import (
    Exercise,
    Result,
    check_text,
    check_value,
    not_answered,
    not_yet,
)

EX1 = Exercise(
    "01.1",
    nudge="an HTTP request starts with a line naming the method and the path it asks for.",
    pointer="second_exchange has .method and .path; the cell under 'What went over the wire' "
    "prints a whole recorded request with request_http().",
)
EX2 = Exercise(
    "01.2",
    nudge="the provider keeps nothing: the third request is the second one, plus the reply it "
    "got and the result of the call that reply asked for.",
    pointer="do what the cells under 'The answer is one more message' did, once more: "
    "second_message holds the new call; run_tool answers it; then post the longer list.",
)
EX3 = Exercise(
    "01.3",
    nudge="the key is not in the body: it travels in one of the request's headers, and a "
    "recording shows its value masked.",
    pointer="print(second_exchange.request_http()) and find the header whose value is shown "
    "masked.",
)


def _last(provider: Any):
    exchange = provider.recorder.last
    if exchange is None:
        raise ValueError("the provider has recorded nothing yet: run the cells above first")
    return exchange


def check_request_line(answer: str, provider: Any) -> Result:
    ex = _last(provider)
    line = f"{ex.method} {ex.path}"
    return check_text(
        answer,
        line,
        EX1,
        spellings=[f"{ex.method.lower()} {ex.path}"],
        success=f"Right: {line}. Every chat request goes to this one path.",
    )


def check_third_request(answer: Any, provider: Any) -> Result:
    """``answer``: the response to the learner's third request. Checks what the server got."""
    if not_answered(answer):
        return check_value(answer, None, EX2, success="")
    status = getattr(answer, "status_code", None)
    if status is None:
        return not_yet(
            EX2, f"{type(answer).__name__} is not an HTTP response; pass what httpx.post returned"
        )
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


def check_key_header(answer: str, provider: Any) -> Result:
    carrying = [k.lower() for k, v in _last(provider).request_headers if "redacted" in v]
    return check_text(
        answer,
        carrying[0] if carrying else "(none)",
        EX3,
        ignore_case=True,  # HTTP header names are case-insensitive (RFC 9110, section 5.1)
        success="Right: the key rides in a header on every request, so dumps must redact it.",
    )
