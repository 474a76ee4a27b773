"""The checks of lessons 07-12 that do more than compare a value: wrong paths get a reason.

Each lesson's exercises are also probed in their kernel (tests/test_student.py); these tests
pin the behaviour the probe cannot see: what a plausible wrong answer is told.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from course import exercises
from course.exercises import reading_a_request as ex08
from course.exercises import the_agent_loop as ex11
from course.exercises import the_system_prompt as ex09
from course.exercises import token_arithmetic_lab as ex12
from course.exercises import what_the_sdk_adds as ex07
from course.lab import LabScenario
from helpers.examples import crash_triage, sundry
from helpers.loop import run
from helpers.messages import system, tool_call, tool_result, user
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
    """08.2 (was 08.3, orphans only): dropping orphans alone, or nothing, is refused, with the
    hidden case that shows it."""
    model = default_model("openai")
    only_orphans = ex08.check_repair(_drop_orphans, model)
    assert not only_orphans and "policy reminder" in only_orphans.message
    assert not ex08.check_repair(_keep_orphans, model)


def test_09_percentages_unchanged_prompts_and_silent_refusals_are_explained():
    model = default_model("openai")
    from helpers.tokens import count_sections, count_text

    def share(prompt, start):
        part = next(s.tokens for s in count_sections(prompt, model) if s.text.startswith(start))
        return part / count_text(prompt, model)

    assert ex09.check_paragraph_share(share, model)
    percent = ex09.check_paragraph_share(lambda prompt, start: 100 * share(prompt, start), model)
    assert not percent and "percentage" in percent.message
    steps_only = ex09.check_paragraph_share(lambda prompt, start: 0.35, model)  # read off lesson
    assert not steps_only and "Sundry's prompt" in steps_only.message
    assert "not answered yet" in ex09.check_paragraph_share(..., model).message

    def no_return(prompt, start):
        share(prompt, start)  # computed, but never returned

    assert "returned None" in ex09.check_paragraph_share(no_return, model).message

    def silent(call):
        if call.name == "issue_refund" and call.arguments["amount_usd"] > 100:
            return tool_result(call.id, "no", is_error=True)
        return sundry.run_tool(call)

    def strict_at_100(call):
        if call.name == "issue_refund" and call.arguments["amount_usd"] >= 100:
            return tool_result(call.id, "refused: above $100", is_error=True)
        return sundry.run_tool(call)

    def right(call):
        if call.name == "issue_refund" and call.arguments["amount_usd"] > 100:
            return tool_result(call.id, "refused: refunds above $100 need a human", is_error=True)
        return sundry.run_tool(call)

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


def test_11_diagnose_must_stop_on_the_finishing_call_and_read_it():
    model = default_model("openai")
    with LocalProvider(scenario="crash-triage") as p:

        def traced(report, finish):
            workspace = crash_triage.Workspace()
            return run(
                crash_triage.opening(model, report),
                lambda call: crash_triage.run_tool(call, workspace),
                format="openai-chat",
                base_url=p.url,
                finish=finish,
            )

        def from_prose(report):
            trace = traced(report, None)
            return ["fixed" if "fixed" in trace.final_text else "needs_human"]

        def structured(report):
            trace = traced(report, crash_triage.FINISH)
            return [g["status"] for g in trace.finish.arguments["groups"]]

        def guessed_after_finish(report):
            traced(report, crash_triage.FINISH)
            return ["needs_human"]

        prose = ex11.check_structured_finish(from_prose, p)
        assert not prose and "went on after the agent had submitted" in prose.message
        assert ex11.check_structured_finish(structured, p)
        wrong = ex11.check_structured_finish(guessed_after_finish, p)
        assert not wrong and "diagnose returned ['needs_human']" in wrong.message
        blank = ex11.check_structured_finish(lambda report: None, p)
        assert "not answered yet" in blank.message

        def workspace_per_call(report):  # review finding: every submit_diagnosis is refused
            trace = run(
                crash_triage.opening(model, report),
                lambda call: crash_triage.run_tool(call, crash_triage.Workspace()),
                format="openai-chat",
                base_url=p.url,
                finish=crash_triage.FINISH,
            )
            return [] if trace.finish is None else ["?"]

        refused = ex11.check_structured_finish(workspace_per_call, p)
        assert not refused and "refused the agent's submit_diagnosis" in refused.message


def test_12_a_timestamp_at_the_top_breaks_the_cache_and_at_the_end_keeps_it(baseline):
    def at_the_top(request, now):
        first = request.messages[0]
        stamped = system(f"Current time: {now}\n\n{first.text}")
        return replace(request, messages=[stamped, *request.messages[1:]])

    def at_the_end(request, now):
        return replace(request, messages=[*request.messages, user(f"(Current time: {now})")])

    def forgets_the_time(request, now):
        return request

    top = ex12.check_time_in_request(at_the_top, baseline)
    assert not top and "cache now serves 0 input tokens" in top.message
    assert ex12.check_time_in_request(at_the_end, baseline)
    missing = ex12.check_time_in_request(forgets_the_time, baseline)
    assert not missing and "does not carry the time" in missing.message
    calls = ex12.check_time_in_request(lambda r, now: tool_call("c", "x", {}), baseline)
    assert not calls and "not a Request" in calls.message


def test_12_a_percentage_is_told_to_be_a_fraction(baseline):
    told = ex12.check_tools_share(62, baseline)
    assert not told and "0.5, not 50" in told.message
    assert ex12.check_tools_share("62%", baseline)
