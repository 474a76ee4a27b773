"""Used in lessons: 00, 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 12, 13.

Self-checking exercises: every lesson ends with a few, each with a ``check_...`` function.

A check never raises on a wrong answer. It returns a ``Result`` that shows as a coloured box:
a confirmation for a right answer, and for a wrong one a hint that grows with each try:

1. the first wrong answer: what to look at;
2. the second: which idea applies;
3. the third and after: a smaller example of the same idea, and how to ask for the code;
4. only when you ask, ``show_solution("05.2")`` shows the reference code.

A blank answer (``...``) only says so: nothing shown before a try gives the method. Hints never
contain the answer or the code to type. A function exercise runs the learner's code on cases
they have not seen (``check_cases``) and says which case failed and why, never the expected code.
A prediction (``reveal``) is not graded: it puts the learner's guess beside the real value.

Numbers are compared with a tolerance the message states, and
any correct spelling passes: ``4.8``, ``Decimal("4.80")`` or ``"$4.80"`` for dollars, either
spelling of a field a provider accepts, any of several answers when there is a tie.

The expected values are computed from the lesson's data when the check runs, never typed in.

In a learner folder (one ``scripts/make_student.py`` wrote: it holds ``.make_student.json``),
each check also records its outcome beside the learner's copy, in ``.checks/NN.json`` (lesson
NN): per exercise, the last outcome (pass, fail, blank), how many checks ran and when. Never the
answer; never anywhere else (not in ``notebooks/``). ``scripts/room.py`` reads these files to
show an instructor the room.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from html import escape
from typing import Any

from helpers.html import no_math

__all__ = [
    "Exercise",
    "Result",
    "check_function",
    "check_number",
    "check_one_of",
    "check_text",
    "check_equal",
    "check_cases",
    "Case",
    "equals",
    "not_answered",
    "not_yet",
    "reveal",
    "show_solution",
]

# The marks a check shows: in every common text font (no emoji font needed, unlike ✅ and ❌).
RIGHT, WRONG = "✓", "✗"
EXERCISES: dict[str, Exercise] = {}  # every exercise by id, "05.2" = lesson 05, exercise 2
_WRONG_TRIES: dict[str, int] = {}  # wrong answers so far in this kernel, per exercise
_LAST_CASE: dict[str, int] = {}  # the hidden case the last wrong answer failed, per exercise


@dataclass(frozen=True)
class Exercise:
    """One exercise's three hints, one more per wrong try: ``look`` says what to look at,
    ``idea`` which idea of the lesson applies, ``example`` a smaller example of the same idea.
    None of them gives the code to type."""

    id: str
    look: str
    idea: str
    example: str = ""

    def __post_init__(self) -> None:
        EXERCISES[self.id] = self


@dataclass(frozen=True)
class Result:
    """What a check says. ``expected`` and ``accepted`` are for tests and instructors."""

    ok: bool
    message: str
    exercise: Exercise | None = field(default=None, repr=False, compare=False)
    expected: Any = field(default=None, repr=False, compare=False)
    accepted: tuple = field(default=(), repr=False, compare=False)
    tolerance: Decimal | None = field(default=None, repr=False, compare=False)
    kind: str = field(default="value", repr=False, compare=False)  # number, text, choice...

    def __post_init__(self) -> None:
        if self.ok and self.exercise is not None:  # solved: a later experiment starts fresh
            _WRONG_TRIES.pop(self.exercise.id, None)
            _LAST_CASE.pop(self.exercise.id, None)
        if self.exercise is not None:
            _record(self)

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return (RIGHT if self.ok else WRONG) + " " + self.message

    def _repr_html_(self) -> str:
        colour, icon = ("#1b7837", RIGHT) if self.ok else ("#b35806", WRONG)
        return no_math(
            f'<div style="border-left:4px solid {colour};padding:4px 8px">'
            f"{icon} {_code_spans(escape(self.message))}</div>"
        )


def _code_spans(html: str) -> str:
    """Markdown's `code` as HTML <code> (a message is plain text, read as Markdown in the
    text view): the sixth walk of 11-13 saw the backticks literally. Unpaired ones stay."""
    import re

    return re.sub(r"`([^`\n]+)`", r"<code>\1</code>", html)


RECORDS = ".checks"  # the folder of outcome records, beside the learner's copies


def _record(result: Result) -> None:
    """Note a check's outcome in ``.checks/NN.json`` of a learner folder (see the module's
    docstring); does nothing elsewhere, and never lets a failed write disturb the check."""
    import json
    import os
    import time
    from pathlib import Path

    here = Path.cwd()
    if not (here / ".make_student.json").is_file():
        return
    lesson = result.exercise.id.split(".")[0]
    path = here / RECORDS / f"{lesson}.json"
    state = "pass" if result.ok else "blank" if "is not answered yet" in result.message else "fail"
    try:
        records = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        entry = records.setdefault(result.exercise.id, {"checks": 0})
        entry.update(
            last=state,
            checks=entry.get("checks", 0) + 1,
            at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        )
        path.parent.mkdir(exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(records, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(temporary, path)  # a reader never sees half a file
    except (OSError, ValueError, AttributeError):
        pass  # a record is a convenience for the instructor; the check itself must not fail


def not_answered(answer: Any) -> bool:
    return answer is ... or answer is None


def reset(exercise_id: str | None = None) -> None:
    """Forget the wrong tries (of one exercise, or all): hints start again from the first."""
    if exercise_id is None:
        _WRONG_TRIES.clear()
        _LAST_CASE.clear()
    else:
        _WRONG_TRIES.pop(exercise_id, None)
        _LAST_CASE.pop(exercise_id, None)


BLANK = "is not answered yet: replace the `...` with your answer and run the cell again."


def _blank(ex: Exercise, **info: Any) -> Result:
    """A blank answer: said plainly, with no hint (a hint before any try would give the method)."""
    return Result(False, f"Exercise {ex.id} {BLANK}", ex, **info)


def hint(ex: Exercise, tries: int) -> str:
    """The hint for the ``tries``-th wrong answer: what to look at, the idea, a smaller example."""
    if tries == 1:
        return f"Look at: {ex.look}"
    if tries == 2 or not ex.example:
        text = f"The idea: {ex.idea}"
    else:
        text = f"A smaller example: {ex.example}"
    if tries >= 3 or (tries == 2 and not ex.example):
        text += f' Stuck? show_solution("{ex.id}") in a new cell shows the reference code.'
    return text


def _wrong(ex: Exercise, what: str, *, case: int | None = None, **info: Any) -> Result:
    """A wrong answer: what was wrong, and the next hint of three (see ``hint``). A wrong answer
    that fails another hidden ``case`` than the last one is a new mistake: its hints start again
    from "look at", so each mistake gets all three steps."""
    if case is not None and _LAST_CASE.setdefault(ex.id, case) != case:
        _WRONG_TRIES.pop(ex.id, None)
        _LAST_CASE[ex.id] = case
    tries = _WRONG_TRIES[ex.id] = _WRONG_TRIES.get(ex.id, 0) + 1
    opening = "Not yet" if tries == 1 else "Still not it"
    return Result(False, f"{opening}: {_sentence(what)} {hint(ex, tries)}", ex, **info)


def with_fitting_example(result: Result, ex: Exercise, examples: list[tuple[str, str]]) -> Result:
    """The third hint matched to the mistake: where the wrong answer's message holds the sign of
    one of ``examples`` (``(sign, example)``, the first that matches), that smaller example
    replaces the exercise's own; any other result comes back as it was."""
    shown = f"A smaller example: {ex.example}"
    if result or shown not in result.message:
        return result
    for sign, example in examples:
        if sign in result.message:
            message = result.message.replace(shown, f"A smaller example: {example}")
            return replace(result, message=message)
    return result


def _sentence(text: str) -> str:
    """``text`` ending in one full stop (a quoted provider error may bring its own)."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?")) else text + "."


def not_yet(ex: Exercise, what: str, **info: Any) -> Result:
    """A wrong answer the check explains itself (``what``), with the graduated hint."""
    return _wrong(ex, what, **info)


def _shown(answer: Any) -> str:
    text = repr(answer)
    return text if len(text) <= 80 else text[:77] + "..."


# ---- numbers ---------------------------------------------------------------------------------

_NUMBER = re.compile(r"^\s*(\$)?\s*([-+]?(?:\d[\d,_]*)?\.?\d+(?:[eE][-+]?\d+)?)\s*(%)?\s*$")


def as_number(answer: Any) -> Decimal | None:
    """An answer read as a number: int, float, Decimal, numpy scalars, "1,408", "$4.80", "62%"."""
    if isinstance(answer, bool):
        return None
    if hasattr(answer, "item") and not isinstance(answer, (str, bytes)):  # numpy scalars
        answer = answer.item()
    if isinstance(answer, (int, Decimal)):
        return Decimal(answer)
    if isinstance(answer, float):
        return Decimal(repr(answer)) if answer == answer else None
    if isinstance(answer, str):
        match = _NUMBER.match(answer)
        if match:
            try:
                value = Decimal(match.group(2).replace(",", "").replace("_", ""))
            except InvalidOperation:
                return None
            return value / 100 if match.group(3) else value
    return None


def check_number(
    answer: Any,
    expected: int | float | Decimal,
    ex: Exercise,
    *,
    success: str,
    tolerance: str | int = 0,
    unit: str = "",
) -> Result:
    """Right if within ``tolerance`` of ``expected`` (0: a whole number, exactly)."""
    tol = Decimal(str(tolerance))
    target = Decimal(repr(expected)) if isinstance(expected, float) else Decimal(expected)
    rule = (
        "a whole number, compared exactly"
        if tol == 0
        else f"I accept anything within {unit}{tol} of the exact value"
    )
    info = {"expected": expected, "tolerance": tol, "kind": "number"}
    if not_answered(answer):
        return _blank(ex, **info)
    value = as_number(answer)
    if value is None:
        return _wrong(ex, f"{_shown(answer)} is not a number I can read ({rule})", **info)
    if abs(value - target) <= tol:
        return Result(True, success, ex, **info)
    return _wrong(ex, f"you gave {_shown(answer)} ({rule})", **info)


# ---- text and other values -------------------------------------------------------------------


def _words(text: str, ignore_case: bool) -> str:
    text = " ".join(text.split())
    return text.lower() if ignore_case else text


def check_text(
    answer: Any,
    expected: str,
    ex: Exercise,
    *,
    success: str,
    spellings: Iterable[str] = (),
    ignore_case: bool = False,
) -> Result:
    """Right if the answer is ``expected`` or one of the other correct ``spellings``
    (surrounding spaces never matter; letter case only when ``ignore_case``)."""
    accepted = (expected, *spellings)
    info = {"expected": expected, "accepted": accepted, "kind": "text"}
    if not_answered(answer):
        return _blank(ex, **info)
    if not isinstance(answer, str):
        return _wrong(ex, f"you gave {_shown(answer)}, and a text (a str) is expected", **info)
    if _words(answer, ignore_case) in {_words(a, ignore_case) for a in accepted}:
        return Result(True, success, ex, **info)
    return _wrong(ex, f"you gave {_shown(answer)}", **info)


def check_one_of(
    answer: Any, options: Iterable[Any], ex: Exercise, *, success: str, tolerance: str | int = 0
) -> Result:
    """Right if the answer is any of ``options`` (a tie: several answers are right)."""
    options = tuple(options)
    info = {"expected": options[0], "accepted": options, "kind": "choice"}
    if not_answered(answer):
        return _blank(ex, **info)
    for option in options:
        number = as_number(answer) if as_number(option) is not None else None
        if answer == option or (
            number is not None and abs(number - as_number(option)) <= Decimal(str(tolerance))
        ):
            return Result(True, success, ex, **info)
    return _wrong(ex, f"you gave {_shown(answer)}", **info)


def check_equal(
    answer: Any, expected: Any, ex: Exercise, *, success: str, explain: str = ""
) -> Result:
    """Right if ``answer == expected`` (dicts, lists...); ``explain`` says what differs."""
    info = {"expected": expected}
    if not_answered(answer):
        return _blank(ex, **info)
    if answer == expected:
        return Result(True, success, ex, **info)
    return _wrong(ex, f"you gave {_shown(answer)}" + (f"; {explain}" if explain else ""), **info)


_STUB_OPS = {"RESUME", "NOP", "LOAD_CONST", "POP_TOP", "RETURN_VALUE", "RETURN_CONST"}


def is_stub(fn: Callable) -> bool:
    """Whether a function is still the exercise's blank: a body of ``...`` (and a docstring)."""
    import dis
    import inspect

    fn = inspect.unwrap(fn)  # a check's own wrapper around the learner's function
    if getattr(fn, "__code__", None) is None:
        return False
    return {i.opname for i in dis.get_instructions(fn)} <= _STUB_OPS


def _returned_none(
    fn: Callable, ex: Exercise, where: str, got: Any = None, *, case: int | None = None, **info: Any
) -> Result:
    """A function that gave nothing: a blank still to fill in, or a real slip (a missing
    ``return`` on some path), told apart so a written function is never called blank."""
    if is_stub(fn):
        return Result(
            False,
            f"Exercise {ex.id} is not answered yet: your function returned {got!r} {where}. "
            "Replace the `...` in its body with your code, and end it with `return` and the "
            "result.",
            ex,
            **info,
        )
    return _wrong(
        ex,
        f"{where} your function returned {got!r}: every path should end in a "
        "`return` with the result",
        case=case,
        **info,
    )


def check_function(
    fn: Any,
    cases: Iterable[tuple[Any, Any]],
    ex: Exercise,
    *,
    success: str,
    describe: Callable[[Any], str] = repr,
) -> Result:
    """Call the learner's function on each ``(argument, expected)`` case and compare."""
    cases = list(cases)
    info = {"expected": cases, "kind": "function"}
    if not_answered(fn):
        return _blank(ex, **info)
    if not callable(fn):
        return _wrong(ex, f"{_shown(fn)} is not a function", **info)
    for argument, expected in cases:
        try:
            got = fn(*argument) if isinstance(argument, tuple) else fn(argument)
        except Exception as err:  # the learner's code: report, don't crash the notebook
            return _wrong(
                ex,
                f"your function raised {type(err).__name__}: {err} on {describe(argument)}",
                **info,
            )
        if got is None:  # the body is still `...`, or it ends without `return`
            return _returned_none(fn, ex, f"for {describe(argument)}", **info)
        if not_answered(got):
            return _blank(ex, **info)
        if isinstance(got, list | tuple) and type(expected) is int:
            what = f"for {describe(argument)} your function returned {len(got)} items, not a number"
            return _wrong(ex, what + ": the answer is one number (how many?)", **info)
        if got != expected:
            return _wrong(ex, f"for {describe(argument)} your function gave {_shown(got)}", **info)
    return Result(True, success, ex, **info)


@dataclass(frozen=True)
class Case:
    """One hidden case of a function exercise. ``name`` says what the case is (shown only when
    it fails), ``args`` go to the learner's function (a fresh deep copy each time), ``judge``
    returns ``None`` for a right result, else why it is wrong: a sentence about the result that
    never gives the expected code."""

    name: str
    args: tuple
    judge: Callable[[Any], str | None]


def equals(expected: Any, why: str = "") -> Callable[[Any], str | None]:
    """A judge for ``Case``: right when the result equals ``expected`` (``why`` says what to
    think about when it does not)."""

    def judge(got: Any) -> str | None:
        if got == expected:
            return None
        return f"your function gave {_shown(got)}" + (f"; {why}" if why else "")

    return judge


def check_cases(fn: Any, cases: Iterable[Case], ex: Exercise, *, success: str) -> Result:
    """Run the learner's function on each hidden case; the first that fails is named, with why."""
    import copy

    cases = list(cases)
    info = {"expected": cases, "kind": "function"}
    if not_answered(fn):
        return _blank(ex, **info)
    if not callable(fn):
        return _wrong(ex, f"{_shown(fn)} is not a function", **info)
    for number, case in enumerate(cases, 1):
        where = f"case {number} of {len(cases)} ({case.name})"
        try:
            got = fn(*copy.deepcopy(case.args))
        except Exception as err:  # the learner's code: report it, don't crash the notebook
            return _wrong(
                ex,
                f"on {where} your function raised {type(err).__name__}: {err}",
                case=number,
                **info,
            )
        if got is None or got is ...:
            return _returned_none(fn, ex, f"on {where}", got, case=number, **info)
        why = case.judge(got)
        if why:
            return _wrong(ex, f"on {where}: {why}", case=number, **info)
    return Result(True, f"{_sentence(success)} All {len(cases)} hidden cases passed.", ex, **info)


@dataclass(frozen=True)
class Reveal:
    """A prediction beside the real value: not graded, shown as a grey box."""

    guess: Any
    value: Any
    why: str
    unit: str = ""

    def _shown(self, value: Any) -> str:
        number = as_number(value)
        if number is None:
            return _shown(value)
        whole = number == number.to_integral_value()
        return self.unit + (f"{number:,.0f}" if whole else f"{number.normalize():,f}")

    @property
    def message(self) -> str:
        value = f"The value: {self._shown(self.value)}."
        if not_answered(self.guess):
            head = "No prediction written: write your guess in the cell above first, then run both."
            return f"{head} {value} {self.why}"
        guess, real = as_number(self.guess), as_number(self.value)
        if guess is None or real is None or real == 0:
            gap = ""
        elif guess == real:
            gap = " Exactly right."
        elif abs(guess / real - 1) <= Decimal("0.02"):
            gap = " Within 2% of it: very close."
        else:
            ratio = guess / real
            side = "high" if ratio > 1 else "low"
            gap = f" You were {side}: your guess is {ratio:.2f}x the value."
        return f"Your prediction: {self._shown(self.guess)}. {value}{gap} {self.why}"

    def __repr__(self) -> str:
        return "→ " + self.message

    def _repr_html_(self) -> str:
        return no_math(
            '<div style="border-left:4px solid #6b6b6b;padding:4px 8px">'
            f"{_code_spans(escape(self.message))}</div>"
        )


def reveal(guess: Any, value: Any, *, why: str, unit: str = "") -> Reveal:
    """Show a prediction beside the value it predicted, and what explains the gap (``why``).
    Not graded: a blank guess (``...``) only says so."""
    return Reveal(guess, value, why, unit)


def show_solution(exercise_id: str):
    """The reference code of one exercise (read from the lesson with solutions)."""
    from course.exercises.solutions import show_solution as show

    return show(exercise_id)
