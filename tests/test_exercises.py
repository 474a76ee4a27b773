"""The exercise checks: a hint for blank or wrong answers, a confirmation for right ones."""

from __future__ import annotations

import tiktoken

from helpers.exercises import Result, check_equal
from helpers.exercises import start_here as ex00


def test_check_equal_distinguishes_blank_wrong_and_right():
    blank = check_equal(..., 3, hint="h", success="s")
    wrong = check_equal(4, 3, hint="count again", success="s")
    right = check_equal(3, 3, hint="h", success="well done")
    assert not blank and "Not answered yet" in blank.message
    assert not wrong and "you gave 4" in wrong.message and "count again" in wrong.message
    assert right and right.message == "well done"
    assert repr(right).startswith("✅") and repr(wrong).startswith("❌")
    assert "#1b7837" in right._repr_html_()


def test_start_here_checks_against_the_real_tokenizer():
    o200k, cl100k = (tiktoken.get_encoding(n) for n in ("o200k_base", "cl100k_base"))
    assert ex00.check_policy_tokens(len(o200k.encode(ex00.POLICY)))
    assert not ex00.check_policy_tokens(len(o200k.encode(ex00.POLICY)) + 1)
    diff = len(cl100k.encode(ex00.POLICY_FR)) - len(o200k.encode(ex00.POLICY_FR))
    assert ex00.check_french_difference(diff)
    assert not ex00.check_french_difference(...)
    assert isinstance(ex00.check_french_difference(0), Result)
