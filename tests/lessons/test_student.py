"""Learner copies: in sync with the lessons, safe for the learner's work, and every check checks.

For every exercise cell (one holding a ``### BEGIN SOLUTION`` region):
- in the lesson, run with the reference solution, its check printed a confirmation (✓);
- in the learner copy (student/), run as a learner first opens it, the same check prints a
  helpful ✗ ("not answered yet"), and no cell shows ✓ or an error;
- after the lesson has run, ``tests/lessons/exercise_probe.py`` calls the check with the reference
  answer, every other accepted form of it, a blank and a near miss three times (nudge, then
  pointer; no hint contains the answer or the solution's code).
The stored outputs kept in a learner copy are the lesson's, and a fresh run reproduces them.

Each learner copy runs once per session (``learner_runs.py``): where ``test_browser.py`` ran it
first (Run All in JupyterLab, probe cells included, then saved), these tests read that saved
notebook; any other copy runs here in a kernel of its own, in the background from collection on.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import make_student  # noqa: E402

from course.exercises.solutions import exercise_cells  # noqa: E402
from tests.lessons import learner_runs  # noqa: E402
from tests.lessons.learner_runs import PROBE_MARK  # noqa: E402
from tests.lessons.learner_runs import exercise_indices as _exercise_indices  # noqa: E402
from tests.support.background import Background  # noqa: E402

LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _make_copies(course: Path) -> Path:
    """student/ as ``make lab`` makes it (it is not tracked by git), in a course folder whose
    data/ is the repository's, so the copies' ``../data/...`` paths work as in a checkout."""
    (course / "data").symlink_to(ROOT / "data", target_is_directory=True)
    assert make_student.write(course / "student", ROOT / "notebooks", quiet=True) == []
    return course / "student"


@pytest.fixture(scope="module")
def learner_copies(tmp_path_factory) -> Path:
    return _make_copies(tmp_path_factory.mktemp("course"))


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


def test_fresh_learner_copies_are_in_sync_and_a_second_run_changes_nothing(learner_copies):
    assert make_student.check(learner_copies, ROOT / "notebooks") == []
    before = {p.name: p.read_bytes() for p in learner_copies.iterdir()}
    agents = [p.name for p in make_student.agent_files(ROOT / "notebooks")]  # lesson 14's file
    index = [make_student.INDEX]  # the lesson index, whose links then open the learner copies
    assert sorted(before) == sorted(
        [make_student.RECORD, *(p.name for p in LESSONS), *agents, *index]
    )
    assert make_student.write(learner_copies, ROOT / "notebooks", quiet=True) == []
    assert {p.name: p.read_bytes() for p in learner_copies.iterdir()} == before


def test_learner_copies_are_not_tracked_by_git():
    import subprocess

    ignored = subprocess.run(
        ["git", "-C", str(ROOT), "check-ignore", "-q", "student/00_start_here.ipynb"]
    )
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "student"], capture_output=True, text=True
    )
    assert ignored.returncode == 0 and tracked.stdout == ""


def test_solution_regions_are_replaced_by_one_placeholder_line():
    code = "answer = ...\n### BEGIN SOLUTION\nanswer = 42\n### END SOLUTION\ncheck(answer)\n"
    assert make_student.strip_solutions(code) == (
        "answer = ...\n# YOUR ANSWER HERE: replace the ... above, then run the check\n"
        "check(answer)\n"
    )


def test_every_lesson_has_self_checking_exercises():
    for path in LESSONS:
        assert exercise_cells(json.loads(path.read_text(encoding="utf-8"))), path.name


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_learner_copy_keeps_the_lesson_above_and_blanks_the_exercises(path, learner_copies):
    lesson = json.loads(path.read_text(encoding="utf-8"))
    copy = json.loads((learner_copies / path.name).read_text(encoding="utf-8"))
    first = _exercise_indices(lesson)[0]
    for i, (ours, theirs) in enumerate(zip(lesson["cells"], copy["cells"], strict=True)):
        if theirs["cell_type"] != "code":
            assert theirs["source"] == ours["source"]
            continue
        code = "".join(theirs["source"])
        assert "BEGIN SOLUTION" not in code and "show_solution(" not in code.replace(
            "import show_solution", ""
        ), f"cell {i} reveals a solution"
        if make_student.reveals(code):  # the learner predicts before the value is shown
            assert theirs["outputs"] == [] and theirs["execution_count"] is None, f"cell {i}"
        elif i < first:
            assert theirs["outputs"] == ours["outputs"], f"cell {i}: stored outputs not kept"
            assert theirs["execution_count"] == ours["execution_count"]
        else:
            assert theirs["outputs"] == [] and theirs["execution_count"] is None, f"cell {i}"
    for i in _exercise_indices(lesson):  # the solution is gone, the check call stays
        solution = "".join(lesson["cells"][i]["source"])
        code = "".join(copy["cells"][i]["source"])
        assert code.rstrip().splitlines()[-1] == solution.rstrip().splitlines()[-1]
    assert copy["metadata"].get("widgets") == lesson["metadata"].get("widgets")


def _run_student_copy(path: Path, copies: Path, env: dict[str, str] | None = None):
    """The learner copy as made, plus a probe cell per exercise, run in a fresh kernel (with
    ``env`` if given, else this process's environment)."""
    from nbclient import NotebookClient

    stored, student = learner_runs.with_probes(path, copies)
    NotebookClient(
        student,
        timeout=180,
        startup_timeout=180,  # two kernels start at once on a busy two-core machine
        allow_errors=True,  # every cell runs; the test reports each error where it happened
        kernel_name="python3",
        resources={"metadata": {"path": str(copies)}},
    ).execute(**({"env": env} if env is not None else {}))
    return stored, student


def _run_copies(
    copies: Path, env: dict[str, str] | None = None, names: list[str] | None = None
) -> dict:
    """Every learner copy (or those of the lessons ``names``), executed in its own fresh
    kernel, two at a time (two cores)."""
    from concurrent.futures import ThreadPoolExecutor

    lessons = [p for p in LESSONS if names is None or p.name in names]
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(
            zip(
                lessons,
                pool.map(_run_student_copy, lessons, [copies] * len(lessons), [env] * len(lessons)),
                strict=True,
            )
        )


def prepare(course: Path, env: dict[str, str], names: list[str] | None = None) -> dict:
    """The runs (of the lessons ``names``, else all), on copies made in a course folder of
    their own (the tests above rewrite and list theirs), with the environment the session
    started with (not a test's monkeypatched one): what the root conftest starts in a
    background thread as the session starts, for the copies the browser test will not run."""
    return _run_copies(_make_copies(course), env, names)


STUDENT_RUNS = Background("learner-copies")


class _Runs(dict):
    """Runs by lesson path; a copy missing (the browser did not run it, nor the background)
    runs here when a test asks for it, so ``-k`` costs only the lessons it selects."""

    def __init__(self, copies: Path) -> None:
        super().__init__()
        self.copies = copies

    def __missing__(self, path: Path):
        self[path] = _run_student_copy(path, self.copies)
        return self[path]


@pytest.fixture(scope="module")
def student_runs(learner_copies):
    """Every learner copy run once, with its probes: the browser's Run All where it ran and
    saved it (``learner_runs.SAVED``, filled by ``test_browser.py`` earlier in the session),
    else a kernel here, usually already under way (``prepare``, started by the root conftest
    as soon as the session knows these tests will run)."""
    runs = _Runs(learner_copies)
    if STUDENT_RUNS.started:
        runs.update(STUDENT_RUNS.result())
    runs.update({p: learner_runs.SAVED[p.name] for p in LESSONS if p.name in learner_runs.SAVED})
    return runs


def _sanitizer():
    text = (ROOT / "tests" / "lessons" / "nbval_sanitize.cfg").read_text(encoding="utf-8")
    return [
        (re.compile(a), b) for a, b in re.findall(r"^regex: (.*)$\n^replace: (.*)$", text, re.M)
    ]


def _comparable(cell: dict) -> dict[str, list[str]]:
    """The text outputs as nbval compares them: streams merged, one list per kind, sanitized."""
    found: dict[str, list[str]] = {}
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            found.setdefault(out["name"], [""])[0] += "".join(out.get("text", ""))
        elif "text/plain" in out.get("data", {}):
            found.setdefault("text/plain", []).append("".join(out["data"]["text/plain"]))
    for texts in found.values():
        for k, text in enumerate(texts):
            for pattern, replacement in _sanitizer():
                text = pattern.sub(replacement, text)
            texts[k] = text
    return found


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_checks_pass_on_the_reference_and_help_on_the_learner_copy(path, student_runs):
    lesson = json.loads(path.read_text(encoding="utf-8"))
    exercises = _exercise_indices(lesson)
    for i in exercises:
        shown = _verdict(lesson["cells"][i])
        assert shown.startswith("✓"), f"{path.name} cell {i}: reference solution not confirmed"

    stored, ran = student_runs[path]
    probes = [c for c in ran.cells if c.cell_type == "code" and c.source.startswith(PROBE_MARK)]
    learner = [c for c in ran.cells if not c.source.startswith(PROBE_MARK)]
    for i, cell in enumerate(learner):
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        assert errors == [], f"learner copy cell {i}: {_shown(cell)}"
        assert "✓" not in _shown(cell), f"learner copy cell {i} shows ✓ before any answer"
        if stored["cells"][i].get("execution_count") is not None:  # kept: still reproduced
            assert _comparable(cell) == _comparable(stored["cells"][i]), f"cell {i} changed"
    for k, i in enumerate(exercises, start=1):
        shown = _verdict(learner[i])
        assert shown.startswith(f"✗ Exercise {path.name[:2]}.{k} is not answered yet"), shown
    for k, cell in enumerate(probes, start=1):
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        assert errors == [], f"{path.name} exercise {k}: {_shown(cell)[-1500:]}"
        assert "hints leak nothing" in _shown(cell)
