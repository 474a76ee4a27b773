"""Used in lessons: 00, 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 12.

Self-checking exercises: every lesson ends with a few, each with a ``check_...`` function.

A check never raises on a wrong answer. It returns a ``Result`` that prints a hint (wrong or
missing answer) or a confirmation (right answer), and shows as a coloured box in a notebook.
Learners start from ``answer = ...``: a check given ``...`` says the exercise is not done yet.

The expected values are computed from the lesson's data when the check runs, never typed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

__all__ = ["Result", "check_equal", "not_answered"]


@dataclass(frozen=True)
class Result:
    ok: bool
    message: str

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return ("✅ " if self.ok else "❌ ") + self.message

    def _repr_html_(self) -> str:
        colour, icon = ("#1b7837", "✅") if self.ok else ("#b35806", "❌")
        return (
            f'<div style="border-left:4px solid {colour};padding:4px 8px">'
            f"{icon} {escape(self.message)}</div>"
        )


def not_answered(answer: Any) -> bool:
    return answer is ... or answer is None


def check_equal(answer: Any, expected: Any, *, hint: str, success: str) -> Result:
    """Compare an answer with the computed expected value; explain, never raise."""
    if not_answered(answer):
        return Result(False, "Not answered yet: replace `...` with your answer. Hint: " + hint)
    if answer == expected:
        return Result(True, success)
    return Result(False, f"Not quite: you gave {answer!r}. Hint: {hint}")
