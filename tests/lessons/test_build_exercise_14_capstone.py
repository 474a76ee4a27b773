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
from course.exercises import workbench

ROOT = Path(__file__).resolve().parents[2]
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


def test_the_shipped_agent_shows_every_planted_problem_in_every_format():
    described = capstone.describe(capstone.diagnose(capstone.load_agent(capstone.SHIPPED)))
    # one group for all four formats: each format shows the same seven symptoms
    assert "in all four formats, 7 problems: (1)" in described
    assert "|" not in described  # no second group of formats
    for key in PLANTED:
        assert capstone.SYMPTOMS[key] in described, key
    assert "issue_refund (no description)" in described and "14 tools" in described
    assert "got a 429; then issue_refund ran 2 times for one call" in described
    # symptoms, not fixes: no place of the pasted policy, no count of the foreign tools
    assert "elsewhere" not in described and "not among Sundry" not in described


def test_the_check_on_the_file_as_shipped_counts_the_problems_and_names_none():
    """Running the check first must not skip the hunt: the count, and no symptom (issue 33)."""
    exercises.reset("14.1")
    shipped = capstone.load_agent(capstone.SHIPPED)
    result = capstone.check_repaired_agent(shipped, formats=("openai-chat",))
    assert not result.ok and result.message.startswith("Exercise 14.1 is not answered yet")
    assert "is as shipped, and the hidden tickets find 7 problems in it" in result.message
    assert capstone.EX1.look not in result.message
    for key in capstone.SYMPTOMS:
        assert capstone.SYMPTOMS[key] not in result.message, key
    assert "issue_refund" not in result.message and "429" not in result.message


@pytest.mark.parametrize("fixed", sorted(FIXES))
def test_each_fix_alone_leaves_exactly_the_others_reported(fixed, tmp_path):
    format = capstone.FORMATS[sorted(FIXES).index(fixed) % len(capstone.FORMATS)]
    agent = _agent(tmp_path, _patched(SHIPPED, *FIXES[fixed]))
    found = capstone.diagnose(agent, formats=(format,))[format]
    assert set(found) == PLANTED - GONE[fixed], (fixed, format, found)


# Plausible wrong repairs: everything else fixed, one problem "fixed" the wrong way.
WRONG = {
    "broken-after-retry": (  # the retry pops the results it appended: the refund runs again
        FIXES["broken-after-retry"],
        [
            (
                """            if calls:
                history.append(tool(*[run_tool(call) for call in calls]))
                calls = []
            reply = with_retry(step)""",
                "            reply = with_retry(step)",
            ),
            (
                "            if calls:\n"
                "                history.append(tool(*[run_tool(call) for call in calls]))\n"
                "            reply = ask(",
                "            if history[-1].role == 'tool':  # a retry: take back its results\n"
                "                history.pop()\n"
                "            if calls:\n"
                "                history.append(tool(*[run_tool(call) for call in calls]))\n"
                "            reply = ask(",
            ),
        ],
    ),
    "dropped-call": (  # every block read, but only the first call kept
        FIXES["dropped-call"],
        [
            (
                "    return reply.message.text, reply.message.tool_calls",
                "    return reply.message.text, reply.message.tool_calls[:1]",
            )
        ],
    ),
    "no-description": (  # a made-up description instead of the docstring: the $150 rule lost
        FIXES["no-description"],
        [
            ("    @functools.wraps(handler)\n", ""),
            ('inspect.getdoc(fn) or ""', 'inspect.getdoc(fn) or name.replace("_", " ")'),
        ],
    ),
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
    "no-description-elsewhere": (  # functools.wraps, on the wrong function
        FIXES["no-description"],
        [
            (
                "    @functools.wraps(handler)\n    def wrapper(call):",
                "    def wrapper(call):",
            ),
            ("def refund_log(", "@functools.wraps(print)\ndef refund_log("),
        ],
    ),
    "rewritten-at-append": (  # the walk's repair (issue 33): results cut as they are appended
        [("            tidy(history)\n", "")],
        [
            (
                "                history.append(tool(*[run_tool(call) for call in calls]))\n"
                "                calls = []",
                "                results = [run_tool(call) for call in calls]\n"
                "                for r in results:\n"
                "                    for block in r.content:\n"
                "                        if len(block.text) > SHORTEN_AT:\n"
                "                            block.text = block.text[:SHORTEN_AT] + '...'\n"
                "                history.append(tool(*results))\n"
                "                calls = []",
            )
        ],
    ),
    "no-refund-log": (  # the description "fixed" by deleting the decorator: the trail is lost
        FIXES["no-description"],
        [("@refund_log\n", "")],
    ),
    "policy-twice": (  # the system prompt dropped instead of the paste: the policy as user text
        FIXES["policy-twice"],
        [("[system(sundry.SYSTEM_PROMPT), user(ticket)]", "[user(with_policy(ticket))]")],
    ),
}


# What each wrong repair must be told, besides its symptom's headline.
WRONG_SAYS = {
    "broken-after-retry": "request 4 got a 429; then issue_refund ran 2 times for one call",
    "dropped-call": "without a result for check_refund_eligibility, which the model had asked",
    "no-description": "issue_refund ('issue refund')",
    "no-description-elsewhere": "issue_refund (no description)",
    "rewritten": "request 3 changed messages[3] (tool)",
    "tools-grown": "request 1 offers 8 tools",
    "rewritten-at-append": "request 2 carries the result of search_orders as 103 characters, not",
    "no-refund-log": "issue_refund ran once; the refund log has 0 lines for it",
    "policy-twice": "request 1 holds the policy only in messages[0] (user), in no system prompt",
}


@pytest.mark.parametrize("problem", sorted(WRONG))
def test_a_plausible_wrong_repair_is_refused_for_its_symptom(problem, tmp_path):
    right, wrong = WRONG[problem]
    fixes = [pair for pair in _all_fixes() if pair not in right]
    agent = _agent(tmp_path, _patched(_patched(SHIPPED, *fixes, *right), *wrong))
    format = capstone.FORMATS[sorted(WRONG).index(problem) % len(capstone.FORMATS)]
    exercises.reset("14.1")
    result = capstone.check_repaired_agent(agent, formats=(format,))
    assert not result.ok and f"{format}, 1 problem: (1)" in result.message, result.message
    symptom = problem.removesuffix("-elsewhere").removesuffix("-at-append")
    assert capstone.SYMPTOMS[symptom] in result.message, result.message
    assert WRONG_SAYS[problem] in result.message, result.message
    assert result.message.count("Look at:") == 1  # the first hint, and only it


def test_a_bare_functools_wraps_is_refused_for_the_description_it_sends(tmp_path):
    """``@functools.wraps`` with no argument makes the handler a partial: its docstring (the
    partial's) goes out as issue_refund's description, and the check says so."""
    source = _patched(SHIPPED, *_all_fixes())
    source = _patched(source, ("    @functools.wraps(handler)\n", "    @functools.wraps\n"))
    found = capstone.diagnose(_agent(tmp_path, source), formats=("gemini",))["gemini"]
    assert "no-description" in found and "issue_refund ('partial(" in found["no-description"]


def test_the_repaired_twin_passes_in_all_four_formats():
    result = capstone.check_repaired_agent(capstone.load_agent(capstone.REPAIRED))
    assert result.ok, result.message
    assert "3 hidden tickets in each of the 4 formats" in result.message


def test_another_right_repair_written_differently_passes(tmp_path):
    """Not the twin: blocks read with match, the tools picked by name, the retry written as its
    own loop around the request alone, the helpers that did harm left in the file unused."""
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
            """            reply = with_retry(step)""",
            """            if calls:
                history.append(tool(*map(run_tool, calls)))
            for wait in (RETRY_WAIT_SECONDS, RETRY_WAIT_SECONDS, None):
                try:
                    reply = ask(client, format, model, history, trace)
                    break
                except ProviderError as error:
                    if error.status != 429 or wait is None:
                        raise
                    time.sleep(wait)
            history.append(reply.message)""",
        ),
        ("            tidy(history)\n", ""),
    )
    agent = _agent(tmp_path, source, "my_agent.py")
    result = capstone.check_repaired_agent(agent, formats=("openai-responses", "anthropic"))
    assert result.ok, result.message


def test_a_right_repair_that_logs_refunds_its_own_way_passes(tmp_path):
    """The decorator gone, the refund log written in issue_refund itself: the trail is kept, the
    description is the docstring, and the check says right (issue 33, second walk)."""
    fixes = [pair for pair in _all_fixes() if pair not in FIXES["no-description"]]
    source = _patched(
        SHIPPED,
        *fixes,
        ("@refund_log\n", ""),
        (
            'instead. Check eligibility first."""\n    return sundry.run_tool(call)',
            'instead. Check eligibility first."""\n'
            "    args = call.arguments\n"
            "    print(f\"[refund log] {args['order_id']}: ${args['amount_usd']}\")\n"
            "    return sundry.run_tool(call)",
        ),
    )
    exercises.reset("14.1")
    result = capstone.check_repaired_agent(_agent(tmp_path, source), formats=("gemini",))
    assert result.ok, result.message


def test_the_check_names_one_more_problem_each_try_and_what_has_gone(tmp_path):
    """A first change does not show the whole list with its places (issue 33, second walk): the
    earliest problem is named, one more with each try, the rest only counted; a problem fixed
    since the last try is said to be gone."""
    headlines = set(capstone.SYMPTOMS.values())
    touched = _agent(tmp_path, SHIPPED.replace("MAX_TURNS = 8", "MAX_TURNS = 8  # mine"))
    exercises.reset("14.1")
    said = []
    for _ in range(2):
        message = capstone.check_repaired_agent(touched, formats=("anthropic",)).message
        said.append([h for h in headlines if h in message])
    assert "7 problems: (1) " in message and "and 5 more, not named yet" in message
    assert len(said[0]) == 1 and len(said[1]) == 2 and set(said[0]) < set(said[1])
    assert "Gone since" not in message
    policy = _agent(tmp_path, _patched(SHIPPED, *FIXES["policy-twice"]), "fixed.py")
    message = capstone.check_repaired_agent(policy, formats=("anthropic",)).message
    assert "6 problems: (1) " in message and "(3) " in message and "and 3 more" in message
    gone = message.split("Gone since your last check: ")[1]
    assert gone.startswith(capstone.SYMPTOMS["policy-twice"] + ".")
    exercises.reset("14.1")


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
    trace, seen = workbench.rerun(agent=broken)  # the workbench says so too, and goes on
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
    """Real git, as tests/repo/test_update.py does it: the learner repairs the agent, the author
    ships a new version of it, ``make update`` keeps the learner's file and names it."""
    import shutil

    from tests.repo.test_update import git, run, upstream

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


def test_the_timing_model_counts_the_repair_and_the_capstone_is_stated_from_its_walk():
    import lesson_times

    cell = {"cell_type": "code", "source": "agent = load_agent(p)\ncheck_repaired_agent(agent)"}
    assert lesson_times.exercise_kind(cell) == "repair"
    assert lesson_times.limit("14_repair_an_agent.ipynb") == 55
    assert lesson_times.limit("13_your_code_on_the_wire.ipynb") == lesson_times.LESSON_LIMIT
    lesson = ROOT / "notebooks" / "14_repair_an_agent.ipynb"
    stats = lesson_times.lesson_stats(lesson)
    assert stats["minutes"] == 55 and stats["measured_by"].startswith("walk e2")
    first = "".join(json.loads(lesson.read_text(encoding="utf-8"))["cells"][0]["source"])
    assert "about 55 minutes" in first


def test_the_third_hint_is_a_smaller_example_of_the_first_symptom_still_there(tmp_path):
    fixes = [pair for pair in _all_fixes() if pair not in FIXES["tools-grown"]]
    agent = _agent(tmp_path, _patched(SHIPPED, *fixes))
    exercises.reset("14.1")
    first = capstone.check_repaired_agent(object())  # two cheap wrong tries: no run_ticket
    second = capstone.check_repaired_agent(object())
    assert capstone.EX1.look in first.message and capstone.EX1.idea in second.message
    third = capstone.check_repaired_agent(agent, formats=("anthropic",)).message
    assert capstone.SYMPTOMS["tools-grown"] in third
    assert capstone.EXAMPLES["tools-grown"] in third and capstone.EX1.example not in third
    assert exercises.EXERCISES["14.1"] is capstone.EX1  # the lesson's own hints stay registered
    exercises.reset("14.1")


def test_the_shipped_fingerprint_is_the_shipped_file():
    """If this fails, the agent file changed: record its new fingerprint in agent_file.py."""
    from course.exercises import agent_file

    assert agent_file.fingerprint(SHIPPED) == agent_file.SHIPPED_SHA256, (
        f"SHIPPED_SHA256 = {agent_file.fingerprint(SHIPPED)!r}"
    )
    assert not agent_file.is_shipped(SHIPPED.replace("MAX_TURNS = 8", "MAX_TURNS = 9"))


def test_the_before_run_loads_the_shipped_agent_even_after_an_edit_in_place(tmp_path, monkeypatch):
    """On Colab the learner edits notebooks/sundry_agent.py itself: the "before" is git's copy."""
    from course.exercises import agent_file
    from tests.repo.test_update import git

    (tmp_path / "notebooks").mkdir()
    path = tmp_path / "notebooks" / "sundry_agent.py"
    path.write_text(SHIPPED, encoding="utf-8")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "as shipped")
    monkeypatch.setattr(agent_file, "ROOT", tmp_path)
    monkeypatch.setattr(agent_file, "SHIPPED", path)
    assert agent_file.shipped().__file__ == str(path)  # unchanged: the file itself
    path.write_text(SHIPPED.replace("MAX_TURNS = 8", "MAX_TURNS = 2  # mine"), encoding="utf-8")
    before = agent_file.shipped()
    assert before.__file__ != str(path) and before.MAX_TURNS == 8
    assert agent_file.load_agent(path).MAX_TURNS == 2  # the learner's copy is still theirs
