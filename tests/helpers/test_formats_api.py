"""The public API of helpers.formats: registry, detect, options, notes, Rendered's display."""

from __future__ import annotations

import copy
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.formats import (
    FORMATS,
    FormatError,
    Note,
    Rendered,
    detect,
    parse,
    parse_response,
    render,
)
from helpers.formats.reading import load_arguments
from helpers.messages import (
    Message,
    Reply,
    Request,
    Text,
    Usage,
    assistant,
    system,
    tool,
    tool_call,
    tool_result,
    user,
)
from standin.render_response import render_response
from tests.support.strategies import held_by, replies


def ticket() -> Request:
    return Request(
        "m",
        [
            system("Be brief."),
            user("Where is SO-1?"),
            assistant("Looking.", tool_call("c1", "get_order", {"order_id": "SO-1"})),
            tool(tool_result("c1", "shipped")),
        ],
    )


def test_formats_and_their_paths():
    assert FORMATS == ("openai-chat", "openai-responses", "anthropic", "gemini")
    paths = {fmt: render(ticket(), fmt).path for fmt in FORMATS}
    assert paths == {
        "openai-chat": "/v1/chat/completions",
        "openai-responses": "/v1/responses",
        "anthropic": "/v1/messages",
        "gemini": "/v1beta/models/m:generateContent",
    }


@pytest.mark.parametrize(
    "call",
    [
        lambda: render(ticket(), "openai"),
        lambda: parse({"messages": []}, "claude"),
        lambda: parse_response({}, "gpt"),
        lambda: render_response(Reply(assistant("x"), Usage(), "end_turn"), "bard"),
    ],
)
def test_unknown_format_names_list_the_known_ones(call):
    with pytest.raises(FormatError, match="unknown format .*known: openai-chat, openai-responses"):
        call()


def test_render_options_are_per_format():
    body = render(ticket(), "openai-chat", system_role="developer").body
    assert body["messages"][0] == {"role": "developer", "content": "Be brief."}
    with pytest.raises(FormatError, match="option 'system_role' is not used by anthropic"):
        render(ticket(), "anthropic", system_role="developer")
    with pytest.raises(FormatError, match="system_role: expected 'system' or 'developer'"):
        render(ticket(), "openai-chat", system_role="admin")


def test_notes_are_returned_and_also_collected_on_request():
    collected: list[Note] = []
    rendered = render(ticket(), "anthropic", notes=collected)
    assert rendered.notes == collected
    assert [str(n) for n in collected] == [
        "max_tokens: required by anthropic; none given, sent 1024"
    ]
    assert str(Note("", "whole body")) == "whole body"


def test_parse_collects_notes():
    notes: list[Note] = []
    parse({"model": "m", "messages": [], "temperature": 0.2}, "openai-chat", notes=notes)
    assert notes == [Note("temperature", "has no place in the neutral request")]


def test_rendered_shows_its_json_and_notes():
    rendered = render(ticket(), "anthropic")
    text = repr(rendered)
    assert text.startswith("Rendered(anthropic, POST /v1/messages, 1 notes)\n{")
    assert '"max_tokens": 1024' in text
    assert text.endswith("note: max_tokens: required by anthropic; none given, sent 1024")
    assert rendered.json(indent=None).startswith('{"model": "m", "max_tokens": 1024')
    quiet = Rendered("gemini", {}, [])
    assert "note:" not in repr(quiet)


# --- detect ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_detect_finds_each_rendered_format(fmt):
    assert detect(render(ticket(), fmt).body) == fmt


def test_detect_neutral_and_plain_text_bodies():
    assert detect(ticket().to_json()) == "neutral"
    only_text = {
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    }
    assert detect(only_text) == "neutral"  # reads the same in every messages format
    strings = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    assert detect(strings) == "openai-chat"
    assert parse(strings).messages == [user("hi")]
    image = {"type": "image", "media_type": "image/png", "data": "AA=="}
    assert detect({"messages": [{"role": "user", "content": [image]}]}) == "neutral"
    assert detect({"messages": [{"role": "developer", "content": "be brief"}]}) == "openai-chat"


@pytest.mark.parametrize(
    ("body", "match"),
    [
        ({"foo": 1}, r"not a request body of any known format \(top-level keys: foo\)"),
        ({}, r"top-level keys: none"),
        ([1, 2], "must be a JSON object, got list"),
        (
            {"input": [], "contents": []},
            r"mixes formats \(openai-responses: has 'input'; gemini: has 'contents'\)",
        ),
        (
            {"system": "s", "messages": [{"role": "tool", "tool_call_id": "c", "content": "x"}]},
            r"mixes formats \(openai-chat: messages\[0\] has 'tool_call_id'; anthropic: has "
            r"top-level 'system'\)",
        ),
    ],
)
def test_detect_errors_say_what_they_found(body, match):
    with pytest.raises(FormatError, match=match):
        detect(body)


def test_parse_detects_by_default_and_accepts_neutral():
    body = render(ticket(), "gemini").body
    assert parse(body).messages == ticket().messages
    assert parse(ticket().to_json(), "neutral") == ticket()


def test_parse_wants_an_object():
    with pytest.raises(FormatError, match="a request body must be a JSON object, got list"):
        parse([], "anthropic")  # type: ignore[arg-type]


def test_parse_response_wants_an_object():
    with pytest.raises(FormatError, match="a response body must be a JSON object, got str"):
        parse_response("{}", "anthropic")  # type: ignore[arg-type]


def test_render_response_is_deterministic_and_takes_the_timestamp():
    reply = Reply(assistant("hi"), Usage(10, 2), "end_turn", "gpt-x", "chatcmpl-1")
    assert render_response(reply, "openai-chat") == render_response(reply, "openai-chat")
    assert render_response(reply, "openai-chat", created=1700000000)["created"] == 1700000000
    assert render_response(reply, "openai-responses", created=5)["created_at"] == 5


# --- shared helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{"a": ', r"messages\[2\]\.tool_calls\[0\]: arguments of call 'c9' are not valid JSON"),
        ("[1, 2]", "must be a JSON object, got list"),
        (42, "must be a JSON string"),
    ],
)
def test_bad_arguments_name_the_call(text, match):
    with pytest.raises(FormatError, match=match):
        load_arguments(text, "messages[2].tool_calls[0]", "c9")


def test_empty_arguments_are_an_empty_object():
    assert load_arguments("", "x", "c") == {}
    assert load_arguments({"a": 1}, "x", "c") == {"a": 1}


@pytest.mark.parametrize(
    ("message", "match"),
    [
        (user(tool_call("c1", "f")), r"messages\[0\]\.content\[0\]: a tool_call block belongs in "),
        (assistant(tool_result("c1", "x")), r"messages\[0\]\.content\[0\]: a tool_result block"),
        (tool(), r"messages\[0\]: a tool message needs at least one tool_result"),
        (
            Message("tool", [Text("loose text")]),
            r"messages\[0\]\.content\[0\]: a tool message holds tool_result blocks, not text",
        ),
    ],
)
@pytest.mark.parametrize("fmt", FORMATS)
def test_blocks_in_the_wrong_role_are_refused_with_their_place(fmt, message, match):
    with pytest.raises(FormatError, match=match):
        render(Request("m", [message]), fmt)


@pytest.mark.parametrize("choice", ["any", {"type": "tool", "name": "f"}, {"name": 3}])
@pytest.mark.parametrize("fmt", FORMATS)
def test_bad_tool_choice_is_refused(fmt, choice):
    with pytest.raises(FormatError, match="tool_choice: expected"):
        render(Request("m", [user("hi")], tool_choice=choice), fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("choice", "back"),
    [("auto", "auto"), ("none", "none"), ("required", "required"), ({"name": "f"}, {"name": "f"})],
)
def test_tool_choice_round_trips(fmt, choice, back):
    request = Request("m", [user("hi")], tool_choice=choice)
    assert parse(render(request, fmt).body, fmt).tool_choice == back


def test_importing_formats_stays_light():
    code = (
        "import sys, helpers.formats, standin.cli.render; "
        "heavy = {'openai', 'anthropic', 'httpx', 'tiktoken'} & set(sys.modules); "
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- damaged bodies: a FormatError that says where, never a traceback from deep inside ---------

JUNK = st.sampled_from([None, True, 0, -1, "", "x", [], {}, [None], {"type": "text"}])


def _paths(node, prefix=()):
    yield prefix
    children = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else []
    )
    for key, value in children:
        yield from _paths(value, (*prefix, key))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_damaged_body_raises_format_error_or_parses(data):
    fmt = data.draw(st.sampled_from(FORMATS))
    response = data.draw(st.booleans())
    if response:
        body = render_response(data.draw(replies(fmt)), fmt)
    else:
        body = render(data.draw(held_by(fmt)), fmt).body
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        *parent, last = data.draw(st.sampled_from([p for p in _paths(body) if p]))
        node = body
        for key in parent:
            node = node[key]
        node[last] = copy.deepcopy(data.draw(JUNK))  # sampled_from hands out one shared object
    try:
        parse_response(body, fmt) if response else parse(body, fmt)
    except FormatError as err:
        assert str(err)  # a message a person can read


@pytest.mark.parametrize("fmt", ["openai-chat", "openai-responses", "anthropic", "gemini"])
def test_a_value_that_is_not_a_block_is_refused_by_name_and_place(fmt):
    """A str put into a message's content by hand is never dropped without a word."""
    from helpers.messages import FormatError, Request, user

    request = Request("gpt-4o-mini", [user("Hi")])
    request.messages[0].content.append("Current time: 09:00")
    with pytest.raises(FormatError, match=r"messages\[0\]\.content\[1\]: a str is not a content"):
        render(request, fmt)
