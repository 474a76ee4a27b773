"""The neutral model: builders, load/dump round trips, and errors that say where."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from helpers.messages import (
    FormatError,
    Image,
    Message,
    Reasoning,
    Request,
    Text,
    Tool,
    ToolCall,
    ToolResult,
    assistant,
    dump,
    load,
    system,
    tool,
    tool_call,
    tool_result,
    user,
)
from tests.support.strategies import conversations


def test_builders_read_like_the_json_they_make():
    message = assistant("Let me look that order up.", tool_call("c1", "search_orders", {"q": 1}))
    assert message.to_json() == {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me look that order up."},
            {"type": "tool_call", "id": "c1", "name": "search_orders", "arguments": {"q": 1}},
        ],
    }
    assert tool(tool_result("c1", "found", is_error=True)).to_json() == {
        "role": "tool",
        "content": [{"type": "tool_result", "call_id": "c1", "text": "found", "is_error": True}],
    }
    assert system("s").role == "system" and user("u").content == [Text("u")]


def test_message_text_alone_drops_the_tool_call():
    """The classic bug, in one assert: reading content as a string loses the request."""
    message = assistant("Let me look that order up.", tool_call("c1", "search_orders"))
    assert message.text == "Let me look that order up."
    assert [c.id for c in message.tool_calls] == ["c1"]


def test_rich_tool_results_and_images_round_trip():
    result = ToolResult("c9", [Text("a chart:"), Image("image/png", data="iVBORw0KGgo=")])
    request = Request("m", [user("hi"), tool(result)])
    data = request.to_json()
    assert data["messages"][1]["content"][0]["content"][1] == {
        "type": "image",
        "media_type": "image/png",
        "data": "iVBORw0KGgo=",
    }
    assert load(data) == request
    assert result.text == "a chart:"


def test_reasoning_keeps_its_opaque_state():
    block = Reasoning("thinking...", signature="sig==", provider="anthropic", id="rs_1")
    back = load({"messages": [{"role": "assistant", "content": [block.to_json()]}]})
    assert back.messages[0].content[0] == block
    redacted = Reasoning("", signature="opaque", redacted=True)
    assert redacted.to_json()["redacted"] is True


@settings(max_examples=150)
@given(conversations())
def test_dump_then_load_is_lossless(request):
    assert load(dump(request)) == request
    assert load(request.to_json()) == request


@pytest.mark.parametrize(
    "bad, where",
    [
        (
            {"messages": [{"role": "user", "content": "hi"}]},
            "messages[0].content: content is a list",
        ),
        ({"messages": [{"role": "robot", "content": []}]}, "messages[0].role: 'robot' is not one"),
        ({"messages": [{"content": []}]}, "messages[0]: missing 'role'"),
        (
            {"messages": [{"role": "user", "content": [{"type": "tool_use"}]}]},
            "messages[0].content[0]: unknown block type 'tool_use'",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": []},
                    {
                        "role": "assistant",
                        "content": [
                            {"type": "text", "text": "x"},
                            {"type": "tool_call", "id": "c1", "name": "f", "arguments": "{}"},
                        ],
                    },
                ]
            },
            "messages[1].content[1].arguments: the neutral format holds arguments as a JSON object",
        ),
        (
            {"messages": [{"role": "tool", "content": [{"type": "tool_result", "call_id": "c"}]}]},
            "messages[0].content[0]: a tool_result needs 'text' or 'content'",
        ),
        ({"messages": [{"role": "user", "content": [{"type": "image"}]}]}, "needs 'data'"),
        ({"tools": [{"description": "x"}], "messages": []}, "tools[0]: missing 'name'"),
        ({"model": "m"}, "request: missing 'messages'"),
        ([], "a request must be a JSON object"),
        ("{not json", "not valid JSON"),
    ],
)
def test_load_errors_name_the_place(bad, where):
    with pytest.raises(FormatError) as err:
        load(bad if isinstance(bad, str) else json.loads(json.dumps(bad)))
    assert where in str(err.value)


def test_html_repr_names_roles_and_block_types_not_only_colours():
    request = Request(
        "m",
        [
            system("policy"),
            user("hi"),
            assistant("ok", tool_call("c1", "f")),
            tool(tool_result("c1", "r")),
        ],
        [Tool("f", "does f")],
    )
    html = request._repr_html_()
    for word in ("system", "user", "assistant", "tool", "tool_call", "tool_result", "c1"):
        assert word in html
    assert "<script" not in Message("user", [Text("<script>alert(1)</script>")])._repr_html_()


def test_tool_call_signature_is_kept_for_gemini():
    call = ToolCall("c1", "f", {}, signature="thoughtsig")
    assert (
        load({"messages": [{"role": "assistant", "content": [call.to_json()]}]})
        .messages[0]
        .content[0]
        == call
    )
