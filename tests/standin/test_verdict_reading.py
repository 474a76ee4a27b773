"""What the verdict adds to the learner's ``parse``: where each block came from, which types the
API lacks (``standin.rules.origins``, ``standin.rules.kinds``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.formats import FORMATS, Note, parse, render
from standin.rules.kinds import named_unknown
from standin.rules.origins import origins
from standin.rules.wire import node_at
from tests.support.strategies import conversations


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_message_and_block_is_located_in_the_body_it_was_read_from(fmt, data):
    request = data.draw(conversations())
    body = render(request, fmt).body
    read = parse(body, fmt)
    found = origins(body, fmt)
    assert [len(blocks) for _, blocks in found] == [len(m.content) for m in read.messages]
    for where, blocks in found:
        for path in [where, *blocks]:
            assert path is None or node_at(body, path) is not None, path


def test_a_chat_tool_turn_and_a_string_content_are_located():
    body = {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": None, "tool_calls": [_call("a"), _call("b")]},
            {"role": "tool", "tool_call_id": "a", "content": "1"},
            {"role": "tool", "tool_call_id": "b", "content": "2"},
        ]
    }
    assert origins(body, "openai-chat") == [
        ("messages[0]", ["messages[0].content"]),
        ("messages[1]", ["messages[1].tool_calls[0]", "messages[1].tool_calls[1]"]),
        ("messages[2]", ["messages[2]", "messages[3]"]),
    ]


def _call(call_id: str) -> dict:
    return {"id": call_id, "type": "function", "function": {"name": "f", "arguments": "{}"}}


@pytest.mark.parametrize(
    ("fmt", "message", "named"),
    [
        ("anthropic", "block type 'document' has no neutral equivalent; dropped", None),
        ("anthropic", "block type 'fallback' has no neutral equivalent; dropped", "fallback"),
        ("openai-chat", "part type 'input_audio' has no neutral block; dropped", None),
        ("openai-chat", "part type 'x' has no neutral block; dropped", "x"),
        ("openai-responses", "item type 'item_reference' has no neutral equivalent; dropped", None),
        ("openai-responses", "item type None has no neutral equivalent; dropped", None),
    ],
)
def test_only_a_type_the_api_lacks_is_named_unknown(fmt, message, named):
    (note,) = named_unknown([Note("m[0]", message)], fmt)
    expected = {
        "anthropic": "block type 'fallback' is not a Messages block",
        "openai-chat": "part type 'x' is not a Chat content part",
        "openai-responses": "item type None is not a Responses item",
    }
    if named is None and "None" not in message:
        assert note == Note("m[0]", message)
    else:
        assert note == Note("m[0]", expected[fmt], "unknown-block")
