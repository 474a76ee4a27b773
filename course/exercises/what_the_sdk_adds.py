"""Used in lessons: 07.

Exercises of notebooks/07_what_the_sdk_adds.ipynb."""

from __future__ import annotations

import contextlib
import json
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
    "07.1",
    idea="an SDK retries a 429 on its own; with retries turned off, the first 429 reaches your "
    "code as an exception, a typed error class of the SDK.",
    look="openai.OpenAI(..., max_retries=0) makes a client that never retries; "
    "provider.inject(RateLimited(...)) as in the 429 cell; catch the exception with "
    "try/except Exception as err and read type(err).__name__.",
)
EX2 = Exercise(
    "07.2",
    idea="the body holds the arguments that describe the request to the model; an argument "
    "that only configures the client (how long to wait, how often to retry) stays on your "
    "machine.",
    look="compare with chat_body, the body of the first call in 'What the OpenAI SDK sends':"
    " its keys are keyword arguments of create(), the values are what was passed.",
)


def check_no_retry(answer: str, provider: Any) -> Result:
    """The exception class a 429 raises when the SDK may not retry. The learner's provider must
    show one 429 sent with retry count 0 as its last exchange (proof the call was made)."""
    import openai

    from helpers.examples import sundry
    from helpers.formats import render
    from helpers.models import default_model
    from standin import LOCAL_KEY, LocalProvider, RateLimited

    with LocalProvider("sundry") as p:
        p.inject(RateLimited(retry_after=0.01, retry_after_ms=10))
        client = openai.OpenAI(base_url=p.base_url("openai"), api_key=LOCAL_KEY, max_retries=0)
        try:
            client.chat.completions.create(
                **render(sundry.opening(default_model("openai")), "openai-chat").body
            )
            expected = "(no exception)"
        except openai.APIError as err:
            expected = type(err).__name__
    if isinstance(answer, type):  # the class itself, not its name: fine too
        answer = answer.__name__
    parents = {"APIError", "APIStatusError", "openai.APIError", "openai.APIStatusError"}
    if isinstance(answer, str) and answer.strip() in parents:
        return not_yet(
            EX1,
            f"{answer.strip()} is a parent class of the one raised: name the subclass",
            kind="text",
            expected=expected,
            accepted=(expected,),
        )
    last = provider.recorder.last
    made = last is not None and last.status == 429
    if not not_answered(answer) and not (made and last.header("x-stainless-retry-count") == "0"):
        return not_yet(
            EX1,
            "the provider's last exchange is not one 429 sent with retry count 0; make the call "
            "with max_retries=0 first",
            kind="text",
            expected=expected,
            accepted=(expected,),
        )
    return check_text(
        answer,
        expected,
        EX1,
        spellings=[f"openai.{expected}"],
        success=(
            f"Right: openai.{expected}, after exactly one request. With max_retries=0 your own "
            "code decides what a 429 means: wait, queue the ticket, or tell the user."
        ),
    )


def check_wire_body(answer: dict[str, Any] | str) -> Result:
    """Make the exercise's call on a fresh local provider and compare bodies (key order aside).
    A JSON string of the body passes too."""
    import openai

    from helpers.models import default_model
    from standin import LOCAL_KEY, LocalProvider

    with LocalProvider("echo") as p:
        client = openai.OpenAI(base_url=p.base_url("openai"), api_key=LOCAL_KEY)
        client.chat.completions.create(
            model=default_model("openai"),
            messages=[{"role": "user", "content": "Where is my order SO-50102?"}],
            max_completion_tokens=200,
            temperature=0,
            timeout=30,  # the client's own setting: never on the wire
        )
        sent = p.recorder.last.request_json
    if isinstance(answer, str):
        with contextlib.suppress(ValueError):  # a JSON string of the body passes too
            answer = json.loads(answer)
    explain = ""
    if isinstance(answer, dict):
        missing = len(set(sent) - set(answer))
        extra = len(set(answer) - set(sent))
        explain = (
            f"{missing} key(s) missing and {extra} key(s) the SDK does not send"
            if missing or extra
            else "the keys are right; compare each value with what you passed to create()"
        )
    return check_value(
        answer,
        sent,
        EX2,
        explain=explain,
        success="Right: the body is exactly the arguments you passed, as JSON, except timeout: "
        "that one tells the client how long to wait and never leaves your machine.",
    )
