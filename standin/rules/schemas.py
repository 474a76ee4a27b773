"""Used in lessons: none directly (imported by rules.table).

A tool's parameters must be a valid JSON Schema: OpenAI and Anthropic check it against the
JSON Schema meta-schema before anything else and answer 400 with the tool's place.

OpenAI's words are those of the Python ``jsonschema`` library's meta-schema check, prefixed with
the function's name (``Invalid schema for function 'x': [] is not of type 'object', 'boolean'.``
in FoundationAgents/OpenManus#1162, ``param`` ``tools[2].function.parameters``, ``code``
``invalid_function_parameters``); this module runs the same library on the same meta-schema,
so the detail after the colon is the library's (a mistake no report shows, say a ``type`` of
``"strng"``, gets the library's words). Anthropic answers one fixed sentence naming the tool's
index (anthropics/claude-code#7365). Gemini is not checked: no public report quotes its text.
OpenAI's further rules for ``strict`` schemas are not checked either.
"""

from __future__ import annotations

from typing import Any

from helpers.rules import Finding, Violation, judged
from standin.providers import FORMATS, of

CHECKED = "2026-11-30"
OPENAI = "Invalid schema for function '{name}': {detail}."
ANTHROPIC = (
    "tools.{i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft "
    "2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at "
    "https://docs.anthropic.com/en/docs/tool-use."
)
SOURCES = {
    OPENAI: (
        "FoundationAgents/OpenManus#1162 (\"Invalid schema for function '...': [] is not of "
        "type 'object', 'boolean'.\", code invalid_function_parameters), "
        "bytedance/trae-agent#173 (param tools[2].parameters on Responses); the detail is the "
        "jsonschema library's meta-schema message"
    ),
    ANTHROPIC: "anthropics/claude-code#7365, acomagu/vscode-as-mcp-server#6",
}


_TYPES = {"string", "number", "integer", "boolean", "object", "array", "null"}
#: keyword -> test of its value, for the keywords tool schemas use; a schema made only of these,
#: each passing its test, is valid under the meta-schema (checked without importing jsonschema).
_PLAIN: dict[str, Any] = {
    "type": lambda v: (
        (isinstance(v, str) and v in _TYPES)
        or (
            isinstance(v, list)
            and all(isinstance(x, str) and x in _TYPES for x in v)
            and 0 < len(set(v)) == len(v)
        )
    ),
    "description": lambda v: isinstance(v, str),
    "title": lambda v: isinstance(v, str),
    "required": lambda v: (
        isinstance(v, list) and all(isinstance(x, str) for x in v) and len(set(v)) == len(v)
    ),
    "enum": lambda v: isinstance(v, list),
    "format": lambda v: isinstance(v, str),
    "default": lambda v: True,
    "const": lambda v: True,
    "examples": lambda v: isinstance(v, list),
    "minimum": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "maximum": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "minItems": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "maxItems": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "minLength": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "maxLength": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
}


def _plainly_valid(schema: Any) -> bool:
    """True only when ``schema`` is certainly valid (plain keywords, right value types): the
    common case answered without the library; anything else goes to the meta-schema check."""
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict):
        return False
    for key, value in schema.items():
        if key in ("properties", "$defs"):
            if not isinstance(value, dict) or not all(map(_plainly_valid, value.values())):
                return False
        elif key in ("items", "additionalProperties"):
            if not _plainly_valid(value):
                return False
        elif key in ("anyOf", "oneOf", "allOf"):
            if not isinstance(value, list) or not value or not all(map(_plainly_valid, value)):
                return False
        elif key not in _PLAIN or not _PLAIN[key](value):
            return False
    return True


def schema_error(schema: Any) -> str | None:
    """The meta-schema's first complaint about ``schema`` (draft 2020-12), or None."""
    if _plainly_valid(schema):
        return None
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    validator = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    found = best_match(validator.iter_errors(schema))
    return None if found is None else found.message


def check_schemas(body: dict, fmt: str) -> list[Violation]:
    """The first tool of ``body`` whose parameters are not a valid JSON Schema, located and
    judged under ``fmt``'s own profile (its ``tool_schema`` and ``schema_answer``,
    ``standin/providers/NAME.py``)."""
    tools = body.get("tools") if isinstance(body.get("tools"), list) else []
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict):
            continue
        found = of(fmt).tool_schema(tool, i) if fmt in FORMATS else None
        if found is None:
            continue
        name, where, schema = found
        detail = schema_error({} if schema is None else schema)
        if detail is None:
            continue
        found = Finding(
            "invalid-schema",
            f"the parameters of tool {name!r} are not a valid JSON Schema ({detail})",
        )
        answer = of(fmt).schema_answer(i, name, detail, where)
        return [judged(found, fmt, answer, where)]
    return []
