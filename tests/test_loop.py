"""helpers.loop and helpers.trace: the same loop, four wire formats, against the local provider."""

from __future__ import annotations

import contextlib

import pytest

from helpers.examples import crash_triage, sundry
from helpers.formats import parse
from helpers.loop import run
from helpers.provider import LocalProvider
from tests.provider_support import PROVIDERS, model


@pytest.fixture(scope="module")
def p():
    with LocalProvider("sundry") as provider:
        yield provider


@pytest.mark.parametrize("wire", PROVIDERS)
def test_sundry_ticket_in_every_wire_format(p, wire):
    trace = run(sundry.opening(model(wire)), sundry.run_tool, format=wire, base_url=p.url)
    assert [s.tool_calls for s in trace.steps] == [
        ["search_orders"],
        ["check_refund_eligibility"],
        ["issue_refund"],
        [],
    ]
    assert trace.final_text.startswith("Hi Maya,") and "$129.00" in trace.final_text
    # the reply was appended before its tools ran: assistant, tool, assistant, tool, ...
    roles = [m.role for m in trace.messages[2:]]
    assert roles == ["assistant", "tool"] * 3 + ["assistant"]
    sent = [s.reply.usage.input_tokens for s in trace.steps]
    assert sent == sorted(sent) and len(set(sent)) == 4  # the history grows every turn


@pytest.fixture
def crash_run():
    """``crash_run(format, finish=...)``: the crash-triage agent run once on its own local
    provider; returns (trace, provider, workspace). The provider stops after the test."""
    with contextlib.ExitStack() as stack:

        def start(wire: str, finish=None):
            workspace = crash_triage.Workspace()
            p = stack.enter_context(LocalProvider("crash-triage"))
            trace = run(
                crash_triage.opening(model(wire)),
                lambda call: crash_triage.run_tool(call, workspace),
                format=wire,
                base_url=p.url,
                finish=finish,
            )
            return trace, p, workspace

        yield start


def test_crash_triage_answers_parallel_calls_in_one_message(crash_run):
    trace, p, workspace = crash_run("anthropic", finish=crash_triage.FINISH)
    second_request = p.recorder[2].request_json
    assert len(trace.steps) == 8
    assert trace.steps[1].tool_calls == ["search_code", "run_tests"]
    # Anthropic: both results in ONE user message, right after the calls
    results = second_request["messages"][-1]["content"]
    assert [b["type"] for b in results] == ["tool_result", "tool_result"]
    assert "```diff" in workspace.issues["ST-501"]["body"]


def test_a_finishing_tool_ends_the_run_with_a_structured_result(crash_run):
    trace, p, workspace = crash_run("openai-chat", finish=crash_triage.FINISH)
    sent = len(p.recorder)
    assert sent == len(trace.steps) == 8  # no request after the finishing call
    assert trace.finish.name == "submit_diagnosis"
    assert trace.finish.arguments == workspace.diagnosis
    assert trace.messages[-1].role == "tool"  # the finishing call is answered too
    last_sent = parse(trace.steps[-1].request_body, "openai-chat").messages
    assert [m.role for m in trace.request_messages()] == [m.role for m in last_sent]
    assert trace.request_messages(0) == trace.messages[:2]


def test_without_finish_the_loop_runs_until_a_reply_has_no_calls(crash_run):
    trace, _, _ = crash_run("anthropic")
    assert trace.finish is None and len(trace.steps) == 9
    assert trace.final_text == "Diagnosis submitted."


@pytest.mark.parametrize("wire", ["openai-chat", "anthropic"])
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_same_loop_through_the_official_sdk(p, wire):
    p.recorder.clear()
    trace = run(
        sundry.opening(model(wire)), sundry.run_tool, format=wire, base_url=p.url, via="sdk"
    )
    assert trace.final_text.startswith("Hi Maya,")
    assert p.recorder.last.header("x-stainless-retry-count") == "0"


def test_meter_adds_up_and_prints(p):
    opening = sundry.opening(model("openai-chat"))
    trace = run(opening, sundry.run_tool, format="openai-chat", base_url=p.url)
    assert trace.total("input_tokens") == sum(s.reply.usage.input_tokens for s in trace.steps)
    assert trace.cost_usd > 0 and all(s.cost_usd is not None for s in trace.steps)
    text = str(trace)
    assert text.splitlines()[1].split()[:4] == ["turn", "input", "sent", "cached"]
    assert text.splitlines()[-1].startswith("total")
    assert "<table>" in trace._repr_html_()


def test_a_provider_error_stops_the_loop_with_its_text(p):
    p.inject("server_error")
    with pytest.raises(RuntimeError, match="anthropic answered 500"):
        run(sundry.opening(model("anthropic")), sundry.run_tool, format="anthropic", base_url=p.url)
