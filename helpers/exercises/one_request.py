"""Used in lessons: 01.

Exercises of notebooks/01_one_request.ipynb: read what the local provider recorded."""

from __future__ import annotations

from typing import Any

from helpers.exercises import Result, check_equal


def _last(provider: Any):
    exchange = provider.recorder.last
    if exchange is None:
        raise ValueError("the provider has recorded nothing yet: run the cells above first")
    return exchange


def check_request_line(answer: str, provider: Any) -> Result:
    ex = _last(provider)
    return check_equal(
        answer,
        f"{ex.method} {ex.path}",
        hint="f'{second_exchange.method} {second_exchange.path}'",
        success=f"Right: {ex.method} {ex.path}. Every chat request goes to this one path.",
    )


def check_message_count(answer: int, provider: Any) -> Result:
    expected = len(_last(provider).request_json["messages"])
    return check_equal(
        answer,
        expected,
        hint="len(second_exchange.request_json['messages'])",
        success=(
            f"Right: {expected} messages: system, user, the assistant's turn and the tool result."
        ),
    )


def check_key_header(answer: str, provider: Any) -> Result:
    ex = _last(provider)
    carrying = [k.lower() for k, v in ex.request_headers if "redacted" in v]
    if isinstance(answer, str) and answer.lower() in carrying:
        answer = answer.lower()
    return check_equal(
        answer,
        carrying[0] if carrying else None,
        hint="print(second_exchange.request_http()) and look for the value shown as <redacted>.",
        success="Right: the key rides in a header on every request, so dumps must redact it.",
    )
