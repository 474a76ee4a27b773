"""Unknown fields: refused at every level, in each provider's words, by ``check`` and the local
provider alike (one exception: OpenAI Chat accepts and ignores a name no message type has on a
message itself); the lists of known fields are the SDKs' own (regenerated and compared here).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from standin.cli import main
from standin.known_fields import known_betas, sdk_of, unknown_fields
from tests.support.provider_support import KEY, body, post

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("known_fields", ROOT / "scripts/known_fields.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["known_fields_script"] = module
    spec.loader.exec_module(module)
    return module


# --- the lists come from the SDKs ----------------------------------------------------------------


@pytest.mark.parametrize(
    "endpoint, package",
    [
        ("openai-chat", "openai"),
        ("openai-responses", "openai"),
        ("anthropic", "anthropic"),
        ("anthropic-beta", "anthropic"),
        ("gemini", "google.genai"),
    ],
)
def test_the_committed_list_is_what_the_installed_sdk_gives(endpoint, package):
    pytest.importorskip(package, reason=f"{package} is not installed: its list is not regenerated")
    script = _script()
    stored = json.loads(script.TARGET.read_text(encoding="utf-8"))
    fresh = script.generate(stored)
    assert fresh["endpoints"][endpoint]["sdk"] == stored["endpoints"][endpoint]["sdk"], (
        "the installed SDK is not the one the list was read from: python scripts/known_fields.py"
    )
    assert fresh["endpoints"][endpoint] == stored["endpoints"][endpoint]


def test_the_list_names_its_sdk_versions_and_the_pins_match():
    pins = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    for endpoint in ("openai-chat", "openai-responses", "anthropic", "anthropic-beta"):
        assert sdk_of(endpoint) in pins, endpoint
    assert sdk_of("gemini").startswith("google-genai==")
    assert "message-threads-2026-08-12" in known_betas()


# --- check and the stand-in say the same ----------------------------------------------------


def _check(tmp_path, capsys, payload, profile, *extra):
    file = tmp_path / "body.json"
    file.write_text(json.dumps(payload), encoding="utf-8")
    code = main(["check", str(file), "--profile", profile, *extra])
    return code, capsys.readouterr().out


def _chat_with_index():
    payload = body("openai-chat")
    call = {"id": "c1", "type": "function", "index": 0}
    call["function"] = {"name": "search_orders", "arguments": "{}"}
    payload["messages"] += [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "[]"},
    ]
    return payload, len(payload["messages"]) - 2


def test_openai_chat_top_level_and_nested(p, tmp_path, capsys):
    payload = {**body("openai-chat"), "foo": 1}
    code, out = _check(tmp_path, capsys, payload, "openai-chat")
    assert code == 1 and out.startswith("foo: ")
    assert "answers: Unrecognized request argument supplied: foo" in out
    error = post(p, "openai-chat", payload).json()["error"]
    assert error == {
        "message": "Unrecognized request argument supplied: foo",
        "type": "invalid_request_error",
        "param": None,
        "code": None,
    }
    payload, k = _chat_with_index()
    where = f"messages[{k}].tool_calls[0].index"
    code, out = _check(tmp_path, capsys, payload, "openai-chat")
    assert code == 1 and out.startswith(f"{where}: ")
    r = post(p, "openai-chat", payload)
    assert r.status_code == 400
    assert r.json()["error"] == {
        "message": f"Unknown parameter: '{where}'.",
        "type": "invalid_request_error",
        "param": where,
        "code": "unknown_parameter",
    }


def _refused_with(p, tmp_path, capsys, payload, where):
    """``check`` and the stand-in both refuse ``payload`` naming ``where``."""
    code, out = _check(tmp_path, capsys, payload, "openai-chat")
    assert code == 1 and f"answers: Unknown parameter: '{where}'." in out
    r = post(p, "openai-chat", payload)
    assert r.status_code == 400
    assert (r.json()["error"]["param"], r.json()["error"]["code"]) == (where, "unknown_parameter")


def test_openai_chat_takes_and_ignores_an_unknown_field_on_a_message(p, tmp_path, capsys):
    """On a message itself, a name no message type has is accepted (docs/rules.md,
    extra-message-field): check exits 0 with a warning, the stand-in answers 200."""
    payload = body("openai-chat")
    payload["messages"][-1]["provider_specific_fields"] = {"refusal": None}
    payload["messages"][0]["metadata"] = {"client": "ChatClient"}
    code, out = _check(tmp_path, capsys, payload, "openai-chat")
    assert code == 0, out
    for where in ("messages[0].metadata", "messages[1].provider_specific_fields"):
        assert f"warning: {where}: " in out and "[extra-message-field]" in out
    assert "Unknown parameter" not in out
    assert post(p, "openai-chat", payload).status_code == 200


def test_openai_chat_refuses_unknown_fields_below_a_message(p, tmp_path, capsys):
    """In a content part, in a tool call, and a field of another role on a message: refused."""
    part = body("openai-chat")
    part["messages"][-1]["content"] = [
        {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}
    ]
    k = len(part["messages"]) - 1
    _refused_with(p, tmp_path, capsys, part, f"messages[{k}].content[0].cache_control")
    call, k = _chat_with_index()
    call["messages"][k]["provider_specific_fields"] = {"refusal": None}  # accepted: not named
    _refused_with(p, tmp_path, capsys, call, f"messages[{k}].tool_calls[0].index")
    other_role = body("openai-chat")
    other_role["messages"][0]["tool_calls"] = []
    assert other_role["messages"][0]["role"] != "assistant"
    _refused_with(p, tmp_path, capsys, other_role, "messages[0].tool_calls")


def test_openai_responses_unknown_parameter(p, tmp_path, capsys):
    payload = body("openai-responses")
    payload["input"][0]["foo"] = 1
    code, out = _check(tmp_path, capsys, payload, "openai-responses")
    assert code == 1 and "answers: Unknown parameter: 'input[0].foo'." in out
    error = post(p, "openai-responses", payload).json()["error"]
    assert (error["param"], error["code"]) == ("input[0].foo", "unknown_parameter")
    top = post(p, "openai-responses", {**body("openai-responses"), "thinking": {}}).json()
    assert top["error"]["message"] == "Unknown parameter: 'thinking'."


def test_anthropic_extra_inputs_name_the_union_member(p, tmp_path, capsys):
    payload = body("anthropic")
    payload["messages"][0]["name"] = "Init"
    payload["tools"][0]["zzz"] = True
    code, out = _check(tmp_path, capsys, payload, "anthropic")
    assert code == 1 and out.startswith("messages[0].name: ")
    assert "answers: messages.0.name: Extra inputs are not permitted" in out
    assert "tools.0.custom.zzz: Extra inputs are not permitted" in out
    r = post(p, "anthropic", payload)
    assert r.status_code == 400
    assert r.json()["error"] == {
        "type": "invalid_request_error",
        "message": "messages.0.name: Extra inputs are not permitted",
    }
    block = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}, "text": "x"}
    found = unknown_fields({"messages": [{"role": "assistant", "content": [block]}]}, "anthropic")
    assert [u.name for u in found] == ["text"]
    from standin.known_fields import anthropic_path

    assert anthropic_path(found[0]) == "messages.0.content.0.tool_use.text"


THREADS = "message-threads-2026-08-12"


def test_a_beta_the_sdk_knows_opens_its_fields(p, tmp_path, capsys):
    payload = {**body("anthropic"), "thread": {"type": "create"}}
    assert post(p, "anthropic", payload, headers={"anthropic-beta": THREADS}).status_code == 200
    r = post(p, "anthropic", payload)  # without the header: not a field of the API
    assert r.json()["error"]["message"] == "thread: Extra inputs are not permitted"
    code, out = _check(tmp_path, capsys, payload, "anthropic")  # header unknown: a warning
    assert code == 0 and out.startswith("warning: thread: ") and "anthropic-beta" in out
    assert _check(tmp_path, capsys, payload, "anthropic", "--beta", THREADS)[0] == 0
    code, out = _check(tmp_path, capsys, payload, "anthropic", "--beta", "")
    assert code == 1 and "thread: Extra inputs are not permitted" in out


def test_a_beta_the_stand_in_does_not_model_is_a_clear_400(p, tmp_path, capsys):
    headers = {"anthropic-beta": f"{THREADS}, made-up-2099-01-01"}
    r = post(p, "anthropic", body("anthropic"), headers=headers)
    assert r.status_code == 400
    message = r.json()["error"]["message"]
    assert "does not model the beta 'made-up-2099-01-01'" in message and "anthropic==" in message
    code, out = _check(tmp_path, capsys, body("anthropic"), "anthropic", "--beta", "made-up-x")
    assert code == 1 and "[beta-not-modelled]" in out


def _gemini_url(p, version="v1beta"):
    return p.endpoint("gemini", "gemini-2.5-flash").replace("/v1beta/", f"/{version}/")


def _post_gemini(p, payload, version="v1beta"):
    import httpx

    headers = {"x-goog-api-key": KEY}
    return httpx.post(_gemini_url(p, version), json=payload, headers=headers, timeout=10)


def test_gemini_unknown_names_with_field_violations(p, tmp_path, capsys):
    payload = copy.deepcopy(body("gemini"))
    payload["foo"] = 1
    payload["contents"][0]["parts"][0]["bar"] = 2
    code, out = _check(tmp_path, capsys, payload, "gemini")
    assert code == 1
    error = _post_gemini(p, payload).json()["error"]
    top = 'Invalid JSON payload received. Unknown name "foo": Cannot find field.'
    nested = (
        "Invalid JSON payload received. Unknown name \"bar\" at 'contents[0].parts[0]': "
        "Cannot find field."
    )
    assert (error["code"], error["status"]) == (400, "INVALID_ARGUMENT")
    assert error["message"] == f"{nested}\n{top}"  # in the body's order, a line each
    violations = error["details"][0]["fieldViolations"]
    assert violations == [
        {"field": "contents[0].parts[0]", "description": nested},
        {"description": top},  # the top level has no field
    ]
    assert top in out and nested in out


def test_gemini_v1_has_no_system_instruction(p, tmp_path, capsys):
    payload = body("gemini")
    assert "systemInstruction" in payload
    assert _post_gemini(p, payload).status_code == 200
    r = _post_gemini(p, payload, "v1")
    assert r.status_code == 400
    text = 'Invalid JSON payload received. Unknown name "systemInstruction": Cannot find field.'
    assert r.json()["error"]["message"] == text
    url = "https://generativelanguage.googleapis.com/v1/models/gemini-2.5-flash:generateContent"
    code, out = _check(tmp_path, capsys, payload, "gemini", "--url", url)
    assert code == 1 and text in out
    assert _check(tmp_path, capsys, payload, "gemini")[0] == 0


def test_gemini_parameters_take_the_schema_subset_and_json_schema_takes_any(p):
    def declaration(key, schema):
        return {"name": "f", "description": "d", key: schema}

    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string", "const": "x"}},
        "additionalProperties": False,
    }
    payload = body("gemini")
    payload["tools"] = [{"functionDeclarations": [declaration("parameters", schema)]}]
    error = _post_gemini(p, payload).json()["error"]
    where = "tools[0].function_declarations[0].parameters"
    assert [v.get("field") for v in error["details"][0]["fieldViolations"]] == [
        f"{where}.properties[1].value",
        where,
    ]
    assert 'Unknown name "const"' in error["message"]
    payload["tools"] = [{"functionDeclarations": [declaration("parametersJsonSchema", schema)]}]
    assert _post_gemini(p, payload).status_code == 200


def test_every_sdk_request_of_the_lessons_is_known():
    """What the lessons send (the Sundry ticket, rendered) has no unknown field anywhere."""
    from helpers.examples import sundry
    from helpers.formats import render

    for fmt in ("openai-chat", "openai-responses", "anthropic", "gemini"):
        request = sundry.ticket()
        assert unknown_fields(render(request, fmt).body, fmt) == [], fmt


# --- tool_choice ------------------------------------------------------------------------------


def _without_tools(fmt, choice):
    payload = {k: v for k, v in body(fmt).items() if k not in ("tools", "tool_choice")}
    return {**payload, "tool_choice": choice}


@pytest.mark.parametrize(
    "fmt, choice, text",
    [
        (
            "openai-chat",
            "auto",
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are "
            "specified.",
        ),
        (
            "openai-chat",
            {"type": "function", "function": {"name": "nope"}},
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are "
            "specified.",
        ),
        (
            "openai-responses",
            "required",
            "Tool choice 'required' must be specified with 'tools' parameter.",
        ),
        (
            "anthropic",
            {"type": "any"},
            "tool_choice.any may only be specified while providing tools",
        ),
        ("anthropic", {"type": "tool", "name": "nope"}, "Tool 'nope' not found in provided tools"),
    ],
)
def test_tool_choice_without_tools_is_refused(p, tmp_path, capsys, fmt, choice, text):
    payload = _without_tools(fmt, choice)
    code, out = _check(tmp_path, capsys, payload, fmt)
    assert code == 1 and out.startswith("tool_choice")
    assert f"answers: {text}" in out
    r = post(p, fmt, payload)
    assert r.status_code == 400 and r.json()["error"]["message"] == text


@pytest.mark.parametrize(
    "fmt, choice",
    [
        ("openai-responses", "auto"),
        ("anthropic", {"type": "auto"}),
        ("anthropic", {"type": "none"}),
    ],
)
def test_tool_choice_without_tools_that_the_api_accepts(p, fmt, choice):
    assert post(p, fmt, _without_tools(fmt, choice)).status_code == 200


@pytest.mark.parametrize(
    "fmt, choice, text",
    [
        (
            "openai-chat",
            {"type": "function", "function": {"name": "nope"}},
            "Invalid value for 'tool_choice': no function named 'nope' was specified in the "
            "'tools' parameter",
        ),
        (
            "openai-responses",
            {"type": "function", "name": "nope"},
            "Tool choice 'nope' not found in 'tools' parameter.",
        ),
        ("anthropic", {"type": "tool", "name": "nope"}, "Tool 'nope' not found in provided tools"),
    ],
)
def test_tool_choice_must_name_a_declared_tool(p, tmp_path, capsys, fmt, choice, text):
    payload = {**body(fmt), "tool_choice": choice}
    code, out = _check(tmp_path, capsys, payload, fmt)
    assert code == 1 and "[tool-choice-undeclared]" in out and f"answers: {text}" in out
    r = post(p, fmt, payload)
    assert r.status_code == 400 and r.json()["error"]["message"] == text
    declared = body(fmt)["tools"][0]
    name = declared.get("function", declared)["name"]
    forced = json.loads(json.dumps(choice).replace("nope", name))
    assert post(p, fmt, {**body(fmt), "tool_choice": forced}).status_code == 200


def test_gemini_function_calling_config_without_declarations_is_a_warning(tmp_path, capsys):
    """Refused in one public report, accepted in a recorded exchange: a warning that says so."""
    payload = {k: v for k, v in body("gemini").items() if k != "tools"}
    payload["tools"] = [{"googleSearch": {}}]
    payload["toolConfig"] = {"functionCallingConfig": {"mode": "ANY"}}
    code, out = _check(tmp_path, capsys, payload, "gemini")
    assert code == 0 and out.startswith("warning: toolConfig.functionCallingConfig: ")
    assert "Function calling config is set without function_declarations." in out
