"""Used in lessons: 02.

Exercises of notebooks/02_four_roles.ipynb: find things in the rendered bodies."""

from __future__ import annotations

from helpers.exercises import Result, check_equal
from helpers.messages import Request


def check_tool_result_role(answer: str, ticket: Request) -> Result:
    from helpers.formats import render

    body = render(ticket, "anthropic").body
    expected = next(
        m["role"]
        for m in body["messages"]
        if isinstance(m["content"], list)
        and any(b.get("type") == "tool_result" for b in m["content"])
    )
    return check_equal(
        answer,
        expected,
        hint="loop over bodies['anthropic']['messages'] and look for a block of type tool_result.",
        success=f"Right: '{expected}'. Anthropic has no tool role: results travel in a user turn.",
    )


def check_system_key(answer: str, ticket: Request) -> Result:
    from helpers.formats import render

    body = render(ticket, "gemini").body
    expected = next(k for k in body if "system" in k.lower())
    return check_equal(
        answer,
        expected,
        hint="print(list(bodies['gemini'])) and look for the key that mentions the system.",
        success=f"Right: {expected}, a Content object of its own, outside 'contents'.",
    )


def check_marker_tokens(answer: int, ticket: Request) -> Result:
    from helpers.harmony import render_harmony

    view = render_harmony(ticket)
    expected = sum(1 for p in view.pieces if p.startswith("<|") and p.endswith("|>"))
    return check_equal(
        answer,
        expected,
        hint="sum(1 for piece in view.pieces if piece.startswith('<|') and piece.endswith('|>'))",
        success=(
            f"Right: {expected} of {view.count} tokens mark roles, channels and boundaries. "
            "You pay for them too."
        ),
    )
