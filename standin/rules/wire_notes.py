"""Used in lessons: none directly (imported by verdict).

Rules a parser does not read, found in the body: ``wire_notes(body, fmt, notes)`` adds their
notes to the parser's, where a parser reading them would have said them (the first error is the
provider's answer, so the order is the body's). Chat: an image outside a user message
(``image-not-user``), an assistant message's empty ``tool_calls`` list
(``empty-tool-calls``); Anthropic: a block before the ``tool_result`` blocks of a user turn
(``results-not-first``); Gemini: a role it lacks (``unknown-role``), a field a part lacks
(``unknown-block``). When the parser stopped at an error, ``until`` is the error's path: only
the notes before it are put in.
"""

from __future__ import annotations

import re
from typing import Any

from helpers.formats import Note
from helpers.formats.gemini_render import PART_FIELDS, camel
from standin.providers import FORMATS, of

_LAST = (float("inf"),)
_SYSTEM_TEXT_ONLY = "a system message holds text only"  # helpers.formats.gemini_parse's note
#: The block types ``helpers.formats.anthropic_parse`` reads (the others it drops).
_READ = ("text", "image", "tool_use", "tool_result", "thinking", "redacted_thinking")


def wire_notes(body: dict, fmt: str, notes: list[Note], until: str | None = None) -> list[Note]:
    """``notes`` with the wire rules' notes put in, each before the first note that comes after
    it in the body."""
    own = of(fmt) if fmt in FORMATS else None
    found = own.wire_notes() if own else None  # its finder and locator, below
    if found is None:
        return list(notes)
    finder, key_of = found
    if own.TWO_SPELLINGS:
        body = camel(body)
    keyed = [(key_of(note.where, body, note.message), note) for note in notes]
    stop = _LAST if until is None else key_of(until, body, "")
    for key, note in finder(body):
        if key >= stop:
            continue
        at = next((n for n, (k, _) in enumerate(keyed) if k > key), len(keyed))
        keyed.insert(at, (key, note))
    return [note for _, note in keyed]


def _index(pattern: str, where: str) -> tuple[int, str] | None:
    found = re.match(pattern, where)
    return (int(found.group(1)), where[found.end() :]) if found else None


def _dicts(items: Any) -> list[tuple[int, dict]]:
    """The objects of a list with their indices (a body that stopped the parser may hold
    anything)."""
    items = items if isinstance(items, list) else []
    return [(k, item) for k, item in enumerate(items) if isinstance(item, dict)]


# --- OpenAI Chat: an image part in a message that is not the user's -------------------------


def chat_key(where: str, body: dict, message: str) -> tuple:
    """A note's place in reading order: in a tool message the image notes come first, in any
    other after its content and before its calls."""
    found = _index(r"messages\[(\d+)\]", where)
    if found is None:
        return _LAST
    i, rest = found
    if dict(_dicts(body.get("messages"))).get(i, {}).get("role") in ("tool", "function"):
        return (i, 2 if rest in ("", ".name") or rest.startswith(".content") else 0)
    return (i, 2 if rest.startswith((".tool_calls", ".function_call")) else 0)


def chat_images(body: dict) -> list[tuple[tuple, Note]]:
    out = []
    for i, m in _dicts(body.get("messages")):
        if m.get("role") == "user":
            continue
        said = f"an image in a {m.get('role')} message (Chat takes them in user messages)"
        for k, part in _dicts(m.get("content")):
            if part.get("type") == "image_url":
                out.append(((i, 1), Note(f"messages[{i}].content[{k}]", said, "image-not-user")))
        if m.get("role") == "assistant" and m.get("tool_calls") == []:
            said = "an empty tool_calls list (leave the key out when no tool is called)"
            out.append(((i, 2), Note(f"messages[{i}].tool_calls", said, "empty-tool-calls")))
    return out


# --- Anthropic: text before the tool results of one user turn --------------------------------


def anthropic_key(where: str, body: dict, message: str) -> tuple:
    found = _index(r"messages\[(\d+)\]", where)
    if found is None:
        return (-1,) if where.startswith("system") else _LAST
    return (found[0], 0)


def anthropic_results(body: dict) -> list[tuple[tuple, Note]]:
    out = []
    for i, m in _dicts(body.get("messages")):
        if m.get("role") != "user":
            continue
        read = [(k, b["type"]) for k, b in _dicts(m.get("content")) if b.get("type") in _READ]
        is_result = [kind == "tool_result" for _, kind in read]
        if False in is_result and True in is_result[is_result.index(False) :]:
            first = read[is_result.index(False)][0]
            message = "a block before a tool_result in this user turn: results must come first"
            out.append(
                ((i, 1), Note(f"messages[{i}].content[{first}]", message, "results-not-first"))
            )
    return out


# --- Gemini: a role it lacks, a field a part lacks -------------------------------------------


def gemini_key(where: str, body: dict, message: str) -> tuple:
    """A note's place in reading order: a part's unknown field is named before its other notes;
    what a system instruction holds besides text, after all its parts."""
    if message == _SYSTEM_TEXT_ONLY:
        return (-1, 2)
    found = _index(r"contents\[(\d+)\]", where)
    if found is None and where.startswith("systemInstruction"):
        found = (-1, where[len("systemInstruction") :])
    if found is None:
        return _LAST
    i, rest = found
    part = _index(r"\.parts\[(\d+)\]", rest)
    return (i, 1) if part is None else (i, 1, part[0], 1)


def gemini_fields(body: dict) -> list[tuple[tuple, Note]]:
    out = []
    system = body.get("systemInstruction")
    places = [(-1, "systemInstruction", system)] if isinstance(system, dict) else []
    for i, content in _dicts(body.get("contents")):
        role = content.get("role", "user")
        if role not in ("user", "model", "function"):
            message = f"role {role!r} is not a Gemini role (user or model); read as user"
            out.append(((i, 0), Note(f"contents[{i}].role", message, "unknown-role")))
        places.append((i, f"contents[{i}]", content))
    for i, where, content in places:
        for k, part in _dicts(content.get("parts")):
            unknown = sorted(set(part) - PART_FIELDS)
            if unknown:
                message = f"{unknown[0]!r} is not a field of a Gemini part"
                out.append(((i, 1, k, 0), Note(f"{where}.parts[{k}]", message, "unknown-block")))
    return sorted(out, key=lambda found: found[0])
