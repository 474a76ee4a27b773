"""standin.verdict: one decision per profile, shared by ``check`` and the stand-in.

The test the issue asks for: run request bodies through both paths, ``python -m helpers
check FILE --profile P`` and the stand-in's answer to the same body, and prove they never
disagree: exit 1 exactly when the provider answers 400, with the text ``check`` printed; exit 0
exactly when it answers 200.
"""

from __future__ import annotations

import copy
import json

import pytest

from helpers.examples import sundry
from helpers.formats import render
from helpers.messages import Message, Text, system, tool, tool_call, tool_result, user
from standin.cli import main
from standin.provider import routes
from standin.provider.scenarios import resolve
from standin.verdict import verdict
from tests.support.provider_support import PROVIDERS, model


def _histories() -> dict[str, object]:
    """Neutral histories, valid and broken in the ways real code breaks them."""
    ticket = sundry.ticket()
    out = {"valid": ticket}
    dropped = copy.deepcopy(ticket)
    del dropped.messages[3]
    dropped.messages.append(user("Hello? Any news?"))
    out["result dropped"] = dropped
    orphaned = copy.deepcopy(ticket)
    del orphaned.messages[1:3]
    out["call cut off"] = orphaned
    interrupted = copy.deepcopy(ticket)
    interrupted.messages.insert(3, user("Also, can I keep the case?"))
    out["user message in between"] = interrupted
    late_system = copy.deepcopy(ticket)  # the case the issue names: a system message at index 1
    late_system.messages.insert(1, system("Answer in French."))
    out["system message at index 1"] = late_system
    second = copy.deepcopy(ticket)
    second.messages[2].content.append(tool_call("c2", "get_tracking", {"order_id": "SO-48213"}))
    second.messages.append(tool(tool_result("c2", "[]")))
    out["two tool messages in a row"] = second
    unknown = copy.deepcopy(ticket)
    unknown.tools = unknown.tools[1:]
    out["call to an undefined tool"] = unknown
    blank = copy.deepcopy(ticket)
    blank.messages.append(Message("user", [Text("   ")]))
    out["blank text"] = blank
    return out


def _wire_bodies() -> list[tuple[str, str, dict]]:
    """Bodies written by hand: what the neutral form cannot hold."""
    call = {"type": "tool_use", "id": "t1", "name": "search_orders", "input": {}}
    anthropic_model = model("anthropic")
    return [
        (
            "anthropic text before tool_result",
            "anthropic",
            {
                "model": anthropic_model,
                "max_tokens": 100,
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": [call]},
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "also"},
                            {"type": "tool_result", "tool_use_id": "t1", "content": "ok"},
                        ],
                    },
                ],
            },
        ),
        (
            "anthropic input as a string",
            "anthropic",
            {
                "model": anthropic_model,
                "max_tokens": 100,
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": [{**call, "input": "{}"}]},
                    {
                        "role": "user",
                        "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}],
                    },
                ],
            },
        ),
        (
            "anthropic unknown block",
            "anthropic",
            {
                "model": anthropic_model,
                "max_tokens": 100,
                "messages": [{"role": "user", "content": [{"type": "fallback", "text": "x"}]}],
            },
        ),
        (
            "anthropic without max_tokens",
            "anthropic",
            {"model": anthropic_model, "messages": [{"role": "user", "content": "hi"}]},
        ),
        (
            "chat arguments not JSON",
            "openai-chat",
            {
                "model": model("openai-chat"),
                "messages": [
                    {"role": "user", "content": "hi"},
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "c1",
                                "type": "function",
                                "function": {"name": "search_orders", "arguments": '{"a": '},
                            }
                        ],
                    },
                    {"role": "tool", "tool_call_id": "c1", "content": "ok"},
                ],
            },
        ),
        (
            "chat developer message further down",
            "openai-chat",
            {
                "model": model("openai-chat"),
                "messages": [
                    {"role": "user", "content": "hi"},
                    {"role": "developer", "content": "Answer in French."},
                    {"role": "user", "content": "hello?"},
                ],
            },
        ),
        (
            "gemini unknown part, snake_case",
            "gemini",
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "hi"}, {"foo": 1}]},
                ],
                "system_instruction": {"parts": [{"text": "be terse"}]},
            },
        ),
        (
            "gemini system role",
            "gemini",
            {"contents": [{"role": "system", "parts": [{"text": "hi"}]}]},
        ),
        (
            "gemini id-less calls paired by name and order",
            "gemini",
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "hi"}]},
                    {
                        "role": "model",
                        "parts": [
                            {"functionCall": {"name": "search_orders", "args": {"query": "a"}}},
                            {"functionCall": {"name": "search_orders", "args": {"query": "b"}}},
                        ],
                    },
                    {
                        "role": "user",
                        "parts": [
                            {"functionResponse": {"name": "search_orders", "response": {}}},
                            {"functionResponse": {"name": "search_orders", "response": {}}},
                        ],
                    },
                ],
            },
        ),
        (
            "responses orphan output",
            "openai-responses",
            {
                "model": model("openai-responses"),
                "input": [{"type": "function_call_output", "call_id": "c9", "output": "x"}],
            },
        ),
        *[
            (f"gemini system instruction as {', '.join(keys)}", "gemini", _instructed(*keys))
            for keys in (
                ("systemInstruction",),
                ("system_instruction",),
                ("systemInstruction", "system_instruction"),
            )
        ],
    ]


def _instructed(*keys: str) -> dict:
    """A Gemini body whose system instruction is given under each of ``keys``, in order."""
    body: dict = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    for n, key in enumerate(keys):
        body[key] = {"parts": [{"text": f"instruction {n}"}]}
    return body


def _cases() -> list[tuple[str, str, dict]]:
    cases = []
    for name, history in _histories().items():
        for fmt in PROVIDERS:
            request = copy.deepcopy(history)
            request.model = model(fmt)
            try:
                body = render(request, fmt).body
            except Exception:  # a history some format cannot even be written in
                continue
            cases.append((name, fmt, body))
    return cases + _wire_bodies()


PATHS = {
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic": "/v1/messages",
    "gemini": "/v1beta/models/{model}:generateContent",
}


def _local_answer(fmt: str, body: dict) -> routes.Response:
    """What the stand-in answers (its routes, without a socket)."""
    route = routes.find_route(PATHS[fmt].format(model=model(fmt)))
    headers = {"authorization": "Bearer sk-local-test", "content-type": "application/json"}
    if fmt == "anthropic":
        headers["anthropic-version"] = "2023-06-01"
    return routes.answer(route, headers, json.dumps(body).encode(), resolve("echo"))


def _message(response: routes.Response) -> str:
    error = json.loads(response.body).get("error")
    return error.get("message") if isinstance(error, dict) else str(error)


CASES = _cases()


@pytest.mark.parametrize("name, fmt, body", CASES, ids=[f"{c[1]}: {c[0]}" for c in CASES])
def test_check_and_the_local_provider_never_disagree(tmp_path, capsys, name, fmt, body):
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body))
    code = main(["check", str(path), "--profile", fmt])
    out = capsys.readouterr().out
    response = _local_answer(fmt, body)
    assert code in (0, 1), out  # a provider's rule is never "bad input"
    if code == 0:
        assert response.status == 200, _message(response)
    else:
        assert response.status == 400, out
        assert f"{fmt} answers: {_message(response)}" in out or _message(response) in out


def test_the_issue_case_a_system_message_at_index_1_is_accepted_by_every_provider():
    history = _histories()["system message at index 1"]
    for fmt in PROVIDERS:
        request = copy.deepcopy(history)
        request.model = model(fmt)
        result = verdict(render(request, fmt).body, fmt, format=fmt)
        assert result.accepted, (fmt, str(result))
        assert _local_answer(fmt, render(request, fmt).body).status == 200
    assert not verdict(history.to_json(), "portable").accepted  # the portable rule still holds


def test_paths_point_into_the_file_given():
    result = verdict(_wire_bodies()[0][2], "anthropic")
    assert [v.where for v in result.violations] == ["messages[2].content[0]"]
    chat = _wire_bodies()[4][2]
    assert verdict(chat, "portable").violations[0].where == "messages[1].tool_calls[0]"
    body = render(_histories()["result dropped"], "gemini").body
    assert verdict(body, "portable").violations[0].where == "contents[1].parts[1]"


def test_a_body_of_no_known_shape_is_not_a_verdict():
    from helpers.formats import FormatError

    with pytest.raises(FormatError):
        verdict({"foo": 1})


def test_gemini_reads_snake_case_and_keeps_the_schema():
    body = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tools": [
            {
                "function_declarations": [
                    {
                        "name": "lookup",
                        "parameters_json_schema": {
                            "type": "object",
                            "properties": {"user_id": {"type": "string"}},
                        },
                    }
                ]
            }
        ],
    }
    request = verdict(body, "gemini").request
    assert request.tools[0].parameters["properties"] == {"user_id": {"type": "string"}}


# --- what recorded exchanges taught (public cassettes): the types providers take and refuse


def test_block_types_the_provider_takes_are_notes_not_violations():
    anthropic_body = {
        "model": model("anthropic"),
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "compaction", "content": "summary"}]},
            {"role": "user", "content": "go on"},
        ],
    }
    assert verdict(anthropic_body, "anthropic").accepted
    responses_body = {
        "model": model("openai-responses"),
        "input": [{"role": "user", "content": "hi"}, {"type": "tool_search_call", "id": "ts_1"}],
    }
    assert verdict(responses_body, "openai-responses").accepted
    gemini_body = {"contents": [{"role": "model", "parts": [{"toolCall": {}}]}]}
    assert verdict(gemini_body, "gemini").accepted
    refused = {"contents": [{"role": "user", "parts": [{"text": "hi", "mediaResolution": "low"}]}]}
    assert verdict(refused, "gemini").first_error.rule == "unknown-block"


def _reasoning_then(item: dict) -> dict:
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "x"}
    items = [{"role": "user", "content": "hi"}, reasoning, item]
    return {"model": model("openai-responses"), "input": items}


def test_a_reasoning_item_pairs_with_its_following_item_by_id():
    # OpenAI's recorded answers: the item the reasoning produced follows it, with its own id
    for item in (
        {"type": "custom_tool_call", "id": "ctc_1", "call_id": "c1", "name": "sql", "input": "1"},
        {"type": "web_search_call", "id": "ws_1", "status": "completed"},
        {"type": "message", "id": "msg_1", "role": "assistant", "content": "hi"},
        {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "f", "arguments": "{}"},
        {"type": "item_reference", "id": "msg_1"},
    ):
        result = verdict(_reasoning_then(item), "openai-responses")
        assert "reasoning-not-followed" not in {v.rule for v in result.violations}, item
    refused = {
        "an assistant message without its id": {"role": "assistant", "content": "The answer"},
        "a function_call item without its id": {
            "type": "function_call",
            "call_id": "c1",
            "name": "f",
            "arguments": "{}",
        },
        "a user message": {"role": "user", "content": "and?"},
        "a function_call_output item": {"type": "function_call_output", "call_id": "c9"},
    }
    for what, item in refused.items():
        result = verdict(_reasoning_then(item), "openai-responses")
        first = result.first_error
        assert first.rule == "reasoning-not-followed" and first.path == "input[1]", what
        assert what in first.message
        status, envelope = result.response()
        assert status == 400 and envelope["error"]["param"] == "input"
        assert envelope["error"]["message"] == (
            "Item 'rs_1' of type 'reasoning' was provided without its required following item."
        )
    last = {"model": model("openai-responses"), "input": _reasoning_then({})["input"][:2]}
    assert "nothing follows it" in verdict(last, "openai-responses").first_error.message
    # another profile reading the same body does not apply OpenAI's pairing
    assert verdict(_reasoning_then(refused["a user message"]), "portable").accepted


def test_gemini_refuses_one_system_instruction_in_both_spellings(tmp_path, capsys):
    """``systemInstruction`` with ``system_instruction``: the same field set twice, which
    Gemini refuses (Wei-Shaw/sub2api#1045); ``check`` and the stand-in answer it alike,
    in either order, and either spelling alone is read."""
    for keys in (
        ("systemInstruction", "system_instruction"),
        ("system_instruction", "systemInstruction"),
    ):
        body = _instructed(*keys)
        first = verdict(body, "gemini").first_error
        text = f"oneof field '_system_instruction' is already set. Cannot set '{keys[1]}'"
        assert (first.rule, first.where) == ("system-instruction-twice", keys[1])
        assert first.provider_error == f"Invalid value (oneof), {text}"
        response = _local_answer("gemini", body)
        error = json.loads(response.body)["error"]
        assert (response.status, error["status"]) == (400, "INVALID_ARGUMENT")
        assert error["message"] == first.provider_error
        assert error["details"][0]["fieldViolations"] == [{"description": first.provider_error}]
        path = tmp_path / "body.json"
        path.write_text(json.dumps(body))
        assert main(["check", str(path), "--profile", "gemini"]) == 1
        assert first.provider_error in capsys.readouterr().out
    for key in ("systemInstruction", "system_instruction"):
        alone = verdict(_instructed(key), "gemini")
        assert alone.accepted and not alone.violations, str(alone)
        assert alone.request.messages[0].text == "instruction 0"
        assert _local_answer("gemini", _instructed(key)).status == 200


def test_another_field_in_both_spellings_is_a_warning_naming_what_is_read():
    """No public report quotes Gemini's answer to other doubled fields (or a null one): the
    stand-in lets them through, but never drops a value without saying which it read."""
    body = _instructed("systemInstruction")
    body["contents"][0]["parts"] = [
        {"inline_data": {"mime_type": "image/png", "data": "aGk="}},
    ]
    body["contents"][0]["parts"][0]["inlineData"] = {"mimeType": "image/png", "data": "aGk="}
    body["tools"] = [  # a schema's own names are data, not fields: never doubles
        {
            "functionDeclarations": [
                {"name": "f", "parameters": {"properties": {"a_b": {}, "aB": {}}}}
            ]
        }
    ]
    nulled = {**_instructed("system_instruction"), "systemInstruction": None}
    for doubled, where in (
        (body, "contents[0].parts[0].inlineData"),
        (nulled, "systemInstruction"),
    ):
        result = verdict(doubled, "gemini")
        assert result.accepted
        assert [(v.rule, v.severity, v.where) for v in result.violations] == [
            ("field-in-both-spellings", "warning", where)
        ]
        assert f"reads the later one, {where.rsplit('.', 1)[-1]!r}" in result.violations[0].message
        assert _local_answer("gemini", doubled).status == 200


def test_an_empty_tool_calls_list_is_refused_as_openai_refuses_it():
    """Walk c6: an assembler that always writes ``tool_calls`` sends ``[]`` back on a text-only
    turn; OpenAI answers 400 empty_array (openai/openai-python#2061). Absent, it is accepted."""
    said = {"role": "assistant", "content": "Shipped.", "tool_calls": []}
    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Where?"}, said]}
    (v,) = verdict(body, "openai-chat").violations
    assert (v.rule, v.severity, v.path) == ("empty-tool-calls", "error", "messages[1].tool_calls")
    assert v.provider_code == "empty_array" and "messages[1].tool_calls" in v.provider_error
    del said["tool_calls"]
    assert not verdict(body, "openai-chat").violations
