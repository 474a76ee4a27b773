"""Probe one exercise inside a lesson's kernel (run by tests/lessons/test_student.py after the
lesson).

``probe(namespace, reference_cell, exercise_id)`` runs the reference solution of the exercise
in the lesson's namespace, then calls the exercise's check with

- the reference answer (must pass, and the check must belong to ``exercise_id``);
- the reference answer in every other accepted form (int, float, Decimal, "$4.80", "1,408",
  "62%", either spelling, each answer of a tie, a JSON string for a dict...; only Decimals
  where the exercise asks for a Decimal): each must pass;
- ``...`` and a near miss, three times: the blank says "not answered", the first wrong answer
  shows what to look at, the second the idea, the third a smaller example and how to ask for
  the solution; none of these messages may contain the expected value or a line of the
  solution's code.

It raises AssertionError with a readable message on the first problem.
"""

from __future__ import annotations

import ast
import json
import re
from decimal import Decimal
from typing import Any


def _evaluate(node: ast.AST, namespace: dict) -> Any:
    return eval(compile(ast.Expression(node), "<probe>", "eval"), namespace)


def _right_forms(result) -> list[Any]:
    """The reference answer in each form the check promises to accept."""
    kind, expected = result.kind, result.expected
    if kind == "number":
        e, tol = Decimal(str(expected)), result.tolerance
        forms: list[Any] = [float(e), e, str(e), f" {e} "]
        if e == e.to_integral_value():
            forms += [int(e), f"{int(e):,}", f"{float(e)}"]
        if tol:
            places = -tol.normalize().as_tuple().exponent - 1  # 0.005 -> 2 decimals
            shown = round(e, max(places, 0))
            forms += [f"${shown}", str(shown), e + tol * Decimal("0.9"), e - tol * Decimal("0.9")]
            if 0 < e < 1:
                forms.append(f"{e * 100}%")
        return forms
    if kind == "decimal":  # the exercise asks for a Decimal: only Decimals are right forms
        e, tol = Decimal(str(expected)), result.tolerance
        return [e, e + tol * Decimal("0.9"), e - tol * Decimal("0.9"), Decimal(f"{e:.7f}")]
    if kind in ("text", "choice"):
        forms = list(result.accepted)
        return forms + [f"  {a} " for a in forms if isinstance(a, str)]
    if kind == "value" and isinstance(expected, dict):
        return [dict(reversed(expected.items())), json.dumps(expected)]
    return []


def _near_miss(result, reference: Any) -> Any:
    kind, expected = result.kind, result.expected
    if kind in ("number", "decimal"):
        e, tol = Decimal(str(expected)), result.tolerance
        miss = e + (3 * tol if tol else 1)
        return int(miss) if isinstance(reference, int) else miss
    if kind == "text":
        return expected[:-1] if len(expected) > 1 else expected + "x"
    if kind == "choice":
        options = [o for o in result.accepted if isinstance(o, int)]
        return min(options) - 1 if options else "none of them"
    if kind == "function":
        return lambda content: []
    if isinstance(expected, dict):
        return {k: v for k, v in list(expected.items())[:-1]}
    return object()


def _leaks(text: str, result, solution: str) -> list[str]:
    """Pieces of the answer found in a message meant to help without giving it away."""
    found = []
    values = [result.expected, *result.accepted] if result.kind != "function" else []
    for value in values:
        if isinstance(value, str) and value.strip():
            if value.lower() in text.lower():
                found.append(f"the answer {value!r}")
        elif isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
            d = Decimal(str(value))
            shown = {str(value), f"{d:,}", f"{d:.2f}"} if d != d.to_integral_value() else set()
            if d == d.to_integral_value():
                shown |= {str(int(d)), f"{int(d):,}"}
            for s in shown:
                if re.search(rf"(?<![\w.]){re.escape(s)}(?![\w]|\.\d)", text):
                    found.append(f"the expected value {s}")
    flat = " ".join(text.split())
    for line in solution.splitlines():
        code = " ".join(re.sub(r"^\s*answer\s*=\s*", "", line).split())
        if len(code) >= 12 and code in flat:
            found.append(f"solution code {code!r}")
    return found


def probe(namespace: dict, reference_cell: str, exercise_id: str) -> str:
    from course import exercises
    from course.exercises.solutions import show_solution, solution_code

    tree = ast.parse(reference_cell)
    *body, last = tree.body
    assert isinstance(last, ast.Expr) and isinstance(last.value, ast.Call), (
        f"{exercise_id}: an exercise cell must end with its check call"
    )
    call = last.value
    exec(compile(ast.Module(body=body, type_ignores=[]), "<reference>", "exec"), namespace)
    check_fn = _evaluate(call.func, namespace)
    rest = [_evaluate(a, namespace) for a in call.args[1:]]
    keywords = {k.arg: _evaluate(k.value, namespace) for k in call.keywords}
    reference = _evaluate(call.args[0], namespace)

    def check(answer: Any):
        return check_fn(answer, *rest, **keywords)

    exercises.reset(exercise_id)
    right = check(reference)
    assert right.ok, f"{exercise_id}: the reference solution fails: {right.message}"
    assert right.exercise is not None and right.exercise.id == exercise_id, (
        f"{exercise_id}: the cell's check belongs to "
        f"{right.exercise.id if right.exercise else 'no exercise'}"
    )
    forms = _right_forms(right)
    for form in forms:
        verdict = check(form)
        assert verdict.ok, f"{exercise_id}: right answer {form!r} refused: {verdict.message}"

    ex, solution = right.exercise, solution_code({"source": reference_cell})
    exercises.reset(exercise_id)
    blank = check(...)
    miss = _near_miss(right, reference)
    first, second, third = check(miss), check(miss), check(miss)
    assert not blank and "not answered yet" in blank.message, f"{exercise_id}: {blank.message}"
    assert ex.look not in blank.message and ex.idea not in blank.message, blank.message
    assert not first and ex.look in first.message, f"{exercise_id} first try: {first.message}"
    assert not second and ex.idea in second.message, f"{exercise_id}: {second.message}"
    assert (ex.example or ex.idea) in third.message, f"{exercise_id}: {third.message}"
    assert f'show_solution("{exercise_id}")' in third.message
    shown_miss = repr(miss)
    for result in (blank, first, second, third):
        text = result.message.replace(exercise_id, "").replace(shown_miss, "")
        leaks = _leaks(text, right, solution)
        assert not leaks, f"{exercise_id}: a hint gives away {leaks}: {result.message}"
    shown = "".join(repr(show_solution(exercise_id)).split())  # the def line may lead it
    assert solution.strip() and "".join(solution.split()) in shown
    exercises.reset(exercise_id)
    return f"probe {exercise_id}: ok, {1 + len(forms)} right forms, hints leak nothing"
