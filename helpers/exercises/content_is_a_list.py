"""Used in lessons: 03.

Exercises of notebooks/03_content_is_a_list.ipynb."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from helpers.exercises import Exercise, Result, check_function, check_number, check_text
from helpers.messages import Request

EX1 = Exercise(
    "03.1",
    nudge="every OpenAI Chat choice says why the model stopped; the string agent never looked.",
    pointer="chat_reply (from the string agent's cell) is the raw JSON reply: look inside its "
    "first choice.",
)
EX2 = Exercise(
    "03.2",
    nudge="content is a list of typed blocks; keep the id of each block whose type marks a "
    "tool call, in the order they come.",
    pointer="the dispatch cell under 'The fix: dispatch on the block type' branches on each "
    "block's type; in raw Anthropic JSON that is block['type'], and the id is block['id'].",
)
EX3 = Exercise(
    "03.3",
    nudge="a flat struct holds one string per message, so a message with two tool results "
    "has to become more than one flat message.",
    pointer="to_flat (under 'Flat structs versus blocks') returns the flat messages and notes; "
    "count the first.",
)


def check_finish_reason(answer: str, provider: Any) -> Result:
    chat = [e for e in provider.recorder if e.path == "/v1/chat/completions"]
    expected = chat[0].response_json["choices"][0]["finish_reason"] if chat else "tool_calls"
    return check_text(
        answer,
        expected,
        EX1,
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
    """Call the learner's function on three replies (one with parallel calls) and compare."""

    def kinds(content: list[dict]) -> str:
        return "a reply with blocks " + ", ".join(b["type"] for b in content)

    def as_list(fn: Callable) -> Callable:
        def call(content: list[dict]) -> Any:
            got = fn(content)
            return list(got) if isinstance(got, (tuple, list)) else got

        return call

    return check_function(
        as_list(fn) if callable(fn) else fn,
        _REPLIES,
        EX2,
        describe=kinds,
        success="Right: every tool_use block found, the parallel ones too, in order.",
    )


def check_flat_count(answer: int, crash: Request) -> Result:
    from helpers.flat import to_flat

    flat, _ = to_flat(crash.messages)
    return check_number(
        answer,
        len(flat),
        EX3,
        success=(
            f"Right: {len(flat)} flat messages for {len(crash.messages)} neutral ones: the "
            "two parallel results became two."
        ),
    )
