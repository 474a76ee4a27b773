"""Usage semantics per provider, prices from genai-prices, and tickets turn by turn."""

from __future__ import annotations

from decimal import Decimal

import pytest

from benchmarks.sundry_ticket import requests as sundry_requests
from helpers import formats
from helpers.cost import (
    compact_ticket,
    price,
    project_ticket,
    ticket_from_usages,
    tool_count_effect,
    tool_overhead,
    with_tools,
)
from helpers.examples import sundry
from helpers.messages import Usage
from helpers.tokens import count

# --- each provider's usage, normalised: input includes cached ----------------------------------

RAW = {
    "openai-chat": {
        "prompt_tokens": 1566,
        "completion_tokens": 40,
        "prompt_tokens_details": {"cached_tokens": 1408},
        "completion_tokens_details": {"reasoning_tokens": 10},
    },
    "openai-responses": {
        "input_tokens": 1566,
        "output_tokens": 40,
        "input_tokens_details": {"cached_tokens": 1408},
        "output_tokens_details": {"reasoning_tokens": 10},
    },
    "anthropic": {
        "input_tokens": 504,
        "cache_creation_input_tokens": 123,
        "cache_read_input_tokens": 200,
        "output_tokens": 40,
    },
    "gemini": {
        "promptTokenCount": 1566,
        "cachedContentTokenCount": 1408,
        "candidatesTokenCount": 30,
        "thoughtsTokenCount": 10,
    },
}


def test_openai_and_gemini_count_cached_tokens_inside_input():
    for provider in ("openai-chat", "openai-responses", "gemini"):
        usage = formats.parse_usage(RAW[provider], provider)
        assert (usage.input_tokens, usage.cache_read_tokens) == (1566, 1408)
        assert usage.uncached_input_tokens == 158
        assert (usage.output_tokens, usage.reasoning_tokens) == (40, 10)


def test_anthropic_input_excludes_cache_reads_and_writes_so_they_are_added():
    usage = formats.parse_usage(RAW["anthropic"], "anthropic")
    assert usage.input_tokens == 504 + 123 + 200
    assert (usage.cache_read_tokens, usage.cache_write_tokens) == (200, 123)
    assert usage.uncached_input_tokens == 504


@pytest.mark.parametrize(
    ("provider", "body"),
    [
        ("openai-chat", {"choices": [{"message": {"content": "hi"}}], "usage": RAW["openai-chat"]}),
        (
            "openai-responses",
            {"output": [], "status": "completed", "usage": RAW["openai-responses"]},
        ),
        (
            "anthropic",
            {"content": [{"type": "text", "text": "hi"}], "usage": RAW["anthropic"]},
        ),
        (
            "gemini",
            {
                "candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}}],
                "usageMetadata": RAW["gemini"],
            },
        ),
    ],
)
def test_parse_usage_agrees_with_the_response_parsers(provider, body):
    read_alone = formats.parse_usage(RAW[provider], provider)
    assert formats.parse_response(body, provider).usage == read_alone


def test_unknown_provider_is_an_error():
    with pytest.raises(ValueError, match="known: openai-chat"):
        formats.parse_usage({}, "mistral")


# --- prices -------------------------------------------------------------------------------------


def test_price_splits_input_by_kind_and_adds_up():
    usage = Usage(input_tokens=10_000, output_tokens=1_000, cache_read_tokens=6_000)
    cost = price(usage, "gpt-4o")  # $2.50 / $1.25 cached / $10 per million
    assert cost.uncached_usd == Decimal("0.01")
    assert cost.cache_read_usd == Decimal("0.0075")
    assert cost.output_usd == Decimal("0.01")
    assert cost.total_usd == Decimal("0.0275")


def test_anthropic_cache_writes_5m_and_1h():
    usage = Usage(10_000, 1_000, cache_read_tokens=6_000, cache_write_tokens=2_000)
    five = price(usage, "claude-sonnet-4-5")  # $3 in, 0.1x read, 1.25x 5m write, $15 out
    assert (five.uncached_usd, five.cache_read_usd) == (Decimal("0.006"), Decimal("0.0018"))
    assert five.cache_write_usd == Decimal("0.0075")
    one_hour = price(usage, "claude-sonnet-4-5", cache_write_1h_tokens=2_000)
    assert one_hour.cache_write_usd == Decimal("0.012")  # 2x
    raw = Usage(
        10_000, 1_000, 6_000, 2_000, raw={"cache_creation": {"ephemeral_1h_input_tokens": 2_000}}
    )
    assert price(raw, "claude-sonnet-4-5").cache_write_usd == Decimal("0.012")


# --- tickets ------------------------------------------------------------------------------------


def test_ticket_rows_accumulate():
    ticket = ticket_from_usages([Usage(1000, 10), Usage(1100, 20, 1024)], "gpt-4o-mini")
    assert [t.cumulative_input_tokens for t in ticket.turns] == [1000, 2100]
    assert ticket.turns[1].cumulative_usd == ticket.total_usd
    assert ticket.turns[1].cached_tokens == 1024
    assert "1024" in ticket.table()


def test_projected_sundry_ticket_counts_every_rebuilt_request():
    model = "gpt-4o-mini"
    reqs = sundry_requests(model)
    ticket = project_ticket(reqs, model)
    assert [t.input_tokens for t in ticket.turns] == [count(r).total for r in reqs]
    assert [t.cached_tokens for t in ticket.turns] == [0, 0, 1024, 1024, 1152]
    assert ticket.turns[-1].output_tokens == 0 and all(t.output_tokens for t in ticket.turns[:-1])
    assert any("final reply not given" in n for n in ticket.notes)
    uncached = project_ticket(reqs, model, caching=False)
    assert uncached.total_usd > ticket.total_usd and uncached.cached_tokens == 0


def test_a_projected_claude_or_gemini_ticket_carries_the_measured_spread_of_its_counts():
    from helpers.tokens.estimate import sentence

    for model, rule in [
        ("claude-sonnet-4-6", "anthropic-estimate"),
        ("gemini-3.8-flash", "gemini-estimate"),  # 2.5 is counted with Gemma 3 (issue 34)
    ]:
        ticket = project_ticket(sundry_requests(model), model)
        assert ticket.estimate and ticket.spread == sentence(rule, model) != ""
        assert f"input tokens are a proxy estimate: {ticket.spread}" in ticket.notes
    assert project_ticket(sundry_requests("gpt-4o-mini"), "gpt-4o-mini").spread == ""


def test_a_projected_ticket_says_how_far_off_its_input_count_can_be():
    reqs = sundry_requests("gpt-4o-mini")
    ticket = project_ticket(reqs, "gpt-4o-mini")
    assert ticket.count_error == sum(count(r).error for r in reqs) > 0  # Sundry's tools: ±8 each
    assert project_ticket(sundry_requests("claude-sonnet-4-6")).count_error == 0  # a spread
    from helpers.messages import Image, Request, user

    by_url = Request(
        "gpt-4o-mini", [user("What is this?", Image("image/png", url="https://x/a.png"))]
    )
    assert project_ticket([by_url], "gpt-4o-mini").count_error == count(by_url).error > 1000


def test_projected_anthropic_ticket_writes_then_reads():
    ticket = project_ticket(sundry_requests("claude-sonnet-4-5"))
    first, second = ticket.turns[:2]
    assert first.cache_write_tokens == first.input_tokens and first.cached_tokens == 0
    assert second.cached_tokens == first.input_tokens
    assert ticket.estimate


def test_compaction_shrinks_later_requests_only():
    model = "gpt-4o-mini"
    reqs = sundry_requests(model)
    compacted = compact_ticket(reqs, 4, "Maya's order SO-48213 was refunded ($129).", keep_last=1)
    assert compacted[:4] == reqs[:4]
    assert count(compacted[4]).total < count(reqs[4]).total
    assert compacted[4].messages[-1] == reqs[4].messages[-1]
    with pytest.raises(ValueError, match="outside the ticket"):
        compact_ticket(reqs, 9, "x")


def test_tool_overhead_and_the_effect_of_five_more_tools():
    model = "gpt-4o-mini"
    opening = sundry.opening(model)
    counted = count(opening)
    nine = tool_overhead(counted)
    assert nine.tools == counted.part("tools") and nine.system == counted.part("messages[0]")
    assert nine.tools + nine.system < counted.total  # the first user message is the rest
    more = with_tools(sundry_requests(model), sundry.TOOLS + sundry.EXTRA_TOOLS)
    fourteen = tool_overhead(count(more[0]))
    assert fourteen.tools > nine.tools and fourteen.system == nine.system
    base, bigger = project_ticket(sundry_requests(model)), project_ticket(more)
    assert bigger.total_usd > base.total_usd
    effect = tool_count_effect(sundry_requests(model), sundry.TOOLS + sundry.EXTRA_TOOLS)
    assert (effect.before, effect.after) == (nine, fourteen)
    assert effect.ticket_ratio == bigger.total_usd / base.total_usd
    assert f"{nine.tools} -> {fourteen.tools} tokens" in str(effect)


def test_compact_leaves_a_request_with_nothing_to_replace_as_it_is():
    from helpers.cost import compact

    reqs = sundry_requests()
    short = reqs[0]  # system and one user message
    assert compact(short, keep_last=1, summary="s") == short
    longer = reqs[4]
    assert compact(longer, keep_last=1, summary="s") != longer


def test_compaction_does_not_lose_the_replies_output_tokens():
    """Each turn's output is the reply the next request adds, even when that request is the
    compacted one (its start is a summary, not the previous request)."""
    from course.lab import LabScenario, build_requests
    from helpers.cost import compact_ticket

    requests = build_requests(LabScenario("gpt-4o-mini", requests=8, result_tokens=300))
    for at, keep_last in ((3, 2), (5, 4), (6, 2)):
        compacted = compact_ticket(requests, at, "summary", keep_last)
        plain = project_ticket(requests, "gpt-4o-mini", caching=False)
        shortened = project_ticket(compacted, "gpt-4o-mini", caching=False)
        assert [t.output_tokens for t in shortened.turns] == [t.output_tokens for t in plain.turns]


# --- one ticket, one price: the model, the provider's usage and the arithmetic agree ----------


@pytest.mark.parametrize("wire", ["openai-chat", "anthropic"])
def test_one_ticket_priced_three_ways_gives_one_figure(wire):
    """The crash-triage run priced by project_ticket, by summing the usage the stand-in
    reported, and by hand (tokens times genai-prices' rates): the same dollars, to the digit."""
    from helpers.examples import crash_triage
    from helpers.formats import parse
    from helpers.loop import run
    from helpers.models import default_model, rates
    from helpers.tokens import count_output
    from standin import LocalProvider

    model = default_model("openai" if wire == "openai-chat" else wire)
    workspace = crash_triage.Workspace()
    with LocalProvider("crash-triage") as p:
        trace = run(
            crash_triage.opening(model),
            lambda call: crash_triage.run_tool(call, workspace),
            format=wire,
            base_url=p.url,
        )
    requests = [parse(step.request_body, wire) for step in trace.steps]
    final = trace.messages[-1]
    projected = project_ticket(requests, model, final_reply=final, caching=False)

    reported = sum((price(s.reply.usage, model).total_usd for s in trace.steps), Decimal(0))

    r = rates(model)
    replies = [s.reply.message for s in trace.steps]
    inputs = sum(count(q, model).total for q in requests)
    outputs = sum(count_output(m, model) for m in replies)
    by_hand = (inputs * r["input"] + outputs * r["output"]) / 1_000_000

    assert projected.total_usd == reported == by_hand == trace.cost_usd
    assert projected.turns[-1].output_tokens == trace.steps[-1].reply.usage.output_tokens > 0
    assert [t.output_tokens for t in projected.turns] == [
        s.reply.usage.output_tokens for s in trace.steps
    ]


def test_without_the_final_reply_the_ticket_says_its_last_output_is_not_priced():
    reqs = sundry_requests("gpt-4o-mini")
    answer = sundry.opening("gpt-4o-mini").messages[:0]  # no reply given
    assert answer == []
    silent = project_ticket(reqs, "gpt-4o-mini")
    from helpers.messages import assistant

    billed = project_ticket(reqs, "gpt-4o-mini", final_reply=assistant("Refunded $129.00."))
    assert billed.turns[-1].output_tokens > 0 == silent.turns[-1].output_tokens
    assert billed.total_usd > silent.total_usd
    assert not any("final reply not given" in n for n in billed.notes)


# --- a prefix kept warm across tickets --------------------------------------------------------


@pytest.mark.parametrize("model", ["gpt-4o-mini", "claude-sonnet-4-5"])
def test_a_prefix_kept_warm_across_tickets_is_read_by_the_first_request(model):
    from helpers.cost.caching import shared_prefix

    reqs = with_tools(sundry_requests(model), sundry.TOOLS + sundry.EXTRA_TOOLS)
    cold = project_ticket(reqs, model)
    warm = project_ticket(reqs, model, between_tickets=60)
    late = project_ticket(reqs, model, between_tickets=3600)
    assert cold.turns[0].cached_tokens == 0 == late.turns[0].cached_tokens
    assert late.total_usd == cold.total_usd
    assert 0 < warm.turns[0].cached_tokens <= shared_prefix(count(reqs[0], model))
    assert warm.total_usd < cold.total_usd
    assert any("still cached from the previous ticket" in n for n in warm.notes)
    assert any("starts cold" in n for n in cold.notes + late.notes)


def test_the_ticket_states_the_cache_terms_and_labels_contested_figures():
    notes = project_ticket(sundry_requests("claude-sonnet-4-6")).notes
    text = "\n".join(notes)
    assert "cached input $0.30 per million tokens" in text and "uncached $3.00" in text
    assert "cache lifetime: 5 minutes" in text and "best effort" in text
    assert "contested (min_tokens = 2048)" in text and "#1194" in text and "orq" in text
    gemini = "\n".join(project_ticket(sundry_requests("gemini-2.5-flash"), between_tickets=5).notes)
    assert "not documented" in gemini and "contested" in gemini


def test_rates_price_a_small_request_not_a_long_context_one():
    from helpers.models import rates

    assert rates("gpt-6-luna")["input"] == Decimal("0.10")  # $0.20 past its long-context tier
    assert rates("claude-sonnet-4-5")["input"] == Decimal("3")  # $6 past 200k tokens


def test_a_model_without_a_modelled_cache_says_why():
    from dataclasses import replace

    from helpers.cost import cache_terms
    from helpers.models import model_info

    why = "its minimum is not published"
    info = replace(model_info("gpt-6-luna"), cache={"kind": "none", "not_modelled": why})
    (line,) = cache_terms(info)
    assert line == f"gpt-6-luna: no prompt cache modelled: {why}"


def test_a_ticket_table_names_the_price_date():
    """The last line names the date the prices are read at (the model table's), not a
    placeholder (a learner review found the literal words "as_of date" printed)."""
    from helpers.cost import project_ticket
    from helpers.examples import sundry
    from helpers.models import as_of

    table = project_ticket([sundry.ticket("gpt-4o-mini")], "gpt-4o-mini").table()
    assert f"prices: genai-prices at {as_of()}" in table and "as_of date" not in table
