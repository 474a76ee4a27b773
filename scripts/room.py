"""A view of the room: which exercises each learner's checks passed, from the learners' own folders.

Usage: python scripts/room.py [FOLDER ...] [--lesson NN]    (``make room``; default: /home)

Every check in a learner folder (one ``scripts/make_student.py`` wrote, with its
``.make_student.json``) notes its last outcome in ``.checks/NN.json`` beside the learner's copy
(``course/exercises/__init__.py``). This script finds those folders under each FOLDER (a hub's
``/home``, or a folder of copies collected from the learners, one sub-folder each), and prints,
per lesson, a row per learner: ✓ the last check passed, ✗ the last check failed, - run blank,
· not checked yet; then how many learners passed each exercise. The exercises of a lesson are
its cells with a solution region in ``notebooks/`` (as ``show_solution`` numbers them).

It reads only; no service, no grades, nothing sent anywhere. It needs only the standard library
and this checkout, so on a hub an admin can run it with the system Python:
``sudo python3 /opt/on-the-wire/scripts/room.py /home``. Not for: answers (never recorded).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from course.exercises.solutions import exercise_cells  # noqa: E402

MARKER = ".make_student.json"  # what makes a folder a learner folder
RECORDS = ".checks"
MARKS = {"pass": "✓", "fail": "✗", "blank": "-", None: "·"}
LEGEND = "✓ passed   ✗ last check failed   - run blank   · not checked yet"
DEPTH = 4  # /home/NAME/on-the-wire/student is three below /home


class RoomError(Exception):
    """The command cannot run as asked; the message says why."""


def exercises(lessons: Path = ROOT / "notebooks") -> dict[str, list[str]]:
    """{lesson "05": ["05.1", "05.2", ...]} from the reference notebooks."""
    found = {}
    for path in sorted(lessons.glob("[0-9][0-9]_*.ipynb")):
        cells = exercise_cells(json.loads(path.read_text(encoding="utf-8")))
        found[path.name[:2]] = [f"{path.name[:2]}.{k}" for k in range(1, len(cells) + 1)]
    return found


def learner_folders(top: Path) -> dict[str, Path]:
    """{learner name: learner folder} under ``top``; the name is the first folder below ``top``
    (a hub user's home, a collected copy's folder), or ``top``'s own name if it is one."""
    if not top.is_dir():
        raise RoomError(f"{top} is not a folder (give a hub's /home, or collected copies)")
    top = top.resolve()
    if (top / MARKER).is_file():
        return {top.parent.name if top.name == "student" else top.name: top}
    found: dict[str, Path] = {}
    for folder, subfolders, files in os.walk(top, onerror=lambda err: None):
        here = Path(folder)
        depth = len(here.relative_to(top).parts)
        subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") and d != "backup")
        if depth >= DEPTH:
            subfolders[:] = []
        if MARKER in files and here != top:
            name = here.relative_to(top).parts[0]
            found[name if name not in found else here.relative_to(top).as_posix()] = here
            subfolders[:] = []
    return found


def outcomes(folder: Path) -> tuple[dict[str, dict], list[str]]:
    """({exercise id: its record}, [unreadable record files]) of one learner folder."""
    records: dict[str, dict] = {}
    unreadable = []
    for path in sorted((folder / RECORDS).glob("[0-9][0-9].json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            records.update({k: v for k, v in data.items() if isinstance(v, dict)})
        except (OSError, ValueError, AttributeError):
            unreadable.append(path.name)
    return records, unreadable


def table(room: dict[str, Path], lessons: dict[str, list[str]], only: list[str]) -> str:
    """The view, as text: one block per lesson, a row per learner, a closing count."""
    seen = {name: outcomes(folder) for name, folder in sorted(room.items())}
    checked = {ex.split(".")[0] for records, _ in seen.values() for ex in records}
    shown = only or sorted(checked & set(lessons))
    if not room:
        return "no learner folders found (a learner folder holds .make_student.json)"
    width = max(len("passed by"), *(len(name) for name in seen)) + 2
    lines = [f"{len(room)} learner(s). {LEGEND}"]
    if not shown:
        lines.append("no checks recorded yet")
    for lesson in shown:
        ids = lessons[lesson]
        cell = max(6, *(len(i) + 2 for i in ids)) if ids else 6
        lines += ["", f"lesson {lesson}".ljust(width) + "".join(i.ljust(cell) for i in ids)]
        passed = dict.fromkeys(ids, 0)
        for name, (records, unreadable) in seen.items():
            row = name.ljust(width)
            for ex in ids:
                state = records.get(ex, {}).get("last")
                passed[ex] += state == "pass"
                row += MARKS.get(state, "?").ljust(cell)
            done = sum(records.get(ex, {}).get("last") == "pass" for ex in ids)
            row += f"{done}/{len(ids)}"
            if f"{lesson}.json" in unreadable:
                row += f"  (unreadable: {RECORDS}/{lesson}.json)"
            lines.append(row.rstrip())
        lines.append(
            "passed by".ljust(width)
            + "".join(f"{passed[ex]}/{len(room)}".ljust(cell) for ex in ids)
        )
    return "\n".join(line.rstrip() for line in lines)


def main(args: list[str]) -> int:
    only: list[str] = []
    tops: list[Path] = []
    lessons = exercises()
    rest = iter(args)
    for arg in rest:
        if arg == "--lesson":
            lesson = next(rest, "")
            number = f"{int(lesson):02d}" if lesson.isdigit() else lesson
            if number not in lessons:
                print(
                    f"room: --lesson {lesson!r} is not a lesson; one of {', '.join(lessons)}",
                    file=sys.stderr,
                )
                return 2
            only.append(number)
        else:
            tops.append(Path(arg))
    room: dict[str, Path] = {}
    try:
        for top in tops or [Path("/home")]:
            room.update(learner_folders(top))
    except RoomError as err:
        print(f"room: {err}", file=sys.stderr)
        return 2
    print(table(room, lessons, only))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
