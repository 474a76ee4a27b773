"""Used in lessons: 00.

Exercises of notebooks/00_start_here.ipynb."""

from __future__ import annotations

from collections.abc import Callable

from course.exercises import Exercise, Result, as_number, check_function, check_number, not_yet

POLICY = "Refunds above $150 need a human."
POLICY_FR = "Les remboursements de plus de 150 $ nécessitent un humain."

EX1 = Exercise(
    "00.1",
    look="the cell under 'Your first look at the wire': what it built from the encoding's name, "
    "and what it got back for POLICY.",
    idea="a tokenizer turns text into a list of token ids, and the count is how long that list "
    "is; the encoding's name picks the vocabulary.",
    example="'Hello, world!' became a list of 4 ids in the environment check at the top: its "
    "count is 4, in either encoding.",
)
EX2 = Exercise(
    "00.2",
    look="the French sentence the cell prints, counted once in each of the two encodings.",
    idea="the same text costs a different number of tokens under a different vocabulary; 'how "
    "many more' is the gap between the two counts, the older encoding's minus the newer one's.",
    example="a text of 10 tokens in one encoding and 7 in another needs 3 more in the first.",
)


def _count(text: str, encoding: str) -> int:
    import tiktoken

    return len(tiktoken.get_encoding(encoding).encode(text))


def check_token_counter(count_tokens: Callable[[str, str], int]) -> Result:
    """Call the learner's ``count_tokens(text, encoding_name)`` on texts it has not seen."""
    cases = [
        ((text, name), _count(text, name))
        for text, name in (
            (POLICY, "o200k_base"),
            (POLICY_FR, "cl100k_base"),
            ("Where is my order SO-48213?", "o200k_base"),
            ("", "cl100k_base"),
        )
    ]
    return check_function(
        count_tokens,
        cases,
        EX1,
        describe=lambda args: f"{args[0]!r} in {args[1]}",
        success=(
            f"Right: your function counts like the tokenizer does (POLICY is "
            f"{_count(POLICY, 'o200k_base')} tokens in o200k_base). Every one of them is billed "
            "on every request."
        ),
    )


def check_french_difference(answer: int) -> Result:
    """How many more tokens does ``cl100k_base`` need than ``o200k_base`` for ``POLICY_FR``?"""
    import tiktoken

    older, newer = _count(POLICY_FR, "cl100k_base"), _count(POLICY_FR, "o200k_base")
    value = as_number(answer)
    if value == newer - older:
        return not_yet(
            EX2,
            "your number has the wrong sign: the question asks how many *more* tokens the older "
            "encoding needs than the newer one",
            expected=older - newer,
            kind="number",
        )
    for name, alone in (("cl100k_base", older), ("o200k_base", newer)):
        if value == alone:
            return not_yet(
                EX2,
                f"{answer} is {name}'s count alone: the question asks for the difference "
                "between the two counts",
                expected=older - newer,
                kind="number",
            )
    sizes = {name: tiktoken.get_encoding(name).n_vocab for name in ("o200k_base", "cl100k_base")}
    return check_number(
        answer,
        older - newer,
        EX2,
        success=(
            f"Right: {older} - {newer} = {older - newer}. The newer vocabulary holds "
            f"{sizes['o200k_base']:,} pieces against {sizes['cl100k_base']:,}, and the same "
            "French text needs fewer of them."
        ),
    )
