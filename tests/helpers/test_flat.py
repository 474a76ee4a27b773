"""The flat view: what one-string-per-message can hold, and what it cannot."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from helpers.formats import FlatMessage, FlatToolCall, from_flat, to_flat
from helpers.messages import (
    FormatError,
    Image,
    Message,
    Reasoning,
    Text,
    ToolCall,
    assistant,
    tool,
    tool_call,
    tool_result,
    user,
)
from tests.support.strategies import conversations

PNG = Image("image/png", data="iVBORw0KGgo=")


def test_narration_and_a_tool_call_fit_in_one_flat_message():
    messages = [
        user("Where is SO-1?"),
        assistant("Let me look.", tool_call("c1", "get_order", {"order_id": "SO-1"})),
        tool(tool_result("c1", "no such order", is_error=True)),
    ]
    flat, notes = to_flat(messages)
    assert notes == []
    assert flat == [
        FlatMessage("user", "Where is SO-1?"),
        FlatMessage(
            "assistant", "Let me look.", [FlatToolCall("c1", "get_order", {"order_id": "SO-1"})]
        ),
        FlatMessage("tool", "no such order", tool_call_id="c1", is_error=True),
    ]
    assert from_flat(flat) == messages


def test_reasoning_images_and_names_do_not_fit():
    named = user("look", PNG)
    named.name = "maya"
    messages = [
        named,
        assistant(Reasoning("hmm", "sig", "anthropic"), ToolCall("c1", "f", {}, "g-sig"), "after"),
        tool(tool_result("c1", [Text("here"), PNG])),
    ]
    flat, notes = to_flat(messages)
    assert [str(n) for n in notes] == [
        "messages[0].name: a flat message has no name; dropped",
        "messages[0].content[1]: a flat message has no place for image",
        "messages[1]: text after a tool call moved before the calls",
        "messages[1].content[1]: call 'c1': signature dropped",
        "messages[1].content[0]: a flat message has no place for reasoning",
        "messages[2].content[0].content[1]: a flat message has no place for image",
    ]
    assert flat[1] == FlatMessage("assistant", "after", [FlatToolCall("c1", "f", {})])
    assert from_flat(flat)[1] == assistant("after", tool_call("c1", "f"))


def test_two_results_become_two_flat_messages_and_two_tool_messages():
    messages = [
        assistant(tool_call("a", "f"), tool_call("b", "g")),
        tool(tool_result("a", "1"), tool_result("b", "2")),
    ]
    flat, notes = to_flat(messages)
    assert [m.tool_call_id for m in flat[1:]] == ["a", "b"]
    assert [str(n) for n in notes] == [
        "messages[1]: 2 results split into 2 flat messages; from_flat gives back 2 tool "
        "messages, not one"
    ]
    assert from_flat(flat)[1:] == [tool(tool_result("a", "1")), tool(tool_result("b", "2"))]


def test_several_text_blocks_join_with_a_blank_line():
    flat, notes = to_flat([user("Hi.", "My order is late.")])
    assert flat[0].content == "Hi.\n\nMy order is late."
    assert [str(n) for n in notes] == ["messages[0]: 2 text blocks joined into one string"]


@pytest.mark.parametrize(
    ("flat", "match"),
    [
        ([FlatMessage("tool", "x")], r"flat\[0\]: a tool message needs a tool_call_id"),
        ([FlatMessage("user", "x", tool_call_id="c1")], r"flat\[0\]: tool_call_id and is_error"),
        ([FlatMessage("model", "x")], r"flat\[0\]\.role: 'model' is not one of"),
    ],
)
def test_from_flat_refuses_what_is_not_a_message(flat, match):
    with pytest.raises(FormatError, match=match):
        from_flat(flat)


def flat_holdable(messages: list[Message]) -> list[Message]:
    """What the flat shape keeps: one text per message, one result per tool message."""
    out = []
    for m in messages:
        if m.role == "tool":
            out += [tool(r) for r in m.tool_results]
            continue
        texts = [b.text for b in m.content if isinstance(b, Text)]
        blocks = [Text("\n\n".join(texts))] if texts else []
        out.append(Message(m.role, blocks + m.tool_calls))
    return out


@settings(max_examples=150, deadline=None)
@given(conversations(reasoning=False))
def test_round_trip_keeps_everything_flat_can_hold(conversation):
    flat, notes = to_flat(conversation.messages)
    back = from_flat(flat)
    assert back == flat_holdable(conversation.messages)
    if back != conversation.messages:
        assert notes, "a lossy conversion must say what it changed"
