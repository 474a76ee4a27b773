"""Used in lessons: 05.

Tool definitions as the model is believed to see them: a TypeScript-like ``namespace``.

OpenAI does not publish how Chat Completions turns ``tools`` into prompt text. The community
reverse-engineered it from billed ``prompt_tokens`` (hmarr/openai-chat-tokens,
pamelafox/openai-messages-token-helper) and OpenAI's own published gpt-oss format renders tools
the same way::

    namespace functions {

    // Get the current weather in a given location
    type get_current_weather = (_: {
    // The city and state, e.g. San Francisco, CA
    location: string,
    unit?: "celsius" | "fahrenheit",
    }) => any;

    } // namespace functions

An object none of whose properties has a description is written on one line,
``type f = (_: { city: string, days?: number }) => any;`` (nested objects too). Evidence: the
2024 published figures (pamelafox's ``property without description``, ``integer enum``,
``inner object`` cases) and recorded gpt-4o / gpt-4o-mini / gpt-4.1-mini bills (pydantic-ai's
public cassettes, e.g. ``test_temporal_agent_with_model_retry``: 45 billed input tokens) are
all matched this way, and are 1 token per such object short of the one-line-per-property
layout; the 2023 functions-era figures (hmarr) used that layout, and are kept as such.

It is a **model, not a contract**: it reproduces most published API figures exactly
(``tests/published_counts.py`` lists every case, matches and misses), and OpenAI can change
the real rendering at any time.

What it deliberately does not do: render every JSON Schema keyword. ``enum``,
``anyOf``/``oneOf``, type lists, arrays and nested objects are rendered; anything else (``const``,
``$ref``, ``pattern``, ``minimum``, ``default``...) becomes ``any`` or is left out: the published
figures show ``const`` is not rendered (hmarr's ``anyOf`` cases).
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["HEADER", "render_namespace", "render_tool"]

#: Text put before the namespace inside the system message.
HEADER = "# Tools\n\n## functions\n\n"


def _literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else json.dumps(value)


def _type(schema: Any, indent: int) -> str:
    if not isinstance(schema, dict):
        return "any"
    for union in ("anyOf", "oneOf"):
        if isinstance(schema.get(union), list):
            return " | ".join(_type(option, indent) for option in schema[union])
    if isinstance(schema.get("enum"), list):
        return " | ".join(_literal(v) for v in schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(_type({**schema, "type": k}, indent) for k in kind)
    if kind == "string":
        return "string"
    if kind in ("number", "integer"):
        return "number"
    if kind in ("boolean", "null"):
        return kind
    if kind == "array":
        items = schema.get("items")
        return f"{_type(items, indent)}[]" if items is not None else "any[]"
    if kind == "object":
        if not schema.get("properties"):
            return "object"
        if not _described(schema):
            return _inline(schema, indent)
        return "{\n" + _properties(schema, indent + 2) + "\n}"
    return "any"


def _described(schema: dict[str, Any]) -> bool:
    """Whether any property of this object has a comment line of its own (``_comment``)."""
    return any(_comment(p) for p in (schema.get("properties") or {}).values())


def _comment(prop: Any) -> str | None:
    """A property's comment: its description, else its ``title`` (as pydantic writes one).

    Title: recorded gpt-4o bills for a tool whose only property has ``"title": "Password"``
    and no description (Mirascope's ``call_with_tools`` cassettes) are 3 tokens above the
    one-line form, exactly the ``// Password`` line and the one-line-per-property layout.
    """
    if not isinstance(prop, dict):
        return None
    return prop.get("description") or prop.get("title") or None


def _inline(schema: dict[str, Any], indent: int) -> str:
    """An object none of whose properties has a description, on one line: ``{ a: string }``."""
    required = set(schema.get("required") or [])
    fields = [
        f"{name}{'' if name in required else '?'}: {_type(prop, indent)}"
        for name, prop in (schema.get("properties") or {}).items()
    ]
    return "{ " + ", ".join(fields) + " }"


def _properties(schema: dict[str, Any], indent: int) -> str:
    required = set(schema.get("required") or [])
    pad = " " * indent
    lines = []
    for name, prop in (schema.get("properties") or {}).items():
        description = _comment(prop)
        if description:
            lines.append(f"{pad}// {description}")
        mark = "" if name in required else "?"
        lines.append(f"{pad}{name}{mark}: {_type(prop, indent)},")
    return "\n".join(lines)


def render_tool(name: str, description: str, parameters: dict[str, Any] | None) -> str:
    """One tool: its description as a comment, then its type; ends with a blank line."""
    lines = [f"// {description}"] if description else []
    if parameters and parameters.get("properties") and not _described(parameters):
        lines.append(f"type {name} = (_: {_inline(parameters, 0)}) => any;")
    elif parameters and parameters.get("properties"):
        lines += [f"type {name} = (_: {{", _properties(parameters, 0), "}) => any;"]
    else:
        lines.append(f"type {name} = () => any;")
    return "\n".join(lines) + "\n\n"


def render_namespace(tools: list[tuple[str, str, dict[str, Any] | None]]) -> tuple[str, list[int]]:
    """The whole namespace, and where each tool's text starts in it (for the breakdown)."""
    text = "namespace functions {\n\n"
    starts = []
    for name, description, parameters in tools:
        starts.append(len(text))
        text += render_tool(name, description, parameters)
    return text + "} // namespace functions", starts
