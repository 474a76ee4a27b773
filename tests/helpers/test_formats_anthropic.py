"""Anthropic Messages: tool results inside user turns, every note, every error, responses."""

from __future__ import annotations

from functools import partial

import pytest

from helpers.formats import FormatError, parse, parse_response
from helpers.messages import (
    Image,
    Reasoning,
    Reply,
    Request,
    Text,
    Tool,
    ToolCall,
    Usage,
    assistant,
    system,
    tool,
    tool_call,
    tool_result,
    user,
)
from standin.render_response import render_response
from standin.verdict import verdict
from tests.helpers.format_support import parse_with_notes, render_with_notes

FMT = "anthropic"
PNG = Image("image/png", data="iVBORw0KGgo=")


#: ``body_and_notes(*messages, **fields)`` and ``read(body)``, in this module's format.
body_and_notes = partial(render_with_notes, FMT, "claude-x", max_tokens=512)
read = partial(parse_with_notes, FMT)


def test_the_shape_of_a_tool_round_with_the_follow_up_merged():
    conversation = [
        system("Be brief."),
        user("Where is SO-1?"),
        assistant(
            Reasoning("Look it up.", "EqQB-sig", "anthropic"),
            "Looking.",
            tool_call("c1", "get_order", {"order_id": "SO-1"}),
        ),
        tool(tool_result("c1", "no such order", is_error=True)),
        user("It's SO-1, I'm sure."),
    ]
    body, notes = body_and_notes(
        *conversation,
        tools=[Tool("get_order", "Look up an order.", {"type": "object"})],
        tool_choice="required",
    )
    assert notes == []
    assert body == {
        "model": "claude-x",
        "max_tokens": 512,
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Where is SO-1?"}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "Look it up.", "signature": "EqQB-sig"},
                    {"type": "text", "text": "Looking."},
                    {
                        "type": "tool_use",
                        "id": "c1",
                        "name": "get_order",
                        "input": {"order_id": "SO-1"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "c1",
                        "content": "no such order",
                        "is_error": True,
                    },
                    {"type": "text", "text": "It's SO-1, I'm sure."},
                ],
            },
        ],
        "tools": [
            {
                "name": "get_order",
                "description": "Look up an order.",
                "input_schema": {"type": "object"},
            }
        ],
        "tool_choice": {"type": "any"},
    }
    assert read(body) == (Request("claude-x", conversation, body_tools(), "required", 512), [])


def body_tools() -> list[Tool]:
    return [Tool("get_order", "Look up an order.", {"type": "object"})]


def test_rich_results_redacted_thinking_and_url_images():
    url = Image(url="https://example.com/cup.jpg")
    conversation = [
        user("look", url),
        assistant(
            Reasoning("", "opaque-data", "anthropic", redacted=True), tool_call("c1", "snap")
        ),
        tool(tool_result("c1", [Text("here"), PNG])),
    ]
    body, notes = body_and_notes(*conversation)
    assert notes == []
    assert body["messages"][0]["content"][1] == {
        "type": "image",
        "source": {"type": "url", "url": "https://example.com/cup.jpg"},
    }
    assert body["messages"][1]["content"][0] == {"type": "redacted_thinking", "data": "opaque-data"}
    assert body["messages"][2]["content"][0]["content"] == [
        {"type": "text", "text": "here"},
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
        },
    ]
    assert read(body)[0].messages == conversation


def test_what_anthropic_cannot_hold_is_noted():
    named = user("hi", Image(url="https://example.com/a.png", detail="high"))
    named.name = "maya"
    body, notes = body_and_notes(
        system("policy", PNG),
        named,
        assistant(
            Reasoning("o1's", "enc", "openai"),
            Reasoning("unsigned"),
            PNG,
            ToolCall("c1", "f", {}, signature="g-sig"),
        ),
        tool(tool_result("c1", "ok")),
        system("late rule"),
        assistant(Reasoning("gemini's", "s", "gemini")),
        max_tokens=None,
    )
    assert notes == [
        "messages[1].content[1]: image detail has no field in anthropic",
        "messages[0].content[1]: 'system' is text only; image dropped",
        "messages[1].name: anthropic has no participant name; dropped",
        "messages[2].content[0]: reasoning from openai dropped: its signature is only valid for "
        "openai, not anthropic",
        "messages[2].content[1]: reasoning without a signature: Anthropic rejects it; dropped",
        "messages[2].content[2]: an image has no place in an Anthropic assistant message; dropped",
        "messages[2].content[3]: call 'c1': its signature is Gemini state; dropped",
        "messages[4]: system message not first: moved to the top-level 'system' (its place in "
        "the conversation is lost)",
        "messages[5].content[0]: reasoning from gemini dropped: its signature is only valid for "
        "gemini, not anthropic",
        "messages[5]: nothing left to send in this message; left out",
        "max_tokens: required by anthropic; none given, sent 1024",
    ]
    assert body["system"] == [
        {"type": "text", "text": "policy"},
        {"type": "text", "text": "late rule"},
    ]
    assert body["max_tokens"] == 1024
    assert read(body)[0].messages[0] == system("policy", "late rule")


def test_what_the_parser_cannot_keep_is_noted():
    body = {
        "model": "claude-x",
        "max_tokens": 100,
        "stream": True,
        "system": [{"type": "text", "text": "rules", "cache_control": {"type": "ephemeral"}}],
        "messages": [
            {
                "role": "user",
                "content": [{"type": "document", "source": {}}, {"type": "text", "text": "q"}],
            },
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}],
            },
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "before"},
                    {"type": "tool_result", "tool_use_id": "t1"},
                ],
            },
        ],
        "tools": [
            {"type": "web_search_20250305", "name": "web_search"},
            {
                "name": "f",
                "input_schema": {"type": "object"},
                "cache_control": {"type": "ephemeral"},
            },
        ],
        "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
    }
    request, notes = read(body)
    assert notes == [
        "system.content[0].cache_control: has no place in the neutral request",
        "messages[0].content[0]: block type 'document' has no neutral equivalent; dropped",
        "stream: has no place in the neutral request",
        "tools[0]: not a custom tool with an input_schema; dropped",
        "tools[1].cache_control: has no place in the neutral request",
        "tool_choice.disable_parallel_tool_use: has no place in the neutral request",
    ]
    assert request.messages == [
        system("rules"),
        user("q"),
        assistant(tool_call("t1", "f")),
        tool(tool_result("t1", [])),
        user("before"),
    ]
    assert request.tool_choice == "auto"
    # text before the results is the verdict's to say (a rule of the wire), after that turn's notes
    said = [str(n) for n in verdict(body, FMT).notes]
    assert said[2] == (
        "messages[2].content[0]: a block before a tool_result in this user turn: results must "
        "come first"
    )


def test_a_string_system_and_string_content():
    request, _ = read(
        {
            "model": "m",
            "max_tokens": 5,
            "system": "s",
            "messages": [{"role": "user", "content": "hi"}],
        }
    )
    assert request.messages == [system("s"), user("hi")]


@pytest.mark.parametrize(
    ("body", "match"),
    [
        (
            {"messages": [{"role": "tool", "content": []}]},
            r"messages\[0\]: expected a message with role",
        ),
        (
            {"messages": [{"role": "assistant", "content": [{"type": "tool_use", "name": "f"}]}]},
            r"messages\[0\]\.content\[0\]: a tool_use needs an 'id'",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": [{"type": "image", "source": {"type": "file"}}]}
                ]
            },
            r"messages\[0\]\.content\[0\]\.source: expected a 'base64' or 'url' image source",
        ),
        (
            {"messages": [{"role": "user", "content": [{"type": "tool_result", "content": "x"}]}]},
            r"messages\[0\]\.content\[0\]: a tool_result needs a 'tool_use_id'",
        ),
        (
            {"messages": [{"role": "user", "content": 7}]},
            r"messages\[0\]\.content: expected a string",
        ),
        ({"messages": [], "tool_choice": {"type": "required"}}, "tool_choice: expected type auto"),
        ({"messages": [], "system": 3}, "system: expected a string or a list of text blocks"),
        ({"model": "m"}, "messages: an anthropic body needs a 'messages' list"),
    ],
)
def test_parse_errors_name_the_block(body, match):
    with pytest.raises(FormatError, match=match):
        parse(body, FMT)


# --- responses -------------------------------------------------------------------------------

MESSAGE = {
    "id": "msg_01Abc",
    "type": "message",
    "role": "assistant",
    "model": "claude-haiku-4-5-20251001",
    "content": [
        {"type": "thinking", "thinking": "Rome next.", "signature": "EqQB"},
        {"type": "text", "text": "Let me check Rome."},
        {"type": "tool_use", "id": "toolu_rome", "name": "get_weather", "input": {"city": "Rome"}},
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 12,
        "cache_creation_input_tokens": 200,
        "cache_read_input_tokens": 1800,
        "output_tokens": 58,
        "output_tokens_details": {"thinking_tokens": 20},
    },
}


def test_parse_a_message_adds_cache_tokens_to_input():
    reply = parse_response(MESSAGE, FMT)
    assert reply.message == assistant(
        Reasoning("Rome next.", "EqQB", "anthropic"),
        "Let me check Rome.",
        tool_call("toolu_rome", "get_weather", {"city": "Rome"}),
    )
    assert reply.stop_reason == "tool_calls"
    assert reply.usage == Usage(
        2012, 58, cache_read_tokens=1800, cache_write_tokens=200, reasoning_tokens=20
    )
    assert reply.usage.uncached_input_tokens == 12
    assert reply.usage.raw["input_tokens"] == 12


@pytest.mark.parametrize(
    ("raw", "stop"),
    [
        ("end_turn", "end_turn"),
        ("stop_sequence", "end_turn"),
        ("max_tokens", "max_tokens"),
        ("model_context_window_exceeded", "max_tokens"),
        ("refusal", "refusal"),
        ("pause_turn", "other"),
        (None, "other"),
    ],
)
def test_stop_reasons(raw, stop):
    assert parse_response({"content": [], "stop_reason": raw}, FMT).stop_reason == stop


def test_a_message_needs_content():
    with pytest.raises(FormatError, match="content: an Anthropic message needs a 'content' list"):
        parse_response({"type": "message"}, FMT)


def test_render_a_message():
    reply = Reply(
        assistant("Checking.", tool_call("c2", "f", {"a": 1})),
        Usage(2012, 58, cache_read_tokens=1800, cache_write_tokens=200, reasoning_tokens=20),
        "tool_calls",
        "claude-x",
        "msg_7",
    )
    body = render_response(reply, FMT, created=99)
    assert body["usage"] == {
        "input_tokens": 12,
        "cache_creation_input_tokens": 200,
        "cache_read_input_tokens": 1800,
        "output_tokens": 58,
        "output_tokens_details": {"thinking_tokens": 20},
    }
    assert (body["id"], body["stop_reason"], body["type"]) == ("msg_7", "tool_use", "message")
    assert "created" not in body  # Anthropic bodies carry no timestamp
    notes: list = []
    other = render_response(Reply(assistant("x"), Usage(), "other"), FMT, notes=notes)
    assert (other["id"], other["stop_reason"]) == ("msg_local", "pause_turn")
    assert [str(n) for n in notes] == ["stop_reason: 'other' sent as 'pause_turn'"]


def test_the_anthropic_sdk_reads_our_message():
    from anthropic.types import Message as SdkMessage

    reply = Reply(
        assistant("hi", tool_call("c1", "f", {"x": 1})), Usage(5, 2), "tool_calls", "m", "msg_1"
    )
    parsed = SdkMessage.model_validate(render_response(reply, FMT))
    assert parsed.content[1].input == {"x": 1}
    assert parsed.stop_reason == "tool_use"


def test_a_system_list_keeps_its_text_blocks_only():
    system_blocks = [
        {"type": "text", "text": "rules"},
        {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
        {"type": "text", "text": "more"},
    ]
    request, notes = read({"model": "m", "max_tokens": 5, "system": system_blocks, "messages": []})
    assert request.messages == [system("rules", "more")]
    assert notes == ["system.content[1]: a system message holds text only; dropped"]


def test_what_anthropic_refuses_is_read_and_named_by_its_rule():
    """Text before a tool_result, an input that is no object, an unknown block: the parser reads
    on and names the rule, for ``standin.verdict`` to report (never a FormatError)."""
    from helpers.formats.common import Notes

    body = {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {"role": "user", "content": [{"type": "fallback"}]},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t", "name": "f", "input": "x"}],
            },
        ],
    }
    notes = Notes()
    request = parse(body, FMT, notes=notes)
    from standin.rules.kinds import named_unknown  # the unknown type: the stand-in knows the API's

    assert [(n.where, n.rule) for n in named_unknown(notes, FMT) if n.rule] == [
        ("messages[0].content[0]", "unknown-block"),
        ("messages[1].content[0]", "arguments-not-object"),
    ]
    assert request.messages[1].content[0].arguments == "x"
    from standin.rules.origins import origins

    assert origins(body, FMT)[1] == ("messages[1]", ["messages[1].content[0]"])
