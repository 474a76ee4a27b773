"""Issue 24's other cases: two results for one call refused everywhere, in each provider's words,
by ``check`` (exit 1) and the stand-in (its 400) alike; a finding about a call names its id.
"""

from __future__ import annotations

import json

import pytest

from helpers.examples import sundry
from helpers.formats import render
from helpers.messages import tool_result
from standin.cli import main
from tests.support.provider_support import post

DUPLICATE = {
    "openai-chat": (
        "Invalid parameter: Duplicate value for 'tool_call_id' of 'c1', in messages[3] and "
        "messages[4]."
    ),
    "openai-responses": (
        "Duplicate function_call_output for call_id 'c1'. Each function_call must have exactly "
        "one matching function_call_output"
    ),
    "anthropic": (
        "messages.2.content.1: each tool_use must have a single result. Found multiple "
        "`tool_result` blocks with id: c1"
    ),
    "gemini": (
        "Please ensure that the number of function response parts is equal to the number of "
        "function call parts of the function call turn."
    ),
}


def _answered_twice(fmt: str) -> dict:
    request = sundry.ticket()
    request.model = {
        "openai-chat": "gpt-4o-mini",
        "openai-responses": "gpt-4o-mini",
        "anthropic": "claude-sonnet-4-5",
        "gemini": "gemini-2.5-flash",
    }[fmt]
    request.messages[3].content.append(tool_result("c1", "the same answer again"))
    return render(request, fmt).body


def _check(tmp_path, capsys, payload, profile):
    file = tmp_path / "body.json"
    file.write_text(json.dumps(payload), encoding="utf-8")
    code = main(["check", str(file), "--profile", profile])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("fmt", sorted(DUPLICATE))
def test_two_results_for_one_call_are_refused_in_the_providers_words(p, tmp_path, capsys, fmt):
    payload = _answered_twice(fmt)
    code, out = _check(tmp_path, capsys, payload, fmt)
    assert code == 1, out
    line = next(x for x in out.splitlines() if "[duplicate-result]" in x)
    assert "(call c1)" in line and not line.startswith("warning")
    assert f"answers: {DUPLICATE[fmt]}" in out
    r = post(p, fmt, payload)
    assert r.status_code == 400
    assert r.json()["error"]["message"] == DUPLICATE[fmt]
    if fmt == "openai-chat":
        assert r.json()["error"]["param"] == "messages.[4].tool_call_id"


def test_a_finding_read_off_the_body_names_the_call_id(tmp_path, capsys):
    """Arguments that are not a JSON object: found by the parser, on the call itself."""
    payload = render(sundry.ticket(), "anthropic").body
    call = payload["messages"][1]["content"][-1]
    assert call["type"] == "tool_use"
    call["input"] = "not an object"
    code, out = _check(tmp_path, capsys, payload, "anthropic")
    line = next(x for x in out.splitlines() if "[arguments-not-object]" in x)
    assert code == 1 and f"(call {call['id']})" in line and line.startswith("messages[1]")


# --- functions-era requests ---------------------------------------------------------------------

from tests.support.published_counts import FUNCTIONS_ERA  # noqa: E402


@pytest.mark.parametrize("case, messages, api", FUNCTIONS_ERA, ids=[c[0] for c in FUNCTIONS_ERA])
def test_functions_era_bodies_parse_check_and_count_within_their_bound(case, messages, api):
    from helpers.formats.common import Notes
    from standin.functions_era import parse
    from standin.verdict import verdict
    from standin.wire_count import count_body

    body = {"model": "gpt-3.5-turbo", "messages": messages}
    notes = Notes()
    request = parse(body, "openai-chat", notes=notes)
    assert any("functions-era" in str(n) for n in notes)
    kinds = {b.type for m in request.messages for b in m.content}
    assert kinds & {"tool_call", "tool_result"}
    assert verdict(body, "openai-chat", format="openai-chat").accepted  # the API billed it
    counted = count_body(body, "openai-chat")
    assert counted.estimate and "exact" not in counted.label  # no figure verifies our rendering
    bound = sum(b for b, _ in counted.uncertain.values() if b is not None)
    assert abs(counted.total - api) <= bound, (counted.total, api, counted.uncertain)


def test_functions_era_messages_read_as_tool_calls_with_their_notes_in_place():
    from helpers.formats import parse as parse_tools_form
    from helpers.formats.common import Notes
    from helpers.messages import FormatError
    from standin.functions_era import parse

    call = {"name": "f", "arguments": "[1]"}
    messages = [
        {"role": "assistant", "content": None, "function_call": call, "x": 1},
        {"role": "function", "name": "f", "content": "ok", "y": 2},
        {"role": "user", "content": "thanks", "z": 3},
    ]
    notes = Notes()
    request = parse({"model": "m", "messages": messages}, notes=notes)
    assert [
        (b.type, getattr(b, "id", None) or b.call_id)
        for m in request.messages[:2]
        for b in m.content
    ] == [("tool_call", "function_call_0"), ("tool_result", "function_call_0")]
    assert [(n.where, n.rule) for n in notes] == [
        ("messages[0].x", None),
        ("messages[0].function_call", "arguments-not-object"),
        ("messages[0].function_call", None),
        ("messages[1].y", None),
        ("messages[1]", None),
        ("messages[2].z", None),
    ]
    with pytest.raises(FormatError, match=r"messages\[1\]\.name: expected a string"):
        parse({"messages": [messages[0], {"role": "function", "content": "x"}]})
    with pytest.raises(FormatError, match=r"messages\[0\]\.role: 'function' is not a Chat role"):
        parse_tools_form({"messages": messages[1:]}, "openai-chat")  # the learner's parser


def test_a_functions_era_conversation_goes_through_the_local_provider(p):
    call = {"name": "search_orders", "arguments": '{"email": "dana@example.com"}'}
    payload = {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "user", "content": "Where is my order?"},
            {"role": "assistant", "content": None, "function_call": call},
            {"role": "function", "name": "search_orders", "content": "[]"},
        ],
        "functions": [{"name": "search_orders", "parameters": {"type": "object"}}],
    }
    r = post(p, "openai-chat", payload)
    assert r.status_code == 200, r.text


def test_gemini_refuses_a_turn_with_no_parts_in_its_words(p, tmp_path, capsys):
    """A ``model`` turn with an empty ``parts`` list: Gemini's 400 names its place in contents."""
    payload = {
        "contents": [
            {"role": "user", "parts": [{"text": "Hi, my order SO-48213 arrived cracked."}]},
            {"role": "model", "parts": []},
            {"role": "user", "parts": [{"text": "Hello?"}]},
        ]
    }
    text = "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty."
    code, out = _check(tmp_path, capsys, payload, "gemini")
    assert code == 1 and f"answers: {text}" in out, out
    r = post(p, "gemini", payload)
    assert r.status_code == 400 and r.json()["error"]["message"] == text


@pytest.mark.parametrize("role", ["assistant", "tool"])
def test_chat_refuses_an_image_outside_a_user_message_in_its_words(p, tmp_path, capsys, role):
    image = {"type": "image_url", "image_url": {"url": "https://example.com/crack.png"}}
    said = {"role": "assistant", "content": [image]}
    if role == "tool":
        call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        said = [
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "content": [image]},
        ]
    payload = {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "user", "content": "Hi, my order SO-48213 arrived cracked."},
            *(said if isinstance(said, list) else [said]),
            {"role": "user", "content": "Hello?"},
        ],
    }
    if role == "tool":
        payload["tools"] = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
    n = 2 if role == "tool" else 1
    text = (
        f"Invalid 'messages[{n}]'. Image URLs are only allowed for messages with role 'user', "
        f"but this message with role '{role}' contains an image URL."
    )
    code, out = _check(tmp_path, capsys, payload, "openai-chat")
    assert code == 1 and f"answers: {text}" in out, out
    r = post(p, "openai-chat", payload)
    assert r.status_code == 400 and r.json()["error"]["message"] == text
