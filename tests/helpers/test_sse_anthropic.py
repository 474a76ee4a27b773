"""helpers.sse.anthropic against the SDK's recorded fixtures and the SDK's own accumulator."""

from __future__ import annotations

import pytest

from helpers import sse
from helpers.formats import parse_response
from helpers.messages import Reasoning, Text, ToolCall
from standin import sse_write, stream_checks
from standin.render_response import render_response
from tests.support.sse_support import fixture, sdk_final, text_reply, tools_reply


def test_recorded_tool_use_stream():
    raw = fixture("anthropic_tool_use.sse")
    reply = sse.assemble(raw, "anthropic")
    text, call = reply.message.content
    assert text == Text("I'll check the current weather in Paris for you.")
    assert (call.id, call.name, call.arguments) == (
        "toolu_01NRLabsLyVHZPKxbKvkfSMn",
        "get_weather",
        {"location": "Paris"},
    )
    assert reply.stop_reason == "tool_calls"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (377, 65)


def test_recorded_thinking_stream_signature_is_assigned_not_appended():
    reply = sse.assemble(fixture("anthropic_thinking.sse"), "anthropic")
    thinking = reply.message.content[0]
    assert isinstance(thinking, Reasoning)
    assert thinking.text.startswith("Simple educational question")
    assert (
        thinking.signature == "c3ludGhldGljLXNpZ25hdHVyZS1maXh0dXJlLWEtbm90LWEtcmVhbC1zaWduYXR1cmU="
    )
    assert reply.message.content[1] == Text("Hi")
    assert reply.stop_reason == "refusal"
    assert reply.usage.output_tokens == 106  # message_delta's cumulative value, not a sum


@pytest.mark.parametrize("name", ["anthropic_tool_use.sse", "anthropic_thinking.sse"])
def test_fixture_matches_the_sdk(name):
    raw = fixture(name)
    ours = sse.accumulate(raw, "anthropic")
    theirs = sdk_final("anthropic", raw)
    assert [b["type"] for b in ours["content"]] == [b["type"] for b in theirs["content"]]
    assert parse_response(theirs, "anthropic").message == sse.assemble(raw, "anthropic").message


@pytest.mark.parametrize("make", [text_reply, lambda: tools_reply("anthropic")])
def test_encode_then_assemble_gives_the_same_reply_as_the_sdk(make):
    reply = make()
    body = render_response(reply, "anthropic")
    raw = "".join(sse_write.encode(body, "anthropic")).encode()
    assert sse.accumulate(raw, "anthropic") == body
    assert sse.assemble(raw, "anthropic").message == reply.message
    assert parse_response(sdk_final("anthropic", raw), "anthropic").message == reply.message


def test_encoded_stream_has_the_real_event_order():
    body = render_response(tools_reply("anthropic"), "anthropic")
    events = sse.events("".join(sse_write.encode(body, "anthropic")))
    names = [e.event for e in events]
    assert names[0] == "message_start" and names[-2:] == ["message_delta", "message_stop"]
    assert "ping" in names
    deltas = [e.json()["delta"]["type"] for e in events if e.event == "content_block_delta"]
    assert deltas.count("signature_delta") == 1
    last_thinking = max(i for i, d in enumerate(deltas) if d == "thinking_delta")
    assert deltas.index("signature_delta") == last_thinking + 1  # just before the block stops


def test_cut_stream_raises_with_the_partial_message():
    raw = fixture("anthropic_tool_use.sse")
    second_block = b'event: content_block_start\ndata: {"type":"content_block_start","index":1'
    cut = raw[: raw.index(second_block)]
    with pytest.raises(sse.StreamError, match="before 'message_stop'") as info:
        sse.accumulate(cut, "anthropic")
    assert info.value.partial["content"][0]["text"].startswith("I'll check")


def test_error_event_raises():
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    raw = sse_write.frame(error, "error")
    with pytest.raises(sse.StreamError, match="Overloaded"):
        sse.accumulate(raw, "anthropic")


def test_tool_input_that_is_not_json_is_reported():
    raw = fixture("anthropic_tool_use.sse").replace(b'"partial_json":"{', b'"partial_json":"{{')
    with pytest.raises(sse.StreamError, match="content block 1: tool input is not valid JSON"):
        sse.accumulate(raw, "anthropic")


def test_tool_calls_keep_their_ids():
    reply = sse.assemble(
        "".join(
            sse_write.encode(render_response(tools_reply("anthropic"), "anthropic"), "anthropic")
        ),
        "anthropic",
    )
    assert [c.id for c in reply.message.content if isinstance(c, ToolCall)] == [
        "call_a1",
        "call_b2",
    ]


CITATION_STREAMS = [
    "citations/anthropic_web_search.sse",
    "citations/anthropic_web_search_thinking.sse",
]


@pytest.mark.parametrize("name", CITATION_STREAMS)
def test_real_web_search_streams_with_citations_assemble_as_the_sdk_does(name):
    """Recorded from the real API (pydantic-ai's cassettes): server_tool_use and
    web_search_tool_result blocks, and citations whose ``encrypted_index`` is a string: no
    stream index, so the index limits leave it alone."""
    raw = fixture(name)
    assert b'"encrypted_index":"' in raw
    ours = sse.accumulate(raw, "anthropic")
    theirs = sdk_final("anthropic", raw)
    kinds = [b["type"] for b in ours["content"]]
    assert kinds == [b["type"] for b in theirs["content"]]
    assert {"server_tool_use", "web_search_tool_result", "text"} <= set(kinds)
    for mine, sdk in zip(ours["content"], theirs["content"], strict=True):
        if mine["type"] == "text":
            assert mine["text"] == sdk["text"]
            assert (mine.get("citations") or []) == (sdk.get("citations") or [])
    cited = sum(len(b.get("citations") or []) for b in ours["content"])
    assert cited == sum(len(b.get("citations") or []) for b in theirs["content"]) > 0
    assert sse.assemble(raw, "anthropic").message.content  # and it parses as a reply


def test_a_content_index_that_is_not_an_integer_is_still_refused():
    bad = (
        b'event: content_block_start\ndata: {"type":"content_block_start","index":"EpEB",'
        b'"content_block":{"type":"text","text":""}}\n\n'
    )
    with pytest.raises(sse.StreamError, match=r"event 0\.index: expected an integer"):
        stream_checks.accumulate(bad, "anthropic")
