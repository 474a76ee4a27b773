"""The checks of lessons 07-12 that do more than compare a value: wrong paths get a reason.

Each lesson's exercises are also probed in their kernel (tests/lessons/test_student.py); these tests
pin the behaviour the probe cannot see: what a plausible wrong answer is told.
"""

from __future__ import annotations

import pytest

from course import exercises
from course.exercises import reading_a_request as ex08
from course.exercises import the_agent_loop as ex11
from course.exercises import the_system_prompt as ex09
from course.exercises import token_arithmetic_lab as ex12
from course.exercises import what_the_sdk_adds as ex07
from course.lab import LabScenario
from helpers.examples import sundry
from helpers.loop import run
from helpers.messages import tool_result
from helpers.models import default_model
from standin import LocalProvider


@pytest.fixture(autouse=True)
def _fresh():
    exercises.reset()


@pytest.fixture(scope="module")
def baseline():
    return LabScenario(model=default_model("openai"), requests=6, tools=9, result_tokens=150)


def test_07_the_blunt_test_leaves_the_client_timeout_out_of_the_body():
    body, changed = ex07.wire_effect()  # lesson 07's prediction on timeout=30
    assert "timeout" not in body and body["max_completion_tokens"] == 200
    assert changed == {"x-stainless-read-timeout": "30"}


def _keep_orphans(body, first):
    return body


def _drop_orphans(body, first):
    calls = {c["id"] for m in body["messages"] for c in m.get("tool_calls") or []}
    kept = [m for m in body["messages"] if m["role"] != "tool" or m["tool_call_id"] in calls]
    return {**body, "tools": first["tools"], "messages": kept}


def test_08_repair_must_be_general():
    """08.2 (the whole repair): dropping orphans alone, or nothing, is refused, with the
    hidden case that shows it."""
    model = default_model("openai")
    only_orphans = ex08.check_repair(_drop_orphans, model)
    assert not only_orphans and "policy reminder" in only_orphans.message
    assert not ex08.check_repair(_keep_orphans, model)


def test_09_silent_refusals_and_a_limit_at_100_are_explained():
    def limited(call, done, *, at_100: bool = False, say: str = "refused: above $100"):
        if call.name == "issue_refund":
            order = call.arguments["order_id"]
            total = call.arguments["amount_usd"] + sum(
                c.arguments["amount_usd"]
                for c, r in done
                if c.name == "issue_refund" and c.arguments["order_id"] == order and not r.is_error
            )
            if total > 100 or (at_100 and total >= 100):
                return tool_result(call.id, say, is_error=True)
        return sundry.run_tool(call)

    def silent(call, done):
        return limited(call, done, say="no")

    def strict_at_100(call, done):
        return limited(call, done, at_100=True)

    def right(call, done):
        return limited(call, done, say="refused: refunds above $100 need a human")

    assert "does not say why" in ex09.check_refund_guard(silent).message
    assert not ex09.check_refund_guard(strict_at_100)
    assert ex09.check_refund_guard(right)


def test_11_capped_wants_jons_ticket_ending_on_a_waiting_call():
    model = default_model("anthropic")
    jon_text = "My espresso machine (order SO-51877) arrived smashed. Refund please. Jon"
    with LocalProvider(scenario="sundry") as p:
        jon = run(sundry.opening(model, jon_text), sundry.run_tool, base_url=p.url, max_turns=2)
        maya = run(sundry.opening(model), sundry.run_tool, base_url=p.url, max_turns=2)
    assert ex11.check_capped(jon)
    other = ex11.check_capped(maya)
    assert not other and "not Jon's ticket" in other.message
    assert "not a trace" in ex11.check_capped("a trace").message


def test_12_a_percentage_is_told_to_be_a_fraction(baseline):
    told = ex12.check_tools_share(62, baseline)
    assert not told and "0.5, not 50" in told.message
    assert ex12.check_tools_share("62%", baseline)
