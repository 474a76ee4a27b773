"""OpenAI Responses: items instead of messages, every note, every error, responses."""

from __future__ import annotations

from functools import partial

import pytest

from helpers.formats import FormatError, parse, parse_response, render
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

FMT = "openai-responses"
PNG = Image("image/png", data="iVBORw0KGgo=")


#: ``body_and_notes(*messages, **fields)`` and ``read(body)``, in this module's format.
body_and_notes = partial(render_with_notes, FMT, "gpt-x")
read = partial(parse_with_notes, FMT)


def test_the_shape_of_a_tool_round():
    body, notes = body_and_notes(
        system("Be brief."),
        user("Where is SO-1?"),
        assistant(
            Reasoning("Look it up.", "gAAAA-opaque", "openai", id="rs_1"),
            "Looking.",
            tool_call("c1", "get_order", {"order_id": "SO-1"}),
        ),
        tool(tool_result("c1", "shipped")),
        tools=[Tool("get_order", "Look up an order.", {"type": "object"})],
        tool_choice={"name": "get_order"},
        max_tokens=300,
    )
    assert notes == []
    assert body == {
        "model": "gpt-x",
        "instructions": "Be brief.",
        "input": [
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Where is SO-1?"}],
            },
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [{"type": "summary_text", "text": "Look it up."}],
                "encrypted_content": "gAAAA-opaque",
            },
            {"type": "message", "role": "assistant", "content": "Looking."},
            {
                "type": "function_call",
                "call_id": "c1",
                "name": "get_order",
                "arguments": '{"order_id":"SO-1"}',
            },
            {"type": "function_call_output", "call_id": "c1", "output": "shipped"},
        ],
        "tools": [
            {
                "type": "function",
                "name": "get_order",
                "description": "Look up an order.",
                "parameters": {"type": "object"},
                "strict": False,
            }
        ],
        "tool_choice": {"type": "function", "name": "get_order"},
        "max_output_tokens": 300,
    }


def test_is_error_becomes_a_text_prefix_and_images_stay_in_the_output():
    body, notes = body_and_notes(
        user("show me"),
        assistant(tool_call("c1", "snap"), tool_call("c2", "snap")),
        tool(
            tool_result("c1", [Text("cracked cup"), PNG, Text("!")], is_error=True),
            tool_result("c2", [PNG], is_error=True),
        ),
    )
    assert body["input"][3]["output"] == [
        {"type": "input_text", "text": "ERROR: cracked cup"},
        {
            "type": "input_image",
            "image_url": "data:image/png;base64,iVBORw0KGgo=",
            "detail": "auto",
        },
        {"type": "input_text", "text": "!"},
    ]
    assert body["input"][4]["output"] == [
        {"type": "input_text", "text": "ERROR: "},
        {
            "type": "input_image",
            "image_url": "data:image/png;base64,iVBORw0KGgo=",
            "detail": "auto",
        },
    ]
    prefix = "is_error has no field in openai-responses; carried as a text prefix 'ERROR: '"
    assert notes == [f"messages[2].content[0]: {prefix}", f"messages[2].content[1]: {prefix}"]
    assert read(body)[0].messages[2].content[0].content == [
        Text("ERROR: cracked cup"),
        PNG,
        Text("!"),
    ]


def test_what_responses_cannot_hold_is_noted():
    named = user("hi")
    named.name = "maya"
    body, notes = body_and_notes(
        system("policy", "more policy", PNG),
        named,
        assistant(
            Reasoning("claude's", "sig", "anthropic"),
            Reasoning("no id", "sig", "openai"),
            PNG,
            ToolCall("c1", "f", {}, signature="g-sig"),
        ),
        tool(tool_result("c1", "ok")),
        system("late rule", PNG),
    )
    assert notes == [
        "messages[0].content[2]: 'instructions' is text only; image dropped",
        "messages[0]: 2 text blocks joined into 'instructions'",
        "messages[1].name: openai-responses has no participant name; dropped",
        "messages[2].content[0]: reasoning from anthropic dropped: its signature is only valid "
        "for anthropic, not openai",
        "messages[2].content[1]: reasoning without its 'rs_...' id cannot be replayed; dropped",
        "messages[2].content[2]: no image in a Responses assistant message; dropped",
        "messages[2].content[3]: call 'c1': its signature is Gemini state; dropped",
        "messages[4]: system message not first: sent in place as an input message with role "
        "'system' (only a leading one becomes 'instructions')",
        "messages[4].content[1]: no image in a Responses system message; dropped",
    ]
    assert body["instructions"] == "policy\n\nmore policy"
    assert body["input"][-1] == {
        "type": "message",
        "role": "system",
        "content": [{"type": "input_text", "text": "late rule"}],
    }
    assert read(body)[0].messages[-1] == system("late rule")


def test_reasoning_without_text_has_an_empty_summary():
    body, _ = body_and_notes(user("q"), assistant(Reasoning("", "enc", id="rs_9"), "a"))
    assert body["input"][1] == {
        "type": "reasoning",
        "id": "rs_9",
        "summary": [],
        "encrypted_content": "enc",
    }
    assert read(body)[0].messages[1].content[0] == Reasoning("", "enc", "openai", id="rs_9")


def test_what_the_parser_cannot_keep_is_noted():
    body = {
        "model": "gpt-x",
        "store": False,
        "input": [
            {"role": "developer", "content": "rules"},
            {"role": "user", "content": [{"type": "input_file", "file_id": "f1"}]},
            {"type": "item_reference", "id": "msg_1"},
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [
                    {"type": "summary_text", "text": "a"},
                    {"type": "summary_text", "text": "b"},
                ],
                "content": [{"type": "reasoning_text", "text": "raw"}],
            },
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "refusal", "refusal": "no"}],
            },
            {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "f", "arguments": ""},
        ],
        "tools": [{"type": "web_search"}],
        "tool_choice": {"type": "web_search"},
    }
    request, notes = read(body)
    assert notes == [
        "input[0].role: 'developer' read as system (one system role in neutral)",
        "input[1].content[0]: part type 'input_file' has no neutral block; dropped",
        "input[2]: item type 'item_reference' has no neutral equivalent; dropped",
        "input[3].content: raw reasoning text not kept (summary only)",
        "input[4].content[0]: a refusal part read as text",
        "store: has no place in the neutral request",
        "tools[0]: not a function tool; dropped",
        "tool_choice: {'type': 'web_search'} has no neutral equivalent; dropped",
    ]
    assert request.messages == [
        system("rules"),
        Message("user", []),
        assistant(Reasoning("a\n\nb", None, "openai", id="rs_1"), "no", tool_call("c1", "f")),
    ]


def test_a_string_input_is_one_user_message():
    request, notes = read({"model": "m", "input": "hi", "instructions": "be brief"})
    assert (request.messages, notes) == ([system("be brief"), user("hi")], [])


@pytest.mark.parametrize(
    ("items", "match"),
    [
        (
            [{"type": "function_call", "id": "fc_1", "name": "f", "arguments": "{}"}],
            r"input\[0\]: a function_call needs a 'call_id'",
        ),
        ([{"role": "tool", "content": "x"}], r"input\[0\]\.role: 'tool' is not a Responses"),
        (["hi"], r"input\[0\]: expected an object, got str"),
        ([{"role": "user", "content": 5}], r"input\[0\]\.content: expected a string or a list"),
    ],
)
def test_parse_errors_name_the_item(items, match):
    with pytest.raises(FormatError, match=match):
        parse({"model": "m", "input": items}, FMT)


def test_a_body_needs_input():
    with pytest.raises(FormatError, match="input: an openai-responses body needs 'input'"):
        parse({"model": "m", "instructions": "x"}, FMT)


# --- responses -------------------------------------------------------------------------------

RESPONSE = {
    "id": "resp_abc",
    "object": "response",
    "status": "completed",
    "model": "gpt-4.1-mini",
    "output": [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "Rome next."}],
            "encrypted_content": "gAAAA",
        },
        {
            "type": "message",
            "id": "msg_1",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Checking Rome.", "annotations": []}],
        },
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_rome",
            "name": "get_weather",
            "arguments": '{"city": "Rome"}',
            "status": "completed",
        },
    ],
    "usage": {
        "input_tokens": 2006,
        "input_tokens_details": {"cached_tokens": 1920},
        "output_tokens": 300,
        "output_tokens_details": {"reasoning_tokens": 256},
        "total_tokens": 2306,
    },
}


def test_parse_a_response():
    notes: list = []
    reply = parse_response(RESPONSE, FMT, notes=notes)
    assert reply.message == assistant(
        Reasoning("Rome next.", "gAAAA", "openai", id="rs_1"),
        "Checking Rome.",
        tool_call("call_rome", "get_weather", {"city": "Rome"}),
    )
    assert reply.stop_reason == "tool_calls"
    assert reply.usage == Usage(2006, 300, cache_read_tokens=1920, reasoning_tokens=256)
    assert (reply.id, reply.model) == ("resp_abc", "gpt-4.1-mini")
    assert [str(n) for n in notes] == []  # item ids are kept (a replay names the same items)


@pytest.mark.parametrize(
    ("status", "reason", "content", "stop"),
    [
        ("completed", None, {"type": "output_text", "text": "hi"}, "end_turn"),
        ("completed", None, {"type": "refusal", "refusal": "no"}, "refusal"),
        ("incomplete", "max_output_tokens", {"type": "output_text", "text": "hi"}, "max_tokens"),
        ("incomplete", "content_filter", {"type": "output_text", "text": "hi"}, "refusal"),
        ("failed", None, {"type": "output_text", "text": "hi"}, "other"),
    ],
)
def test_stop_reasons(status, reason, content, stop):
    body = {
        "status": status,
        "incomplete_details": {"reason": reason} if reason else None,
        "output": [{"type": "message", "role": "assistant", "content": [content]}],
    }
    assert parse_response(body, FMT).stop_reason == stop


def test_a_response_needs_output():
    with pytest.raises(FormatError, match="output: a Responses body needs an 'output' list"):
        parse_response({"status": "completed"}, FMT)


def test_render_a_response():
    reply = Reply(
        assistant(Reasoning("think", "enc"), "Checking.", tool_call("c2", "f", {"a": 1})),
        Usage(100, 30, cache_read_tokens=64, cache_write_tokens=8, reasoning_tokens=12),
        "tool_calls",
        "gpt-x",
        "resp_42",
    )
    body = render_response(reply, FMT, created=7)
    assert [(i["type"], i["id"]) for i in body["output"]] == [
        ("reasoning", "rs_42_0"),
        ("message", "msg_42_1"),
        ("function_call", "fc_42_2"),
    ]
    assert body["status"] == "completed" and body["incomplete_details"] is None
    assert body["created_at"] == 7
    assert body["usage"]["input_tokens_details"] == {"cached_tokens": 64, "cache_write_tokens": 8}
    assert parse_response(body, FMT).message.content[0] == Reasoning(
        "think", "enc", "openai", id="rs_42_0"
    )
    notes: list = []
    other = render_response(Reply(assistant("x"), Usage(), "other"), FMT, notes=notes)
    assert (other["id"], other["status"], other["incomplete_details"]) == (
        "resp_local",
        "incomplete",
        None,
    )
    assert [str(n) for n in notes] == [
        "stop_reason: 'other' sent as status 'incomplete' with no reason"
    ]
    capped = render_response(Reply(assistant("x"), Usage(), "max_tokens"), FMT)
    assert capped["incomplete_details"] == {"reason": "max_output_tokens"}


def test_the_openai_sdk_reads_our_response():
    from openai.types.responses import Response

    reply = Reply(assistant("Checking.", tool_call("c1", "f", {"x": 1})), Usage(5, 2), "tool_calls")
    body = render_response(reply, FMT)
    body.update(parallel_tool_calls=True, tool_choice="auto", tools=[])  # fields we leave out
    parsed = Response.model_validate(body)
    assert parsed.output_text == "Checking."
    assert parsed.output[1].call_id == "c1"


def test_a_message_with_nothing_sendable_is_left_out():
    body, notes = body_and_notes(
        user("q"), assistant(Reasoning("claude's", "s", "anthropic")), system(PNG)
    )
    assert len(body["input"]) == 1
    assert notes[1] == "messages[1]: nothing left to send in this message; left out"
    assert notes[-1] == "messages[2]: nothing left to send in this message; left out"


def test_arguments_that_are_not_json_are_kept_and_named_by_their_rule():
    from helpers.formats.common import Notes

    items = [
        {"type": "function_call", "call_id": "call_7", "name": "f", "arguments": '{"a":'},
        {"type": "telepathy"},
    ]
    notes = Notes()
    request = parse({"model": "m", "input": items}, FMT, notes=notes)
    from standin.rules.kinds import named_unknown  # the unknown type: the stand-in knows the API's

    assert [(n.where, n.rule) for n in named_unknown(notes, FMT) if n.rule] == [
        ("input[0]", "arguments-not-object"),
        ("input[1]", "unknown-block"),
    ]
    assert request.messages[0].content[0].arguments == '{"a":'


def test_item_ids_are_kept_and_replayed():
    """OpenAI pairs a replayed reasoning item with the item it produced by id: keep the ids."""
    items = [
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "x"},
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "f",
            "arguments": "{}",
        },
        {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
        {"type": "reasoning", "id": "rs_2", "summary": [], "encrypted_content": "y"},
        {
            "type": "message",
            "id": "msg_2",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "Done.", "annotations": []}],
        },
    ]
    request = parse({"model": "m", "input": items}, FMT)
    replayed = render(request, FMT).body["input"]
    assert [item.get("id") for item in replayed] == ["rs_1", "fc_1", None, "rs_2", "msg_2"]
    assert replayed[4]["content"] == items[4]["content"]
    assert parse({"model": "m", "input": replayed}, FMT) == request
