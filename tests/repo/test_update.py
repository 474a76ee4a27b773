"""Updating the series never fights the learner (issue 26, item 3).

Real git, real clones in a temporary folder: an "upstream" repository holding the series (the
scripts, the package make_student needs, the lessons), a learner's clone of it with the copies
``make lab`` makes, an edit by the learner, a new version upstream, and ``scripts/update.py``
(what ``make update`` runs). The learner's edit stays, the other copies become the new version,
git reports no conflict and a clean tree. The second test does the same from a clone made when
student/ was still tracked.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# what scripts/make_student.py imports, wherever the package lives at this commit
PACKAGES = [name for name in ("helpers", "course", "standin") if (ROOT / name).is_dir()]
LESSONS = ["00_start_here.ipynb", "01_one_request.ipynb", "02_four_roles.ipynb"]


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@localhost", *args],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, f"git {args}: {done.stderr}"
    return done.stdout


def run(script: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(script), *args], cwd=cwd, capture_output=True, text=True
    )


def upstream(tmp: Path, tracked_copies: bool = False) -> Path:
    """The series at its first version; with ``tracked_copies``, as it was before issue 26."""
    repo = tmp / "upstream"
    (repo / "scripts").mkdir(parents=True)
    (repo / "notebooks").mkdir()
    for name in ("make_student.py", "update.py"):
        shutil.copy2(ROOT / "scripts" / name, repo / "scripts" / name)
    for name in PACKAGES:
        shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in LESSONS:
        shutil.copy2(ROOT / "notebooks" / name, repo / "notebooks" / name)
    if tracked_copies:
        assert run(repo / "scripts" / "make_student.py", cwd=repo).returncode == 0
        (repo / ".gitignore").write_text("__pycache__/\n")
    else:
        shutil.copy2(ROOT / ".gitignore", repo / ".gitignore")
    git(tmp, "init", "-q", "-b", "main", str(repo))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "version 1")
    return repo


def revise(repo: Path, *lessons: str) -> None:
    """The author's next version: a new paragraph at the top of each lesson named."""
    for name in lessons:
        path = repo / "notebooks" / name
        nb = json.loads(path.read_text(encoding="utf-8"))
        nb["cells"].insert(0, {"cell_type": "markdown", "metadata": {}, "source": ["NEW v2"]})
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def learner_answers(clone: Path, name: str) -> str:
    path = clone / "student" / name
    mine = path.read_text(encoding="utf-8").replace("= ...", "= 'my answer'", 1)
    assert mine != path.read_text(encoding="utf-8")
    path.write_text(mine, encoding="utf-8")
    return mine


def assert_updated(clone: Path, mine: str, edited: str, out: str) -> None:
    assert (clone / "student" / edited).read_text(encoding="utf-8") == mine
    for name in LESSONS:
        text = (clone / "student" / name).read_text(encoding="utf-8")
        assert ("NEW v2" in text) is (name != edited), name
    assert f"student/{edited} has changes" in out
    assert git(clone, "status", "--porcelain") == ""
    assert "NEW v2" in (clone / "notebooks" / edited).read_text(encoding="utf-8")


def test_an_edited_copy_is_kept_and_the_rest_updated_without_a_conflict(tmp_path):
    origin = upstream(tmp_path)
    clone = tmp_path / "learner"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    first = run(clone / "scripts" / "make_student.py", "--quiet", cwd=clone)  # make lab
    assert first.returncode == 0 and "3 learner notebook(s) written" in first.stdout
    assert git(clone, "status", "--porcelain") == ""  # the copies are not git's business
    mine = learner_answers(clone, "01_one_request.ipynb")
    assert git(clone, "status", "--porcelain") == ""

    revise(origin, *LESSONS)
    git(origin, "commit", "-q", "-am", "version 2")
    done = run(clone / "scripts" / "update.py", cwd=clone)  # make update
    assert done.returncode == 0, done.stdout + done.stderr
    assert_updated(clone, mine, "01_one_request.ipynb", done.stdout)
    assert "kept as they are, with your changes (1)" in done.stdout


def test_a_clone_from_when_copies_were_tracked_moves_over_keeping_the_edit(tmp_path):
    origin = upstream(tmp_path, tracked_copies=True)
    clone = tmp_path / "learner"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    mine = learner_answers(clone, "02_four_roles.ipynb")
    assert subprocess.run(["git", "-C", str(clone), "pull", "--ff-only"]).returncode == 0

    git(origin, "rm", "-r", "-q", "--cached", "student")  # the new layout, and a new version
    shutil.copy2(ROOT / ".gitignore", origin / ".gitignore")
    revise(origin, *LESSONS)
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "version 2: student/ untracked")
    plain = subprocess.run(["git", "-C", str(clone), "pull", "--ff-only"], capture_output=True)
    assert plain.returncode != 0  # what a learner met before: git refuses
    done = run(ROOT / "scripts" / "update.py", str(clone), cwd=clone)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_updated(clone, mine, "02_four_roles.ipynb", done.stdout)
    assert git(clone, "ls-files", "student") == ""
