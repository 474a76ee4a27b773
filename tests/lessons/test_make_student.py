"""`make student` never loses a learner's work (issue 18, item 5).

It rewrites only the copies it wrote and nobody changed since; a changed copy is left alone
(a message naming it, exit 0: keeping it is on purpose) unless forced, and then backed up
first; files it did not write are never touched, not even when their lesson disappears.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import make_student  # noqa: E402


def _lesson(title: str, answer: str = "42") -> str:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": [f"# {title}"]},
        {
            "cell_type": "code",
            "execution_count": 1,
            "metadata": {},
            "outputs": [{"output_type": "stream", "name": "stdout", "text": ["hello\n"]}],
            "source": ["print('hello')"],
        },
        {
            "cell_type": "code",
            "execution_count": 2,
            "metadata": {},
            "outputs": [{"output_type": "stream", "name": "stdout", "text": ["✓ Right\n"]}],
            "source": [
                "answer = ...\n",
                "### BEGIN SOLUTION\n",
                f"answer = {answer}\n",
                "### END SOLUTION\n",
                "check(answer)",
            ],
        },
    ]
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1)


@pytest.fixture
def folders(tmp_path):
    lessons, student = tmp_path / "notebooks", tmp_path / "student"
    lessons.mkdir()
    (lessons / "00_a.ipynb").write_text(_lesson("A"))
    (lessons / "01_b.ipynb").write_text(_lesson("B"))
    return lessons, student


def _write(folders, force=False) -> list[str]:
    lessons, student = folders
    return make_student.write(student, lessons, force=force)


def _learner_answers_then_the_lesson_changes(folders) -> str:
    """Copies written, the learner answers in 00_a, then the author revises lesson 00_a.
    Returns the learner's version of the copy."""
    lessons, student = folders
    _write(folders)
    mine = (student / "00_a.ipynb").read_text().replace("answer = ...", "answer = 41")
    (student / "00_a.ipynb").write_text(mine)
    (lessons / "00_a.ipynb").write_text(_lesson("A, revised"))
    return mine


def test_first_run_writes_learner_copies_and_a_record(folders):
    lessons, student = folders
    assert _write(folders) == []
    assert sorted(p.name for p in student.iterdir()) == [
        ".make_student.json",
        "00_a.ipynb",
        "01_b.ipynb",
    ]
    copy = json.loads((student / "00_a.ipynb").read_text())
    assert copy["cells"][1]["outputs"]  # the lesson above the exercise keeps its output
    assert copy["cells"][2]["outputs"] == [] and copy["cells"][2]["execution_count"] is None
    assert "answer = 42" not in "".join(copy["cells"][2]["source"])
    assert make_student.check(student, lessons) == []


def test_a_changed_copy_is_never_overwritten_and_other_copies_still_update(folders, capsys):
    lessons, student = folders
    mine = _learner_answers_then_the_lesson_changes(folders)
    (lessons / "01_b.ipynb").write_text(_lesson("B, revised"))
    assert _write(folders) == ["00_a.ipynb"]
    assert (student / "00_a.ipynb").read_text() == mine
    assert "B, revised" in (student / "01_b.ipynb").read_text()
    out = capsys.readouterr().out
    assert "00_a.ipynb has changes" in out and "FORCE=1" in out
    assert _write(folders) == ["00_a.ipynb"]  # still safe
    assert (student / "00_a.ipynb").read_text() == mine
    assert make_student.check(student, lessons) != []  # the repository check notices


def test_force_keeps_a_backup_of_the_learners_version(folders, capsys):
    lessons, student = folders
    mine = _learner_answers_then_the_lesson_changes(folders)
    assert _write(folders, force=True) == []
    backups = list((student / "backup").glob("00_a-*.ipynb"))
    assert len(backups) == 1 and backups[0].read_text() == mine
    assert "A, revised" in (student / "00_a.ipynb").read_text()
    assert "saved your previous version" in capsys.readouterr().out
    assert make_student.check(student, lessons) == []


def test_files_it_did_not_write_are_never_touched(folders):
    lessons, student = folders
    student.mkdir()
    notes = {"my_notes.ipynb": "{}", "00_a-Copy1.ipynb": "my copy", "notes.txt": "x"}
    for name, text in notes.items():
        (student / name).write_text(text)
    (student / "01_b.ipynb").write_text("a learner's own file, before any record existed")
    assert _write(folders) == ["01_b.ipynb"]  # not ours: kept
    assert (student / "01_b.ipynb").read_text().startswith("a learner's own file")
    (lessons / "00_a.ipynb").unlink()  # a lesson removed: only our untouched copy goes
    _write(folders)
    assert not (student / "00_a.ipynb").exists()
    for name, text in notes.items():
        assert (student / name).read_text() == text


def test_a_removed_lessons_copy_with_learner_changes_stays(folders):
    lessons, student = folders
    _write(folders)
    (student / "01_b.ipynb").write_text("my answers")
    (lessons / "01_b.ipynb").unlink()
    _write(folders)
    assert (student / "01_b.ipynb").read_text() == "my answers"
    _write(folders, force=True)  # force replaces changed copies of lessons, never deletes
    assert (student / "01_b.ipynb").read_text() == "my answers"


def test_make_student_exits_0_when_it_keeps_a_changed_copy_and_names_it(
    folders, monkeypatch, capsys
):
    lessons, student = folders
    _learner_answers_then_the_lesson_changes(folders)
    monkeypatch.setattr(make_student, "STUDENT", student)
    monkeypatch.setattr(make_student, "LESSONS", lessons)
    assert make_student.main([]) == 0
    out = capsys.readouterr().out
    assert "kept as they are, with your changes (1)" in out and "00_a.ipynb has changes" in out
    assert make_student.main(["--check"]) == 1  # not in sync, and --check says so
    assert make_student.main(["--force"]) == 0 and make_student.main(["--check"]) == 0


def test_quiet_prints_nothing_when_nothing_changed(folders, monkeypatch, capsys):
    lessons, student = folders
    monkeypatch.setattr(make_student, "STUDENT", student)
    monkeypatch.setattr(make_student, "LESSONS", lessons)
    assert make_student.main(["--quiet"]) == 0
    assert "2 learner notebook(s) written" in capsys.readouterr().out  # the first run says so
    assert make_student.main(["--quiet"]) == 0 and capsys.readouterr().out == ""


def test_reset_gives_one_fresh_copy_after_saving_the_learners_and_says_where(
    folders, monkeypatch, capsys
):
    lessons, student = folders
    _write(folders)
    mine = (student / "00_a.ipynb").read_text().replace("answer = ...", "answer = 41")
    (student / "00_a.ipynb").write_text(mine)
    other = (student / "01_b.ipynb").read_text().replace("answer = ...", "answer = 7")
    (student / "01_b.ipynb").write_text(other)
    monkeypatch.setattr(make_student, "STUDENT", student)
    monkeypatch.setattr(make_student, "LESSONS", lessons)
    assert make_student.main(["--reset", "0"]) == 0  # "0", "00": the same lesson
    out = capsys.readouterr().out
    saved = list((student / "backup").glob("00_a-*.ipynb"))
    assert len(saved) == 1 and saved[0].read_text() == mine  # the learner's work, byte for byte
    assert f"backup/{saved[0].name}" in out  # and the command says where it is
    assert "Ctrl+S" in out  # and that an open tab's unsaved changes are not in the backup
    assert (student / "00_a.ipynb").read_text() == make_student.expected_copies(lessons)[
        "00_a.ipynb"
    ]
    assert (student / "01_b.ipynb").read_text() == other  # no other lesson touched
    assert make_student.main(["--reset", "00"]) == 0  # again: a second backup, none lost
    assert len(list((student / "backup").glob("00_a-*.ipynb"))) == 2
    assert make_student.main([]) == 0  # afterwards the fresh copy counts as ours, 01 as theirs
    assert "01_b.ipynb has changes" in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["99", "abc", "", "5.2", "-1"])
def test_reset_of_no_lesson_is_a_clear_error_and_touches_nothing(bad, folders, monkeypatch, capsys):
    lessons, student = folders
    _write(folders)
    before = {p.name: p.read_bytes() for p in student.iterdir()}
    monkeypatch.setattr(make_student, "STUDENT", student)
    monkeypatch.setattr(make_student, "LESSONS", lessons)
    assert make_student.main(["--reset", bad]) == 2
    err = capsys.readouterr().err
    assert f"RESET={bad!r} is not a lesson" in err and "00, 01" in err
    assert "Traceback" not in err
    assert {p.name: p.read_bytes() for p in student.iterdir()} == before
