"""Used in lessons: 05, 13.

The tools as an OpenAI chat model is shown them: a TypeScript-like ``namespace functions {...}``
(``render_namespace``), one ``type`` per tool with its description as a comment. What it
deliberately does not do: render every JSON Schema keyword (``const``, ``$ref``, ``default``...
become ``any`` or go). The counting rule that places it is ``openai_chat.py``.
"""

from __future__ import annotations

import json
from typing import Any

#: JSON Schema scalar types as TypeScript writes them.
SCALARS = dict(string="string", number="number", integer="number", boolean="boolean", null="null")


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
    if isinstance(kind, str) and kind in SCALARS:
        return SCALARS[kind]
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
    """A property's comment: its description, else its ``title`` (as pydantic writes one)."""
    return (prop.get("description") or prop.get("title")) if isinstance(prop, dict) else None


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
