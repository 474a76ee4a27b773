"""helpers.sse.openai_responses: named events joined by item id, checked against the SDK."""

from __future__ import annotations

import json

import pytest

from helpers import sse
from helpers.formats import parse_response
from helpers.messages import Reasoning
from standin import sse_write
from standin.render_response import render_response
from tests.support.sse_support import sdk_final, text_reply, tools_reply

P = "openai-responses"


def _raw(reply) -> bytes:
    return "".join(sse_write.encode(render_response(reply, P), P)).encode()


@pytest.mark.parametrize("make", [text_reply, lambda: tools_reply(P)])
def test_encode_then_assemble_matches_the_sdk(make):
    reply = make()
    raw = _raw(reply)
    assert sse.assemble(raw, P).message == reply.message
    assert sse.accumulate(raw, P) == render_response(reply, P)
    assert parse_response(sdk_final(P, raw), P).message == reply.message


def test_events_are_named_numbered_and_end_with_completed():
    events = sse.events(_raw(tools_reply(P)))
    data = [json.loads(e.data) for e in events]
    assert all(e.event == d["type"] for e, d in zip(events, data, strict=True))
    assert [d["sequence_number"] for d in data] == list(range(len(data)))
    assert data[0]["type"] == "response.created" and data[-1]["type"] == "response.completed"
    assert not any(e.data == "[DONE]" for e in events)


def test_argument_deltas_name_the_item_not_the_call():
    data = [json.loads(e.data) for e in sse.events(_raw(tools_reply(P)))]
    deltas = [d for d in data if d["type"] == "response.function_call_arguments.delta"]
    assert deltas and all("call_id" not in d and d["item_id"].startswith("fc") for d in deltas)


def test_encrypted_content_comes_only_whole_in_output_item_done():
    data = [json.loads(e.data) for e in sse.events(_raw(tools_reply(P)))]
    added = next(d for d in data if d["type"] == "response.output_item.added")["item"]
    done = next(d for d in data if d["type"] == "response.output_item.done")["item"]
    assert added["type"] == "reasoning" and "encrypted_content" not in added
    assert done["encrypted_content"] == "gAAAAAc2ln"
    reasoning = sse.assemble(_raw(tools_reply(P)), P).message.content[0]
    assert isinstance(reasoning, Reasoning) and reasoning.signature == "gAAAAAc2ln"


def test_cut_before_completed_raises_with_partial_items():
    raw = _raw(tools_reply(P))
    cut = raw[: raw.index(b"event: response.completed")]
    with pytest.raises(sse.StreamError, match="before 'response.completed'") as info:
        sse.accumulate(cut, P)
    assert [i["type"] for i in info.value.partial["output"]] == [
        "reasoning",
        "message",
        "function_call",
        "function_call",
    ]


def test_error_event_raises():
    raw = b'event: error\ndata: {"type":"error","code":"server_error","message":"nope"}\n\n'
    with pytest.raises(sse.StreamError, match="nope"):
        sse.accumulate(raw, P)
