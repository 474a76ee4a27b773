"""Learner copies: in sync with the lessons, and every exercise check really checks.

For every exercise cell (one holding a ``### BEGIN SOLUTION`` region):
- in the lesson, run with the reference solution, its check printed a confirmation (✅);
- in the student copy, run with the blank answer, the same check prints a hint (❌), and the
  student notebook as a whole runs without errors.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import make_student  # noqa: E402

LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _exercise_cells(nb: dict) -> list[int]:
    return [
        i
        for i, cell in enumerate(nb["cells"])
        if cell["cell_type"] == "code" and make_student.SOLUTION.search(make_student._source(cell))
    ]


def _shown(cell: dict) -> str:
    texts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            texts.append(f"ERROR {out.get('ename')}: {out.get('evalue')}")
        data = out.get("data", {}).get("text/plain", out.get("text", ""))
        texts.append("".join(data) if isinstance(data, list) else data)
    return "\n".join(texts)


def _verdict(cell: dict) -> str:
    """What the cell's last output shows: an exercise cell ends with its check."""
    outputs = cell.get("outputs", [])
    return _shown({"outputs": outputs[-1:]}) if outputs else ""


def test_student_copies_are_in_sync_with_the_lessons():
    assert make_student.main(check=True) == 0, "run: make student"


def test_solution_regions_are_replaced_by_one_placeholder_line():
    code = "answer = ...\n### BEGIN SOLUTION\nanswer = 42\n### END SOLUTION\ncheck(answer)\n"
    assert make_student.strip_solutions(code) == (
        "answer = ...\n# YOUR ANSWER HERE: replace the ... above, then run the check\n"
        "check(answer)\n"
    )


def test_every_lesson_has_self_checking_exercises():
    for path in LESSONS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert _exercise_cells(nb), f"{path.name} has no exercise with a marked solution"


def _run_student_copy(path: Path):
    import nbformat
    from nbclient import NotebookClient

    lesson = json.loads(path.read_text(encoding="utf-8"))
    student = nbformat.reads(make_student.render(make_student.student_copy(lesson)), as_version=4)
    NotebookClient(
        student,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    return student


@pytest.fixture(scope="module")
def student_runs():
    """Every student copy, executed in its own fresh kernel, two at a time (two cores)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(LESSONS, pool.map(_run_student_copy, LESSONS), strict=True))


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_checks_pass_on_the_reference_and_fail_on_the_blank(path, student_runs):
    lesson = json.loads(path.read_text(encoding="utf-8"))
    exercises = _exercise_cells(lesson)
    for i in exercises:
        shown = _verdict(lesson["cells"][i])
        assert shown.startswith("✅"), f"{path.name} cell {i}: reference solution not confirmed"

    student = student_runs[path]
    for i, cell in enumerate(student.cells):
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        assert errors == [], f"student copy cell {i}: {_shown(cell)}"
    for i in exercises:
        shown = _verdict(student.cells[i])
        assert shown.startswith("❌ Not answered yet"), f"{path.name} cell {i}: {shown!r}"
