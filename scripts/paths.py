"""The path report: what a learner steps into from each lesson, measured by running it.

Usage: python scripts/paths.py [NN ...] [--detail] [--markdown]   (make paths; default: all)

Each lesson's code cells run in-process in an IPython shell (cwd notebooks/, network blocked,
no API keys), under ``sys.settrace``. A call is counted when it enters a file of this project
from the lesson's own code, or from a counted call: so the helper functions a cell calls, and
everything they reach inside the project, with the lines that ran. Import-time code
(``<module>``) is not counted. Calls that enter the stand-in (standin/), the exercise checks
(course/exercises) or display (course/display, plots, widgets, helpers/html.py,
and whatever IPython's display hook calls, such as ``_repr_html_``) are counted apart, with
all they reach. The stand-in's server thread is not traced: a learner's call stops at
the socket. The table has, per lesson: files, functions, lines run, lines of those functions;
then, for lessons 03, 05 and 10, each central call (CENTRAL) with the files and lines of the
learner's functions it entered (budget: 6 files, 500 lines each).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PARTS = ("helpers", "standin", "course")
#: Old import paths kept for a release: the import machinery asks it (``__path__``), no learner.
MOVED = "helpers/moved.py"
DISPLAY = ("course/display.py", "course/plots.py", "course/widgets.py", "helpers/html.py")
KINDS = ("learner", "stand-in", "exercise", "display")
# Each lesson's central idea, as the helper calls that carry it (issue 23's budget: what a
# learner steps into from each is at most 6 files and 500 lines of functions).
CENTRAL = {
    "03": ("to_flat", "parse_response", "render"),
    "05": ("count", "tool_parts", "tool_count_effect"),
    "10": ("check",),
}


def kind_of_file(relative: str) -> str | None:
    """The kind a call into this project file starts, or None (the caller's kind goes on)."""
    if relative.startswith("standin/"):
        return "stand-in"
    if relative.startswith("course/exercises/"):
        return "exercise"
    if relative in DISPLAY:
        return "display"
    return None


@dataclass
class Tally:
    """What one kind of call reached: functions (file, name, first line) with their lines."""

    functions: dict[tuple[str, str, int], int] = field(default_factory=dict)  # -> its length
    lines: set[tuple[str, int]] = field(default_factory=set)
    entry: dict[tuple[str, str, int], int] = field(default_factory=dict)  # called from a cell

    @property
    def files(self) -> set[str]:
        return {f for f, _, _ in self.functions}

    def function_lines(self) -> int:
        return sum(self.functions.values())


class Tracer:
    """Attributes every project frame to a kind, from its nearest traced caller."""

    def __init__(self, user_ns: dict):
        self.user_ns = user_ns
        self.tallies = {kind: Tally() for kind in KINDS}
        self.kinds: dict[int, str] = {}  # id(frame) -> kind, while the frame runs
        self.lengths: dict[object, int] = {}
        self.roots: dict[int, tuple[str, str, int]] = {}  # id(frame) -> the cell's call above it
        self.per_call: dict[tuple[str, str, int], Tally] = {}  # learner code each call entered

    def _length(self, code) -> int:
        if code not in self.lengths:
            lines = [line for _, _, line in code.co_lines() if line is not None]
            self.lengths[code] = max(lines) - code.co_firstlineno + 1 if lines else 1
        return self.lengths[code]

    def _caller_kind(self, frame) -> tuple[str | None, bool, int | None]:
        """(the kind from the nearest counted caller or "cell", whether that is the lesson's
        code itself, the id of that counted caller): "import" under a module's top level,
        "display" under IPython's display hook, None when no lesson code is above it."""
        caller, through_ipython = frame.f_back, False
        while caller is not None:
            if caller.f_globals is self.user_ns:
                return ("display", False, None) if through_ipython else ("cell", True, None)
            if id(caller) in self.kinds:
                return self.kinds[id(caller)], False, id(caller)
            if caller.f_code.co_name == "<module>":
                return "import", False, None
            through_ipython |= f"{os.sep}IPython{os.sep}" in caller.f_code.co_filename
            caller = caller.f_back
        return None, False, None

    def __call__(self, frame, event, arg):
        if event != "call":
            return None
        if frame.f_globals is self.user_ns:
            return None  # the lesson's own code: followed through its callees
        path = frame.f_code.co_filename
        if not path.startswith(str(ROOT)) or frame.f_code.co_name == "<module>":
            return None
        relative = Path(path).relative_to(ROOT).as_posix()
        if relative.split("/")[0] not in PARTS or relative == MOVED:
            return None
        caller, from_cell, caller_id = self._caller_kind(frame)
        if caller == "import":
            return None
        if caller is None:
            kind = "display"  # nothing of the lesson's calls it: IPython's display hook did
        else:
            kind = kind_of_file(relative) or ("learner" if caller == "cell" else caller)
        tally = self.tallies[kind]
        key = (relative, frame.f_code.co_qualname, frame.f_code.co_firstlineno)
        if not frame.f_code.co_name.startswith("<"):  # a comprehension's lines are its function's
            tally.functions[key] = self._length(frame.f_code)
        if from_cell:
            tally.entry[key] = tally.entry.get(key, 0) + 1
        root = key if from_cell else self.roots.get(caller_id)
        own = self.per_call.setdefault(root, Tally()) if root and kind == "learner" else None
        if own is not None and not frame.f_code.co_name.startswith("<"):
            own.functions[key] = self._length(frame.f_code)
        self.kinds[id(frame)] = kind
        if root:
            self.roots[id(frame)] = root

        def local(frame, event, arg):
            if event == "line":
                tally.lines.add((relative, frame.f_lineno))
                if own is not None:
                    own.lines.add((relative, frame.f_lineno))
            elif event == "return":
                self.kinds.pop(id(frame), None)
                self.roots.pop(id(frame), None)
            return local

        return local


def code_cells(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def trace_lesson(notebook: Path) -> Tracer:
    """Run the lesson's code cells under the tracer; it holds the tallies."""
    os.environ["MPLBACKEND"] = "Agg"
    for name in [n for n in os.environ if n.endswith("_API_KEY")] + ["ON_THE_WIRE_LIVE"]:
        os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    from IPython.core.interactiveshell import InteractiveShell

    from standin.netguard import block_network

    block_network()
    os.chdir(notebook.parent)
    shell = InteractiveShell.instance()
    tracer = Tracer(shell.user_ns)
    errors = []
    for number, source in enumerate(code_cells(notebook), 1):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            sys.settrace(tracer)
            try:
                result = shell.run_cell(source, store_history=True)
            finally:
                sys.settrace(None)
                threading.settrace(None)
        if result.error_in_exec is not None and "raise" not in source:
            errors.append(f"cell {number}: {type(result.error_in_exec).__name__}")
    if errors:
        print(f"{notebook.name}: errors in {', '.join(errors)}", file=sys.stderr)
    return tracer


def summary(tracer: Tracer) -> dict:
    out: dict = {"per_call": per_call(tracer.per_call)}
    for kind, tally in tracer.tallies.items():
        out[kind] = {
            "files": len(tally.files),
            "functions": len(tally.functions),
            "lines_run": len(tally.lines),
            "function_lines": tally.function_lines(),
            "entry": sorted(f"{f}:{line} {name}" for f, name, line in tally.entry),
            "by_file": {
                path: {
                    "functions": sorted(
                        f"{name} (line {line}, {n} lines)"
                        for (f, name, line), n in tally.functions.items()
                        if f == path
                    ),
                    "lines_run": sum(1 for f, _ in tally.lines if f == path),
                }
                for path in sorted(tally.files)
            },
        }
    return out


def per_call(calls: dict[tuple[str, str, int], Tally]) -> dict:
    """Per function a cell calls: the learner's files and functions it entered (not the
    stand-in, exercise checks or display), the lines of those functions, by file."""
    out = {}
    for (path, name, line), tally in sorted(calls.items()):
        by_file: dict[str, int] = {}
        for (f, _, _), n in tally.functions.items():
            by_file[f] = by_file.get(f, 0) + n
        out[f"{name} ({path}:{line})"] = {
            "name": name.rsplit(".", 1)[-1],
            "files": len(tally.files),
            "functions": len(tally.functions),
            "function_lines": tally.function_lines(),
            "by_file": dict(sorted(by_file.items())),
            "keys": sorted(f"{f}|{n}|{ln}|{size}" for (f, n, ln), size in tally.functions.items()),
        }
    return out


def central(number: str, result: dict) -> list[tuple[str, int, int, dict[str, int]]]:
    """The lesson's central calls (CENTRAL), each with files, lines of entered functions and
    lines by file; a last row, "together", for their union."""
    names = CENTRAL.get(number, ())
    rows, union = [], {}
    for label, call in result["per_call"].items():
        if call["name"] in names:
            rows.append((label, call["files"], call["function_lines"], call["by_file"]))
            union.update(dict.fromkeys(call["keys"]))
    if len(rows) > 1:
        by_file: dict[str, int] = {}
        for key in union:
            f, _, _, size = key.split("|")
            by_file[f] = by_file.get(f, 0) + int(size)
        rows.append(
            ("together", len(by_file), sum(by_file.values()), dict(sorted(by_file.items())))
        )
    return rows


def central_table(results: dict[str, dict]) -> str:
    lines = ["central calls: files and lines of the learner's functions each enters"]
    lines.append("(not the stand-in, exercise checks or display; budget 6 files, 500 lines)")
    for number, result in results.items():
        for label, files, size, by_file in central(number, result):
            over = files > 6 or size > 500
            mark = "  OVER" if over and label != "together" else ""  # the budget is per call
            lines.append(f"  {number} {label:60} {files:3} files {size:5} lines{mark}")
            lines += [f"        {f:50} {n:5}" for f, n in by_file.items()]
    return "\n".join(lines)


def run_one(number: str) -> dict:
    """Trace one lesson in a fresh interpreter (lessons share nothing), its summary as JSON."""
    import subprocess

    run = subprocess.run(
        [sys.executable, __file__, "--one", number], capture_output=True, text=True, cwd=ROOT
    )
    if run.returncode != 0:
        raise SystemExit(f"lesson {number}: {run.stderr.strip().splitlines()[-1:]}")
    sys.stderr.write(run.stderr)
    return json.loads(run.stdout.splitlines()[-1])


def table(results: dict[str, dict], markdown: bool) -> str:
    head = ["lesson", "files", "functions", "lines run", "lines of those functions", "stand-in"]
    head += ["exercise checks", "display"]
    rows = []
    for number, result in results.items():
        mine = result["learner"]
        apart = [
            f"{result[k]['files']} files, {result[k]['function_lines']} lines"
            for k in ("stand-in", "exercise", "display")
        ]
        rows.append(
            [
                number,
                str(mine["files"]),
                str(mine["functions"]),
                str(mine["lines_run"]),
                str(mine["function_lines"]),
                *apart,
            ]
        )
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    padded = ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)) for r in [head, *rows]]
    return "\n".join(line.rstrip() for line in padded)


def detail(number: str, result: dict) -> str:
    mine = result["learner"]
    lines = [f"lesson {number}: the helper functions its cells call"]
    lines += [f"  {entry}" for entry in mine["entry"]]
    lines.append("  per call: files, lines of the learner's functions it enters")
    for label, call in result["per_call"].items():
        lines.append(f"    {label}: {call['files']} files, {call['function_lines']} lines")
    lines.append("  and everything they reach, by file (lines run):")
    for path, info in mine["by_file"].items():
        lines.append(f"    {path} ({info['lines_run']} lines run)")
        lines += [f"      {f}" for f in info["functions"]]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--one"]:
        notebook = next(p for p in LESSONS if p.name.startswith(argv[1]))
        print(json.dumps(summary(trace_lesson(notebook))))
        return 0
    numbers = [a for a in argv if not a.startswith("--")] or [p.name[:2] for p in LESSONS]
    results = {n: run_one(n) for n in numbers}
    print(table(results, "--markdown" in argv))
    if any(n in CENTRAL for n in results):
        print("\n" + central_table({n: r for n, r in results.items() if n in CENTRAL}))
    if "--detail" in argv:
        for number, result in results.items():
            print("\n" + detail(number, result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
