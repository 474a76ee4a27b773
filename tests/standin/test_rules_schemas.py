"""standin.rules.schemas: a tool whose parameters are no JSON Schema is refused, with the
provider's words and the tool's place, by check and by the stand-in alike."""

from __future__ import annotations

import pytest

from standin.rules.schemas import schema_error
from standin.verdict import verdict
from tests.support.provider_support import body, post

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


def test_the_fast_path_only_passes_what_the_meta_schema_passes():
    """``_plainly_valid`` answers the common case without importing jsonschema: it may send a
    valid schema to the library, never pass an invalid one."""
    import json
    from pathlib import Path

    from jsonschema import Draft202012Validator as V

    from standin.rules.schemas import _plainly_valid

    schemas = [BAD, [], {"type": []}, {"required": ["a", "a"]}, {"properties": {"a": 1}}]
    schemas += [{"anyOf": []}, {"minItems": -1}, {"type": ["string", "nope"]}, True, {}]
    schemas += [{"type": ["string", "string"]}, {"type": [{"a": 1}]}]
    for path in Path("data").rglob("*.json"):
        stack = [json.loads(path.read_text(encoding="utf-8"))]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                schemas += [node[k] for k in ("parameters", "input_schema") if k in node]
                stack += node.values()
            elif isinstance(node, list):
                stack += node
    assert len(schemas) > 30
    for schema in schemas:
        valid = not list(V(V.META_SCHEMA).iter_errors(schema))
        assert valid or not _plainly_valid(schema), schema
        assert schema_error(schema) is None if valid else schema_error(schema), schema
