from __future__ import annotations

from hypothesis import given, settings

from helpers.examples import DATA, sundry
from helpers.messages import Request, load_file
from helpers.rules import check, turn_boundaries
from tests.support.strategies import conversations


def test_sundry_ticket_can_be_cut_before_the_user_and_the_assistant_turn():
    assert turn_boundaries(sundry.ticket().messages) == [1, 2]


def test_parallel_results_are_never_split():
    crash = load_file(DATA / "crash_triage" / "request.json")
    safe = turn_boundaries(crash.messages)
    assert 5 not in safe and 3 not in safe  # tool messages
    assert safe == [1, 2, 4]


@settings(max_examples=100)
@given(conversations())
def test_every_safe_cut_keeps_the_rules_and_every_other_cut_does_not_start_a_turn(request):
    system = [m for m in request.messages if m.role == "system"]
    safe = set(turn_boundaries(request.messages))
    for k in range(len(system), len(request.messages)):
        kept = Request(request.model, system + request.messages[k:], request.tools)
        pairing = [v for v in check(kept) if v.rule in {"result-without-call", "call-not-answered"}]
        if k in safe:
            assert pairing == []
        else:
            assert request.messages[k].role == "tool" or pairing
