"""standin.provider.scenarios: the scripted model, driven directly on neutral messages."""

from __future__ import annotations

import pytest

from helpers.examples import crash_triage, sundry
from helpers.messages import Message, Reasoning, Text, ToolCall, tool, tool_result, user
from standin.provider import signatures
from standin.provider.scenarios import SCENARIOS, Turn, resolve


def drive(scenario, request, run_tool, provider="anthropic", think=False, turns=12):
    """A loop without HTTP: the scenario's reply appended, every call answered."""
    calls: list[list[str]] = []
    for _ in range(turns):
        blocks = resolve(scenario)(Turn(request, provider, think))
        request.messages.append(Message("assistant", blocks))
        made = [b for b in blocks if isinstance(b, ToolCall)]
        if not made:
            return request, calls
        calls.append([c.name for c in made])
        request.messages.append(tool(*(run_tool(c) for c in made)))
    raise AssertionError("the scenario never finished")


def test_sundry_refunds_within_the_ceiling():
    request, calls = drive("sundry", sundry.opening("m"), sundry.run_tool)
    assert calls == [["search_orders"], ["check_refund_eligibility"], ["issue_refund"]]
    final = request.messages[-1].text
    assert final.startswith("Hi Maya,") and "$129.00" in final


def test_sundry_escalates_above_the_ceiling():
    ticket = "My espresso machine, order SO-51877, arrived smashed. Refund please.\n\nJon"
    request, calls = drive("sundry", sundry.opening("m", ticket), sundry.run_tool)
    assert calls[-1] == ["escalate_to_human"]
    assert "issue_refund" not in sum(calls, [])
    assert "H-3307" in request.messages[-1].text


def test_reckless_model_is_stopped_by_the_rule_in_code():
    ticket = "My espresso machine, order SO-51877, arrived smashed. Refund please.\n\nJon"
    request, calls = drive("sundry-reckless", sundry.opening("m", ticket), sundry.run_tool)
    assert calls[-2:] == [["issue_refund"], ["escalate_to_human"]]
    refused = request.messages[-4].content[0]
    assert refused.is_error and "ceiling" in refused.text


def test_crash_triage_parallel_calls_failing_test_fix_issue_and_diagnosis():
    workspace = crash_triage.Workspace()
    request, calls = drive(
        "crash-triage", crash_triage.opening("m"), lambda c: crash_triage.run_tool(c, workspace)
    )
    assert calls == [
        ["read_file", "read_file"],
        ["search_code", "run_tests"],
        ["write_file"],
        ["run_tests"],
        ["write_file"],
        ["run_tests"],
        ["file_issue"],
        ["submit_diagnosis"],
    ]
    results = [m.content[0].text for m in request.messages if m.role == "tool"]
    assert "--- FAIL: TestShippingQuotePickupHasNoAddress" in results[3]
    assert "--- PASS: TestShippingQuotePickupHasNoAddress" in results[5]
    assert results[6] == "filed ST-501" and results[7] == "diagnosis recorded: 1 fixed"
    issue = workspace.issues["ST-501"]["body"]
    assert "+\tif o.Address == nil {" in issue and "ok  \t" in issue
    assert "o.Address == nil" in workspace.files["internal/orders/shipping.go"]
    (group,) = workspace.diagnosis["groups"]
    assert group["status"] == "fixed" and group["issue"] == "ST-501"
    assert group["test"] == "TestShippingQuotePickupHasNoAddress"
    assert request.messages[-1].text == "Diagnosis submitted."  # a loop that kept going


@pytest.mark.parametrize("provider", ["anthropic", "openai-responses", "gemini", "openai-chat"])
def test_reasoning_blocks_and_ids_in_the_providers_style(provider):
    request = sundry.opening("m")
    blocks = SCENARIOS["sundry"](Turn(request, provider, think=provider != "openai-chat"))
    call = blocks[-1]
    prefix = {"anthropic": "toolu_01", "gemini": ""}.get(provider, "call_")
    assert call.id.startswith(prefix) and len(call.id) > len(prefix) + 7
    if provider in ("anthropic", "openai-responses"):
        thought = blocks[0]
        assert isinstance(thought, Reasoning)
        assert signatures.verify(provider, thought.text, thought.signature)
        assert not signatures.verify(provider, thought.text + "!", thought.signature)
    if provider == "openai-chat":
        assert isinstance(blocks[0], Text)


def test_ids_are_deterministic():
    first = SCENARIOS["sundry"](Turn(sundry.opening("m"), "anthropic"))
    again = SCENARIOS["sundry"](Turn(sundry.opening("m"), "anthropic"))
    assert first == again


def test_echo_and_custom_scenarios():
    request = sundry.opening("m")
    request.messages.append(user("Ping?"))
    assert SCENARIOS["echo"](Turn(request))[-1] == Text("Ping?")
    assert resolve(len) is len
    with pytest.raises(ValueError, match="unknown scenario 'nope'.*sundry"):
        resolve("nope")


def test_a_crash_from_code_not_in_the_checkout_is_reported_not_invented():
    """The system prompt's "when stuck" instruction: look, file what was tried, needs_human."""
    report = crash_triage.CRASH_REPORTS["index out of range in Refunder.Split"]
    workspace = crash_triage.Workspace()
    request, calls = drive(
        "crash-triage",
        crash_triage.opening("m", report),
        lambda c: crash_triage.run_tool(c, workspace),
    )
    assert calls == [["read_file", "search_code"], ["file_issue"], ["submit_diagnosis"]]
    body = workspace.issues["ST-501"]["body"]
    assert "internal/payments/refunds.go:41" in body and "no such file" in body
    (group,) = workspace.diagnosis["groups"]
    assert group["status"] == "needs_human" and group["issue"] == "ST-501"
    assert workspace.files == crash_triage.Workspace().files  # nothing was written


def test_a_refused_write_ends_in_needs_human_not_in_a_made_up_fix():
    """A tool error stops the fix: the agent files what happened and asks for a human."""
    workspace = crash_triage.Workspace()

    def refuse_writes(call):
        if call.name == "write_file":
            return tool_result(call.id, "refused: read-only workspace", is_error=True)
        return crash_triage.run_tool(call, workspace)

    request, calls = drive("crash-triage", crash_triage.opening("m"), refuse_writes)
    assert calls[-2:] == [["file_issue"], ["submit_diagnosis"]]
    (group,) = workspace.diagnosis["groups"]
    assert group["status"] == "needs_human" and "read-only" in group["cause"]
