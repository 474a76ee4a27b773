"""The two running examples (data/*/request.json) in all four wire formats, and back."""

from __future__ import annotations

import pytest

from helpers.examples import DATA
from helpers.formats import FORMATS, detect, parse, render
from helpers.messages import Message, load_file

SUNDRY = DATA / "sundry" / "request.json"
CRASH = DATA / "crash_triage" / "request.json"


def shape(messages: list[dict]) -> list[tuple]:
    """Each message as (role, block types or content kind): the structure, not the text."""
    out = []
    for m in messages:
        content = m.get("content")
        kinds = (
            [b["type"] for b in content] if isinstance(content, list) else type(content).__name__
        )
        out.append((m["role"], kinds, [c["id"] for c in m.get("tool_calls", [])]))
    return out


@pytest.mark.parametrize("path", [SUNDRY, CRASH], ids=["sundry", "crash_triage"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_example_renders_detects_and_parses_back(path, fmt):
    request = load_file(path)
    assert detect(request.to_json()) == "neutral"
    rendered = render(request, fmt)
    assert detect(rendered.body) == fmt
    back = parse(rendered.body)
    assert back.tools == request.tools
    kept = request.messages
    if path == CRASH and fmt != "anthropic":  # the reasoning block is Anthropic's
        kept = list(request.messages)
        kept[2] = Message("assistant", kept[2].content[1:])
    assert back.messages == kept


def test_sundry_in_chat():
    body = render(load_file(SUNDRY), "openai-chat").body
    assert list(body) == ["model", "messages", "tools"]
    assert shape(body["messages"]) == [
        ("system", "str", []),
        ("user", "str", []),
        ("assistant", "str", ["c1"]),
        ("tool", "str", []),
    ]
    assert body["messages"][3]["tool_call_id"] == "c1"
    assert [t["function"]["name"] for t in body["tools"]][:3] == [
        "search_orders",
        "get_order",
        "get_tracking",
    ]
    assert len(body["tools"]) == 9


def test_sundry_in_anthropic():
    rendered = render(load_file(SUNDRY), "anthropic")
    body = rendered.body
    assert list(body) == ["model", "max_tokens", "system", "messages", "tools"]
    assert body["system"].startswith("You are the support agent of Sundry")
    assert shape(body["messages"]) == [
        ("user", ["text"], []),
        ("assistant", ["text", "tool_use"], []),
        ("user", ["tool_result"], []),
    ]
    assert set(body["tools"][0]) == {"name", "description", "input_schema"}
    assert [str(n) for n in rendered.notes] == [
        "max_tokens: required by anthropic; none given, sent 1024"
    ]


def test_crash_triage_in_chat_drops_the_reasoning_and_splits_the_results():
    rendered = render(load_file(CRASH), "openai-chat")
    assert shape(rendered.body["messages"]) == [
        ("system", "str", []),
        ("user", "str", []),
        ("assistant", "str", ["t1"]),
        ("tool", "str", []),
        ("assistant", "str", ["t2", "t3"]),
        ("tool", "str", []),
        ("tool", "str", []),
    ]
    assert [str(n) for n in rendered.notes] == [
        "messages[2].content[0]: openai-chat has no field for reasoning; dropped"
    ]


def test_crash_triage_in_anthropic_keeps_the_signed_thinking():
    body = render(load_file(CRASH), "anthropic").body
    assert shape(body["messages"]) == [
        ("user", ["text"], []),
        ("assistant", ["thinking", "text", "tool_use"], []),
        ("user", ["tool_result"], []),
        ("assistant", ["text", "tool_use", "tool_use"], []),
        ("user", ["tool_result", "tool_result"], []),
    ]
    thinking = body["messages"][1]["content"][0]
    assert thinking["signature"] == "c3ludGhldGljLXNpZ25hdHVyZS1mb3ItdGhlLWxlc3NvbnM="
    assert [b["tool_use_id"] for b in body["messages"][4]["content"]] == ["t2", "t3"]


def test_crash_triage_in_responses_and_gemini_drop_claude_reasoning():
    for fmt, provider in (("openai-responses", "openai"), ("gemini", "gemini")):
        notes = [str(n) for n in render(load_file(CRASH), fmt).notes]
        assert notes[0] == (
            "messages[2].content[0]: reasoning from anthropic dropped: its signature is only "
            f"valid for anthropic, not {provider}"
        )
