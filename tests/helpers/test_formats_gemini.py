"""Gemini generateContent: parts, names looked up, id-less calls, every note and error."""

from __future__ import annotations

from functools import partial

import pytest

from helpers.formats import FormatError, parse, parse_response, render
from helpers.formats.gemini_render import NO_ID
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
from tests.helpers.format_support import parse_with_notes, render_with_notes

FMT = "gemini"
PNG = Image("image/png", data="iVBORw0KGgo=")
MODEL_NOTE = (
    "model: gemini names the model in the URL (POST /v1beta/models/gemini-x:generateContent), "
    "not in the body"
)


#: ``body_and_notes(*messages, **fields)`` and ``read(body)``, in this module's format.
body_and_notes = partial(render_with_notes, FMT, "gemini-x")
read = partial(parse_with_notes, FMT)


def test_the_shape_of_a_tool_round():
    signed = ToolCall("c1", "get_order", {"order_id": "SO-1"}, signature="CiQB-sig")
    conversation = [
        system("Be brief."),
        user("Where is SO-1?", PNG),
        assistant(Reasoning("Look it up.", "th-sig", "gemini"), "Looking.", signed),
        tool(tool_result("c1", "no such order", is_error=True)),
        user("Try again."),
    ]
    body, notes = body_and_notes(
        *conversation,
        tools=[Tool("get_order", "Look up an order.", {"type": "object"})],
        tool_choice={"name": "get_order"},
        max_tokens=256,
    )
    assert notes == [MODEL_NOTE]
    assert body == {
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "contents": [
            {
                "role": "user",
                "parts": [
                    {"text": "Where is SO-1?"},
                    {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
                ],
            },
            {
                "role": "model",
                "parts": [
                    {"text": "Look it up.", "thought": True, "thoughtSignature": "th-sig"},
                    {"text": "Looking."},
                    {
                        "functionCall": {
                            "id": "c1",
                            "name": "get_order",
                            "args": {"order_id": "SO-1"},
                        },
                        "thoughtSignature": "CiQB-sig",
                    },
                ],
            },
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "id": "c1",
                            "name": "get_order",
                            "response": {"error": "no such order"},
                        }
                    }
                ],
            },
            {"role": "user", "parts": [{"text": "Try again."}]},
        ],
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "get_order",
                        "description": "Look up an order.",
                        "parametersJsonSchema": {"type": "object"},
                    }
                ]
            }
        ],
        "toolConfig": {
            "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_order"]}
        },
        "generationConfig": {"maxOutputTokens": 256},
    }
    back, parse_notes = read(body)
    assert parse_notes == []
    assert back.messages == conversation and back.model == ""


def test_images_in_results_go_in_function_response_parts():
    url = Image("image/jpeg", url="https://example.com/cup.jpg")
    conversation = [
        user("look"),
        assistant(tool_call("c1", "snap"), url),
        tool(tool_result("c1", [Text("here"), PNG, url])),
    ]
    body, _ = body_and_notes(*conversation)
    assert body["contents"][1]["parts"][1] == {
        "fileData": {"mimeType": "image/jpeg", "fileUri": "https://example.com/cup.jpg"}
    }
    assert body["contents"][2]["parts"][0]["functionResponse"]["parts"] == [
        {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
        {"fileData": {"mimeType": "image/jpeg", "fileUri": "https://example.com/cup.jpg"}},
    ]
    assert read(body)[0].messages == conversation


def test_what_gemini_cannot_hold_is_noted():
    named = user("hi", Image(url="https://example.com/a.png", detail="low"))
    named.name = "maya"
    body, notes = body_and_notes(
        system("policy", PNG),
        named,
        assistant(Reasoning("claude's", "sig", "anthropic"), tool_call("c1", "f")),
        tool(tool_result("c1", [Text("a"), Text("b")])),
        system("late rule"),
        assistant(Reasoning("o1's", "enc", "openai")),
    )
    assert notes == [
        "messages[1].content[1]: image detail has no field in gemini",
        "messages[0].content[1]: 'systemInstruction' is text only; image dropped",
        "messages[1].name: gemini has no participant name; dropped",
        "messages[2].content[0]: reasoning from anthropic dropped: its signature is only valid "
        "for anthropic, not gemini",
        "messages[3].content[0]: 2 text blocks joined into one response string",
        "messages[4]: system message not first: moved into 'systemInstruction' (its place in the "
        "conversation is lost)",
        "messages[5].content[0]: reasoning from openai dropped: its signature is only valid for "
        "openai, not gemini",
        "messages[5]: nothing left to send in this message; left out",
        MODEL_NOTE,
    ]
    assert body["systemInstruction"] == {"parts": [{"text": "policy"}, {"text": "late rule"}]}
    assert body["contents"][2]["parts"][0]["functionResponse"]["response"] == {"output": "ab"}


def test_a_result_needs_its_call_for_the_function_name():
    with pytest.raises(
        FormatError, match=r"messages\[1\]\.content\[0\]: no earlier tool call with id 'c9'"
    ):
        render(Request("m", [user("hi"), tool(tool_result("c9", "x"))]), FMT)


# --- calls without ids ------------------------------------------------------------------------

OLD_STYLE = {
    "contents": [
        {"role": "user", "parts": [{"text": "Weather in Paris and Rome?"}]},
        {
            "role": "model",
            "parts": [
                {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
                {"functionCall": {"name": "get_weather", "args": {"city": "Rome"}}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "get_weather", "response": {"output": "18C"}}},
                {"functionResponse": {"name": "get_weather", "response": {"output": "24C"}}},
            ],
        },
    ]
}


def test_id_less_calls_get_deterministic_ids_and_pair_by_name_and_order():
    request, notes = read(OLD_STYLE)
    first, second = f"{NO_ID}c1_0", f"{NO_ID}c1_1"
    assert request.messages[1:] == [
        assistant(
            tool_call(first, "get_weather", {"city": "Paris"}),
            tool_call(second, "get_weather", {"city": "Rome"}),
        ),
        tool(tool_result(first, "18C"), tool_result(second, "24C")),
    ]
    assert notes == [
        f"contents[1].parts[0]: functionCall has no id; named it '{first}' (left out again when "
        "rendering to gemini)",
        f"contents[1].parts[1]: functionCall has no id; named it '{second}' (left out again when "
        "rendering to gemini)",
    ]
    assert parse(OLD_STYLE, FMT) == request  # deterministic
    assert render(request, FMT).body == OLD_STYLE  # and Gemini gets back what it sent


def test_what_the_parser_cannot_keep_is_noted():
    body = {
        "safetySettings": [],
        "contents": [
            {"parts": [{"text": "q"}, {"executableCode": {"code": "1"}}]},
            {
                "role": "model",
                "parts": [
                    {"text": "visible", "thoughtSignature": "s"},
                    {"functionCall": {"id": "c1", "name": "f"}},
                    {"functionCall": {"id": "c2", "name": "g"}},
                ],
            },
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"id": "c1", "name": "f", "response": {"temp": 18}}},
                    {
                        "functionResponse": {
                            "id": "c2",
                            "name": "g",
                            "response": {"output": {"a": 1}, "x": 2},
                        }
                    },
                ],
            },
        ],
        "tools": [
            {
                "functionDeclarations": [
                    {"name": "f", "parameters": {"type": "OBJECT"}},
                    {"name": "g"},
                ]
            },
            {"googleSearch": {}},
        ],
        "toolConfig": {
            "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["f", "g"]}
        },
        "generationConfig": {"temperature": 0, "maxOutputTokens": 64},
    }
    request, notes = read(body)
    assert notes == [
        "contents[0].parts[1]: part with ['executableCode'] has no neutral block; dropped",
        "contents[1].parts[0]: thoughtSignature on a text part dropped (a text block has none)",
        "contents[2].parts[0]: response has neither 'output' nor 'error'; the whole object is "
        "the text",
        "contents[2].parts[1].functionResponse.response.x: has no place in the neutral request",
        "safetySettings: has no place in the neutral request",
        "generationConfig.temperature: has no place in the neutral request",
        "tools[1].googleSearch: has no place in the neutral request",
        "toolConfig: allowed names ['f', 'g'] have no neutral form; read as 'required'",
    ]
    assert request.messages[2] == tool(
        tool_result("c1", '{"temp": 18}'), tool_result("c2", '{"a": 1}')
    )
    assert request.tools == [
        Tool("f", "", {"type": "OBJECT"}),
        Tool("g", "", {"type": "object", "properties": {}}),
    ]
    assert (request.tool_choice, request.max_tokens) == ("required", 64)


def test_a_user_content_with_results_and_text_splits():
    body = {
        "contents": [
            {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "f", "args": {}}}]},
            {
                "role": "function",
                "parts": [
                    {"functionResponse": {"id": "c1", "name": "f", "response": {"output": "ok"}}},
                    {"text": "and now?"},
                ],
            },
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}},
    }
    request, notes = read(body)
    assert request.messages[1:] == [tool(tool_result("c1", "ok")), user("and now?")]
    assert notes == ["toolConfig: mode 'VALIDATED' has no neutral equivalent; dropped"]


@pytest.mark.parametrize(
    ("contents", "match"),
    [
        (
            [
                {
                    "role": "user",
                    "parts": [{"functionResponse": {"id": "c", "name": "f", "response": "x"}}],
                }
            ],
            r"contents\[0\]\.parts\[0\]\.functionResponse\.response: expected an object",
        ),
        (
            [{"role": "user", "parts": ["hi"]}],
            r"contents\[0\]\.parts\[0\]: expected an object, got str",
        ),
    ],
)
def test_parse_errors_name_the_part(contents, match):
    with pytest.raises(FormatError, match=match):
        parse({"contents": contents}, FMT)


def test_parse_errors_for_the_body():
    with pytest.raises(FormatError, match="contents: a gemini body needs a 'contents' list"):
        parse({"systemInstruction": {}}, FMT)
    with pytest.raises(FormatError, match=r"tools\[0\]: expected an object"):
        parse({"contents": [], "tools": ["x"]}, FMT)


# --- responses -------------------------------------------------------------------------------

RESPONSE = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {"text": "Rome next.", "thought": True},
                    {
                        "functionCall": {"name": "get_weather", "args": {"city": "Rome"}},
                        "thoughtSignature": "CiQB",
                    },
                ],
            },
            "finishReason": "STOP",
            "index": 0,
        }
    ],
    "usageMetadata": {
        "promptTokenCount": 2000,
        "cachedContentTokenCount": 1500,
        "candidatesTokenCount": 20,
        "thoughtsTokenCount": 180,
        "toolUsePromptTokenCount": 7,
        "totalTokenCount": 2207,
    },
    "modelVersion": "gemini-2.5-flash",
    "responseId": "abc-123",
}


def test_parse_a_response_adds_thoughts_to_output():
    notes: list = []
    reply = parse_response(RESPONSE, FMT, notes=notes)
    call_id = f"{NO_ID}abc_123_1"
    assert reply.message == assistant(
        Reasoning("Rome next.", None, "gemini"),
        ToolCall(call_id, "get_weather", {"city": "Rome"}, signature="CiQB"),
    )
    assert reply.stop_reason == "tool_calls"  # STOP, but with a function call
    assert reply.usage == Usage(2007, 200, cache_read_tokens=1500, reasoning_tokens=180)
    assert (reply.id, reply.model) == ("abc-123", "gemini-2.5-flash")
    assert len(notes) == 1 and "functionCall has no id" in str(notes[0])


@pytest.mark.parametrize(
    ("finish", "stop"),
    [
        ("STOP", "end_turn"),
        ("MAX_TOKENS", "max_tokens"),
        ("SAFETY", "refusal"),
        ("RECITATION", "refusal"),
        ("PROHIBITED_CONTENT", "refusal"),
        ("MALFORMED_FUNCTION_CALL", "other"),
        ("OTHER", "other"),
    ],
)
def test_stop_reasons(finish, stop):
    body = {"candidates": [{"content": {"parts": [{"text": "hi"}]}, "finishReason": finish}]}
    assert parse_response(body, FMT).stop_reason == stop


def test_a_blocked_prompt_has_no_candidates():
    with pytest.raises(
        FormatError, match="candidates: a Gemini response needs at least one candidate"
    ):
        parse_response({"promptFeedback": {"blockReason": "SAFETY"}}, FMT)


def test_render_a_response():
    reply = Reply(
        assistant(Reasoning("hmm", "s"), "Checking.", tool_call("c2", "f", {"a": 1})),
        Usage(2000, 200, cache_read_tokens=1500, cache_write_tokens=10, reasoning_tokens=180),
        "tool_calls",
        "gemini-x",
        "r-1",
    )
    notes: list = []
    body = render_response(reply, FMT, notes=notes)
    assert body["usageMetadata"] == {
        "promptTokenCount": 2000,
        "candidatesTokenCount": 20,
        "cachedContentTokenCount": 1500,
        "thoughtsTokenCount": 180,
        "totalTokenCount": 2200,
    }
    assert body["candidates"][0]["finishReason"] == "STOP"
    assert body["candidates"][0]["content"]["parts"][2] == {
        "functionCall": {"id": "c2", "name": "f", "args": {"a": 1}}
    }
    assert (body["modelVersion"], body["responseId"]) == ("gemini-x", "r-1")
    assert [str(n) for n in notes] == [
        "usage: gemini reports no cache writes; cache_write_tokens left out"
    ]
    assert (
        render_response(Reply(assistant("x"), Usage(), "other"), FMT)["responseId"]
        == "gemini-local"
    )


def test_made_up_ids_differ_from_one_response_to_the_next():
    def response(args: dict, **extra) -> dict:
        part = {"functionCall": {"name": "f", "args": args}}
        return {"candidates": [{"content": {"parts": [part]}, "finishReason": "STOP"}], **extra}

    ids = [
        parse_response(body, FMT).message.content[0].id
        for body in (response({}), response({"a": 1}), response({}, responseId="r/1"))
    ]
    assert len(set(ids)) == 3 and all(i.startswith(NO_ID) for i in ids)
    assert ids[2] == f"{NO_ID}r_1_0"


def test_odd_but_legal_bodies():
    body = {
        "model": "gemini-x",
        "systemInstruction": {
            "parts": [{"text": "rules"}, {"inlineData": {"mimeType": "image/png", "data": "AA=="}}]
        },
        "contents": [
            {"role": "model", "parts": [{"thought": True, "thoughtSignature": "only-state"}]}
        ],
    }
    request, notes = read(body)
    assert request.model == "gemini-x"
    assert request.messages == [system("rules"), assistant(Reasoning("", "only-state", "gemini"))]
    assert notes == ["systemInstruction.parts[1]: a system message holds text only"]
    with pytest.raises(FormatError, match=r"tools\[0\]\.functionDeclarations\[1\]: needs a 'name'"):
        parse({"contents": [], "tools": [{"functionDeclarations": [{"name": "f"}, {}]}]}, FMT)


def test_what_gemini_refuses_is_read_and_named_by_its_rule():
    from helpers.formats.common import Notes
    from standin.verdict import verdict

    notes = Notes()
    contents = [
        {"role": "assistant", "parts": [{"text": "x"}, {"foo": 1}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}}]},
    ]
    request = parse({"contents": contents}, FMT, notes=notes)
    assert not [n for n in notes if n.rule]  # a role or a part field Gemini lacks: the verdict's
    assert [(n.where, n.rule) for n in verdict({"contents": contents}).notes if n.rule] == [
        ("contents[0].role", "unknown-role"),
        ("contents[0].parts[1]", "unknown-block"),
    ]
    # a response no call asked for gets an id no call has: the rules call it an orphan
    assert request.messages[1].content[0].call_id == "gemini_noid_unmatched_f"


def test_snake_case_fields_read_like_camel_case():
    snake = {
        "system_instruction": {"parts": [{"text": "s"}]},
        "contents": [
            {
                "role": "user",
                "parts": [{"inline_data": {"mime_type": "image/png", "data": "AA=="}}],
            },
            {
                "role": "model",
                "parts": [{"function_call": {"id": "c", "name": "f", "args": {"a_b": 1}}}],
            },
            {
                "role": "user",
                "parts": [
                    {"function_response": {"id": "c", "name": "f", "response": {"output": "ok"}}}
                ],
            },
        ],
        "tools": [
            {
                "function_declarations": [
                    {
                        "name": "f",
                        "parameters_json_schema": {
                            "type": "object",
                            "properties": {"a_b": {"type": "integer"}},
                        },
                    }
                ]
            }
        ],
        "tool_config": {
            "function_calling_config": {"mode": "ANY", "allowed_function_names": ["f"]}
        },
        "generation_config": {"max_output_tokens": 7},
    }
    from helpers.formats.gemini_render import camel

    assert parse(snake, FMT) == parse(camel(snake), FMT)
    request = parse(snake, FMT)
    assert request.tools[0].parameters["properties"] == {"a_b": {"type": "integer"}}
    assert request.messages[2].content[0].arguments == {"a_b": 1}
    assert request.tool_choice == {"name": "f"} and request.max_tokens == 7
    assert "systemInstruction" in render(request, FMT).body  # rendering keeps camelCase
