"""Update the series: pull the new version, then refresh the learner copies nobody changed.

Usage: python scripts/update.py [REPOSITORY]   (what ``make update`` runs; default: this one)

1. ``git pull --ff-only``. If git refuses (a tracked file you edited, such as one in
   ``helpers/``, is also changed upstream; or commits of your own), it says why and nothing is
   changed: commit or move your edit, then run this again.
2. The new version's ``scripts/make_student.py`` refreshes ``student/``: every copy you have
   not changed becomes the new version, every copy you changed is kept as it is and named
   (the notebooks, and the agent file lesson 14 asks you to repair, ``sundry_agent.py``).

``student/`` is not tracked by git, so your answers never stand in the way of the pull. A clone
made before that (when ``student/`` was tracked) is moved over on its first update: the copies
you changed, and the record of what ``make student`` wrote, are set aside, git takes the
tracked copies away, and yours are put back, byte for byte, whether the pull worked or not.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)


def _tracked_learner_files(repo: Path) -> dict[str, bytes]:
    """A clone from before student/ was untracked: the learner's versions to put back."""
    tracked = _git(repo, "ls-files", "-z", "--", "student").stdout.split("\0")
    tracked = [path for path in tracked if path]
    if not tracked:
        return {}
    changed = _git(repo, "diff", "--name-only", "-z", "HEAD", "--", "student").stdout.split("\0")
    keep = {p for p in changed if p and (repo / p).is_file()}
    keep |= {p for p in tracked if p.endswith(".make_student.json") and (repo / p).is_file()}
    saved = {path: (repo / path).read_bytes() for path in sorted(keep)}
    restore = [p for p in saved if p in changed]
    if restore:  # the tracked versions back, so that git can remove them (ours: saved above)
        _git(repo, "checkout", "HEAD", "--", *restore)
    return saved


def update(repo: Path = ROOT) -> int:
    saved = _tracked_learner_files(repo)
    try:
        print("pulling the new version of the series (git pull --ff-only)", flush=True)
        pull = _git(repo, "pull", "--ff-only")
    finally:
        for path, data in saved.items():
            target = repo / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    print(pull.stdout.strip() or "", pull.stderr.strip() if pull.returncode else "", sep="\n")
    if pull.returncode != 0:
        print(
            "update: git did not pull (its message is above); nothing was changed. Your copies "
            "in student/ are as you left them."
        )
        return 1
    if saved:
        print(f"student/ is no longer tracked by git; your {len(saved)} changed file(s) kept.")
    refresh = subprocess.run(
        [sys.executable, str(repo / "scripts" / "make_student.py")], cwd=repo, check=False
    )
    if refresh.returncode == 0:
        print("update: done. `make lab` opens the new version (and installs what it needs).")
    return refresh.returncode


if __name__ == "__main__":
    sys.exit(update(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT))
