"""helpers.sse: framing through httpx-sse, dispatch by provider, deterministic deltas."""

from __future__ import annotations

import pytest

from helpers import sse
from helpers.machinery import sse_write


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
