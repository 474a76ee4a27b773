"""helpers.sse: framing through httpx-sse, dispatch by provider, deterministic deltas."""

from __future__ import annotations

import pytest

from helpers import sse
from standin import sse_write
from tests.support.sse_support import tools_reply


def test_events_parse_names_data_comments_and_crlf():
    raw = b': a comment\r\nevent: ping\r\ndata: {"a": 1}\r\n\r\ndata: [DONE]\n\n'
    events = sse.events(raw)
    assert [(e.event, e.data) for e in events] == [("ping", '{"a": 1}'), ("message", "[DONE]")]
    assert events[0].json() == {"a": 1}


def test_a_last_event_without_its_blank_line_is_kept_like_the_sdks_do():
    # the SSE spec would drop it; the SDKs keep it (see the helpers.sse docstring)
    assert [e.data for e in sse.events(b"data: 1\n\ndata: 2")] == ["1", "2"]


def test_an_event_cut_mid_json_is_a_stream_error():
    with pytest.raises(sse.StreamError, match="not JSON"):
        sse.accumulate(b'data: {"id": "x", "cho', "openai-chat")


def test_frame_is_one_event():
    assert sse_write.frame({"type": "ping"}, "ping") == 'event: ping\ndata: {"type":"ping"}\n\n'
    assert sse_write.frame("[DONE]") == "data: [DONE]\n\n"


@pytest.mark.parametrize(
    "text, size", [("", 12), ("short", 12), ("Let me look that order up, please.", 8)]
)
def test_pieces_join_back_to_the_text(text, size):
    parts = sse_write.pieces(text, size)
    assert "".join(parts) == text
    assert all(len(p) <= size for p in parts)


def test_unknown_provider_is_named():
    with pytest.raises(ValueError, match="unknown format 'cohere'.*openai-chat"):
        sse.accumulate(b"", "cohere")


# --- incomplete streams, notes, and a final [DONE] in any format


def test_done_at_the_end_of_any_formats_stream_is_skipped_with_a_note():
    from helpers.sse import accumulate
    from standin.sse_write import encode_reply

    reply = tools_reply("anthropic", think=False)
    for provider in ("openai-responses", "anthropic", "gemini"):
        raw = encode_reply(reply, provider) + b"data: [DONE]\n\n"
        notes: list[str] = []
        body = accumulate(raw, provider, notes)
        assert body and notes == [
            "a final 'data: [DONE]' line (not part of this format) was skipped"
        ]


def test_an_anthropic_tool_use_without_its_stop_recovers_the_partial_input():
    from helpers.sse import assemble
    from standin.sse_write import frame

    start = {
        "type": "message_start",
        "message": {
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "x",
            "content": [],
            "stop_reason": None,
            "usage": {"input_tokens": 3},
        },
    }
    block = {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {}}
    raw = "".join(
        [
            frame(start, "message_start"),
            frame(
                {"type": "content_block_start", "index": 0, "content_block": block},
                "content_block_start",
            ),
            frame(
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": '{"city": "Par'},
                },
                "content_block_delta",
            ),
            frame(
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "tool_use"},
                    "usage": {"output_tokens": 9},
                },
                "message_delta",
            ),
            frame({"type": "message_stop"}, "message_stop"),
        ]
    )
    notes: list[str] = []
    reply = assemble(raw, "anthropic", notes)
    assert reply.message.tool_calls[0].arguments == {"city": "Par"}
    assert "never got its content_block_stop" in notes[0]


def test_an_incomplete_stream_keeps_what_was_assembled():
    from helpers.sse import StreamError, assemble
    from standin.sse_write import encode_reply

    raw = encode_reply(tools_reply("anthropic", think=False), "anthropic")
    cut = raw[: raw.index(b"event: message_delta")]
    with pytest.raises(StreamError, match="ended before 'message_stop'") as caught:
        assemble(cut, "anthropic")
    kinds = [b["type"] for b in caught.value.partial["content"]]
    assert kinds == ["text", "tool_use", "tool_use"]
