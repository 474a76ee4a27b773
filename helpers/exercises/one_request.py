"""Exercises of notebooks/01_one_request.ipynb: read what the local provider recorded."""

from __future__ import annotations

from typing import Any

from helpers.exercises import Exercise, Result, check_number, check_text

EX1 = Exercise(
    "01.1",
    nudge="an HTTP request starts with a line naming the method and the path it asks for.",
    pointer="second_exchange has .method and .path; the cell under 'What went over the wire' "
    "prints a whole recorded request with request_http().",
)
EX2 = Exercise(
    "01.2",
    nudge="the body the server received is JSON with a list of messages; count that list, "
    "not your own variable.",
    pointer="second_exchange.request_json is the body as the server parsed it (see the cell "
    "that makes the table of both requests).",
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


def check_message_count(answer: int, provider: Any) -> Result:
    expected = len(_last(provider).request_json["messages"])
    return check_number(
        answer,
        expected,
        EX2,
        success=(
            f"Right: {expected} messages: system, user, the assistant's turn and the tool result."
        ),
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
