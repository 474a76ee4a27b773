"""Used in lessons: 00, 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 12.

Reference solutions, read from the lessons in ``notebooks/`` only when a learner asks.

In the lessons, solution code sits between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` lines
(the nbgrader convention); the learner copies (``student/``) have these regions removed. Exercise
``"05.2"`` is the second cell with such a region in lesson 05. No cell ever calls
``show_solution``, so "Run All" never reveals an answer: it takes a deliberate call.
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

SOLUTION = re.compile(
    r"^(?P<indent>[ \t]*)#+ BEGIN SOLUTION[^\n]*\n(?P<code>.*?)^[ \t]*#+ END SOLUTION[^\n]*(\n|$)",
    re.M | re.S,
)
_ID = re.compile(r"^(\d\d)\.(\d+)$")


def cell_source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def exercise_cells(notebook: dict) -> list[dict]:
    """The code cells holding a solution region, in order: exercise 1, 2, ..."""
    return [
        cell
        for cell in notebook["cells"]
        if cell["cell_type"] == "code" and SOLUTION.search(cell_source(cell))
    ]


def solution_code(cell: dict, *, with_def: bool = False) -> str:
    """The solution regions of one cell, markers removed, dedented; with ``with_def``, a region
    inside a function comes with the function's ``def`` line, so that it runs when pasted."""
    source, parts = cell_source(cell), []
    for m in SOLUTION.finditer(source):
        head = _enclosing_def(source[: m.start()]) if with_def and m.group("indent") else ""
        code = m.group("code").rstrip() if head else textwrap.dedent(m.group("code")).rstrip()
        parts.append(f"{head}\n{code}" if head else code)
    return "\n".join(parts)


def _enclosing_def(before: str) -> str:
    """The last top-level ``def`` before a solution region, through the line ending in ``:``."""
    lines = before.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("def ")]
    if not starts:
        return ""
    head = []
    for line in lines[starts[-1] :]:
        head.append(line)
        if line.rstrip().endswith(":"):
            break
    return "\n".join(head)


def _lessons_folder() -> Path:
    """``notebooks/`` of the checkout: next to the data, or above the working directory."""
    from helpers.examples import ROOT

    here = Path.cwd().resolve()
    for candidate in (ROOT, here, *here.parents):
        if (candidate / "notebooks").is_dir() and any((candidate / "notebooks").glob("00_*.ipynb")):
            return candidate / "notebooks"
    raise FileNotFoundError(
        "show_solution reads the lessons with solutions in the repository's notebooks/ folder, "
        "which this installation does not have: open the lesson on the project's site instead"
    )


def lesson_path(lesson: str, folder: Path | None = None) -> Path:
    folder = folder if folder is not None else _lessons_folder()
    found = sorted(folder.glob(f"{lesson}_*.ipynb"))
    if not found:
        raise FileNotFoundError(f"no lesson {lesson} in {folder.name}/")
    return found[0]


@dataclass(frozen=True)
class Solution:
    exercise_id: str
    lesson: str
    code: str

    def __repr__(self) -> str:
        return f"Reference solution of exercise {self.exercise_id} ({self.lesson}):\n\n{self.code}"

    def _repr_markdown_(self) -> str:
        return (
            f"**Reference solution of exercise {self.exercise_id}** (from `{self.lesson}`). "
            "Other answers can be just as right: the check decides.\n\n"
            f"```python\n{self.code}\n```"
        )


def show_solution(exercise_id: str, folder: Path | None = None) -> Solution:
    """The reference code of exercise ``"NN.k"``, e.g. ``show_solution("05.2")``."""
    match = _ID.match(str(exercise_id))
    if not match:
        raise ValueError(
            f'exercise ids look like "05.2" (lesson 05, exercise 2), not {exercise_id!r}'
        )
    lesson, number = match.group(1), int(match.group(2))
    path = lesson_path(lesson, folder)
    cells = exercise_cells(json.loads(path.read_text(encoding="utf-8")))
    if not 1 <= number <= len(cells):
        raise ValueError(f"lesson {lesson} has exercises 1 to {len(cells)}, not {number}")
    return Solution(exercise_id, path.name, solution_code(cells[number - 1], with_def=True))
