"""The crash-triage scenario: how a careful model works the storefront panic, turn by turn.

1. ``read_file`` the crashing file and its test file, **in parallel** (two calls, one turn);
2. ``search_code`` for the callers and ``run_tests`` for a baseline, **in parallel**;
3. ``write_file``: the test file plus one new test that reproduces the panic;
4. ``run_tests``: it fails, as it should;
5. ``write_file``: the nil check in ``shipping.go``;
6. ``run_tests``: everything passes;
7. the final report: cause, the patch as a unified diff, the test output.

The new files are built from what the ``read_file`` results showed, as a model would, so the
diff in the report is real. If a write is refused (the "do not change existing tests" rule in
``helpers.examples.crash_triage.run_tool``), the report says so instead.

A crash whose first frame in our module is some other file takes the "when stuck" path of the
system prompt: read that file and search for the function in parallel; when neither finds the
code (it is not in this checkout), stop and report what was found, tried, and what comes next.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING

from helpers.messages import Block, Text, ToolResult

if TYPE_CHECKING:
    from helpers.provider.turn import Turn

__all__ = ["crash_triage"]

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


def _stuck(turn: Turn, function: str, path: str, line: int) -> list[Block]:
    """The crash points at code this checkout does not have: look, then say so and stop."""
    done = turn.calls()
    if not done:
        think = f"First frame in our code: {path}:{line}, in {function}. Read it and find it."
        return [
            *turn.thought(think),
            Text(f"The panic is in {function} at {path}:{line}. Reading the code."),
            turn.call("read_file", {"path": path, "start_line": max(line - 10, 1)}),
            turn.call("search_code", {"pattern": rf"func .*\b{function}\("}),
        ]
    found = "\n".join(f"- {c.name}: {r.text if r else 'no answer'}" for c, r in done)
    return [
        Text(
            "**Could not reproduce.** The stack trace points at "
            f"`{path}:{line}` (`{function}`), but that code is not in this checkout:\n"
            f"{found}\n\nThe crash probably comes from a build whose source differs from "
            "/src. Stopping here, as instructed. **Next:** check which commit production runs "
            "(the build's version endpoint or deploy log), check it out, and triage again."
        )
    ]


def crash_triage(turn: Turn) -> list[Block]:
    frame = _first_frame(turn.user_text())
    if frame is not None and frame[1] != CODE:
        return _stuck(turn, *frame)
    done = turn.calls()
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
        return [Text(f"Stopped: {last_call.name} failed with: {last_result.text}")]
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
    return [Text(_report(_source(read.get(CODE)), last_result))]


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
        "**Cause.** `ShippingQuote` reads `o.Address.Country`, but `Address` is nil for "
        "in-store pickups and digital orders, so a pickup order panics at shipping.go:57.\n\n"
        f"**Patch.**\n```diff\n{diff}```\n\n"
        "I added `TestShippingQuotePickupHasNoAddress` (it failed before the fix); existing tests "
        f"are unchanged.\n\n**Tests.**\n```\n{tests.text if tests else ''}\n```"
    )
