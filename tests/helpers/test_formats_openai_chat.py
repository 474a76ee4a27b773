"""OpenAI Chat Completions: the exact shapes, every note, every error, responses."""

from __future__ import annotations

from functools import partial

import pytest

from helpers.formats import FormatError, parse, parse_response
from helpers.messages import (
    Image,
    Message,
    Reasoning,
    Reply,
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
from tests.helpers.format_support import parse_with_notes, render_with_notes

FMT = "openai-chat"
PNG = Image("image/png", data="iVBORw0KGgo=")


#: ``body_and_notes(*messages, **fields)`` and ``read(body)``, in this module's format.
body_and_notes = partial(render_with_notes, FMT, "gpt-x")
read = partial(parse_with_notes, FMT)


def test_the_shape_of_a_tool_round():
    body, notes = body_and_notes(
        system("Be brief."),
        user("Where is SO-1?"),
        assistant("Looking.", tool_call("c1", "get_order", {"order_id": "SO-1"})),
        tool(tool_result("c1", "shipped")),
        tools=[Tool("get_order", "Look up an order.", {"type": "object"})],
        tool_choice={"name": "get_order"},
        max_tokens=300,
    )
    assert notes == []
    assert body == {
        "model": "gpt-x",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Where is SO-1?"},
            {
                "role": "assistant",
                "content": "Looking.",
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_order", "arguments": '{"order_id":"SO-1"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "shipped"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_order",
                    "description": "Look up an order.",
                    "parameters": {"type": "object"},
                },
            }
        ],
        "tool_choice": {"type": "function", "function": {"name": "get_order"}},
        "max_completion_tokens": 300,
    }


def test_two_results_become_two_tool_messages_and_read_back_as_one():
    calls = assistant(tool_call("a", "f"), tool_call("b", "g"))
    results = tool(tool_result("a", "1"), tool_result("b", "2"))
    body, _ = body_and_notes(user("go"), calls, results)
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "tool", "tool"]
    assert body["messages"][1]["content"] is None
    assert read(body)[0].messages == [user("go"), calls, results]


def test_is_error_becomes_a_text_prefix_and_stays_text():
    body, notes = body_and_notes(
        user("refund"),
        assistant(tool_call("c1", "issue_refund")),
        tool(tool_result("c1", "refused: over the ceiling", is_error=True)),
    )
    assert body["messages"][2]["content"] == "ERROR: refused: over the ceiling"
    assert notes == [
        "messages[2].content[0]: is_error has no field in openai-chat; carried as a text prefix "
        "'ERROR: '"
    ]
    back = read(body)[0].messages[2].content[0]
    assert (back.is_error, back.text) == (False, "ERROR: refused: over the ceiling")


def test_what_chat_cannot_hold_is_noted():
    signed = ToolCall("c1", "f", {}, signature="sig")
    body, notes = body_and_notes(
        system("policy", PNG),
        user("look", PNG),
        assistant(Reasoning("thinking", "sig", "openai"), PNG, signed, Text("after the call")),
        tool(tool_result("c1", [Text("a"), PNG, Text("b")])),
        assistant(Reasoning("only this", "sig")),
        system("late rule"),
    )
    assert notes == [
        "messages[0].content[1]: no image in a Chat system message; dropped",
        "messages[2].content[0]: openai-chat has no field for reasoning; dropped",
        "messages[2].content[1]: no image in a Chat assistant message; dropped",
        "messages[2]: text after a tool call moved before the calls (Chat has two fields)",
        "messages[2].content[2]: call 'c1': its signature is Gemini state; dropped",
        "messages[3].content[0]: openai-chat tool results hold text only; image dropped",
        "messages[4].content[0]: openai-chat has no field for reasoning; dropped",
        "messages[4]: nothing left to send in this message; left out",
        "messages[5]: system message not first: kept in place (Chat allows that)",
    ]
    assert body["messages"][1]["content"] == [
        {"type": "text", "text": "look"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
    ]
    assert body["messages"][3]["content"] == [
        {"type": "text", "text": "a"},
        {"type": "text", "text": "b"},
    ]
    assert [m["role"] for m in body["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "system",
    ]


def test_images_keep_their_detail_and_urls():
    url = Image(url="https://example.com/cup.jpg", detail="low")
    body, _ = body_and_notes(user(PNG, url))
    assert body["messages"][0]["content"][1] == {
        "type": "image_url",
        "image_url": {"url": "https://example.com/cup.jpg", "detail": "low"},
    }
    assert read(body)[0].messages[0].content == [PNG, Image(url=url.url, detail="low")]


def test_names_are_kept_except_on_tool_messages():
    message = user("hi")
    message.name = "maya"
    results = tool(tool_result("c1", "ok"))
    results.name = "shop"
    body, notes = body_and_notes(message, assistant(tool_call("c1", "f")), results)
    assert body["messages"][0]["name"] == "maya"
    assert read(body)[0].messages[0].name == "maya"
    assert notes == ["messages[2].name: a Chat tool message has no name; dropped"]
    body["messages"][2]["name"] = "f"  # what some older clients send
    assert read(body)[1] == ["messages[2].name: a neutral tool result has no name; dropped"]


def test_what_the_parser_cannot_keep_is_noted():
    body = {
        "model": "gpt-x",
        "temperature": 0,
        "messages": [
            {"role": "developer", "content": "rules"},
            {"role": "user", "content": [{"type": "input_audio", "input_audio": {}}]},
            {"role": "assistant", "content": [{"type": "refusal", "refusal": "no"}], "audio": None},
        ],
        "tools": [{"type": "custom", "custom": {"name": "x"}}],
        "tool_choice": {"type": "allowed_tools", "allowed_tools": {}},
    }
    request, notes = read(body)
    assert notes == [
        "messages[0].role: 'developer' read as system (one system role in neutral)",
        "messages[1].content[0]: part type 'input_audio' has no neutral block; dropped",
        "messages[2].audio: has no place in the neutral request",
        "messages[2].content[0]: a refusal part read as text",
        "temperature: has no place in the neutral request",
        "tools[0]: not a function tool; dropped",
        "tool_choice: {'type': 'allowed_tools', 'allowed_tools': {}} has no neutral equivalent; "
        "dropped",
    ]
    assert request.messages == [system("rules"), Message("user", []), assistant("no")]
    assert read({"messages": [], "max_tokens": 9})[0].max_tokens == 9  # the legacy field


@pytest.mark.parametrize(
    ("messages", "match"),
    [
        (
            [
                {
                    "role": "assistant",
                    "tool_calls": [{"type": "function", "function": {"name": "f"}}],
                }
            ],
            r"messages\[0\]\.tool_calls\[0\]: a tool call needs an 'id'",
        ),
        (
            [{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function"}]}],
            r"messages\[0\]\.tool_calls\[0\]: expected \{id, type: 'function'",
        ),
        (
            [{"role": "tool", "content": "x"}],
            r"messages\[0\]: a tool message needs a 'tool_call_id'",
        ),
        ([{"role": "x", "content": "x"}], r"messages\[0\]\.role: 'x' is not a Chat"),
        ([{"role": "function", "content": "x"}], r"messages\[0\]\.role: 'function' is not a"),
        (["hi"], r"messages\[0\]: a message must be an object"),
        ([{"role": "user", "content": 3}], r"messages\[0\]\.content: expected a string or a list"),
    ],
)
def test_parse_errors_name_the_message(messages, match):
    with pytest.raises(FormatError, match=match):
        parse({"model": "m", "messages": messages}, FMT)


def test_parse_errors_for_the_body():
    with pytest.raises(FormatError, match="messages: an openai-chat body needs a 'messages' list"):
        parse({"model": "m"}, FMT)
    with pytest.raises(
        FormatError, match=r"tools\[0\]\.function\.name: expected a string, got null"
    ):
        parse({"messages": [], "tools": [{"type": "function", "function": {}}]}, FMT)


# --- responses -------------------------------------------------------------------------------

COMPLETION = {
    "id": "chatcmpl-abc123",
    "object": "chat.completion",
    "created": 1767225600,
    "model": "gpt-4o-mini-2024-07-18",
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "logprobs": None,
            "message": {
                "role": "assistant",
                "content": None,
                "refusal": None,
                "tool_calls": [
                    {
                        "id": "call_rome",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Rome"}'},
                    }
                ],
            },
        }
    ],
    "usage": {
        "prompt_tokens": 1566,
        "completion_tokens": 17,
        "total_tokens": 1583,
        "prompt_tokens_details": {"cached_tokens": 1408, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0},
    },
}


def test_parse_a_completion():
    reply = parse_response(COMPLETION, FMT)
    assert reply.message == assistant(tool_call("call_rome", "get_weather", {"city": "Rome"}))
    assert reply.stop_reason == "tool_calls"
    assert reply.usage == Usage(input_tokens=1566, output_tokens=17, cache_read_tokens=1408)
    assert reply.usage.uncached_input_tokens == 158
    assert reply.usage.raw is COMPLETION["usage"]
    assert (reply.id, reply.model) == ("chatcmpl-abc123", "gpt-4o-mini-2024-07-18")


@pytest.mark.parametrize(
    ("finish", "message", "stop"),
    [
        ("stop", {"content": "hi"}, "end_turn"),
        ("length", {"content": "hi"}, "max_tokens"),
        ("content_filter", {"content": None}, "refusal"),
        ("function_call", {"content": None}, "tool_calls"),
        ("weird", {"content": "hi"}, "other"),
        ("stop", {"content": None, "refusal": "I can't help with that."}, "refusal"),
        ("stop", COMPLETION["choices"][0]["message"], "tool_calls"),  # forced tool_choice
    ],
)
def test_stop_reasons(finish, message, stop):
    body = {"choices": [{"message": message, "finish_reason": finish}]}
    assert parse_response(body, FMT).stop_reason == stop


def test_response_errors_and_notes():
    with pytest.raises(FormatError, match="choices: a chat completion needs at least one choice"):
        parse_response({"choices": []}, FMT)
    notes: list = []
    two = {"choices": [{"message": {"content": "a"}}, {"message": {"content": "b"}}]}
    assert parse_response(two, FMT, notes=notes).message == assistant("a")
    assert [str(n) for n in notes] == ["choices: 2 choices; only choices[0] read"]


def test_render_a_completion():
    reply = Reply(
        assistant(Reasoning("hmm"), "Checking.", "Rome next.", tool_call("c2", "f", {"a": 1})),
        Usage(100, 30, cache_read_tokens=64, cache_write_tokens=10, reasoning_tokens=12),
        "other",
        "gpt-x",
        "chatcmpl-9",
    )
    notes: list = []
    body = render_response(reply, FMT, created=7, notes=notes)
    assert [str(n) for n in notes] == [
        "message.content[0]: no reasoning in a chat completion; dropped",
        "message: 2 text blocks joined into one content string",
        "stop_reason: 'other' has no finish_reason in Chat; sent 'stop'",
    ]
    assert (
        body["id"] == "chatcmpl-9" and body["created"] == 7 and body["object"] == "chat.completion"
    )
    choice = body["choices"][0]
    assert choice["finish_reason"] == "stop"
    assert choice["message"]["content"] == "Checking.Rome next."
    assert choice["message"]["tool_calls"][0]["function"]["arguments"] == '{"a":1}'
    assert body["usage"] == {
        "prompt_tokens": 100,
        "completion_tokens": 30,
        "total_tokens": 130,
        "prompt_tokens_details": {"cached_tokens": 64, "audio_tokens": 0, "cache_write_tokens": 10},
        "completion_tokens_details": {
            "reasoning_tokens": 12,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }
    assert parse_response(body, FMT).usage == reply.usage


def test_the_openai_sdk_reads_our_completion():
    from openai.types.chat import ChatCompletion

    reply = Reply(assistant("hi", tool_call("c1", "f", {"x": 1})), Usage(5, 2), "tool_calls")
    parsed = ChatCompletion.model_validate(render_response(reply, FMT))
    assert parsed.choices[0].message.tool_calls[0].function.arguments == '{"x":1}'
    assert parsed.usage.prompt_tokens == 5


def test_arguments_that_are_not_json_are_kept_and_named_by_their_rule():
    from helpers.formats.common import Notes

    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{"}}
    messages = [
        {"role": "assistant", "tool_calls": [call]},
        {"role": "user", "content": [{"type": "x"}]},
    ]
    notes = Notes()
    request = parse({"model": "m", "messages": messages}, FMT, notes=notes)
    from standin.rules.kinds import named_unknown  # the unknown type: the stand-in knows the API's

    assert [(n.where, n.rule) for n in named_unknown(notes, FMT) if n.rule] == [
        ("messages[0].tool_calls[0]", "arguments-not-object"),
        ("messages[1].content[0]", "unknown-block"),
    ]
    assert request.messages[0].content[0].arguments == "{"
