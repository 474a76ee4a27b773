"""Write the learner copies of the lessons into student/: exercises blank, solutions removed.

Usage: python scripts/make_student.py [--check] [--force] [--quiet] [--reset NN]
       python scripts/make_student.py --learner [--check]

Solution code sits between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` lines (the nbgrader
convention). In the learner copy each such region becomes one line asking for the learner's
answer, so the cell still runs and its check says "not answered yet". The stored outputs of the
cells above the exercises are kept, so the lesson reads well before anything is run; the
exercise cells and everything after them start empty. No cell calls ``show_solution``: a
learner sees a solution only by asking for it.

Besides the notebooks, every Python file in ``notebooks/`` (the capstone's ``sundry_agent.py``,
the agent with bugs that lesson 14 asks the learner to repair) is copied unchanged beside the
learner's notebooks, and recorded like them: the learner edits that copy, so a changed one is
kept and named, never overwritten. The reference lesson reads the same buggy file in its
investigation cells, and loads a repaired twin (``course/exercises/repaired_agent.py``) only
inside its solution region, so its check shows ✓ while the learner's copy checks their file.
The lesson index, ``notebooks/README.md``, is copied too, under a line saying whose copy it is:
its lesson links are relative, so lesson 00's link to ``README.md`` opens the learner copies
from ``student/`` (and the reference lessons from ``notebooks/``). It is recorded like the rest.

``student/`` is not tracked by git (``.gitignore``): ``make lab`` makes it on the first run and
``make update`` (``scripts/update.py``) refreshes it after pulling a new version, so a
learner's edits never stand in the way of ``git pull``.

Never loses a learner's work. ``student/.make_student.json`` records a checksum of every file
this script wrote. A copy that no longer matches it (a learner answered, ran or edited it) is
left alone and named in a message (exit status 0: keeping it is what should happen) unless
``--force`` is given; then it is first saved as ``student/backup/NAME-YYYYmmdd-HHMMSS.ipynb``.
Files this script did not write (your notes, a ``-Copy1`` notebook) are never touched.

``--reset NN`` (``make student RESET=NN``) gives one learner a fresh copy of lesson NN only:
their copy is first saved as ``student/backup/NN_name-YYYYmmdd-HHMMSS.ipynb`` (also when it is
unchanged: nothing is ever deleted), and the command prints where. It saves the file on disk:
a tab's unsaved changes are not in it (save first, Ctrl+S; the message says so). The check
records in ``.checks/`` stay, so the room view shows the old marks until a check runs again. A
lesson that does not exist (``99``, ``abc``) is refused with the lessons there are, and nothing
is touched.

``--learner`` writes the same learner copies into ``learner/``, which git tracks: the pristine
copies the hosted routes open (the Colab badges, the Binder link), which have no ``student/``.
Nobody edits them (on your own machine ``make lab`` gives you ``student/``), so they never stand
in the way of ``git pull``; after a lesson changes, an author re-runs this (a test fails until
``learner/`` matches the lessons). ``--learner --check`` only says whether it does.

``--check`` fails if a learner copy or the record differs from what this script would write.
``--quiet`` prints only what changed (``make lab`` runs it so before every start).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from course.exercises.solutions import SOLUTION, cell_source  # noqa: E402

LESSONS = ROOT / "notebooks"
STUDENT = ROOT / "student"
RECORD = ".make_student.json"
PLACEHOLDER = "{indent}# YOUR ANSWER HERE: replace the ... above, then run the check\n"
REVEAL = re.compile(r"(?<![\w.])reveal\(")
_source = cell_source  # the name the tests use


#: ``### BEGIN SOLUTION (learner: # a line of its own)``: a region whose answer is not typed in
#: the cell (lesson 14's is a file) says so instead of "replace the ... above".
OWN_PLACEHOLDER = re.compile(r"\(learner: (?P<line>#[^\n]*)\)[ \t]*$")


def _placeholder(region: re.Match) -> str:
    head = region.group(0).splitlines()[0]
    own = OWN_PLACEHOLDER.search(head)
    line = own.group("line") + "\n" if own else PLACEHOLDER.format(indent="").lstrip()
    return region.group("indent") + line


def strip_solutions(code: str) -> str:
    """Replace every solution region with the placeholder line (or the region's own)."""
    return SOLUTION.sub(_placeholder, code)


def reveals(code: str) -> bool:
    """Whether a cell shows a value the learner predicts first (``reveal(guess, value...)``)."""
    return bool(REVEAL.search(code))


def student_copy(lesson: dict) -> dict:
    """The learner's copy: outputs kept above the first exercise, blank from there on; a cell
    that reveals a predicted value starts blank wherever it is (the guess comes first)."""
    nb = json.loads(json.dumps(lesson))
    blank = False
    for cell in nb["cells"]:
        cell.get("metadata", {}).pop("execution", None)
        if cell["cell_type"] != "code":
            continue
        code = cell_source(cell)
        blank = blank or bool(SOLUTION.search(code))
        cell["source"] = strip_solutions(code).splitlines(keepends=True)
        if blank or reveals(code):
            cell["outputs"] = []
            cell["execution_count"] = None
    return nb


def render(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def checksum(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def agent_files(lessons: Path = LESSONS) -> list[Path]:
    """The Python files a lesson asks the learner to open and edit (copied as they are)."""
    return sorted(lessons.glob("*.py"))


def expected_copies(lessons: Path = LESSONS) -> dict[str, str]:
    """The learner notebooks, by name, as this script writes them."""
    return {
        path.name: render(student_copy(json.loads(path.read_text(encoding="utf-8"))))
        for path in sorted(lessons.glob("[0-9][0-9]_*.ipynb"))
    }


LEARNER = ROOT / "learner"
LEARNER_COMMAND = "python scripts/make_student.py --learner"
LEARNER_NOTE = (
    "*The learner copies of the lessons (exercises blank), which the Colab badges and the Binder "
    "link open. Generated by `scripts/make_student.py --learner`: do not edit. On your own "
    "machine, `make lab` gives you your own copies, in `student/`.*\n\n"
)

INDEX = "README.md"
INDEX_NOTE = (
    "*Your copy of the lesson index: its links open your learner notebooks, here in `student/`.*"
    "\n\n"
)


def expected_files(lessons: Path = LESSONS) -> dict[str, str]:
    """Everything this script writes into student/: the notebooks, the agent files, and the
    lesson index (its lesson links are relative, so in student/ they open the learner copies)."""
    files = expected_copies(lessons)
    files.update({path.name: path.read_text(encoding="utf-8") for path in agent_files(lessons)})
    index = lessons / INDEX
    if index.exists():
        files[INDEX] = INDEX_NOTE + index.read_text(encoding="utf-8")
    return files


def learner_files(lessons: Path = LESSONS) -> dict[str, str]:
    """What ``learner/`` holds: the files of ``student/``, under the index's own note."""
    files = expected_files(lessons)
    if INDEX in files:
        files[INDEX] = LEARNER_NOTE + files[INDEX].removeprefix(INDEX_NOTE)
    return files


def learner_stale(folder: Path = LEARNER, lessons: Path = LESSONS) -> list[str]:
    """The files of ``learner/`` that differ from what ``--learner`` writes, or are extra."""
    files = learner_files(lessons)
    stale = [
        name
        for name, text in files.items()
        if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != text
    ]
    extra = sorted(p.name for p in folder.glob("*") if p.is_file() and p.name not in files)
    return stale + [f"{name} (no such lesson)" for name in extra]


def write_learner(folder: Path = LEARNER, lessons: Path = LESSONS) -> list[str]:
    """Rewrite ``learner/`` (tracked, nobody's work: generated only) from the lessons."""
    files = learner_files(lessons)
    folder.mkdir(exist_ok=True)
    changed = learner_stale(folder, lessons)
    for path in folder.glob("*"):
        if path.is_file() and path.name not in files:
            path.unlink()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return changed


def record_text(checksums: dict[str, str]) -> str:
    record = {
        "written by": "scripts/make_student.py (make student); do not edit",
        "sha256": dict(sorted(checksums.items())),
    }
    return json.dumps(record, indent=1) + "\n"


def render_record(copies: dict[str, str]) -> str:
    return record_text({name: checksum(text) for name, text in copies.items()})


def read_record(student: Path) -> dict[str, str]:
    path = student / RECORD
    if not path.exists():
        return {}
    try:
        return dict(json.loads(path.read_text(encoding="utf-8"))["sha256"])
    except (ValueError, KeyError, TypeError):
        print(f"warning: {path.relative_to(ROOT)} is unreadable; treating every copy as yours")
        return {}


def check(student: Path = STUDENT, lessons: Path = LESSONS) -> list[str]:
    """What differs between student/ and what this script would write (empty: in sync)."""
    copies = expected_files(lessons)
    stale = [
        name
        for name, text in copies.items()
        if not (student / name).exists() or (student / name).read_text(encoding="utf-8") != text
    ]
    record = student / RECORD
    if not record.exists() or record.read_text(encoding="utf-8") != render_record(copies):
        stale.append(RECORD)
    gone = sorted(set(read_record(student)) - set(copies))
    return stale + [f"{name} (lesson removed)" for name in gone if (student / name).exists()]


def _backup(path: Path, student: Path) -> Path:
    folder = student / "backup"
    folder.mkdir(exist_ok=True)
    target = folder / f"{path.stem}-{time.strftime('%Y%m%d-%H%M%S')}{path.suffix}"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{path.stem}-{time.strftime('%Y%m%d-%H%M%S')}-{n}{path.suffix}"
    target.write_bytes(path.read_bytes())
    return target


def write(
    student: Path = STUDENT, lessons: Path = LESSONS, force: bool = False, quiet: bool = False
) -> list[str]:
    """Bring student/ up to date without losing anything a learner wrote.

    Returns the names of the copies kept because a learner changed them (empty: all current).
    """
    copies = expected_files(lessons)
    record = read_record(student)
    student.mkdir(exist_ok=True)
    written, kept, backed_up = [], [], []
    for name, text in copies.items():
        path = student / name
        if path.exists():
            current = path.read_text(encoding="utf-8")
            if current == text:
                record[name] = checksum(text)
                continue
            if record.get(name) != checksum(current):  # not what we last wrote: someone's work
                if not force:
                    kept.append(name)
                    continue
                backed_up.append(_backup(path, student))
        path.write_text(text, encoding="utf-8")
        record[name] = checksum(text)
        written.append(name)
    for name in sorted(set(record) - set(copies)):  # a lesson that no longer exists
        path = student / name
        if path.exists() and checksum(path.read_text(encoding="utf-8")) == record[name]:
            path.unlink()  # ours and untouched
        elif path.exists():
            kept.append(name)  # changed since we wrote it: from now on it is the learner's
        del record[name]
    # what this script last wrote; a kept copy keeps its old checksum, so it stays protected
    (student / RECORD).write_text(record_text(record), encoding="utf-8")
    where = student.name + "/"
    current = len(copies) - len(written) - len([k for k in kept if k in copies])
    if not (quiet and not written and not backed_up):
        notebooks = [name for name in written if name.endswith(".ipynb")]
        files = [name for name in written if not name.endswith(".ipynb") and name != INDEX]
        also = f", and {len(files)} file(s) to edit ({', '.join(files)})" if files else ""
        print(
            f"{where}: {len(notebooks)} learner notebook(s) written{also}, "
            f"{current} already up to date"
        )
    for path in backed_up:
        print(f"  saved your previous version as {where}backup/{path.name}")
    if kept and not quiet:
        print(f"  kept as they are, with your changes ({len(kept)}):")
        for name in kept:
            print(f"  {where}{name} has changes made after make student wrote it (your work?)")
        print(
            "  To replace one with the new version (yours is saved in backup/ first): "
            "make student FORCE=1"
        )
    return kept


def _shown_path(path: Path) -> str:
    """A path as the learner finds it: from the repository folder when it is inside it."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


class ResetError(Exception):
    """``--reset`` was given something that is not a lesson; the message says what there is."""


def reset(
    lesson: str, student: Path = STUDENT, lessons: Path = LESSONS
) -> tuple[Path, Path | None]:
    """A fresh learner copy of one lesson (``"05"``), the learner's own saved first.

    Returns (the fresh copy, the saved copy or None if there was none). Touches no other file
    (the record is updated for this copy only); never deletes anything.
    """
    copies = expected_copies(lessons)
    numbers = sorted({name[:2] for name in copies})
    if not re.fullmatch(r"\d\d?", lesson.strip()) or f"{int(lesson):02d}" not in numbers:
        raise ResetError(
            f"RESET={lesson!r} is not a lesson; give its two-digit number, one of "
            f"{', '.join(numbers)} (for example: make student RESET=05)"
        )
    number = f"{int(lesson):02d}"
    name = next(n for n in copies if n.startswith(number + "_"))
    student.mkdir(exist_ok=True)
    path = student / name
    saved = _backup(path, student) if path.exists() else None
    path.write_text(copies[name], encoding="utf-8")
    record = read_record(student)
    record[name] = checksum(copies[name])
    (student / RECORD).write_text(record_text(record), encoding="utf-8")
    return path, saved


def main(args: list[str]) -> int:
    if "--learner" in args:
        if "--check" in args:
            stale = learner_stale(LEARNER, LESSONS)
            if stale:
                print(f"learner/ is out of date (run: {LEARNER_COMMAND}):", ", ".join(stale))
                return 1
            return 0
        changed = write_learner(LEARNER, LESSONS)
        print(f"learner/: {len(changed)} file(s) rewritten ({', '.join(changed) or 'none'})")
        return 0
    if "--reset" in args:
        at = args.index("--reset")
        lesson = args[at + 1] if at + 1 < len(args) else ""
        try:
            path, saved = reset(lesson, STUDENT, LESSONS)
        except ResetError as err:
            print(f"make student: {err}", file=sys.stderr)
            return 2
        if saved is not None:
            print(
                f"saved your copy of lesson {path.name[:2]} as {_shown_path(saved)} (as saved on "
                "disk: changes not saved with Ctrl+S are only in the open tab; File > Save "
                "Notebook As... there keeps them)"
            )
        print(
            f"{_shown_path(path)} is a fresh copy (exercises blank). If it is open in "
            "JupyterLab: File > Reload Notebook from Disk (saving the old tab would overwrite it)"
        )
        return 0
    if "--check" in args:
        problems = check(STUDENT, LESSONS)
        if problems:
            print("student/ is out of date (run: make student):", ", ".join(problems))
            return 1
        return 0
    write(STUDENT, LESSONS, force="--force" in args, quiet="--quiet" in args)
    return 0  # a kept copy is on purpose, not a failure


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
