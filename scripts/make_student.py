"""Write learner copies of the lessons into student/: solutions removed, outputs cleared.

Usage: python scripts/make_student.py [--check]

Solution code sits between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` lines (the nbgrader
convention). In the student copy each such region becomes one line asking for the learner's
answer, so the cell still runs and its check says "Not answered yet". Outputs, execution
counts and the saved widget state are removed: learners run the cells themselves.

``--check`` (run by the tests) fails if student/ differs from what this script would write.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "notebooks"
STUDENT = ROOT / "student"
SOLUTION = re.compile(
    r"^(?P<indent>[ \t]*)#+ BEGIN SOLUTION[^\n]*\n.*?^[ \t]*#+ END SOLUTION[^\n]*(\n|$)",
    re.M | re.S,
)
PLACEHOLDER = "{indent}# YOUR ANSWER HERE: replace the ... above, then run the check\n"


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def strip_solutions(code: str) -> str:
    """Replace every solution region with the placeholder line."""
    return SOLUTION.sub(lambda m: PLACEHOLDER.format(indent=m.group("indent")), code)


def student_copy(lesson: dict) -> dict:
    nb = json.loads(json.dumps(lesson))
    nb["metadata"].pop("widgets", None)
    for cell in nb["cells"]:
        cell.get("metadata", {}).pop("execution", None)
        if cell["cell_type"] != "code":
            continue
        cell["source"] = strip_solutions(_source(cell)).splitlines(keepends=True)
        cell["outputs"] = []
        cell["execution_count"] = None
    return nb


def render(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def main(check: bool) -> int:
    expected = {
        path.name: render(student_copy(json.loads(path.read_text(encoding="utf-8"))))
        for path in sorted(LESSONS.glob("[0-9][0-9]_*.ipynb"))
    }
    if check:
        present = {p.name for p in STUDENT.glob("*.ipynb")}
        stale = sorted(
            name
            for name, text in expected.items()
            if not (STUDENT / name).exists() or (STUDENT / name).read_text(encoding="utf-8") != text
        )
        extra = sorted(present - set(expected))
        if stale or extra:
            print("student/ is out of date (run: make student):", ", ".join(stale + extra))
            return 1
        return 0
    STUDENT.mkdir(exist_ok=True)
    for stale in set(p.name for p in STUDENT.glob("*.ipynb")) - set(expected):
        (STUDENT / stale).unlink()
    for name, text in expected.items():
        (STUDENT / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(expected)} student notebooks to student/")
    return 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv[1:]))
