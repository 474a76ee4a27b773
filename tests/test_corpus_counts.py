"""Our counts against real bills: the recorded requests of ``tests/corpus/`` and their usage."""

from __future__ import annotations

import pytest

from benchmarks.corpus_spread import measure, table
from helpers.tokens import count_body


@pytest.fixture(scope="module")
def measured():
    return measure()


def test_every_count_labelled_exact_equals_the_bill(measured):
    rows, _ = measured
    exact = [r for r in rows if not r.estimate]
    assert len(exact) >= 10  # OpenAI chat bodies on verified models with verified features
    assert [(r.id, r.counted, r.billed) for r in exact if r.counted != r.billed] == []


def test_the_spread_of_the_estimates_is_measured_and_printed(measured):
    text = table(*measured)
    for fmt in ("openai-chat", "anthropic", "gemini"):
        assert f"| {fmt} | estimate |" in text
    assert "skipped" in text


def test_what_the_neutral_request_drops_makes_a_count_an_estimate():
    body = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "Refuse this."}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}},
    }
    counted = count_body(body, "openai-chat")
    assert counted.estimate and counted.uncertain["response_format"][0] is None
    body.pop("response_format")
    assert not count_body(body, "openai-chat").estimate
