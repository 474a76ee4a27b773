"""Used in lessons: 05.

Tool definitions as the model is believed to see them: a TypeScript-like ``namespace``.

``render_namespace(tools)`` writes ``namespace functions { ... }``: each tool's description as a
``//`` comment, then ``type name = (_: { param: type, ... }) => any;``, on one line when no
property is described (the community's reverse-engineered rendering, which OpenAI's published
gpt-oss format shares; the recorded bills behind it: ``docs/evidence.md``, "Counting").
``tool_parts`` says which part of each definition costs what: description, name line, parameters.

What it deliberately does not do: render every JSON Schema keyword (``enum``, unions, arrays and
nested objects are rendered; ``const``, ``$ref``, ``default``... become ``any`` or are left out).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from helpers.messages import Tool
from helpers.models import ModelInfo, info_for
from helpers.tokens.encodings import encoding_name, split_at

__all__ = ["HEADER", "ToolParts", "render_namespace", "render_tool", "tool_parts"]

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
    """A property's comment: its description, else its ``title`` (as pydantic writes one)."""
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


@dataclass
class ToolParts:
    name: str
    description: int
    signature: int  # the "type name = (_: {" line: the name plus TypeScript syntax
    parameters: int  # parameter descriptions, names, types, optional marks, closing
    estimate: bool = False

    @property
    def total(self) -> int:
        return self.description + self.signature + self.parameters


def tool_parts(tools: list[Tool], model: str | ModelInfo) -> tuple[list[ToolParts], int]:
    """Per tool, its tokens by part; and the tokens of the namespace framing around them.

    The namespace is encoded once and each token given to the part it starts in
    (``split_at``), so the parts add up to the namespace's tokens. Exact only for a model
    whose tokenizer is public; otherwise the ``PROXY``, and ``estimate`` is True.
    """
    info = info_for(model)
    text, starts = render_namespace([(t.name, t.description, t.parameters) for t in tools])
    cuts = []  # for each tool: where its description, its name line and its parameters start
    for tool, start in zip(tools, starts, strict=True):
        signature = start + (len(f"// {tool.description}\n") if tool.description else 0)
        cuts += [start, signature, text.index("\n", signature) + 1]
    groups = split_at(encoding_name(info), text, [*cuts, text.rindex("} // ")])
    parts = [
        ToolParts(t.name, *(len(g) for g in groups[1 + 3 * i : 4 + 3 * i]), info.encoding is None)
        for i, t in enumerate(tools)
    ]
    return parts, len(groups[0]) + len(groups[-1])
