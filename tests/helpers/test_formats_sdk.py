"""Bodies the official openai and anthropic SDKs really sent parse into the expected conversation.

The fixtures in ``tests/support/fixtures/sdk/`` were recorded by ``capture.py`` (a loopback server);
the last test re-records them and checks the committed bodies are still what the installed
SDKs send.
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.examples.sundry import SYSTEM_PROMPT, TICKET_TEXT
from helpers.formats import FORMATS, detect, parse, render
from helpers.messages import assistant, system, tool, tool_call, tool_result, user
from standin.render_response import render_response
from tests.support.strategies import conversations, held_by, replies

HERE = Path(__file__).parents[1] / "support" / "fixtures" / "sdk"
FIXTURES = {
    "openai_chat_refund": ("openai-chat", "/v1/chat/completions", "call_"),
    "openai_responses_refund": ("openai-responses", "/v1/responses", "call_"),
    "anthropic_messages_refund": ("anthropic", "/v1/messages", "toolu_"),
}


def _capture_module():
    spec = importlib.util.spec_from_file_location("sdk_capture", HERE / "capture.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


capture = _capture_module()


def record(name: str) -> dict:
    return json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))


def expected(prefix: str, native_error: bool) -> list:
    """The Sundry refund conversation, neutral. Only Anthropic can say the refund failed."""
    c = capture.ids(prefix)
    call = [tool_call(c[n], name, args) for n, (name, args) in enumerate(capture.CALLS)]
    result = [tool_result(c[n], capture.result_text(n)) for n in range(4)]
    result[3].is_error = native_error
    return [
        system(SYSTEM_PROMPT),
        user(TICKET_TEXT),
        assistant("Let me look that order up.", call[0]),
        tool(result[0]),
        assistant(call[1], call[2]),
        tool(result[1], result[2]),
        assistant(call[3]),
        tool(result[3]),
        user(capture.FOLLOW_UP),
    ]


@pytest.mark.parametrize("name", FIXTURES)
def test_captured_body_parses_to_the_conversation(name):
    fmt, path, prefix = FIXTURES[name]
    captured = record(name)
    assert captured["path"] == path
    assert detect(captured["body"]) == fmt
    notes = []
    request = parse(captured["body"], notes=notes)
    assert notes == []  # an SDK body holds nothing the neutral model lacks
    assert request.messages == expected(prefix, native_error=fmt == "anthropic")
    assert [t.name for t in request.tools] == list(capture.TOOL_NAMES)
    assert request.tools == capture.tools()
    assert request.max_tokens == 512


def test_the_refusal_is_only_text_in_openai_bodies():
    chat = record("openai_chat_refund")["body"]["messages"]
    assert chat[8] == {
        "role": "tool",
        "tool_call_id": "call_4",
        "content": capture.result_text(3),
    }
    anthropic = record("anthropic_messages_refund")["body"]["messages"]
    assert anthropic[-1]["content"][0]["is_error"] is True
    assert anthropic[-1]["content"][1] == {"type": "text", "text": capture.FOLLOW_UP}


def test_sdk_wire_details_a_lesson_shows():
    chat, responses, messages = (record(n) for n in FIXTURES)
    for r in (chat, responses):  # OpenAI: bearer token, lowercase header names
        assert "authorization: Bearer <redacted>" in r["headers"]
        assert "user-agent: OpenAI/Python 3.57.0" in r["headers"]
    # Anthropic 2.14: also a bearer token (not x-api-key), plus the API version header
    assert "Authorization: Bearer <redacted>" in messages["headers"]
    assert not any(h.lower().startswith("x-api-key") for h in messages["headers"])
    assert "anthropic-version: 2026-10-21" in messages["headers"]
    # Anthropic's SDK sends body keys in alphabetical order; OpenAI's in its own order
    assert list(messages["body"]) == sorted(messages["body"])
    assert list(chat["body"])[:2] == ["model", "messages"]
    # the arguments are the JSON *string* the caller wrote, untouched
    first_call = chat["body"]["messages"][2]["tool_calls"][0]["function"]["arguments"]
    assert first_call == '{"query": "SO-48213"}'
    assert not any("sk-" in h for r in (chat, responses, messages) for h in r["headers"])


@pytest.mark.parametrize("name", FIXTURES)
def test_rendering_the_parsed_conversation_sends_the_same_meaning(name):
    request = parse(record(name)["body"])
    for fmt in FORMATS:
        back = parse(render(request, fmt).body, fmt)
        assert back.tools == request.tools
        if name.startswith("anthropic") and fmt.startswith("openai"):
            # the refused refund: is_error became a text prefix, and stays text when read back
            refused = back.messages[-2].content[0]
            assert (refused.is_error, refused.text) == (False, "ERROR: " + capture.result_text(3))
        else:
            assert back.messages == request.messages


def test_fixtures_are_what_the_installed_sdks_send():
    fresh = capture.capture()
    assert set(fresh) == set(FIXTURES)
    for name, captured in fresh.items():
        stored = record(name)
        assert captured["body"] == stored["body"], (
            f"re-run tests/support/fixtures/sdk/capture.py ({name})"
        )
        assert captured["sdk"] == stored["sdk"]
        names = [h.split(":", 1)[0] for h in captured["headers"]]
        assert names == [h.split(":", 1)[0] for h in stored["headers"]]


def test_capture_keeps_secrets_out():
    assert (
        capture._header("Authorization", "Bearer sk-ant-test") == "Authorization: Bearer <redacted>"
    )
    assert capture._header("x-api-key", "sk-test") == "x-api-key: <redacted>"


# --- the SDKs' own types -----------------------------------------------------------------------


@cache
def request_types() -> dict:
    """The SDKs' request TypedDicts as pydantic validators: the closest thing to a wire schema."""
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming
    from pydantic import TypeAdapter

    return {
        "openai-chat": TypeAdapter(CompletionCreateParamsNonStreaming),
        "openai-responses": TypeAdapter(ResponseCreateParamsNonStreaming),
        "anthropic": TypeAdapter(MessageCreateParamsNonStreaming),
    }


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_rendered_requests_match_the_sdk_request_types(data):
    fmt = data.draw(st.sampled_from(sorted(request_types())))
    conversation = data.draw(held_by(fmt) | conversations())
    request_types()[fmt].validate_python(render(conversation, fmt).body)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_rendered_responses_match_the_sdk_response_models(data):
    from anthropic.types import Message as AnthropicMessage
    from openai.types.chat import ChatCompletion
    from openai.types.responses import Response

    models = {
        "openai-chat": ChatCompletion,
        "openai-responses": Response,
        "anthropic": AnthropicMessage,
    }
    fmt = data.draw(st.sampled_from(sorted(models)))
    body = render_response(data.draw(replies(fmt)), fmt)
    if fmt == "openai-responses":  # a real body echoes the request's settings; ours cannot
        body.update(parallel_tool_calls=True, tool_choice="auto", tools=[])
    models[fmt].model_validate(body)
