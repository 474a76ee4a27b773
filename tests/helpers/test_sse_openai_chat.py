"""helpers.sse.openai_chat against the SDK's recorded fixture and its ChatCompletionStreamState."""

from __future__ import annotations

import json

import pytest

from helpers import sse
from helpers.formats import parse_response
from helpers.messages import Text, ToolCall
from standin import sse_write
from standin.render_response import render_response
from tests.support.sse_support import fixture, sdk_final, text_reply, tools_reply


def test_recorded_tool_call_stream():
    reply = sse.assemble(fixture("openai_chat_tool_call.sse"), "openai-chat")
    (call,) = reply.message.content
    assert call == ToolCall(
        "call_c91SqDXlYFuETYv8mUHzz6pp",
        "GetWeatherArgs",
        {"city": "Edinburgh", "country": "UK", "units": "c"},
    )
    assert reply.stop_reason == "tool_calls"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (76, 24)


def test_fragments_are_joined_by_index_into_the_same_string_as_the_sdk():
    raw = fixture("openai_chat_tool_call.sse")
    ours = sse.accumulate(raw, "openai-chat")["choices"][0]["message"]["tool_calls"][0]
    theirs = sdk_final("openai-chat", raw)["choices"][0]["message"]["tool_calls"][0]
    assert ours["function"]["arguments"] == theirs["function"]["arguments"]
    assert ours["function"]["arguments"] == '{"city":"Edinburgh","country":"UK","units":"c"}'


@pytest.mark.parametrize("make", [text_reply, lambda: tools_reply("openai-chat", think=False)])
def test_encode_then_assemble_matches_the_sdk(make):
    reply = make()
    body = render_response(reply, "openai-chat")
    raw = "".join(sse_write.encode(body, "openai-chat")).encode()
    ours = sse.assemble(raw, "openai-chat")
    assert ours.message == reply.message
    assert ours.usage.input_tokens == reply.usage.input_tokens
    assert parse_response(sdk_final("openai-chat", raw), "openai-chat").message == reply.message


def test_parallel_calls_interleave_nothing_and_keep_their_index():
    body = render_response(tools_reply("openai-chat", think=False), "openai-chat")
    chunks = [
        json.loads(e.data) for e in sse.events("".join(sse_write.encode(body, "openai-chat")))[:-1]
    ]
    firsts = [
        c["choices"][0]["delta"]["tool_calls"][0]
        for c in chunks
        if c["choices"] and "id" in (c["choices"][0]["delta"].get("tool_calls") or [{}])[0]
    ]
    assert [(f["index"], f["id"], f["function"]["arguments"]) for f in firsts] == [
        (0, "call_a1", ""),
        (1, "call_b2", ""),
    ]


def test_usage_chunk_only_when_asked():
    body = render_response(text_reply(), "openai-chat")
    with_usage = sse.events("".join(sse_write.encode(body, "openai-chat", include_usage=True)))
    without = sse.events("".join(sse_write.encode(body, "openai-chat", include_usage=False)))
    assert json.loads(with_usage[-2].data)["choices"] == []
    assert len(with_usage) == len(without) + 1
    assert with_usage[-1].data == without[-1].data == "[DONE]"
    quiet = "".join(sse_write.encode(body, "openai-chat", include_usage=False))
    assert sse.assemble(quiet, "openai-chat").usage.input_tokens == 0


def test_text_deltas_concatenate():
    body = render_response(text_reply(), "openai-chat")
    reply = sse.assemble("".join(sse_write.encode(body, "openai-chat", size=5)), "openai-chat")
    assert reply.message.content == [Text(text_reply().message.text)]


def test_missing_done_is_an_incomplete_stream():
    raw = fixture("openai_chat_tool_call.sse").replace(b"data: [DONE]\n\n", b"")
    with pytest.raises(sse.StreamError, match=r"before 'data: \[DONE\]'") as info:
        sse.accumulate(raw, "openai-chat")
    assert info.value.partial["choices"][0]["finish_reason"] == "tool_calls"


def test_error_chunk_raises():
    with pytest.raises(sse.StreamError, match="boom"):
        sse.accumulate(b'data: {"error": {"message": "boom"}}\n\n', "openai-chat")
