"""Limits and shape checks for input from outside: a file given to the command line, a body
sent to the stand-in. Checked before any work, each failure naming the place.

- ``loads``: strict JSON (no ``NaN``/``Infinity``), integers of at most ``MAX_INT_DIGITS``
  digits, then ``check_value``;
- ``check_value``: nesting at most ``MAX_DEPTH`` deep, no lone surrogate (``"\\ud800"`` decodes
  to a string no UTF-8 encoder accepts, so printing or forwarding it would crash);
- ``tool_problem``: a tool whose name, description or schema has a type the counting and
  rendering code cannot work on.

The real APIs refuse all of these too; the limits are far above any real request (the deepest
JSON Schema of the series nests 6 levels; token counts have at most 10 digits).
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "InputError",
    "check_value",
    "loads",
    "tool_problem",
]

MAX_DEPTH = 100
MAX_INT_DIGITS = 30
_SURROGATE = re.compile("[\\ud800-\\udfff]")
_LONG_INT = re.compile(rf"-?\d{{{MAX_INT_DIGITS + 1},}}")


class InputError(ValueError):
    """Input over a limit or of the wrong shape; the message names the place."""


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise InputError(f"an integer of {digits} digits is refused (limit {MAX_INT_DIGITS})")
    return int(text)


def _constant(name: str) -> Any:
    raise InputError(f"{name} is not a JSON value (JSON has no NaN or Infinity)")


def loads(text: str | bytes, name: str = "the input") -> Any:
    """Parse JSON with the limits above; ``json.JSONDecodeError`` for text that is not JSON,
    :class:`InputError` (naming ``name`` and the line) for JSON over a limit."""
    try:
        value = json.loads(text, parse_int=_int, parse_constant=_constant)
    except InputError as err:
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        found = _LONG_INT.search(text)
        line = f" (line {text.count(chr(10), 0, found.start()) + 1})" if found else ""
        raise InputError(f"{name}{line}: {err}") from None
    except RecursionError:
        raise InputError(f"{name}: nested deeper than {MAX_DEPTH} levels") from None
    check_value(value, name)
    return value


def check_value(value: Any, name: str = "the input") -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` and lone surrogates, naming the JSON path."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        node, at, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InputError(f"{name}: nested deeper than {MAX_DEPTH} levels at {at or 'top'}")
        if isinstance(node, dict):
            for key, item in node.items():
                if isinstance(key, str) and _SURROGATE.search(key):
                    raise InputError(f"{name}: a key at {at or 'top'} holds a lone surrogate")
                stack.append((item, f"{at}.{key}" if at else str(key), depth + 1))
        elif isinstance(node, list):
            stack.extend((item, f"{at}[{i}]", depth + 1) for i, item in enumerate(node))
        elif isinstance(node, str) and _SURROGATE.search(node):
            raise InputError(f"{name}: {at or 'the value'} holds a lone surrogate (not Unicode)")


def tool_problem(tool: Any) -> str | None:
    """What is wrong with a parsed tool's types (``None`` when nothing is), field named."""
    if not isinstance(tool.name, str) or not tool.name:
        return "name: expected a non-empty string"
    if not isinstance(tool.description, str):
        return f"description: expected a string, got {type(tool.description).__name__}"
    schema = tool.parameters
    if not isinstance(schema, dict):
        return f"parameters: expected an object, got {type(schema).__name__}"
    return _schema_problem(schema)


def _schema_problem(schema: dict) -> str | None:
    """The first subschema whose ``properties`` or ``required`` has the wrong type, walking
    only schema positions (a property may well be *named* ``required``)."""
    stack: list[tuple[Any, str]] = [(schema, "parameters")]
    while stack:
        node, at = stack.pop()
        if not isinstance(node, dict):
            continue
        properties = node.get("properties", {})
        if not isinstance(properties, dict) or not all(
            isinstance(v, dict | bool) for v in properties.values()
        ):
            return f"{at}.properties: expected an object of schemas"
        required = node.get("required", [])
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            return f"{at}.required: expected a list of strings"
        stack += [(v, f"{at}.properties.{k}") for k, v in properties.items()]
        for key in ("items", "additionalProperties", "not"):
            items = node.get(key)
            if isinstance(items, list):
                stack += [(v, f"{at}.{key}[{i}]") for i, v in enumerate(items)]
            else:
                stack.append((items, f"{at}.{key}"))
        for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            if isinstance(node.get(key), list):
                stack += [(v, f"{at}.{key}[{i}]") for i, v in enumerate(node[key])]
        for key in ("$defs", "definitions"):
            if isinstance(node.get(key), dict):
                stack += [(v, f"{at}.{key}.{k}") for k, v in node[key].items()]
    return None
