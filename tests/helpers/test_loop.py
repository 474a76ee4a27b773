"""helpers.loop: the same loop and its meter, four wire formats, against the stand-in."""

from __future__ import annotations

import contextlib

import pytest

from helpers.examples import crash_triage, sundry
from helpers.formats import parse
from helpers.loop import run
from standin import LocalProvider
from standin.explained import explained
from tests.support.provider_support import PROVIDERS, model


@pytest.mark.parametrize("wire", PROVIDERS)
def test_sundry_ticket_in_every_wire_format(p, wire):
    trace = run(sundry.opening(model(wire)), sundry.run_tool, format=wire, base_url=p.url)
    assert [s.tool_names for s in trace.steps] == [
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
    assert trace.steps[1].tool_names == ["search_code", "run_tests"]
    calls = trace.steps[1].tool_calls  # the calls themselves, as Message.tool_calls gives them
    assert calls == trace.steps[1].reply.message.tool_calls and calls[0].id.startswith("toolu_")
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
    lines = str(trace).splitlines()
    assert lines[1].split()[:4] == ["turn", "input", "sent", "cached"]
    assert lines[len(trace.steps) + 2].startswith("total")
    assert lines[len(trace.steps) + 3 :] == trace.count_notes()
    assert "<table>" in trace._repr_html_()


@pytest.mark.parametrize("via", ["httpx", "sdk"])
def test_the_meter_says_which_counts_are_the_local_providers_estimates(p, via):
    """Each reply carries the count's label in a header; the meter prints it under the table."""
    from helpers import tokens
    from helpers.tokens.estimate import sentence
    from standin.provider.routes import COUNT_HEADER

    claude = model("anthropic")
    trace = run(
        sundry.opening(claude), sundry.run_tool, format="anthropic", base_url=p.url, via=via
    )
    for step in trace.steps:
        counted = tokens.count(parse(step.request_body, "anthropic"), claude)
        assert step.headers[COUNT_HEADER] == explained(counted) == counted.label
    spread = sentence("anthropic-estimate", claude)
    expected = f"input sent, each of turns 1-{len(trace.steps)}: estimate; {spread}"
    assert trace.count_notes() == [expected]
    assert str(trace).endswith(trace.count_notes()[0])
    assert spread in trace._repr_html_() and "recorded requests" in spread


def test_a_count_estimated_by_a_bound_is_printed_with_it(p):
    trace = run(
        sundry.opening(model("openai-chat")), sundry.run_tool, format="openai-chat", base_url=p.url
    )
    from helpers import tokens

    notes = trace.count_notes()
    assert notes and all(n.startswith(("input sent, turn", "input sent, each of")) for n in notes)
    for step in trace.steps:
        counted = tokens.count(parse(step.request_body, "openai-chat"), step.reply.model)
        assert any(n.endswith(f": {explained(counted)}") for n in notes)
        assert explained(counted).startswith(f"{counted.label} tokens: tools[")  # unit and parts


def test_a_trace_whose_provider_reports_the_bill_has_no_count_notes(p):
    """Real APIs send no count header (their usage is the bill); nor does an exact count."""
    from standin.provider.routes import COUNT_HEADER

    trace = run(
        sundry.opening(model("anthropic")), sundry.run_tool, format="anthropic", base_url=p.url
    )
    for step in trace.steps:
        step.headers = {}
    assert trace.count_notes() == [] and str(trace).splitlines()[-1].startswith("total")
    trace.steps[0].headers = {COUNT_HEADER: "exact"}
    assert trace.count_notes() == []


def test_note_turns_are_written_as_runs():
    from helpers.meter import _turns

    assert _turns([3]) == "turn 3"
    assert _turns([1, 2, 3, 5, 7, 8]) == "each of turns 1-3, 5, 7-8"


def test_a_provider_error_stops_the_loop_with_its_text(p):
    p.inject("server_error")
    with pytest.raises(RuntimeError, match="anthropic answered 500"):
        run(sundry.opening(model("anthropic")), sundry.run_tool, format="anthropic", base_url=p.url)
