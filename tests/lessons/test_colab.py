"""Colab: every lesson starts with the set-up cell, which does nothing anywhere else.

The set-up path itself (clone, install, change folder) runs in a simulated Colab layout in
tests/repo/test_package.py (it needs the clean virtual environment built there).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import colab_cell  # noqa: E402
import make_student  # noqa: E402

LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
BADGE = "https://colab.research.google.com/assets/colab-badge.svg"


def colab_url(lesson: Path) -> str:
    """Where a badge opens a lesson: its learner copy (exercises blank), tracked in learner/."""
    repository = colab_cell.REPOSITORY.removeprefix("https://github.com/")
    return f"https://colab.research.google.com/github/{repository}/blob/main/learner/{lesson.name}"


def test_every_lesson_and_student_copy_starts_with_the_current_set_up_cell():
    notebooks = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in LESSONS}
    copies = make_student.expected_copies()  # what make lab writes into student/
    notebooks.update({f"student/{name}": text for name, text in copies.items()})
    stale = [
        name for name, text in notebooks.items() if not colab_cell.is_current(json.loads(text))
    ]
    assert stale == [], "run: python scripts/colab_cell.py, then re-run those notebooks"
    assert len(copies) == len(LESSONS)


def test_outside_colab_the_cell_does_nothing_and_prints_nothing(tmp_path):
    script = (
        "import os, sys\n"
        "before = (os.getcwd(), list(sys.path))\n"
        f"exec({colab_cell.SOURCE!r})\n"
        "assert (os.getcwd(), list(sys.path)) == before\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert list(tmp_path.iterdir()) == []


def test_the_set_up_cell_knows_it_is_on_colab_only_by_google_colab():
    source = colab_cell.SOURCE
    assert 'if "google.colab" in sys.modules:' in source
    assert f'"{colab_cell.REPOSITORY}"' in source and "--branch=main" in source
    assert '[sys.executable, "scripts/colab_install.py"], cwd=HOME' in source


def test_colab_badges_open_each_lesson_from_the_readme_and_the_index():
    index = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    for lesson in LESSONS:
        assert f"[![Open in Colab]({BADGE})]({colab_url(lesson)})" in index, lesson.name
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"[![Open in Colab]({BADGE})]({colab_url(LESSONS[0])})" in readme


def test_the_repository_is_named_the_same_everywhere():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["urls"]["Source"] == colab_cell.REPOSITORY
    hosting = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    assert f"git clone {colab_cell.REPOSITORY} " in hosting


def test_the_set_up_cell_reads_as_one_line_in_colab_and_jupyter():
    first, *rest = colab_cell.SOURCE.splitlines()
    assert first.startswith("# @title ") and first.endswith('{ display-mode: "form" }')
    assert len(first) <= 100 and rest  # one line shown; the code is there, hidden
    assert colab_cell.METADATA["cellView"] == "form"  # Colab: the title, code hidden
    assert colab_cell.METADATA["jupyter"] == {"source_hidden": True}  # JupyterLab: collapsed
    nb = {"cells": [colab_cell.cell()]}
    assert colab_cell.is_current(nb)
    nb["cells"][0]["metadata"].pop("cellView")  # an old cell, shown whole: refreshed
    assert not colab_cell.is_current(nb) and colab_cell.is_current(colab_cell.add(nb))


def test_the_tracked_learner_copies_are_the_lessons_with_exercises_blank():
    """learner/ is what the Colab badges and the Binder link open: in sync with notebooks/."""
    stale = make_student.learner_stale()
    assert stale == [], f"run: {make_student.LEARNER_COMMAND}"
    for lesson in LESSONS:
        copy = json.loads((make_student.LEARNER / lesson.name).read_text(encoding="utf-8"))
        code = "".join("".join(c["source"]) for c in copy["cells"] if c["cell_type"] == "code")
        assert "BEGIN SOLUTION" not in code, lesson.name


def test_the_binder_link_opens_the_learner_copies_and_the_setup_says_which_route_shows_solutions():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    repository = colab_cell.REPOSITORY.removeprefix("https://github.com/")
    binder = (
        f"https://mybinder.org/v2/gh/{repository}/main?urlpath=lab/tree/learner/00_start_here.ipynb"
    )
    assert binder in readme
    assert binder in (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    setup = (ROOT / "docs" / "setup.md").read_text(encoding="utf-8")  # the README links to it
    assert "(docs/setup.md)" in readme
    section = setup.split("## Which copy each route opens", 1)[1].split("\n## ", 1)[0]
    for route in ("make lab", "Colab", "Binder", "JupyterHub", "make lab-reference", "make site"):
        assert route in section, route
