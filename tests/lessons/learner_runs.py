"""One run of each learner copy, shared by ``test_browser.py`` and ``test_student.py``.

A learner copy is executed once per session: ``with_probes`` gives the copy as made plus one
probe cell per exercise after its last exercise cell (``exercise_probe.py``); the browser test
serves that notebook to JupyterLab, runs it all, saves it and puts the saved notebook in
``SAVED``; ``test_student.py`` then reads its assertions from there, and runs in a kernel of its
own only the copies the browser did not run (skipped, deselected, or failed before saving).
Not a test module: no assertions here.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from course.exercises.solutions import exercise_cells

ROOT = Path(__file__).resolve().parents[2]
PROBE_MARK = "# exercise probe"

# lesson file name -> (the learner copy as stored, the saved notebook after Run All with probes)
SAVED: dict[str, tuple[dict, nbformat.NotebookNode]] = {}


def exercise_indices(nb: dict) -> list[int]:
    """The cell index of every exercise cell (one holding a solution region) of ``nb``."""
    cells = exercise_cells(nb)
    return [i for i, cell in enumerate(nb["cells"]) if any(cell is c for c in cells)]


def _probe_cell(reference_source: str, exercise_id: str) -> nbformat.NotebookNode:
    code = (
        f"{PROBE_MARK}\nimport sys\nsys.path.insert(0, {str(ROOT / 'tests' / 'lessons')!r})\n"
        "from exercise_probe import probe\n"
        f"print(probe(globals(), {reference_source!r}, {exercise_id!r}))"
    )
    # a failing probe shows its error and Run All goes on (JupyterLab stops at an untagged one)
    return nbformat.v4.new_code_cell(code, metadata={"tags": ["raises-exception"]})


def with_probes(path: Path, copies: Path) -> tuple[dict, nbformat.NotebookNode]:
    """The learner copy of the lesson at ``path`` (in ``copies``) as stored, and the same
    notebook with a probe cell per exercise inserted after its last exercise cell (not run)."""
    lesson = json.loads(path.read_text(encoding="utf-8"))
    student = nbformat.reads((copies / path.name).read_text(encoding="utf-8"), as_version=4)
    stored = json.loads(nbformat.writes(student))
    indices = exercise_indices(lesson)
    probes = [
        _probe_cell("".join(lesson["cells"][i]["source"]), f"{path.name[:2]}.{k}")
        for k, i in enumerate(indices, start=1)
    ]
    student.cells[indices[-1] + 1 : indices[-1] + 1] = probes
    return stored, student
