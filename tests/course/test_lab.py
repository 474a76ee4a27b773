"""The lab: scenarios become real requests, priced by the same code as the lessons."""

from __future__ import annotations

import pytest

from course.lab import LabScenario, build_requests, cost_scenario, final_reply
from helpers.models import default_model
from helpers.rules import check
from helpers.tokens import count

MODEL = default_model("openai")


def test_requests_grow_by_one_round_trip_each_and_keep_the_rules():
    requests = build_requests(LabScenario(MODEL, requests=5, tools=9, result_tokens=100))
    assert [len(r.messages) for r in requests] == [2, 4, 6, 8, 10]
    assert all(check(r, "openai-chat") == [] for r in requests)
    assert all(len(r.tools) == 9 for r in requests)


def test_tool_results_have_exactly_the_requested_size():
    from helpers.tokens import count_text

    (_, second) = build_requests(LabScenario(MODEL, requests=2, result_tokens=257))
    assert count_text(second.messages[-1].content[0].text, MODEL) == 257


def test_more_tools_cost_more_and_caching_costs_less():
    base = cost_scenario(LabScenario(MODEL, requests=6, tools=9))
    more = cost_scenario(LabScenario(MODEL, requests=6, tools=14))
    uncached = cost_scenario(LabScenario(MODEL, requests=6, tools=9, caching=False))
    assert more.per_ticket > base.per_ticket
    assert uncached.per_ticket > base.per_ticket
    assert base.ticket.cached_tokens > 0 and uncached.ticket.cached_tokens == 0


def test_compaction_shrinks_the_later_requests():
    plain = cost_scenario(LabScenario(MODEL, requests=10, result_tokens=400, caching=False))
    compacted = cost_scenario(
        LabScenario(MODEL, requests=10, result_tokens=400, caching=False, compact_at=5)
    )
    assert compacted.ticket.turns[-1].input_tokens < plain.ticket.turns[-1].input_tokens
    assert compacted.ticket.turns[4] == plain.ticket.turns[4]  # requests[4], before the cut
    assert compacted.ticket.turns[5].input_tokens < plain.ticket.turns[5].input_tokens
    assert "compacted from requests[5] on" in compacted.notes[0]


def test_compact_at_counts_as_compact_ticket_at_does():
    from helpers.cost import compact_ticket, project_ticket

    s = LabScenario(MODEL, requests=8, compact_at=3)
    summary = "Order SO-48213 checked; see the last steps."
    by_hand = compact_ticket(build_requests(s), at=3, summary=summary, keep_last=s.keep_last)
    hand = project_ticket(by_hand, MODEL, final_reply=final_reply(s))
    assert cost_scenario(s).per_ticket == hand.total_usd


def test_scale_is_per_ticket_times_volume():
    result = cost_scenario(LabScenario(MODEL, requests=3, tickets_per_day=250))
    assert result.per_day == result.per_ticket * 250
    assert result.per_month == result.per_day * 30
    assert "per 30 days" in str(result)


def test_scenarios_round_trip_through_json_and_reject_unknown_fields(tmp_path):
    s = LabScenario(MODEL, requests=4, tools=3, caching=False)
    assert LabScenario.from_json(s.save(tmp_path / "s.json").read_text()) == s
    with pytest.raises(ValueError, match="unknown scenario field"):
        LabScenario.from_json('{"model": "x", "turns": 3}')


def test_a_scenario_saved_with_compact_before_still_reads():
    """Scenarios saved before compact_at (compact_before counted from 1, 0 for never)."""
    old = LabScenario.from_json('{"model": "x", "requests": 12, "compact_before": 8}')
    assert old.compact_at == 7
    assert LabScenario.from_json('{"model": "x", "compact_before": 0}').compact_at is None


@pytest.mark.parametrize(
    "bad, message",
    [
        (LabScenario(MODEL, requests=0), "requests per ticket must be 1 to 200"),
        (LabScenario(MODEL, tools=15), "tools must be 0 to 14"),
        (LabScenario(MODEL, requests=3, compact_at=3), r"compact_at must be 1 to 2 \(an index"),
        (LabScenario(MODEL, requests=3, compact_at=0), "compact_at must be 1 to 2"),
    ],
)
def test_bad_scenarios_say_what_is_wrong(bad, message):
    with pytest.raises(ValueError, match=message):
        cost_scenario(bad)


def test_a_ticket_without_tools_still_counts():
    (request,) = build_requests(LabScenario(MODEL, requests=1, tools=0))
    assert count(request).part("tools") == 0


def test_the_final_answer_is_billed_and_a_warm_prefix_is_an_option():
    from dataclasses import replace

    from course.lab import final_reply, seconds_between_tickets
    from helpers.tokens import count_output

    base = LabScenario(MODEL, requests=4, tools=14)
    cold = cost_scenario(base)
    assert cold.ticket.turns[-1].output_tokens == count_output(final_reply(base), MODEL) > 0
    warm = cost_scenario(replace(base, warm_prefix=True))
    assert seconds_between_tickets(base) == 86.4
    assert cold.ticket.turns[0].cached_tokens == 0 < warm.ticket.turns[0].cached_tokens
    assert warm.per_ticket < cold.per_ticket
    rare = cost_scenario(replace(base, warm_prefix=True, tickets_per_day=100))  # 864 s apart
    assert rare.per_ticket == cold.per_ticket
    assert LabScenario.from_json('{"model": "gpt-4o-mini"}').warm_prefix is False
