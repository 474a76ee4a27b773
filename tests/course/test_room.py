"""The view of the room (issue 36, item 7): checks record their outcome beside the learner's
copy, and scripts/room.py shows per learner which exercises pass, from those records alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import make_student  # noqa: E402
import room  # noqa: E402

from course.exercises import start_here  # noqa: E402
from course.exercises.solutions import show_solution  # noqa: E402


def _learner(top: Path, name: str) -> Path:
    """A learner's home as hub/start leaves it: ~/on-the-wire/student/ written by make_student."""
    lessons = top / "lessons"
    lessons.mkdir(exist_ok=True)
    lesson = ROOT / "notebooks" / "00_start_here.ipynb"
    (lessons / lesson.name).write_text(lesson.read_text(encoding="utf-8"), encoding="utf-8")
    student = top / "home" / name / "on-the-wire" / "student"
    student.parent.mkdir(parents=True)
    make_student.write(student, lessons, quiet=True)
    return student


def _right_answer():
    namespace: dict = {}
    exec(show_solution("00.1").code, namespace)  # the reference solution, as a learner pastes it
    return namespace["message_tokens"]


def test_checks_record_outcomes_beside_the_learner_copy_and_room_shows_them(tmp_path, monkeypatch):
    ana, bob = _learner(tmp_path, "ana"), _learner(tmp_path, "bob")
    _learner(tmp_path, "cy")  # opened nothing yet
    monkeypatch.chdir(ana)  # a kernel's working folder is its notebook's
    assert not start_here.check_message_tokens(...)  # blank
    assert start_here.check_message_tokens(_right_answer())
    monkeypatch.chdir(bob)
    assert not start_here.check_message_tokens(lambda messages, name: 3)
    records = json.loads((ana / ".checks" / "00.json").read_text(encoding="utf-8"))
    assert records["00.1"]["last"] == "pass" and records["00.1"]["checks"] == 2
    assert set(records["00.1"]) == {"last", "checks", "at"}  # never the answer
    assert json.loads((bob / ".checks" / "00.json").read_text())["00.1"]["last"] == "fail"

    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "room.py"), str(tmp_path / "home")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines() if line}
    ids = room.exercises()["00"]
    assert rows["lesson"] == ["00"] + ids
    assert rows["ana"][0] == "✓" and rows["bob"][0] == "✗" and rows["cy"][0] == "·"
    assert rows["ana"][-1] == f"1/{len(ids)}" and rows["cy"][-1] == f"0/{len(ids)}"
    assert "3 learner(s)" in done.stdout and "1/3" in rows["passed"]
    alone = subprocess.run(  # one learner folder, named relatively: named by its parent
        [sys.executable, str(ROOT / "scripts" / "room.py"), "student"],
        cwd=ana.parent,
        capture_output=True,
        text=True,
    )
    assert "\non-the-wire " in alone.stdout and "1 learner(s)" in alone.stdout


def test_no_record_outside_a_learner_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # notebooks/, a test run, anywhere without .make_student.json
    assert not start_here.check_message_tokens(lambda messages, name: 3)
    assert list(tmp_path.iterdir()) == []


def test_a_record_that_cannot_be_written_never_disturbs_the_check(tmp_path, monkeypatch):
    student = _learner(tmp_path, "ana")
    (student / ".checks").write_text("a file where the folder should be")
    monkeypatch.chdir(student)
    assert start_here.check_message_tokens(_right_answer())  # the check still answers


def test_room_refuses_bad_input_with_a_clear_message(tmp_path):
    script = str(ROOT / "scripts" / "room.py")
    for args, says in [
        ([str(tmp_path / "nowhere")], "is not a folder"),
        ([str(tmp_path), "--lesson", "99"], "is not a lesson"),
        ([str(tmp_path), "--lesson", "abc"], "is not a lesson"),
    ]:
        done = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
        assert done.returncode == 2 and says in done.stderr, args
        assert "Traceback" not in done.stderr
