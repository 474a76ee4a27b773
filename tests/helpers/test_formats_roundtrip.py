"""Property tests: neutral -> provider -> neutral is lossless for what each format can hold.

The subset per format (``held_by``), and why the rest cannot round trip:

- every format: valid conversations from ``tests.support.strategies.conversations`` with images
  in user messages, a drawn ``tool_choice`` and ``max_tokens``;
- openai-chat: no reasoning (no field for it), ``is_error=False`` (a text prefix cannot be told
  apart from a result that starts with the same text), no images in tool results (text only);
- openai-responses: reasoning issued by OpenAI, with its ``rs_`` id; ``is_error=False`` (same
  reason); images in tool results are fine (``function_call_output`` takes a list);
- anthropic: reasoning issued by Anthropic with its signature (plain or redacted);
  ``max_tokens=None`` comes back as the 1024 the renderer must send;
- gemini: reasoning issued by Gemini, call signatures; the model name is in the URL, so it comes
  back empty.

Replies: ``parse_response(render_response(reply))`` returns the reply for replies the format can
express (Chat: at most one text block and no reasoning; Gemini: no cache writes; a stop reason
of ``tool_calls`` exactly when there are calls; "other" only where the format has a value for it).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.formats import (
    FORMATS,
    detect,
    parse,
    parse_response,
    render,
)
from helpers.formats.anthropic_render import DEFAULT_MAX_TOKENS
from standin.render_response import render_response
from tests.support.strategies import conversations, held_by, replies

EXAMPLES = settings(max_examples=120, deadline=None)


def _round_trip(fmt: str, request) -> None:
    rendered = render(request, fmt)
    assert detect(rendered.body) == fmt
    back = parse(rendered.body, fmt)
    expected = request.to_json()
    if fmt == "anthropic" and request.max_tokens is None:
        expected["max_tokens"] = DEFAULT_MAX_TOKENS
    if fmt == "gemini":
        expected["model"] = ""
    assert back.to_json() == expected


@EXAMPLES
@given(held_by("openai-chat"))
def test_openai_chat_round_trip(conversation):
    _round_trip("openai-chat", conversation)


@EXAMPLES
@given(held_by("openai-responses"))
def test_openai_responses_round_trip(conversation):
    _round_trip("openai-responses", conversation)


@EXAMPLES
@given(held_by("anthropic"))
def test_anthropic_round_trip(conversation):
    _round_trip("anthropic", conversation)


@EXAMPLES
@given(held_by("gemini"))
def test_gemini_round_trip(conversation):
    _round_trip("gemini", conversation)


@EXAMPLES
@given(st.sampled_from(FORMATS), conversations())
def test_any_conversation_renders_and_parses_with_notes_for_what_changed(fmt, conversation):
    """Whatever a format cannot hold, rendering still works and says what it changed."""
    rendered = render(conversation, fmt)
    back = parse(rendered.body, fmt)
    assert len(back.tools) == len(conversation.tools)
    calls = [c.id for m in conversation.messages for c in m.tool_calls]
    assert [c.id for m in back.messages for c in m.tool_calls] == calls
    if back.to_json()["messages"] != conversation.to_json()["messages"]:
        assert rendered.notes, "a lossy render must say what it changed"


# --- replies ---------------------------------------------------------------------------------


@EXAMPLES
@given(st.data())
def test_reply_round_trip(data):
    fmt = data.draw(st.sampled_from(FORMATS))
    reply = data.draw(replies(fmt))
    body = render_response(reply, fmt)
    assert parse_response(body, fmt) == reply
