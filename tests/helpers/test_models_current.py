"""The model table's current generation (as of 2026-12-02): the rows, their cache rules, and the
status of the older defaults, each with a dated source."""

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


def test_openai_rows_from_gpt_5_6_on_bill_their_cache_writes():
    """From GPT-5.6 on OpenAI bills cache writes (1.25x) at breakpoints; the free-write
    openai-prefix rule (128-token steps) is only for the models before it."""
    newer = [m for m in models(include_legacy=True) if re.match(r"gpt-(5\.[6-9]|[6-9])", m)]
    assert newer
    for model_id in newer:
        cache = model_info(model_id).cache
        assert cache["kind"] == "openai-breakpoints", model_id
        assert cache["documented"]["write_multiplier"] == 1.25


def test_gpt_6_luna_writes_its_prompt_then_reads_it_and_writes_the_new_part():
    """OpenAI's guide: an implicit breakpoint at each request's latest message, earlier ones
    staying eligible, so an append-only loop reads the previous prompt (not in 128-token steps)
    and writes what it added, at 1.25x input (as in coder/mux#3705)."""
    from course.lab import LabScenario, build_requests
    from helpers.cost import project_ticket
    from helpers.models import rates
    from helpers.tokens import count

    requests = build_requests(LabScenario(model="gpt-6-luna", requests=4, tools=14))
    ticket = project_ticket(requests, "gpt-6-luna", output_tokens=10)
    priming = 2  # the reply priming after the latest message is not written
    totals = [count(r).total for r in requests]
    assert totals[0] >= 1024
    first, second = ticket.turns[0], ticket.turns[1]
    assert (first.cached_tokens, first.cache_write_tokens) == (0, totals[0] - priming)
    assert second.cached_tokens == totals[0] - priming
    assert second.cache_write_tokens == totals[1] - totals[0]
    assert any(t.cached_tokens % 128 for t in ticket.turns[1:])  # no 128-token steps
    assert rates("gpt-6-luna")["cache_write"] == rates("gpt-6-luna")["input"] * Decimal("1.25")


def test_gpt_6_luna_with_a_changing_prefix_reads_nothing_and_writes_every_prompt():
    """The guide's own counter-example: content that changes before the breakpoint (a time at
    the top of the system prompt) leaves nothing to read, and each prompt is written again."""
    from dataclasses import replace

    from course.lab import LabScenario, build_requests
    from helpers.cost import project_ticket
    from helpers.messages import system

    requests = build_requests(LabScenario(model="gpt-6-luna", requests=4, tools=14))
    stamped = [
        replace(r, messages=[system(f"Time: 09:0{k}\n{r.messages[0].text}"), *r.messages[1:]])
        for k, r in enumerate(requests)
    ]
    changing = project_ticket(stamped, "gpt-6-luna", output_tokens=10)
    off = project_ticket(stamped, "gpt-6-luna", output_tokens=10, caching=False)
    assert changing.cached_tokens == 0
    assert all(t.cache_write_tokens > 1024 for t in changing.turns)
    assert changing.total_usd > off.total_usd  # the cache costs more than none


def test_gpt_6_luna_below_the_minimum_writes_nothing_and_a_marked_warm_prefix_is_read():
    from course.lab import LabScenario, build_requests
    from helpers.cost import project_ticket
    from helpers.examples import sundry

    small = project_ticket([sundry.opening("gpt-6-luna")], "gpt-6-luna", output_tokens=5)
    assert (small.cached_tokens, small.turns[0].cache_write_tokens) == (0, 0)
    requests = build_requests(LabScenario(model="gpt-6-luna", requests=2, tools=14))
    marked = dict(output_tokens=5, breakpoints=["system"])
    warm = project_ticket(requests, "gpt-6-luna", between_tickets=60, **marked)
    cold = project_ticket(requests, "gpt-6-luna", between_tickets=3600, **marked)
    unmarked = project_ticket(requests, "gpt-6-luna", output_tokens=5, between_tickets=60)
    assert warm.turns[0].cached_tokens > 1024 and cold.turns[0].cached_tokens == 0
    assert unmarked.turns[0].cached_tokens == 0  # no breakpoint where the shared prefix ends


def test_a_cache_not_modelled_prices_no_cached_tokens_and_says_so():
    from dataclasses import replace

    from course.lab import LabScenario, build_requests
    from helpers.cost import project_ticket

    why = "the minimum is not published"
    info = replace(model_info("gpt-6-luna"), cache={"kind": "none", "not_modelled": why})
    ticket = project_ticket(build_requests(LabScenario(model="gpt-6-luna", requests=3)), info)
    assert ticket.cached_tokens == 0
    assert f"gpt-6-luna: no prompt cache modelled: {why}" in ticket.notes


def test_sonnet_5_5_cache_minimum_is_512_and_says_it_is_secondhand():
    """512 as OpenRouter's Claude 5.5 migration guide states it (walk c3): not Anthropic's page,
    so the terms say where it comes from."""
    from helpers.cost import cache_terms

    assert model_info("claude-sonnet-5-5").cache["min_tokens"] == 512
    terms = cache_terms("claude-sonnet-5-5")
    assert not [line for line in terms if "contested" in line]
    secondhand = [line for line in terms if line.startswith("secondhand (min_tokens = 512)")]
    assert secondhand and "OpenRouter" in secondhand[0] and "Anthropic" in secondhand[0]


def test_current_models_are_the_newest_generation_and_priced():
    from helpers.models import current_model, default_model, rates

    for provider in ("openai", "anthropic", "gemini"):
        model_id = current_model(provider)
        assert model_id in CURRENT and model_info(model_id).provider == provider
        assert rates(model_id)["input"] > 0
    assert default_model("openai") != current_model("openai")  # counts exact only on the default
    with pytest.raises(KeyError, match="no model for 'harmony' in the table's 'current'"):
        current_model("harmony")


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
    from helpers.models import rates

    assert as_of() < "2027-01-01"  # the note says the rate doubles then
    assert rates(model_info("gemini-3.8-flash"))["input"] == Decimal("0.75")


def test_gpt_6_luna_projects_a_request_without_a_system_message_or_tools():
    from helpers.cost import project_ticket
    from helpers.messages import Request, user

    long_question = user("Where is my order? " * 300)
    ticket = project_ticket([Request("gpt-6-luna", [long_question])], "gpt-6-luna")
    assert ticket.turns[0].cache_write_tokens > 1024  # the implicit breakpoint still writes
