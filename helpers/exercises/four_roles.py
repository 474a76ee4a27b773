"""Exercises of notebooks/02_four_roles.ipynb: find things in the rendered bodies."""

from __future__ import annotations

from helpers.exercises import Exercise, Result, check_number, check_text
from helpers.messages import Request

EX1 = Exercise(
    "02.1",
    nudge="Anthropic has no role of its own for tool results: they travel inside a message of "
    "one of the other roles.",
    pointer="loop over bodies['anthropic']['messages'] and look at the blocks of each message's "
    "content for the block type that carries a result.",
)
EX2 = Exercise(
    "02.2",
    nudge="Gemini does not put the system prompt in its list of contents: it has a top-level "
    "field of its own.",
    pointer="print(list(bodies['gemini'])) lists the top-level keys; one of them is about the "
    "system.",
)
EX3 = Exercise(
    "02.3",
    nudge="role and channel markers are special tokens, written between <| and |>; count only "
    "those among the pieces.",
    pointer="view.pieces (from render_harmony in 'What the model actually sees') is the list of "
    "token strings; test each one's start and end.",
)


def check_tool_result_role(answer: str, ticket: Request) -> Result:
    from helpers.formats import render

    body = render(ticket, "anthropic").body
    expected = next(
        m["role"]
        for m in body["messages"]
        if isinstance(m["content"], list)
        and any(b.get("type") == "tool_result" for b in m["content"])
    )
    return check_text(
        answer,
        expected,
        EX1,
        ignore_case=True,
        success=f"Right: '{expected}'. Anthropic has no tool role: results travel in a user turn.",
    )


def check_system_key(answer: str, ticket: Request) -> Result:
    """Either spelling passes: Google's REST APIs follow the proto3 JSON mapping, whose parsers
    accept the lowerCamelCase name and the original proto field name
    (https://protobuf.dev/programming-guides/json/, checked 2026-11-30)."""
    from helpers.formats import render

    body = render(ticket, "gemini").body
    expected = next(k for k in body if "system" in k.lower())
    snake = "".join("_" + c.lower() if c.isupper() else c for c in expected)
    return check_text(
        answer,
        expected,
        EX2,
        spellings=[snake],
        success=(
            f"Right: {expected} (the REST API also accepts {snake}), a Content object of its "
            "own, outside 'contents'."
        ),
    )


def check_marker_tokens(answer: int, ticket: Request) -> Result:
    from helpers.harmony import render_harmony

    view = render_harmony(ticket)
    expected = sum(1 for p in view.pieces if p.startswith("<|") and p.endswith("|>"))
    return check_number(
        answer,
        expected,
        EX3,
        success=(
            f"Right: {expected} of {view.count} tokens mark roles, channels and boundaries. "
            "You pay for them too."
        ),
    )
