"""helpers.sse.gemini: partial responses whose parts are concatenated; calls arrive whole."""

from __future__ import annotations

import json

import pytest

from helpers import sse
from helpers.messages import Text, ToolCall
from standin import sse_write
from standin.render_response import render_response
from tests.support.sse_support import text_reply, tools_reply

P = "gemini"


def _raw(reply, size: int = 24) -> bytes:
    return "".join(sse_write.encode(render_response(reply, P), P, size=size)).encode()


@pytest.mark.parametrize("make", [text_reply, lambda: tools_reply(P)])
def test_encode_then_assemble_round_trips(make):
    reply = make()
    assert sse.accumulate(_raw(reply), P) == render_response(reply, P)
    assert sse.assemble(_raw(reply), P).message == reply.message


def test_text_streams_in_pieces_calls_whole_and_finish_on_the_last_record():
    records = [json.loads(e.data) for e in sse.events(_raw(tools_reply(P), size=8))]
    parts = [r["candidates"][0]["content"]["parts"] for r in records]
    assert all(len(p) == 1 for p in parts)
    calls = [p[0]["functionCall"] for p in parts if "functionCall" in p[0]]
    assert [c["name"] for c in calls] == ["search_code", "run_tests"]
    assert ["finishReason" in r["candidates"][0] for r in records].count(True) == 1
    assert "finishReason" in records[-1]["candidates"][0]
    assert all(e.event == "message" for e in sse.events(_raw(tools_reply(P))))  # no names


def test_thought_signature_stays_on_its_call():
    reply = sse.assemble(_raw(tools_reply(P)), P)
    first = next(b for b in reply.message.content if isinstance(b, ToolCall))
    assert first.signature == "Q2lRQg=="


def test_usage_is_taken_from_the_last_record():
    records = [json.loads(e.data) for e in sse.events(_raw(text_reply(), size=8))]
    assert records[0]["usageMetadata"].get("candidatesTokenCount") is None
    reply = sse.assemble(_raw(text_reply(), size=8), P)
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (1200, 31)
    assert reply.message.content == [Text(text_reply().message.text)]


def test_no_finish_reason_is_an_incomplete_stream():
    raw = b"".join(
        sse_write.frame(r).encode()
        for r in sse_write.gemini.records(render_response(text_reply(), P), 8)[:-1]
    )
    with pytest.raises(sse.StreamError, match="without a finishReason"):
        sse.accumulate(raw, P)
