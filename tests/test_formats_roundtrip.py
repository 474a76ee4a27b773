"""Property tests: neutral -> provider -> neutral is lossless for what each format can hold.

The subset per format (``held_by``), and why the rest cannot round trip:

- every format: valid conversations from ``tests.strategies.conversations`` with images in user
  messages, a drawn ``tool_choice`` and ``max_tokens``;
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

import base64

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.formats import (
    FORMATS,
    detect,
    parse,
    parse_response,
    render,
    render_response,
)
from helpers.formats.common import DEFAULT_MAX_TOKENS
from helpers.messages import Image, Message, Reasoning, Text, ToolCall, ToolResult
from helpers.replies import Reply, Usage
from tests.strategies import conversations, names, words

PROVIDER = {
    "openai-chat": None,
    "openai-responses": "openai",
    "anthropic": "anthropic",
    "gemini": "gemini",
}
EXAMPLES = settings(max_examples=120, deadline=None)

images = st.builds(
    Image,
    st.sampled_from(["image/png", "image/jpeg", "image/webp"]),
    data=st.binary(min_size=1, max_size=9).map(lambda b: base64.b64encode(b).decode()),
)


@st.composite
def held_by(draw, fmt: str):
    """A valid conversation with only what ``fmt`` can hold (see the module docstring)."""
    request = draw(conversations(reasoning=fmt != "openai-chat"))
    provider = PROVIDER[fmt]
    for i, message in enumerate(request.messages):
        for j, block in enumerate(message.content):
            where = f"{i}_{j}"
            if isinstance(block, Reasoning):
                block.provider = provider
                if fmt == "openai-responses":
                    block.id = f"rs_{where}"
                if fmt == "anthropic":
                    block.signature = block.signature or f"sig_{where}"
                    if draw(st.booleans()):
                        block.text, block.redacted = "", True
            if isinstance(block, ToolResult):
                if fmt.startswith("openai"):
                    block.is_error = False
                if fmt != "openai-chat" and draw(st.booleans()):
                    block.content.append(draw(images))
            if isinstance(block, ToolCall) and fmt == "gemini" and draw(st.booleans()):
                block.signature = draw(words)
        if message.role == "user" and draw(st.booleans()):
            message.content.append(draw(images))
    tool_names = [t.name for t in request.tools]
    request.tool_choice = draw(
        st.none()
        | st.sampled_from(["auto", "none", "required"])
        | st.sampled_from(tool_names).map(lambda n: {"name": n})
    )
    request.max_tokens = draw(st.none() | st.integers(min_value=1, max_value=200_000))
    return request


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


@st.composite
def replies(draw, fmt: str) -> Reply:
    blocks: list = []
    provider = PROVIDER[fmt]
    if fmt != "openai-chat" and draw(st.booleans()):
        rid = "rs_1" if fmt == "openai-responses" else None
        blocks.append(Reasoning(draw(words), draw(words), provider=provider, id=rid))
    max_texts = 1 if fmt == "openai-chat" else 2
    blocks += [Text(t) for t in draw(st.lists(words, max_size=max_texts))]
    calls = [
        ToolCall(f"call_{n}", draw(names), draw(st.dictionaries(names, words, max_size=2)))
        for n in range(draw(st.integers(min_value=0, max_value=3)))
    ]
    if fmt == "gemini":
        for call in calls:
            call.signature = draw(st.none() | words)
    blocks += calls
    others = ["end_turn", "max_tokens", "refusal"]
    if fmt in ("anthropic", "gemini", "openai-responses"):
        others.append("other")
    stop = draw(st.sampled_from(["tool_calls", "max_tokens"] if calls else others))
    reasoning = draw(st.integers(min_value=0, max_value=500))
    read = draw(st.integers(min_value=0, max_value=5000))
    write = 0 if fmt == "gemini" else draw(st.integers(min_value=0, max_value=5000))
    usage = Usage(
        input_tokens=read + write + draw(st.integers(min_value=0, max_value=9000)),
        output_tokens=reasoning + draw(st.integers(min_value=0, max_value=900)),
        cache_read_tokens=read,
        cache_write_tokens=write,
        reasoning_tokens=reasoning,
    )
    return Reply(Message("assistant", blocks), usage, stop, draw(names), "id_" + draw(names))


@EXAMPLES
@given(st.data())
def test_reply_round_trip(data):
    fmt = data.draw(st.sampled_from(FORMATS))
    reply = data.draw(replies(fmt))
    body = render_response(reply, fmt)
    assert parse_response(body, fmt) == reply
