"""Used in lessons: none directly (the verdict applies it; rows in rules.table).

One Gemini field given in both spellings at one level: ``systemInstruction`` and
``system_instruction`` in the same object.

Gemini reads a body with protobuf's JSON mapping, which takes a field's camelCase name and its
proto name alike: both name the *same* field. ``helpers.formats``' Gemini parser reads every name
in camelCase (``camel``), so of two spellings it keeps the later value and drops the other
without a word. ``check_spellings`` says what Gemini does instead:

- ``system-instruction-twice`` (refused): both spellings of the top-level system instruction,
  neither null. Gemini refuses it, 400 ``INVALID_ARGUMENT``: the field is a proto3 ``optional``,
  that is a one-field ``oneof`` (``_system_instruction``), and a ``oneof`` set twice is an error
  (``TEXT``; evidence in ``SOURCE``);
- ``field-in-both-spellings`` (a warning): any other field so given, or a pair one of whose
  values is null. No public report quotes Gemini's answer to those, so the request is let
  through, and the warning says which value the stand-in reads (the later one).

Data the body carries as values (a call's ``args``, a schema: ``OPAQUE``) is not looked into:
its names are the caller's, not fields.
"""

from __future__ import annotations

from typing import Any

from helpers.formats.gemini_render import OPAQUE, camel_name
from helpers.rules import Answer, Finding, Violation, judged
from standin.providers import of

__all__ = ["CHECKED", "SOURCE", "TEXT", "UNKNOWN_ANSWER", "check_spellings"]

CHECKED = "2026-12-07"
#: Gemini's answer; ``{name}`` is the spelling given second, as the body spells it.
TEXT = (
    "Invalid value (oneof), oneof field '_system_instruction' is already set. Cannot set '{name}'"
)
SOURCE = (
    "Wei-Shaw/sub2api#1045 (2026-03-16) and BerriAI/litellm#37028 (2026-08-15) quote it, 400 "
    "INVALID_ARGUMENT, as 'Invalid value at 'request' (oneof), oneof field "
    "'_system_instruction' is already set. Cannot set 'system_instruction'', passed on by "
    "proxies that wrap the body in a 'request' field; sent straight to generateContent the "
    "body is the request itself, so the text leaves out the ' at ...' part, as Gemini's "
    "top-level 'Unknown name' text does (inferred: no report quotes a first-party answer). The "
    "name is the spelling given second, as written (google/protobuf "
    "protostream_objectwriter_test.cc: 'oneof field 'data' is already set. Cannot set "
    "'intData'')"
)
UNKNOWN_ANSWER = (
    "a field other than systemInstruction in both spellings, or one of the two null: no public "
    "report quotes Gemini's answer (searched 2026-12-07), so a warning that names the value the "
    "stand-in reads (the later one)"
)


def check_spellings(body: dict, fmt: str, profile: str) -> list[Violation]:
    """Each field of a Gemini ``body`` given in both spellings at one level, located; nothing
    for another format. It reports; it does not choose a value or change the body."""
    if not of(fmt).TWO_SPELLINGS:
        return []
    out = []
    for where, holder, keys in _doubles(body, ""):
        first, second = keys[0], keys[-1]
        name = camel_name(first)
        path = f"{where}.{second}" if where else second
        set_twice = holder[first] is not None and holder[second] is not None
        if not where and name == "systemInstruction" and set_twice:
            found = Finding(
                "system-instruction-twice",
                f"{first!r} and {second!r} both set the system instruction: Gemini reads both "
                "spellings as one field and refuses it set twice; send one of them",
            )
            out.append(judged(found, profile, Answer(TEXT.format(name=second)), path))
            continue
        found = Finding(
            "field-in-both-spellings",
            f"{first!r} and {second!r} name one field ({name}); Gemini's answer to both is not "
            f"published, and the stand-in reads the later one, {second!r}, and drops the other: "
            "send one of them",
        )
        out.append(judged(found, profile, None, path))
    return out


def _doubles(node: Any, where: str) -> list[tuple[str, dict, list[str]]]:
    """``(path, object, its keys naming one field)`` for each field given more than once."""
    out: list[tuple[str, dict, list[str]]] = []
    if isinstance(node, list):
        for i, item in enumerate(node):
            out += _doubles(item, f"{where}[{i}]")
        return out
    if not isinstance(node, dict):
        return out
    names: dict[str, list[str]] = {}
    for key in node:
        if isinstance(key, str):
            names.setdefault(camel_name(key), []).append(key)
    out += [(where, node, keys) for keys in names.values() if len(keys) > 1]
    for key, value in node.items():
        if isinstance(key, str) and camel_name(key) not in OPAQUE:
            out += _doubles(value, f"{where}.{key}" if where else key)
    return out
