"""Used in lessons: 08.

Exercises of notebooks/08_reading_a_real_request.ipynb: four request dumps, four bugs.

``buggy_bodies(model)`` builds four OpenAI Chat request bodies from Sundry's second turn, each
with one bug a real codebase produced. Two of them break the rules of the list (the provider
answers 400); two are perfectly valid JSON the provider accepts and that are still wrong: only
someone reading the request finds those.
"""

from __future__ import annotations

import copy
from typing import Any

from helpers.exercises import Result, check_equal


def _turn_two(model: str) -> dict[str, Any]:
    from helpers.examples import sundry
    from helpers.formats import render

    return render(sundry.ticket(model), "openai-chat").body


def buggy_bodies(model: str) -> dict[str, dict[str, Any]]:
    """Four broken versions of one real request body (OpenAI Chat Completions)."""
    base = _turn_two(model)

    lost = copy.deepcopy(base)  # a tool registry that forgot one description
    lost["tools"][4]["function"].pop("description")

    doubled = copy.deepcopy(base)  # a helper that "reminds" the model of the policy each turn
    policy = doubled["messages"][0]["content"]
    doubled["messages"].append({"role": "user", "content": f"Reminder:\n{policy}"})

    shuffled = copy.deepcopy(base)  # a retry that appended the tool result before the call
    shuffled["messages"][2], shuffled["messages"][3] = (
        shuffled["messages"][3],
        shuffled["messages"][2],
    )

    orphan = copy.deepcopy(base)  # history trimmed from the front, leaving a result behind
    del orphan["messages"][1:3]
    return {
        "missing description": lost,
        "duplicated system prompt": doubled,
        "out of order after a retry": shuffled,
        "result without its call": orphan,
    }


def check_missing_description(answer: str, model: str) -> Result:
    body = buggy_bodies(model)["missing description"]
    expected = next(
        t["function"]["name"] for t in body["tools"] if "description" not in t["function"]
    )
    return check_equal(
        answer,
        expected,
        hint="look for the tool whose 'function' has no 'description' key",
        success=(
            f"Right: {expected}. The model sees a bare name and parameters: nothing says it "
            "is capped at $150. The provider accepted the request."
        ),
    )


def check_duplicate_index(answer: int, model: str) -> Result:
    body = buggy_bodies(model)["duplicated system prompt"]
    policy = body["messages"][0]["content"]
    expected = next(
        i
        for i, m in enumerate(body["messages"][1:], start=1)
        if isinstance(m.get("content"), str) and policy in m["content"]
    )
    return check_equal(
        answer,
        expected,
        hint="find the message after messages[0] whose content contains the system prompt",
        success=(
            f"Right: messages[{expected}], a user message. The policy now arrives as material "
            "the buyer seems to have written, and its tokens are paid twice from now on."
        ),
    )


def check_orphan_call_id(answer: str, model: str) -> Result:
    body = buggy_bodies(model)["result without its call"]
    calls = {c["id"] for m in body["messages"] for c in m.get("tool_calls") or []}
    expected = next(
        m["tool_call_id"]
        for m in body["messages"]
        if m["role"] == "tool" and m["tool_call_id"] not in calls
    )
    return check_equal(
        answer,
        expected,
        hint="a tool message's tool_call_id that no assistant message's tool_calls contains",
        success=f"Right: {expected}. It answers a call the request no longer contains.",
    )
