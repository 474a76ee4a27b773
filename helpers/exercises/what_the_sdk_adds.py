"""Used in lessons: 07.

Exercises of notebooks/07_what_the_sdk_adds.ipynb."""

from __future__ import annotations

from typing import Any

from helpers.exercises import Result, check_equal, not_answered


def check_retry_header(answer: str) -> Result:
    """Re-run a 429 + retry on a fresh provider and find the one header that changed."""
    import openai

    from helpers.examples import sundry
    from helpers.formats import render
    from helpers.models import default_model
    from helpers.provider import LOCAL_KEY, LocalProvider, RateLimited

    with LocalProvider("sundry") as p:
        p.inject(RateLimited(retry_after=0.01, retry_after_ms=10))
        client = openai.OpenAI(base_url=p.base_url("openai"), api_key=LOCAL_KEY)
        client.chat.completions.create(
            **render(sundry.opening(default_model("openai")), "openai-chat").body
        )
        first, second = p.recorder.exchanges
    changed = [
        k.lower()
        for (k, v), (_, w) in zip(first.request_headers, second.request_headers, strict=True)
        if v != w
    ]
    if isinstance(answer, str):
        answer = answer.lower()
    return check_equal(
        answer,
        changed[0] if len(changed) == 1 else changed,
        hint="compare first.request_headers with second.request_headers",
        success="Right: only the retry count. Same body, same key, no idempotency key.",
    )


def check_event_count(answer: int, raw_stream: bytes) -> Result:
    expected = sum(1 for line in raw_stream.decode().splitlines() if line.startswith("event:"))
    return check_equal(
        answer,
        expected,
        hint="count the lines of raw_stream.decode() that start with 'event:'",
        success=f"Right: {expected} events for one short reply; the SDK hides every one of them.",
    )


def check_wire_body(answer: dict[str, Any]) -> Result:
    """Make the exercise's call on a fresh local provider and compare bodies (key order aside)."""
    import openai

    from helpers.models import default_model
    from helpers.provider import LOCAL_KEY, LocalProvider

    with LocalProvider("echo") as p:
        client = openai.OpenAI(base_url=p.base_url("openai"), api_key=LOCAL_KEY)
        client.chat.completions.create(
            model=default_model("openai"),
            messages=[{"role": "user", "content": "Where is my order SO-50102?"}],
            max_completion_tokens=200,
            temperature=0,
        )
        sent = p.recorder.last.request_json
    if not_answered(answer):
        return check_equal(answer, sent, hint="a dict with four keys", success="")
    missing = sorted(set(sent) - set(answer or {}))
    extra = sorted(set(answer or {}) - set(sent))
    hint = (
        f"missing keys {missing}, unexpected keys {extra}"
        if missing or extra
        else ("same keys; compare each value with what you passed to create()")
    )
    return check_equal(
        answer,
        sent,
        hint=hint,
        success="Right: the body is exactly the arguments you passed, as JSON. Nothing hidden.",
    )
