"""The exercise checks: graduated hints, every correct form accepted, solutions on request.

Every lesson's exercises are also probed in their lesson's kernel
(tests/lessons/test_student.py, tests/lessons/exercise_probe.py): reference answer, each accepted
form, a near miss, no leaked answer.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
import tiktoken

from course import exercises
from course.exercises import (
    EXERCISES,
    Exercise,
    as_number,
    check_equal,
    check_function,
    check_number,
    check_one_of,
    check_text,
)
from course.exercises import start_here as ex00
from course.exercises.solutions import show_solution

EX = Exercise("99.1", look="the table above", idea="think about the idea", example="a tiny case")


@pytest.fixture(autouse=True)
def _fresh():
    exercises.reset()


def test_hints_grow_with_each_wrong_try_and_code_only_on_request():
    blank = check_number(..., 3, EX, success="s")
    first = check_number(4, 3, EX, success="s")
    second = check_number(5, 3, EX, success="s")
    third = check_number(5, 3, EX, success="s")
    fourth = check_number(5, 3, EX, success="s")
    assert not blank and "not answered yet" in blank.message
    assert not {EX.look, EX.idea, EX.example} & set(blank.message.split(": "))
    assert EX.look not in blank.message and EX.idea not in blank.message
    assert not first and "you gave 4" in first.message and EX.look in first.message
    assert EX.idea not in first.message and "show_solution" not in first.message
    assert EX.idea in second.message and "show_solution" not in second.message
    assert EX.example in third.message and 'show_solution("99.1")' in third.message
    assert EX.example in fourth.message
    right = check_number(3, 3, EX, success="well done")
    assert right and right.message == "well done"
    assert repr(right).startswith("✓") and repr(second).startswith("✗")
    assert "#1b7837" in right._repr_html_()


def test_a_blank_does_not_count_as_a_wrong_try():
    for _ in range(3):
        check_number(..., 3, EX, success="s")
    assert EX.look in check_number(4, 3, EX, success="s").message


@pytest.mark.parametrize(
    ("answer", "value"),
    [
        (9, "9"),
        (9.0, "9.0"),
        (Decimal("4.80"), "4.80"),
        ("$4.80", "4.80"),
        (" 1,408 ", "1408"),
        ("62%", "0.62"),
        ("1_024", "1024"),
        ("-3.5e2", "-350"),
    ],
)
def test_numbers_are_read_in_every_common_form(answer, value):
    assert as_number(answer) == Decimal(value)


@pytest.mark.parametrize("answer", [True, "four", "", [4], float("nan"), "4.8.0"])
def test_things_that_are_not_numbers_are_not_read_as_numbers(answer):
    assert as_number(answer) is None


def test_dollars_with_a_tolerance_stated_in_the_message():
    exact = Decimal("4.80375")
    for answer in (exact, 4.80375, "$4.80", "4.80", 4.8, Decimal("4.8")):
        assert check_number(answer, exact, EX, tolerance="0.005", unit="$", success="ok")
    miss = check_number("$4.79", exact, EX, tolerance="0.005", unit="$", success="ok")
    assert not miss and "within $0.005" in miss.message


def test_counts_are_exact_and_say_so():
    assert check_number("1,408", 1408, EX, success="ok")
    assert check_number(1408.0, 1408, EX, success="ok")
    miss = check_number(1407, 1408, EX, success="ok")
    assert not miss and "compared exactly" in miss.message
    assert not check_number("lots", 1408, EX, success="ok")


def test_text_spellings_case_and_spaces():
    ok = dict(spellings=["system_instruction"], success="ok")
    assert check_text(" systemInstruction ", "systemInstruction", EX, **ok)
    assert check_text("system_instruction", "systemInstruction", EX, **ok)
    assert not check_text("system", "systemInstruction", EX, **ok)
    assert not check_text("SYSTEMINSTRUCTION", "systemInstruction", EX, **ok)
    assert check_text("Authorization", "authorization", EX, ignore_case=True, success="ok")
    assert not check_text(42, "authorization", EX, success="ok")


def test_a_tie_accepts_each_right_answer():
    assert check_one_of(5, [5, 6], EX, success="ok")
    assert check_one_of(6, [5, 6], EX, success="ok")
    assert check_one_of("6", [5, 6], EX, success="ok")
    assert not check_one_of(4, [5, 6], EX, success="ok")


def test_values_and_functions():
    assert check_equal({"a": 1, "b": 2}, {"b": 2, "a": 1}, EX, success="ok")
    assert not check_equal({"a": 1}, {"a": 1, "b": 2}, EX, success="ok", explain="1 missing")
    cases = [([1, 2], 3), ([], 0)]
    assert check_function(sum, cases, EX, success="ok")
    assert not check_function(len, cases, EX, success="ok")
    crash = check_function(lambda xs: 1 / 0, cases, EX, success="ok")
    assert not crash and "ZeroDivisionError" in crash.message
    assert "not answered yet" in check_function(lambda xs: None, cases, EX, success="").message


def test_start_here_checks_against_the_real_tokenizer():
    # 00.1 was count_tokens(text, encoding_name); it is now message_tokens(messages, model)
    # and 00.2 (the French difference) a prediction: the same facts, checked on the new forms.
    o200k, cl100k = (tiktoken.get_encoding(n) for n in ("o200k_base", "cl100k_base"))

    def right(messages, name):  # a content may be a list of parts (issue 33: a case of them)
        def text(content):
            if isinstance(content, list):
                return "".join(p["text"] for p in content if p["type"] == "text")
            return content or ""

        try:  # the model's encoding, else the series' estimate (gpt-6-luna)
            encoding = tiktoken.encoding_for_model(name)
        except KeyError:
            encoding = o200k
        return sum(len(encoding.encode(text(m["content"]))) for m in messages)

    assert ex00.check_message_tokens(right)
    one_encoding = ex00.check_message_tokens(
        lambda messages, name: sum(len(o200k.encode(m["content"] or "")) for m in messages)
    )
    assert not one_encoding and "the count in o200k_base" in one_encoding.message
    diff = len(cl100k.encode(ex00.POLICY_FR)) - len(o200k.encode(ex00.POLICY_FR))
    why = ex00.french_why()
    assert f"{len(cl100k.encode(ex00.POLICY_FR))} tokens in cl100k_base" in why
    assert f"{len(cl100k.encode(ex00.POLICY_FR)) - diff} in o200k_base" in why
    assert f"{o200k.n_vocab:,} tokens against" in why and "special tokens included" in why
    ids = ex00.check_message_tokens(
        lambda messages, name: [o200k.encode(m["content"] or "") for m in messages]
    )
    assert not ids and "not a number of tokens" in ids.message


def test_every_exercise_of_every_lesson_is_registered_with_distinct_hints():
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(exercises.__path__):
        importlib.import_module(f"course.exercises.{module.name}")
    lessons = {ex_id[:2] for ex_id in EXERCISES if not ex_id.startswith("99")}
    assert lessons == {f"{n:02}" for n in range(15)}
    for ex_id, ex in EXERCISES.items():
        assert re.fullmatch(r"\d\d\.\d+", ex_id)
        assert ex.look and ex.idea and ex.look != ex.idea, ex_id


def test_show_solution_reads_the_reference_lesson():
    shown = show_solution("00.1")
    assert "tiktoken.get_encoding" in shown.code and "BEGIN SOLUTION" not in shown.code
    assert shown.code.startswith("def message_tokens(")  # a function's body comes with its def
    compile(shown.code, "<shown>", "exec")  # and runs when pasted
    assert "```python" in shown._repr_markdown_()
    with pytest.raises(ValueError, match="exercises 1 to"):
        show_solution("00.9")
    with pytest.raises(ValueError, match="look like"):
        show_solution("first")


def test_show_solution_gives_a_value_exercise_its_code_alone(tmp_path):
    """No lesson has a value exercise today (they became predictions); the reader still
    shows one's code alone, without a def around it."""
    import nbformat

    from course.exercises.solutions import show_solution as show

    cell = nbformat.v4.new_code_cell(
        "answer = ...\n### BEGIN SOLUTION\nanswer = 2 + 3\n### END SOLUTION\ncheck(answer)"
    )
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), tmp_path / "98_values.ipynb")
    assert show("98.1", folder=tmp_path).code.startswith("answer = 2 + 3")


def test_check_cases_names_the_failing_case_and_never_the_expected_code():
    from course.exercises import Case, check_cases, equals

    def ids(content):  # a hidden case: parallel calls
        return [b["id"] for b in content if b["type"] == "tool_use"]

    cases = [
        Case("one text block", ([{"type": "text"}],), equals([])),
        Case("two parallel calls", ([{"type": "tool_use", "id": "a"}] * 2,), equals(["a", "a"])),
    ]
    assert check_cases(ids, cases, EX, success="ok")
    assert "ok. All 2 hidden cases passed." in check_cases(ids, cases, EX, success="ok").message
    only_first = check_cases(lambda c: ids(c)[:1], cases, EX, success="ok")
    assert not only_first and "case 2 of 2 (two parallel calls)" in only_first.message
    assert "['a']" in only_first.message and "['a', 'a']" not in only_first.message
    crashed = check_cases(lambda c: c[5], cases, EX, success="ok")
    assert "raised IndexError" in crashed.message and "case 1 of 2" in crashed.message
    blank = check_cases(lambda c: None, cases, EX, success="ok")
    assert not blank and "not answered yet" in blank.message
    assert "not answered yet" in check_cases(..., cases, EX, success="ok").message

    def mutates(content):  # the next case still gets its own fresh copy
        content.clear()
        return []

    assert "case 2 of 2" in check_cases(mutates, cases, EX, success="ok").message


def test_a_new_failing_case_starts_the_hints_again_the_same_one_climbs_them():
    """Three steps per mistake: failing another hidden case than the last try is a new
    mistake, told "look at" first; failing the same case again climbs to the idea, the example."""
    from course.exercises import Case, check_cases, equals, reset

    cases = [Case("one", (1,), equals(1)), Case("two", (2,), equals(2))]
    reset(EX.id)
    first = check_cases(lambda n: 0, cases, EX, success="ok")  # fails case 1
    assert "case 1 of 2" in first.message and "Look at:" in first.message
    again = check_cases(lambda n: 0, cases, EX, success="ok")  # case 1 again: the idea
    assert "Still not it" in again.message and "The idea:" in again.message
    other = check_cases(lambda n: 1, cases, EX, success="ok")  # now case 2: a new mistake
    assert "case 2 of 2" in other.message and "Look at:" in other.message, other.message
    assert "The idea:" in check_cases(lambda n: 1, cases, EX, success="ok").message
    reset(EX.id)


def test_reveal_puts_the_guess_beside_the_value_ungraded():
    from course.exercises import reveal

    shown = reveal(1500, 1408, why="the tools are counted once.", unit="")
    assert "1,500" in shown.message and "1,408" in shown.message and "high" in shown.message
    assert "1.07x" in shown.message and "the tools are counted once." in shown.message
    blank = reveal(..., 1408, why="w")
    assert "No prediction written" in blank.message and "1,408" in blank.message
    assert "Exactly right" in reveal("1,408", 1408, why="w").message
    assert "$0.002988" in reveal(0.001, Decimal("0.002988"), why="w", unit="$").message
    assert "#6b6b6b" in blank._repr_html_() and repr(blank).startswith("→")


def test_a_written_function_that_returns_none_is_a_wrong_try_not_a_blank():
    from course.exercises import Case, check_cases, equals

    def blank(content):
        """The exercise's stub."""
        ...

    def slips(content):
        if content:
            return ["a"]

    cases = [Case("one call", (["x"],), equals(["a"])), Case("no call", ([],), equals([]))]
    assert "not answered yet" in check_cases(blank, cases, EX, success="ok").message
    slipped = check_cases(slips, cases, EX, success="ok")
    assert not slipped and "not answered" not in slipped.message
    assert "case 2 of 2 (no call)" in slipped.message and "`return`" in slipped.message


def test_a_close_guess_is_called_close_and_a_solved_exercise_starts_its_hints_again():
    from course.exercises import reveal

    assert "very close" in reveal(580, 582, why="w").message
    assert "1.00x" not in reveal(580, 582, why="w").message
    check_number(4, 3, EX, success="s")
    check_number(4, 3, EX, success="s")
    assert check_number(3, 3, EX, success="s")
    again = check_number(4, 3, EX, success="s")
    assert "Not yet" in again.message and EX.look in again.message


def test_a_wrapped_stub_is_still_blank():
    import functools

    from course.exercises import is_stub

    def stub(body):
        """Blank."""
        ...

    @functools.wraps(stub)
    def attempt(body):
        return stub(body)

    assert is_stub(stub) and is_stub(attempt) and not is_stub(lambda body: body)
