"""Used in lessons: 03.

Exercises of notebooks/03_content_is_a_list.ipynb."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from helpers.exercises import Result, check_equal, not_answered
from helpers.messages import Request


def check_finish_reason(answer: str, provider: Any) -> Result:
    chat = [e for e in provider.recorder if e.path == "/v1/chat/completions"]
    expected = chat[0].response_json["choices"][0]["finish_reason"] if chat else "tool_calls"
    return check_equal(
        answer,
        expected,
        hint="chat_reply['choices'][0]['finish_reason']",
        success=f"Right: '{expected}'. The model was waiting for a tool result, not done.",
    )


_REPLIES = [
    ([{"type": "text", "text": "Done."}], []),
    (
        [
            {"type": "thinking", "thinking": "...", "signature": "x"},
            {"type": "text", "text": "Let me look that order up."},
            {"type": "tool_use", "id": "toolu_01A", "name": "search_orders", "input": {}},
        ],
        ["toolu_01A"],
    ),
    (
        [
            {"type": "text", "text": "Checking both."},
            {"type": "tool_use", "id": "toolu_01B", "name": "search_code", "input": {}},
            {"type": "tool_use", "id": "toolu_01C", "name": "run_tests", "input": {}},
        ],
        ["toolu_01B", "toolu_01C"],
    ),
]


def check_tool_ids(fn: Callable[[list[dict]], list[str]]) -> Result:
    """Call the learner's function on three replies and compare."""
    for content, expected in _REPLIES:
        kinds = [b["type"] for b in content]
        try:
            got = fn(content)
        except Exception as err:  # the learner's code: report, don't crash the notebook
            return Result(False, f"Your function raised {type(err).__name__}: {err} on {kinds}.")
        if not_answered(got):
            return Result(False, "Not answered yet: return the list of tool_use ids.")
        if list(got) != expected:
            return Result(False, f"Not quite: for {kinds} you gave {got!r}; expected {expected}.")
    return Result(True, "Right: every tool_use block found, the parallel ones too, in order.")


def check_flat_count(answer: int, crash: Request) -> Result:
    from helpers.flat import to_flat

    flat, _ = to_flat(crash.messages)
    return check_equal(
        answer,
        len(flat),
        hint="len(to_flat(crash.messages)[0])",
        success=(
            f"Right: {len(flat)} flat messages for {len(crash.messages)} neutral ones: the "
            "two parallel results became two."
        ),
    )
