"""The model table's current generation (as of 2026-12-02): the rows, what is not modelled yet,
and the status of the older defaults, each with a dated source."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest

from helpers.models import TABLE, as_of, model_info, models

CURRENT = ("gpt-6-luna", "gpt-5.6-luna", "claude-sonnet-5-5", "claude-sonnet-5", "gemini-3.8-flash")


def _table() -> dict:
    return json.loads(TABLE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("model_id", CURRENT)
def test_current_rows_are_listed_with_dated_sources(model_id):
    table = _table()
    assert model_id in models()
    keys = table["models"][model_id]["sources"]
    assert keys and all(re.search(r"20\d\d-\d\d(-\d\d)?", table["sources"][k]) for k in keys)


def test_openai_rows_from_gpt_5_6_on_do_not_use_the_free_write_rule():
    """From GPT-5.6 on OpenAI bills cache writes (1.25x); the openai-prefix rule bills none, so
    such a row must not use it until the cost code models the writes."""
    newer = [m for m in models(include_legacy=True) if re.match(r"gpt-(5\.[6-9]|[6-9])", m)]
    assert newer
    for model_id in newer:
        cache = model_info(model_id).cache
        assert cache["kind"] != "openai-prefix", model_id
        assert cache["documented"]["write_multiplier"] == 1.25


def test_a_cache_not_modelled_prices_no_cached_tokens_and_says_so():
    from course.lab import LabScenario, cost_scenario

    for model_id in ("gpt-6-luna", "claude-sonnet-5-5"):
        assert "not_modelled" in model_info(model_id).cache
        result = cost_scenario(LabScenario(model=model_id, requests=3))
        assert result.ticket.cached_tokens == 0
        why = model_info(model_id).cache["not_modelled"]
        assert f"{model_id}: no prompt cache modelled: {why}" in result.ticket.notes


def test_tool_use_prompt_only_where_published():
    assert model_info("claude-sonnet-5").tool_use_overhead == {
        "auto": 354, "none": 354, "any": 474, "tool": 474,
    }  # fmt: skip
    assert model_info("claude-sonnet-5-5").tool_use_overhead is None  # not published
    assert model_info("gemini-3.8-flash").cache["min_tokens"] == 4096


def test_the_old_defaults_status_is_recorded():
    assert "2027-01-14" in model_info("gpt-4o-mini").note
    assert "Shut down" in model_info("gemini-2.5-flash").note
    retired = model_info("claude-sonnet-4-5")
    assert retired.legacy and "2026-11-30" in retired.note
    assert "claude-sonnet-4-5" not in models()


def test_gemini_3_8_flash_is_priced_at_its_introductory_rate_on_as_of():
    from helpers.cost import rates

    assert as_of() < "2027-01-01"  # the note says the rate doubles then
    assert rates(model_info("gemini-3.8-flash"))["input"] == Decimal("0.75")
