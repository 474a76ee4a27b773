"""Write the conversation fixtures in data/ from their parts (prompts, tools, fake worlds).

Usage: python scripts/build_data.py [--check]

The system prompts, tool schemas and fake worlds are the single source; the request files are
built from them by the same code the lessons call, so they can never drift apart. ``--check``
(run by the tests) fails if a written file differs from what would be built.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers.examples import crash_triage, sundry  # noqa: E402
from helpers.messages import Reasoning, Request, assistant, dump, tool, tool_call  # noqa: E402

MODEL = "gpt-4.1-mini"


def crash_triage_request() -> Request:
    """Two rounds of the crash-triage agent, the second with two tool calls in parallel."""
    request = crash_triage.opening(MODEL)
    workspace = crash_triage.Workspace()
    read = tool_call("t1", "read_file", {"path": "internal/orders/shipping.go", "start_line": 50})
    first = assistant(
        Reasoning(
            "The first frame in our module is internal/orders/shipping.go:57, called from the "
            "shipping-quote handler. A nil pointer there is probably the order's Address.",
            signature="c3ludGhldGljLXNpZ25hdHVyZS1mb3ItdGhlLWxlc3NvbnM=",
            provider="anthropic",
        ),
        "The panic is in ShippingQuote at shipping.go:57. Let me read it.",
        read,
    )
    search = tool_call("t2", "search_code", {"pattern": 'Fulfilled:\\s*"(pickup|digital)"'})
    tests = tool_call("t3", "run_tests", {"packages": "./internal/orders/..."})
    second = assistant(
        "Line 57 reads o.Address.Country, and Address is nil for pickups and digital orders. "
        "I'll check whether any test covers those, and run the package's tests as they are.",
        search,
        tests,
    )
    request.messages += [
        first,
        tool(crash_triage.run_tool(read, workspace)),
        second,
        tool(*(crash_triage.run_tool(c, workspace) for c in (search, tests))),
    ]
    return request


FIXTURES = {
    ROOT / "data" / "sundry" / "request.json": lambda: sundry.ticket(MODEL),
    ROOT / "data" / "crash_triage" / "request.json": crash_triage_request,
}


def main(check: bool) -> int:
    stale = []
    for path, build in FIXTURES.items():
        text = dump(build()) + "\n"
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.relative_to(ROOT).as_posix())
        else:
            path.write_text(text, encoding="utf-8")
            print("wrote", path.relative_to(ROOT))
    if stale:
        print("out of date (run: python scripts/build_data.py):", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv[1:]))
