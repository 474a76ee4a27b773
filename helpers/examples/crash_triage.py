"""Used in lessons: 00, 04, 06, 09, 10, 11.

The crash-triage agent for ``storefront``, a Go web service: ``SYSTEM_PROMPT`` and ``TOOLS``
from ``data/crash_triage/``, the production panic ``CRASH_REPORT``. ``run_tool`` works on a small
copy of the repository (reads for real, keeps writes in a ``Workspace``, answers ``run_tests``
from what it holds); ``submit_diagnosis`` ends the run. The rules that matter are enforced in
code, not left to the prompt.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from helpers.examples import DATA, argument_error, tools_in
from helpers.messages import Request, Tool, ToolCall, ToolResult, system, tool_result, user

__all__ = [
    "CRASH_REPORT", "CRASH_REPORTS", "FINISH", "HERE", "NEVER_FILED", "REPO", "SYSTEM_PROMPT",
    "TASK", "TOOLS", "Workspace", "opening", "run_tool",
]  # fmt: skip

HERE = DATA / "crash_triage"
REPO = HERE / "repo"

SYSTEM_PROMPT: str = (HERE / "system_prompt.md").read_text(encoding="utf-8").strip()
CRASH_REPORT: str = (HERE / "crash_report.txt").read_text(encoding="utf-8").strip()
CRASH_REPORTS: dict[str, str] = {
    "nil address in ShippingQuote": CRASH_REPORT,
    "index out of range in Refunder.Split": (HERE / "crash_report_refunds.txt")
    .read_text(encoding="utf-8")
    .strip(),
}
TOOLS: list[Tool] = tools_in(HERE / "tools.json")
FINISH = "submit_diagnosis"  # the tool whose call ends a run (see the system prompt)
NEVER_FILED = "was never filed"  # how the finishing tool refuses an issue nobody filed
TASK = "This panic hit production at 03:12 last night. Triage it, please.\n\n"


def opening(model: str = "", report: str = CRASH_REPORT) -> Request:
    """The first request: the system prompt, the tools, and a crash report."""
    return Request(
        model=model,
        tools=list(TOOLS),
        messages=[system(SYSTEM_PROMPT), user(TASK + report)],
    )


def _original_files() -> dict[str, str]:
    return {
        p.relative_to(REPO).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(REPO.rglob("*"))
        if p.is_file()
    }


@dataclass
class Workspace:
    """The repository as the agent sees it during one run (writes stay in memory)."""

    files: dict[str, str] = field(default_factory=_original_files)
    issues: dict[str, dict[str, str]] = field(default_factory=dict)
    diagnosis: dict[str, Any] | None = None

    def diff(self) -> str:
        """Every change made in this run, as one unified diff against the checkout."""
        original = _original_files()
        out = []
        for path in sorted(set(original) | set(self.files)):
            before, after = original.get(path, ""), self.files.get(path, "")
            if before != after:
                out += difflib.unified_diff(
                    before.splitlines(keepends=True),
                    after.splitlines(keepends=True),
                    fromfile=f"a/{path}" if path in original else "/dev/null",
                    tofile=f"b/{path}",
                )
        return "".join(out)

    def read(self, path: str, start: int = 1, end: int | None = None) -> str:
        lines = self.files[path].splitlines()
        end = min(end or len(lines), len(lines))
        return "\n".join(f"{n:4d}  {lines[n - 1]}" for n in range(max(start, 1), end + 1))

    def search(self, pattern: str, under: str = "") -> str:
        regex = re.compile(pattern)
        hits = [
            f"{path}:{n}: {line.strip()}"
            for path, body in self.files.items()
            if path.startswith(under.strip("/"))
            for n, line in enumerate(body.splitlines(), start=1)
            if regex.search(line)
        ]
        return "\n".join(hits[:50]) or "no matches"

    def tests(self, packages: str) -> str:
        shipping = self.files.get("internal/orders/shipping.go", "")
        tests = self.files.get("internal/orders/shipping_test.go", "")
        fixed = "o.Address == nil" in shipping
        has_repro = "Address:   nil" in tests or "Address: nil" in tests
        if "orders" not in packages and packages not in ("./...", "..."):
            return f"ok  \tgithub.com/sundry/storefront/{packages.strip('./')}\t0.004s"
        if has_repro and not fixed:
            return (
                "--- FAIL: TestShippingQuotePickupHasNoAddress (0.00s)\n"
                "panic: runtime error: invalid memory address or nil pointer dereference "
                "[recovered]\n"
                "\tinternal/orders/shipping.go:57 +0x1d4\n"
                "FAIL\tgithub.com/sundry/storefront/internal/orders\t0.006s"
            )
        names = re.findall(r"func (Test\w+)", tests)
        passed = "\n".join(f"--- PASS: {n} (0.00s)" for n in names)
        return f"{passed}\nok  \tgithub.com/sundry/storefront/internal/orders\t0.005s"


def _existing_test_functions(body: str) -> dict[str, str]:
    parts = re.split(r"(?m)^func ", body)
    return {re.match(r"\w+", p).group(): p.strip() for p in parts[1:] if re.match(r"Test\w+", p)}


def _file_issue(args: dict[str, Any], workspace: Workspace) -> str:
    number = f"ST-{501 + len(workspace.issues)}"
    workspace.issues[number] = {"title": args["title"], "body": args["body"]}
    return number


def _diagnosis_problem(groups: list[dict[str, Any]], workspace: Workspace) -> str | None:
    """Why this diagnosis cannot be accepted, or None. The finishing rules, kept in code."""
    for n, group in enumerate(groups):
        if group["issue"] not in workspace.issues:
            return f"groups[{n}]: issue {group['issue']!r} {NEVER_FILED} (use file_issue first)"
        if group["status"] == "fixed":
            test = group.get("test", "")
            tests = "".join(b for p, b in workspace.files.items() if p.endswith("_test.go"))
            if not test or f"func {test}(" not in tests:
                return f"groups[{n}]: status fixed needs the new test's name; {test!r} is not one"
    return None


def run_tool(call: ToolCall, workspace: Workspace) -> ToolResult:
    """Execute one crash-triage tool call in ``workspace``."""
    args = call.arguments
    error = argument_error(TOOLS, call)
    if error is not None:
        where, message = error
        return tool_result(call.id, f"bad arguments for {call.name}: {where}: {message}", True)
    try:
        if call.name == "search_code":
            return tool_result(call.id, workspace.search(args["pattern"], args.get("path", "")))
        if call.name == "read_file":
            if args["path"] not in workspace.files:
                return tool_result(call.id, f"no such file: {args['path']}", is_error=True)
            start, end = args.get("start_line", 1), args.get("end_line")
            return tool_result(call.id, workspace.read(args["path"], start, end))
        if call.name == "write_file":
            path, new = args["path"], args["content"]
            old = workspace.files.get(path)
            if path.endswith("_test.go") and old is not None:
                before, after = _existing_test_functions(old), _existing_test_functions(new)
                changed = [n for n, body in before.items() if after.get(n) != body]
                if changed:  # the one rule of the system prompt, enforced here
                    return tool_result(
                        call.id,
                        f"refused: existing tests may not change ({', '.join(changed)}). "
                        "Add new test functions instead.",
                        is_error=True,
                    )
            workspace.files[path] = new
            return tool_result(call.id, f"wrote {path} ({len(new.splitlines())} lines)")
        if call.name == "run_tests":
            return tool_result(call.id, workspace.tests(args["packages"]))
        if call.name == "file_issue":
            return tool_result(call.id, f"filed {_file_issue(args, workspace)}")
        if call.name == FINISH:
            problem = _diagnosis_problem(args["groups"], workspace)
            if problem:
                return tool_result(call.id, f"refused: {problem}", is_error=True)
            workspace.diagnosis = args
            statuses = [g["status"] for g in args["groups"]]
            summary = ", ".join(f"{statuses.count(s)} {s}" for s in sorted(set(statuses)))
            return tool_result(call.id, f"diagnosis recorded: {summary}")
    except (KeyError, re.error) as err:
        return tool_result(call.id, f"bad arguments for {call.name}: {err}", is_error=True)
    return tool_result(call.id, f"unknown tool {call.name!r}", is_error=True)
