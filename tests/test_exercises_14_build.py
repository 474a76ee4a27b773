"""Lesson 14, the capstone: the check finds each planted problem by its symptom, and only those
still there; the repaired agent passes in all four formats; the learner's agent file is copied
beside their notebook and kept once they change it (issue 33, item 3).

Each agent here is a real file: the shipped one with some fixes applied as text, loaded the way
the lesson loads it, run against a real stand-in on loopback. A planted problem's fix is given
as ``(old, new)`` replacements of the shipped source, so a change to the shipped file that
moves a bug breaks these tests loudly (``_patched`` asserts each ``old`` is there once).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from course import exercises
from course.exercises import repair_an_agent as capstone

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import make_student  # noqa: E402

SHIPPED = capstone.SHIPPED.read_text(encoding="utf-8")
PLANTED = {
    "dropped-call",
    "no-description",
    "policy-twice",
    "tools-grown",
    "rewritten",
    "broken-after-retry",
    "over-budget",
}

# The smallest fix of each planted problem, as text replacements of the shipped file.
FIXES: dict[str, list[tuple[str, str]]] = {
    "dropped-call": [
        (
            """    if reply.message.text:  # the model wrote to the buyer: that is its answer
        return reply.message.text, []
    return "", reply.message.tool_calls""",
            "    return reply.message.text, reply.message.tool_calls",
        )
    ],
    "no-description": [
        ("import inspect\n", "import functools\nimport inspect\n"),
        ("    def wrapper(call):", "    @functools.wraps(handler)\n    def wrapper(call):"),
    ],
    "policy-twice": [("user(with_policy(ticket))", "user(ticket)")],
    "tools-grown": [("    return ours + sundry.EXTRA_TOOLS", "    return ours")],
    "rewritten": [("            tidy(history)\n", "")],
    "broken-after-retry": [
        (
            """            reply = with_retry(step)""",
            """            if calls:
                history.append(tool(*[run_tool(call) for call in calls]))
                calls = []
            reply = with_retry(step)""",
        )
    ],
}
# The overrun is the bill of two planted problems: both fixed, it goes.
FIXES["over-budget"] = FIXES["policy-twice"] + FIXES["tools-grown"]
# What each fix removes from the report.
GONE = {key: {key} for key in FIXES} | {
    "over-budget": {"over-budget", "policy-twice", "tools-grown"}
}


def _patched(source: str, *replacements: tuple[str, str]) -> str:
    for old, new in replacements:
        assert source.count(old) == 1, f"not once in the agent file: {old[:60]!r}"
        source = source.replace(old, new)
    return source


def _agent(tmp_path: Path, source: str, name: str = "sundry_agent.py"):
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return capstone.load_agent(path)


def _all_fixes() -> list[tuple[str, str]]:
    keys = [k for k in FIXES if k != "over-budget"]
    return [pair for key in keys for pair in FIXES[key]]


def test_the_shipped_agent_shows_every_planted_problem_in_every_format_without_a_hint():
    exercises.reset("14.1")
    result = capstone.check_repaired_agent(capstone.load_agent(capstone.SHIPPED))
    assert not result.ok and result.message.startswith("Exercise 14.1 is not answered yet")
    assert "is as shipped" in result.message and capstone.EX1.look not in result.message
    # one group for all four formats: each format shows the same seven symptoms
    assert "in all four formats, 7 problems: (1)" in result.message
    assert "|" not in result.message  # no second group of formats
    for key in PLANTED:
        assert capstone.SYMPTOMS[key] in result.message, key
    assert "issue_refund with no description" in result.message and "14 tools" in result.message
    assert "got a 429" in result.message and "duplicate-result" in result.message


@pytest.mark.parametrize("fixed", sorted(FIXES))
def test_each_fix_alone_leaves_exactly_the_others_reported(fixed, tmp_path):
    format = capstone.FORMATS[sorted(FIXES).index(fixed) % len(capstone.FORMATS)]
    agent = _agent(tmp_path, _patched(SHIPPED, *FIXES[fixed]))
    found = capstone.diagnose(agent, formats=(format,))[format]
    assert set(found) == PLANTED - GONE[fixed], (fixed, format, found)


# Plausible wrong repairs: everything else fixed, one problem "fixed" the wrong way.
WRONG = {
    "rewritten": (  # copies instead of editing in place: the next request still differs
        [("            tidy(history)\n", "")],
        [
            (
                "            history.append(reply.message)\n            return reply",
                "            history.append(reply.message)\n"
                "            history[:] = [m if m.role != 'tool' else tool(*[\n"
                "                tool_result(r.call_id, r.text[:SHORTEN_AT])\n"
                "                for r in m.tool_results\n"
                "            ]) for m in history]\n"
                "            return reply",
            )
        ],
    ),
    "tools-grown": (  # dropped the five, and one of the nine with them
        [("    return ours + sundry.EXTRA_TOOLS", "    return ours")],
        [("    return ours\n", "    return ours[:-1]\n")],
    ),
    "no-description": (  # functools.wraps, on the wrong function
        FIXES["no-description"],
        [
            (
                "    @functools.wraps(handler)\n    def wrapper(call):",
                "    def wrapper(call):",
            ),
            ("def refund_log(", "@functools.wraps(print)\ndef refund_log("),
        ],
    ),
}


@pytest.mark.parametrize("problem", sorted(WRONG))
def test_a_plausible_wrong_repair_is_refused_for_its_symptom(problem, tmp_path):
    right, wrong = WRONG[problem]
    fixes = [pair for pair in _all_fixes() if pair not in right]
    agent = _agent(tmp_path, _patched(_patched(SHIPPED, *fixes, *right), *wrong))
    format = capstone.FORMATS[sorted(WRONG).index(problem)]
    exercises.reset("14.1")
    result = capstone.check_repaired_agent(agent, formats=(format,))
    assert not result.ok and f"{format}, 1 problem: (1)" in result.message
    assert capstone.SYMPTOMS[problem] in result.message, result.message
    assert result.message.count("Look at:") == 1  # the first hint, and only it


def test_the_repaired_twin_passes_in_all_four_formats():
    result = capstone.check_repaired_agent(capstone.load_agent(capstone.REPAIRED))
    assert result.ok, result.message
    assert "3 hidden tickets in each of the 4 formats" in result.message


def test_another_right_repair_written_differently_passes(tmp_path):
    """Not the twin: blocks read with match, the retry cleaning up after itself, the tools
    picked by name, the helpers that did harm left in the file unused."""
    source = _patched(
        SHIPPED,
        *FIXES["no-description"],
        ("user(with_policy(ticket))", "user(ticket)"),
        (
            "    return ours + sundry.EXTRA_TOOLS",
            "    nine = {t.name for t in sundry.TOOLS}\n"
            "    return [t for t in ours + sundry.EXTRA_TOOLS if t.name in nine]",
        ),
        (
            """    if reply.message.text:  # the model wrote to the buyer: that is its answer
        return reply.message.text, []
    return "", reply.message.tool_calls""",
            """    text, calls = [], []
    for block in reply.message.content:
        match block.type:
            case "text":
                text.append(block.text)
            case "tool_call":
                calls.append(block)
    return "".join(text), calls""",
        ),
        (
            '''        def step() -> Reply:
            """One round trip: answer the calls of the last reply, then ask the model."""
            if calls:''',
            '''        def step() -> Reply:
            """One round trip: answer the calls of the last reply, then ask the model."""
            if history[-1].role == "tool":  # a retry: the results are already there
                history.pop()
            if calls:''',
        ),
        ("            tidy(history)\n", ""),
    )
    result = capstone.check_repaired_agent(_agent(tmp_path, source, "my_agent.py"))
    assert result.ok, result.message


def test_not_an_agent_gets_the_graduated_hints():
    exercises.reset("14.1")
    assert "not answered yet" in capstone.check_repaired_agent(...).message
    first = capstone.check_repaired_agent(lambda content: [])
    second = capstone.check_repaired_agent(object())
    assert capstone.EX1.look in first.message and capstone.EX1.idea in second.message
    exercises.reset("14.1")


def test_a_file_that_does_not_load_is_named_with_its_line_not_a_traceback(tmp_path, capsys):
    broken = _agent(tmp_path, SHIPPED.replace("MAX_TURNS = 8", "MAX_TURNS = = 8"))
    assert isinstance(broken, capstone.BrokenAgent) and "SyntaxError" in repr(broken)
    assert "line " in repr(broken) and "sundry_agent.py does not load" in repr(broken)
    exercises.reset("14.1")
    result = capstone.check_repaired_agent(broken)
    assert not result.ok and "does not load: SyntaxError" in result.message
    trace, seen = capstone.rerun(agent=broken)  # the workbench says so too, and goes on
    assert "does not load" in capsys.readouterr().out and len(seen) == 0
    missing = capstone.load_agent(tmp_path / "nowhere.py")
    assert "there is no file" in repr(missing)
    exercises.reset("14.1")


# --- the learner's copy of the agent file --------------------------------------------------


@pytest.fixture
def folders(tmp_path):
    lessons, student = tmp_path / "notebooks", tmp_path / "student"
    lessons.mkdir()
    nb = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (lessons / "14_a.ipynb").write_text(json.dumps(nb))
    (lessons / "sundry_agent.py").write_text("BUGS = 7\n")
    return lessons, student


def test_a_solution_region_can_name_its_own_placeholder_line():
    code = (
        'agent = load_agent("a.py")\n'
        "### BEGIN SOLUTION (learner: # repair a.py, then run this cell)\n"
        "agent = load_agent(REPAIRED)\n### END SOLUTION\ncheck(agent)\n"
    )
    assert make_student.strip_solutions(code) == (
        'agent = load_agent("a.py")\n# repair a.py, then run this cell\ncheck(agent)\n'
    )


def test_the_agent_file_is_copied_beside_the_notebooks_and_recorded(folders, capsys):
    lessons, student = folders
    assert make_student.write(student, lessons) == []
    assert (student / "sundry_agent.py").read_text() == "BUGS = 7\n"
    assert "sundry_agent.py" in make_student.read_record(student)
    assert "1 learner notebook(s) written, and 1 file(s) to edit" in capsys.readouterr().out
    assert make_student.check(student, lessons) == []


def test_a_changed_agent_file_is_kept_and_an_unchanged_one_refreshed(folders, capsys):
    lessons, student = folders
    make_student.write(student, lessons)
    (lessons / "sundry_agent.py").write_text("BUGS = 6\n")  # a new version, nobody edited
    assert make_student.write(student, lessons) == []
    assert (student / "sundry_agent.py").read_text() == "BUGS = 6\n"
    (student / "sundry_agent.py").write_text("BUGS = 0  # my repairs\n")
    (lessons / "sundry_agent.py").write_text("BUGS = 5\n")
    capsys.readouterr()
    assert make_student.write(student, lessons) == ["sundry_agent.py"]
    assert (student / "sundry_agent.py").read_text() == "BUGS = 0  # my repairs\n"
    assert "student/sundry_agent.py has changes" in capsys.readouterr().out
    assert make_student.write(student, lessons, force=True) == []
    assert (student / "sundry_agent.py").read_text() == "BUGS = 5\n"
    (backup,) = (student / "backup").glob("sundry_agent-*.py")
    assert backup.read_text() == "BUGS = 0  # my repairs\n"


def test_make_update_keeps_an_edited_agent_file(tmp_path):
    """Real git, as tests/test_update.py does it: the learner repairs the agent, the author
    ships a new version of it, ``make update`` keeps the learner's file and names it."""
    import shutil

    from tests.test_update import git, run, upstream

    origin = upstream(tmp_path)
    shutil.copy2(capstone.SHIPPED, origin / "notebooks" / "sundry_agent.py")
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "the capstone's agent")
    clone = tmp_path / "learner"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    assert run(clone / "scripts" / "make_student.py", "--quiet", cwd=clone).returncode == 0
    assert (clone / "student" / "sundry_agent.py").read_text(encoding="utf-8") == SHIPPED
    mine = SHIPPED.replace("SHORTEN_AT = 100", "SHORTEN_AT = 10**9  # my repair")
    (clone / "student" / "sundry_agent.py").write_text(mine, encoding="utf-8")

    newer = SHIPPED.replace("MAX_TURNS = 8", "MAX_TURNS = 9")
    (origin / "notebooks" / "sundry_agent.py").write_text(newer, encoding="utf-8")
    git(origin, "commit", "-q", "-am", "version 2 of the agent")
    done = run(clone / "scripts" / "update.py", cwd=clone)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (clone / "student" / "sundry_agent.py").read_text(encoding="utf-8") == mine
    assert "student/sundry_agent.py has changes" in done.stdout
    assert git(clone, "status", "--porcelain") == ""
    assert "MAX_TURNS = 9" in (clone / "notebooks" / "sundry_agent.py").read_text()


def test_the_timing_model_counts_the_repair_and_states_the_capstone_at_45_minutes():
    import lesson_times

    cell = {"cell_type": "code", "source": "agent = load_agent(p)\ncheck_repaired_agent(agent)"}
    assert lesson_times.exercise_kind(cell) == "repair"
    assert lesson_times.limit("14_repair_an_agent.ipynb") == 45
    assert lesson_times.limit("13_your_code_on_the_wire.ipynb") == lesson_times.LESSON_LIMIT
    lesson = ROOT / "notebooks" / "14_repair_an_agent.ipynb"
    assert lesson_times.lesson_stats(lesson)["minutes"] == 45
    first = "".join(json.loads(lesson.read_text(encoding="utf-8"))["cells"][0]["source"])
    assert "about 45 minutes" in first
