"""A format the prompt states, read so the general model can follow it (``general``).

Frameworks ask for a format in the prompt's own words rather than in an API field. The rule,
tried in this order on the system texts and the last user text (at most ``_SCAN`` characters
of each, at most ``_TRIES`` JSON objects tried per text):

1. *DSPy field markers.* A text saying "Respond with the corresponding output fields, starting
   with the field `[[ ## a ## ]]`, then `[[ ## b ## ]]` ..." (DSPy's ChatAdapter; its older
   form names the fields without markers) asks for those fields, each after its marker, ending
   with ``[[ ## completed ## ]]``. :func:`dspy_fields` gives ``[(name, type note)]``. "Respond
   with a JSON object in the following order of fields: `a`, then `b`" (its JSONAdapter) asks
   for the same fields as the keys of one JSON object.
2. *JSON.* A text that says "JSON" and holds a JSON object (in a code fence or not): an object
   with ``properties``, ``$schema`` or ``$defs`` is a JSON Schema, any other object is an
   example, read as the schema of its keys and value types (:func:`stated_schema`).
3. *XML tags.* A text naming a tag to answer in ("in <answer> tags", "<answer>...</answer>
   tags") asks for the answer inside that tag (:func:`stated_tag`).

What it does not do: read prose descriptions of a format ("answer in three bullet points"),
or a schema given only as a Python class. A format it cannot fill is not followed (the plain
answer is given instead): the prompt's format is a request to the model, not to the API.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

__all__ = ["dspy_fields", "dspy_tools", "example_schema", "stated_schema", "stated_tag"]

#: Characters of one text that are read, and JSON objects tried in it (bounded work).
_SCAN = 200_000
_TRIES = 50

_RESPOND = re.compile(r"Respond with the corresponding output fields, starting with the field ")
_RESPOND_JSON = re.compile(r"Respond with a JSON object in the following order of fields: ")
_FIELD = re.compile(r"`(?:\[\[ ## )?(\w+)(?: ## \]\])?`([^`]*?)(?=, then |, and then |$)")
_TAG = re.compile(r"<([A-Za-z][\w-]{0,40})>(?:[^<\n]{0,40}</\1>)?\s+tags?\b")
# every repeat bounded, so a text of many unclosed "<desc>" costs linear time
_DSPY_TOOL = re.compile(
    r"\(\d+\) (\w+), whose description is <desc>([^<]{0,4000})</desc>\.?[ \t]*"
    r"It takes arguments (\{[^\n]{0,4000}\})"
)


def dspy_fields(text: str, json: bool = False) -> list[tuple[str, str]]:
    """The output fields a DSPy prompt asks for, with the note after each (``(must be
    formatted as a valid Python Literal['a', 'b'])``); empty when the text asks for none.
    ``json``: the fields its JSONAdapter asks for as one JSON object ("Respond with a JSON
    object in the following order of fields: `a`, then `b`")."""
    found = (_RESPOND_JSON if json else _RESPOND).search(text[:_SCAN])
    if found is None:
        return []
    sentence = text[found.end() : found.end() + 4000].split("\n", 1)[0]
    fields = [(m.group(1), m.group(2).strip()) for m in _FIELD.finditer(sentence)]
    return [(name, note) for name, note in fields if name != "completed"]


def dspy_tools(text: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """DSPy ReAct's tool list in the system text: ``name -> (description, argument schemas)``."""
    tools = {}
    for m in _DSPY_TOOL.finditer(text[:_SCAN]):
        tools[m.group(1)] = (m.group(2), _literal(m.group(3)))
    return tools


def _literal(text: str) -> dict[str, Any]:
    """A dict written as JSON or as a Python literal; ``{}`` when it is neither."""
    for read in (json.loads, ast.literal_eval):
        try:
            value = read(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        return value if isinstance(value, dict) else {}
    return {}


def _objects(text: str) -> list[dict[str, Any]]:
    """The JSON objects written in ``text``, in order (the first ``_TRIES`` tried)."""
    decoder, found, at, tries = json.JSONDecoder(), [], 0, 0
    text = text[:_SCAN]
    while tries < _TRIES:
        at = text.find("{", at)
        if at < 0:
            break
        tries += 1
        try:
            value, end = decoder.raw_decode(text, at)
        except (ValueError, RecursionError):
            at += 1
            continue
        if isinstance(value, dict) and value:
            found.append(value)
        at = end
    return found


def _is_schema(value: dict[str, Any]) -> bool:
    return isinstance(value.get("properties"), dict) or "$schema" in value or "$defs" in value


def example_schema(example: Any) -> dict[str, Any]:
    """The JSON Schema of an example value: its keys required, each value's type kept."""
    if isinstance(example, dict):
        properties = {str(k): example_schema(v) for k, v in example.items()}
        return {"type": "object", "properties": properties, "required": list(properties)}
    if isinstance(example, list):
        return {"type": "array", "items": example_schema(example[0]) if example else {}}
    if isinstance(example, bool):
        return {"type": "boolean"}
    if isinstance(example, int):
        return {"type": "integer"}
    if isinstance(example, float):
        return {"type": "number"}
    return {"type": "string"}


def stated_schema(texts: list[str]) -> dict[str, Any] | None:
    """The schema of the JSON a text asks for (rule 2), the last text first; else None."""
    for text in reversed(texts):
        if "json" not in text[:_SCAN].lower():
            continue
        objects = _objects(text)
        schemas = [o for o in objects if _is_schema(o)]
        if schemas:
            return schemas[0]
        if objects:
            return example_schema(objects[0])
    return None


def stated_tag(texts: list[str]) -> str | None:
    """The XML tag a text asks the answer to be in (rule 3), the last text first; else None."""
    for text in reversed(texts):
        found = _TAG.search(text[:_SCAN])
        if found:
            return found.group(1)
    return None
