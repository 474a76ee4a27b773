"""Used in lessons: 01, 03, 04, 05, 06, 07, 08, 09, 10, 11.

The crash-triage scenario: how a careful model works the storefront panic, turn by turn.

1. ``read_file`` the crashing file and its test file, **in parallel** (two calls, one turn);
2. ``search_code`` for the callers and ``run_tests`` for a baseline, **in parallel**;
3. ``write_file``: the test file plus one new test that reproduces the panic;
4. ``run_tests``: it fails, as it should;
5. ``write_file``: the nil check in ``shipping.go``;
6. ``run_tests``: everything passes;
7. ``file_issue``: the cause, the patch as a unified diff, the test output;
8. ``submit_diagnosis``: one group, ``fixed``, naming the new test and the issue. The system
   prompt asks for this ending, so the program reads a structured result, not prose.

The new files are built from what the ``read_file`` results showed, as a model would, so the
diff in the issue is real. If a tool answers with an error (a write refused by the "do not
change existing tests" rule in ``helpers.examples.crash_triage.run_tool``, say), the agent
stops working on the fix, files what happened, and finishes with ``needs_human``.

A crash whose first frame in our module is some other file takes the "when stuck" path of the
system prompt: read that file and search for the function in parallel; when neither finds the
code (it is not in this checkout), file an issue with what was found and tried, and finish with
the status ``needs_human``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from helpers.messages import Block, Text, ToolResult

if TYPE_CHECKING:
    from standin.provider.turn import Turn

__all__ = ["crash_triage"]

FINISH = "submit_diagnosis"
NEW_TEST_NAME = "TestShippingQuotePickupHasNoAddress"
CODE = "internal/orders/shipping.go"
TESTS = "internal/orders/shipping_test.go"
PACKAGES = "./internal/orders/..."

NEW_TEST = """
func TestShippingQuotePickupHasNoAddress(t *testing.T) {
\ts := &Service{Rates: fixedRates{"DE": 450}}
\to := &Order{
\t\tID:        "SO-2",
\t\tItems:     []Item{{SKU: "A", Quantity: 1, WeightG: 300}},
\t\tAddress:   nil,
\t\tFulfilled: "pickup",
\t}
\tif _, err := s.ShippingQuote(context.Background(), o); err == nil {
\t\tt.Fatal("want an error for an order without an address, got nil")
\t}
}
"""

NIL_CHECK = """\tif o.Address == nil {
\t\treturn Quote{}, fmt.Errorf("order %s has no shipping address (%s)", o.ID, o.Fulfilled)
\t}
"""


def _source(result: ToolResult | None) -> str:
    """File text back from a ``read_file`` result (which numbers its lines)."""
    lines = (result.text if result else "").splitlines()
    return "\n".join(re.sub(r"^ *\d+  ", "", line, count=1) for line in lines) + "\n"


def _fix(code: str) -> str:
    return code.replace(
        "\tcountry := o.Address.Country\n", NIL_CHECK + "\tcountry := o.Address.Country\n"
    )


_FRAME = re.compile(
    r"github\.com/sundry/storefront/\S*?\.(?:\(\*?(\w+)\)\.)?(\w+)\(.*?\n\s*/src/(\S+?):(\d+)",
    re.S,
)


def _first_frame(report: str) -> tuple[str, str, int] | None:
    """(function, path, line) of the first stack frame in our module, if any."""
    match = _FRAME.search(report)
    return (match.group(2), match.group(3), int(match.group(4))) if match else None


@dataclass
class Conclusion:
    """What the agent concluded about its one group of reports: what it files and submits."""

    summary: str
    status: str  # "fixed" or "needs_human"
    cause: str
    body: str
    test: str = ""


def _stuck(turn: Turn, done: list, function: str, path: str, line: int) -> list[Block] | Conclusion:
    """The crash points at code this checkout does not have: look, then say so."""
    if not done:
        think = f"First frame in our code: {path}:{line}, in {function}. Read it and find it."
        return [
            *turn.thought(think),
            Text(f"The panic is in {function} at {path}:{line}. Reading the code."),
            turn.call("read_file", {"path": path, "start_line": max(line - 10, 1)}),
            turn.call("search_code", {"pattern": rf"func .*\b{function}\("}),
        ]
    found = "\n".join(f"- {c.name}: {r.text if r else 'no answer'}" for c, r in done)
    return Conclusion(
        summary=f"panic in {function} ({path}:{line})",
        status="needs_human",
        cause=f"{path} is not in this checkout, so the crash could not be reproduced.",
        body=(
            f"The stack trace points at `{path}:{line}` (`{function}`), but that code is not "
            f"in this checkout:\n{found}\n\nThe crash probably comes from a build whose "
            "source differs from the workspace. Next: check which commit production runs (the "
            "build's version endpoint or deploy log), check it out, and triage again."
        ),
    )


def _working(turn: Turn, done: list) -> list[Block] | Conclusion:
    """The storefront panic, step by step: the next tool calls, or the conclusion when done."""
    steps = [c.name for c, _ in done]
    read = {c.arguments.get("path"): r for c, r in done if c.name == "read_file"}
    if not done:
        think = "First frame in our code: internal/orders/shipping.go:57. Read it and its tests."
        return [
            *turn.thought(think),
            Text("The panic is a nil pointer dereference in ShippingQuote. Reading the code."),
            turn.call("read_file", {"path": CODE}),
            turn.call("read_file", {"path": TESTS}),
        ]
    last_call, last_result = done[-1]
    if last_result is not None and last_result.is_error and last_call.name != "run_tests":
        return Conclusion(
            summary="nil Address in ShippingQuote (internal/orders/shipping.go:57)",
            status="needs_human",
            cause=f"{last_call.name} failed, so the fix is not done: {last_result.text}",
            body=f"Stopped: {last_call.name} failed with: {last_result.text}",
        )
    if steps.count("search_code") == 0:
        think = "o.Address is a pointer, nil for pickups. Who calls ShippingQuote? Baseline tests."
        return [
            *turn.thought(think),
            turn.call("search_code", {"pattern": r"ShippingQuote\(", "path": "internal"}),
            turn.call("run_tests", {"packages": PACKAGES}),
        ]
    writes = [c for c, _ in done if c.name == "write_file"]
    if not writes:
        think = "Reproduce first: an order with Address nil must not panic."
        new_tests = _source(read.get(TESTS)) + NEW_TEST
        return [
            *turn.thought(think),
            turn.call("write_file", {"path": TESTS, "content": new_tests}),
        ]
    runs_after_write = steps[len(steps) - steps[::-1].index("write_file") :].count("run_tests")
    if runs_after_write == 0:
        return [*turn.thought("Run the tests."), turn.call("run_tests", {"packages": PACKAGES})]
    if len(writes) == 1:
        think = "The new test fails with the production panic. Now the nil check."
        fixed = _fix(_source(read.get(CODE)))
        return [*turn.thought(think), turn.call("write_file", {"path": CODE, "content": fixed})]
    return Conclusion(
        summary="nil Address in ShippingQuote (internal/orders/shipping.go:57)",
        status="fixed",
        cause=(
            "ShippingQuote reads o.Address.Country, but Address is nil for in-store pickups "
            "and digital orders, so a pickup order panics."
        ),
        body=_report(_source(read.get(CODE)), last_result),
        test=NEW_TEST_NAME,
    )


def crash_triage(turn: Turn) -> list[Block]:
    calls = turn.calls()
    if any(c.name == FINISH and r is not None and not r.is_error for c, r in calls):
        return [Text("Diagnosis submitted.")]  # for a loop that keeps going after the finish
    done = [(c, r) for c, r in calls if c.name not in ("file_issue", FINISH)]
    frame = _first_frame(turn.user_text())
    if frame is not None and frame[1] != CODE:
        step = _stuck(turn, done, *frame)
    else:
        step = _working(turn, done)
    if isinstance(step, list):
        return step
    return _finish(turn, step, [r for c, r in calls if c.name == "file_issue"])


def _finish(turn: Turn, conclusion: Conclusion, filed: list[ToolResult | None]) -> list[Block]:
    """File the issue, then end through the finishing tool: a result a program can read."""
    if not filed:
        think = "Done with this group. File the issue, then submit the diagnosis."
        title = conclusion.summary
        return [
            *turn.thought(think),
            turn.call("file_issue", {"title": title, "body": conclusion.body}),
        ]
    answer = filed[-1].text if filed[-1] is not None else ""
    issue = answer.split()[-1] if answer.startswith("filed ") else ""
    group = {
        "summary": conclusion.summary,
        "status": conclusion.status,
        "cause": conclusion.cause,
        "test": conclusion.test,
        "issue": issue,
    }
    return [turn.call(FINISH, {"groups": [group]})]


def _report(original: str, tests: ToolResult | None) -> str:
    diff = "".join(
        difflib.unified_diff(
            original.splitlines(keepends=True),
            _fix(original).splitlines(keepends=True),
            fromfile=f"a/{CODE}",
            tofile=f"b/{CODE}",
        )
    )
    return (
        "Cause: `ShippingQuote` reads `o.Address.Country`, but `Address` is nil for in-store "
        "pickups and digital orders, so a pickup order panics at shipping.go:57.\n\n"
        f"Patch:\n```diff\n{diff}```\n\n"
        f"New test `{NEW_TEST_NAME}` failed before the fix; existing tests are unchanged.\n\n"
        f"Tests after the fix:\n```\n{tests.text if tests else ''}\n```"
    )
