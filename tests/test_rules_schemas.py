"""helpers.rules.schemas: a tool whose parameters are no JSON Schema is refused, with the
provider's words and the tool's place, by check and by the local provider alike."""

from __future__ import annotations

import pytest

from helpers.provider import LocalProvider
from helpers.rules.schemas import schema_error
from helpers.verdict import verdict
from tests.provider_support import body, post

BAD = {"type": "object", "properties": {"query": {"type": "strng"}}}


def _with_bad_schema(fmt: str) -> dict:
    payload = body(fmt)
    tool = payload["tools"][1]
    if fmt == "openai-chat":
        tool["function"]["parameters"] = BAD
    elif fmt == "openai-responses":
        tool["parameters"] = BAD
    else:
        tool["input_schema"] = BAD
    return payload


def test_the_meta_schema_names_the_mistake():
    assert schema_error(BAD) == "'strng' is not valid under any of the given schemas"
    assert schema_error([]) == "[] is not of type 'object', 'boolean'"
    assert schema_error({"type": "object", "required": "query"}) == (
        "'query' is not of type 'array'"
    )
    assert schema_error({"type": "object", "properties": {"query": {"type": "string"}}}) is None


@pytest.fixture(scope="module")
def p():
    with LocalProvider("sundry") as provider:
        yield provider


@pytest.mark.parametrize(
    ("fmt", "param", "text"),
    [
        (
            "openai-chat",
            "tools[1].function.parameters",
            "Invalid schema for function '{name}': 'strng' is not valid under any of the given "
            "schemas.",
        ),
        (
            "openai-responses",
            "tools[1].parameters",
            "Invalid schema for function '{name}': 'strng' is not valid under any of the given "
            "schemas.",
        ),
        (
            "anthropic",
            None,
            "tools.1.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft "
            "2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at "
            "https://docs.anthropic.com/en/docs/tool-use.",
        ),
    ],
)
def test_check_and_the_local_provider_refuse_it_alike(p, fmt, param, text):
    payload = _with_bad_schema(fmt)
    tool = payload["tools"][1]
    name = tool.get("name") or tool.get("function", {}).get("name")
    text = text.format(name=name)
    first = verdict(payload, fmt).first_error
    assert (first.rule, first.provider_error) == ("invalid-schema", text)
    assert first.path.startswith("tools[1].")
    r = post(p, fmt, payload)
    assert r.status_code == 400 and r.json()["error"]["message"] == text
    if param:
        assert r.json()["error"]["param"] == param
        assert r.json()["error"]["code"] == "invalid_function_parameters"
    assert post(p, fmt, body(fmt)).status_code == 200  # the same request with a valid schema


def test_gemini_is_not_checked_for_lack_of_a_public_text():
    payload = body("gemini")
    payload["tools"][0]["functionDeclarations"][1]["parameters"] = BAD
    assert "invalid-schema" not in {v.rule for v in verdict(payload, "gemini").violations}
