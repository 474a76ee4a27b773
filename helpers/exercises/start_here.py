"""Used in lessons: 00.

Exercises of notebooks/00_start_here.ipynb."""

from __future__ import annotations

from helpers.exercises import Result, check_equal

POLICY = "Refunds above $150 need a human."
POLICY_FR = "Les remboursements de plus de 150 $ nécessitent un humain."


def _count(text: str, encoding: str) -> int:
    import tiktoken

    return len(tiktoken.get_encoding(encoding).encode(text))


def check_policy_tokens(answer: int) -> Result:
    """How many o200k_base tokens is the sentence ``POLICY``?"""
    expected = _count(POLICY, "o200k_base")
    return check_equal(
        answer,
        expected,
        hint="encode POLICY with tiktoken.get_encoding('o200k_base') and take len() of the ids.",
        success=f"Right: {expected} tokens. Every one of them is billed on every request.",
    )


def check_french_difference(answer: int) -> Result:
    """How many more tokens does ``cl100k_base`` need than ``o200k_base`` for ``POLICY_FR``?"""
    older, newer = _count(POLICY_FR, "cl100k_base"), _count(POLICY_FR, "o200k_base")
    return check_equal(
        answer,
        older - newer,
        hint="count POLICY_FR with both encodings and subtract: cl100k_base minus o200k_base.",
        success=(
            f"Right: {older} - {newer} = {older - newer}. The newer tokenizer has a bigger "
            "vocabulary with more non-English pieces, so the same French text costs fewer tokens."
        ),
    )
