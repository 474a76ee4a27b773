"""The running examples: their data, their tool worlds, and the rules enforced in code."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.examples import crash_triage, sundry
from helpers.messages import load_file, tool_call
from tests.support.background import Background

ROOT = Path(__file__).resolve().parents[2]


def test_sundry_has_nine_tools_and_five_extra_with_unique_names():
    names = [t.name for t in sundry.TOOLS + sundry.EXTRA_TOOLS]
    assert len(sundry.TOOLS) == 9 and len(sundry.EXTRA_TOOLS) == 5
    assert len(set(names)) == 14
    assert "$150" in sundry.SYSTEM_PROMPT


def test_the_ticket_is_the_lessons_opening_exchange():
    request = sundry.ticket()
    roles = [m.role for m in request.messages]
    assert roles == ["system", "user", "assistant", "tool"]
    narration, call = request.messages[2].content
    assert narration.text == "Let me look that order up."
    assert (call.id, call.name) == ("c1", "search_orders")
    assert request.messages[3].content[0].call_id == "c1"
    assert '"total_usd": 129.0' in request.messages[3].content[0].text


def test_refund_ceiling_is_enforced_in_the_dispatcher():
    under = sundry.run_tool(
        tool_call(
            "r1", "issue_refund", {"order_id": "SO-48213", "amount_usd": 129, "reason": "damaged"}
        )
    )
    over = sundry.run_tool(
        tool_call(
            "r2", "issue_refund", {"order_id": "SO-51877", "amount_usd": 289, "reason": "damaged"}
        )
    )
    split = sundry.run_tool(
        tool_call(
            "r3", "issue_refund", {"order_id": "SO-48213", "amount_usd": 500, "reason": "damaged"}
        )
    )
    assert not under.is_error and '"refunded_usd": 129' in under.text
    assert over.is_error and "above the $150 ceiling" in over.text
    assert split.is_error


def test_sundry_tools_answer_with_the_call_id_and_report_bad_input():
    result = sundry.run_tool(tool_call("x7", "get_order", {"order_id": "SO-0"}))
    assert result.call_id == "x7" and result.is_error and "no order" in result.text
    assert sundry.run_tool(tool_call("x8", "no_such_tool")).is_error
    eligible = sundry.run_tool(
        tool_call("x9", "check_refund_eligibility", {"order_id": "SO-48213", "reason": "damaged"})
    )
    assert '"eligible": true' in eligible.text


def test_crash_triage_workspace_reads_searches_and_runs_tests():
    ws = crash_triage.Workspace()
    read = crash_triage.run_tool(
        tool_call(
            "t1",
            "read_file",
            {"path": "internal/orders/shipping.go", "start_line": 57, "end_line": 57},
        ),
        ws,
    )
    assert read.text == "  57  \tcountry := o.Address.Country"
    assert "shipping.go:57" in crash_triage.CRASH_REPORT


def test_crash_triage_tests_fail_until_the_fix_then_pass():
    ws = crash_triage.Workspace()
    test_path = "internal/orders/shipping_test.go"
    repro = ws.files[test_path] + (
        "\nfunc TestShippingQuotePickupHasNoAddress(t *testing.T) {\n"
        "\ts := &Service{Rates: fixedRates{}}\n"
        '\to := &Order{ID: "SO-2", Address: nil, Fulfilled: "pickup"}\n'
        "\t_, _ = s.ShippingQuote(context.Background(), o)\n}\n"
    )
    wrote = crash_triage.run_tool(
        tool_call("t4", "write_file", {"path": test_path, "content": repro}), ws
    )
    assert not wrote.is_error
    run = tool_call("t5", "run_tests", {"packages": "./internal/orders/..."})
    assert "FAIL" in crash_triage.run_tool(run, ws).text
    fixed = ws.files["internal/orders/shipping.go"].replace(
        "\tcountry := o.Address.Country",
        "\tif o.Address == nil {\n\t\treturn Quote{}, nil\n\t}\n\tcountry := o.Address.Country",
    )
    ws.files["internal/orders/shipping.go"] = fixed
    assert (
        "ok  \tgithub.com/sundry/storefront/internal/orders" in crash_triage.run_tool(run, ws).text
    )


def test_crash_triage_refuses_to_change_existing_tests():
    ws = crash_triage.Workspace()
    path = "internal/orders/shipping_test.go"
    weakened = ws.files[path].replace("want 900", "want anything")
    result = crash_triage.run_tool(
        tool_call("t9", "write_file", {"path": path, "content": weakened}), ws
    )
    assert result.is_error and "TestShippingQuoteRoundsUpToTheKilo" in result.text
    assert ws.files[path] != weakened


def check_data(environ: dict[str, str]) -> subprocess.CompletedProcess:
    """``scripts/build_data.py --check`` in a subprocess with ``environ``; it writes nothing."""
    return subprocess.run(
        [sys.executable, "scripts/build_data.py", "--check"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
    )


CHECKED = Background("build-data")


@pytest.fixture(scope="module")
def data_check() -> subprocess.CompletedProcess:
    """Usually already under way: the root conftest starts ``check_data`` in a background
    thread, with the session's environment as it started, as soon as it knows this will run."""
    return CHECKED.result() if CHECKED.started else check_data(dict(os.environ))


def test_data_fixtures_are_built_from_their_parts(data_check):
    done = data_check
    assert done.returncode == 0, done.stdout + done.stderr
    assert load_file(ROOT / "data" / "sundry" / "request.json") == sundry.ticket("gpt-4.1-mini")
    crash = load_file(ROOT / "data" / "crash_triage" / "request.json")
    assert [len(m.tool_calls) for m in crash.messages if m.role == "assistant"] == [1, 2]


def test_arguments_that_do_not_fit_the_schema_get_a_precise_error():
    missing = sundry.run_tool(tool_call("a1", "issue_refund", {"order_id": "SO-48213"}))
    assert missing.is_error and "'amount_usd' is a required property" in missing.text
    wrong_type = sundry.run_tool(
        tool_call(
            "a2", "issue_refund", {"order_id": "SO-48213", "amount_usd": "129", "reason": "damaged"}
        )
    )
    assert wrong_type.is_error and "at amount_usd" in wrong_type.text and "'129'" in wrong_type.text
    bad_enum = sundry.run_tool(
        tool_call("a3", "check_refund_eligibility", {"order_id": "SO-48213", "reason": "bored"})
    )
    assert bad_enum.is_error and "at reason" in bad_enum.text


def test_there_are_two_crash_reports_and_only_one_is_in_this_checkout():
    reports = crash_triage.CRASH_REPORTS
    assert len(reports) == 2 and crash_triage.CRASH_REPORT in reports.values()
    files = crash_triage.Workspace().files
    assert "internal/orders/shipping.go" in files and "internal/payments/refunds.go" not in files
    assert "refunds.go:41" in reports["index out of range in Refunder.Split"]


def test_crash_triage_finishing_rules_live_in_code():
    """submit_diagnosis refuses an unfiled issue, a 'fixed' without a new test, a bad shape."""
    ws = crash_triage.Workspace()
    finish = crash_triage.FINISH

    def submit(*groups):
        return crash_triage.run_tool(tool_call("d1", finish, {"groups": list(groups)}), ws)

    group = {"summary": "s", "status": "fixed", "cause": "c", "test": "TestX", "issue": "ST-501"}
    assert "never filed" in submit(group).text
    filed = crash_triage.run_tool(tool_call("i1", "file_issue", {"title": "t", "body": "b"}), ws)
    assert filed.text == "filed ST-501" and ws.issues["ST-501"] == {"title": "t", "body": "b"}
    refused = submit(group)
    assert refused.is_error and "'TestX' is not one" in refused.text
    assert ws.diagnosis is None
    shape = submit({**group, "status": "done"})
    assert shape.is_error and "groups/0/status" in shape.text and "'done'" in shape.text
    assert "groups" in crash_triage.run_tool(tool_call("d2", finish, {}), ws).text
    stuck = {**group, "status": "needs_human", "test": ""}
    accepted = submit(stuck)
    assert not accepted.is_error and accepted.text == "diagnosis recorded: 1 needs_human"
    assert ws.diagnosis == {"groups": [stuck]}


def test_crash_triage_workspace_diff_shows_every_change():
    ws = crash_triage.Workspace()
    assert ws.diff() == ""
    ws.files["internal/orders/new_test.go"] = "package orders\n"
    path = "internal/orders/shipping.go"
    ws.files[path] = ws.files[path].replace("country := o.Address.Country", 'country := "DE"')
    diff = ws.diff()
    assert "--- /dev/null\n+++ b/internal/orders/new_test.go" in diff
    assert '-\tcountry := o.Address.Country\n+\tcountry := "DE"' in diff
