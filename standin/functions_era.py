"""OpenAI Chat's functions-era messages, read the way the learner's parser reads tool calls;
and the Gemini shapes Google accepts that the learner's parser does not read (``gemini_accepted``).

An assistant ``function_call`` (no id) and a ``role: "function"`` result are deprecated but
still accepted by the API; no lesson teaches them, so ``helpers.formats`` reads only the tools
form. ``parse`` here translates a functions-era body into the tools form first (a call gets the
id ``function_call_{i}``, a result the id of the last call of that name) and then calls
``helpers.formats.parse``, giving the same request, the same notes in the same order and the
same errors as reading those messages directly.
"""

from __future__ import annotations

from typing import Any

from helpers.formats import detect
from helpers.formats import parse as parse_tools_form
from helpers.formats.common import Note, Notes
from helpers.formats.reading import note_unused, obj, string
from helpers.messages import FormatError, Request

#: The keys the functions-era reading used on a message: noted as unused if anything else.
_ERA_KEYS = {"role", "content", "name", "tool_calls", "tool_call_id", "function_call"}
_CALL_NOTE = "a functions-era call (deprecated, no id): a tool call with id {!r}"
_RESULT_NOTE = "a functions-era result (role 'function', deprecated): a tool result"


def _is_era(m: Any) -> bool:
    return isinstance(m, dict) and ("function_call" in m or m.get("role") == "function")


def parse(body: Any, format: str | None = None, *, notes: list[Note] | None = None) -> Request:
    """``helpers.formats.parse``, reading functions-era Chat messages and the Gemini shapes of
    ``gemini_accepted`` too."""
    body = gemini_accepted(body)
    raw = body.get("messages") if isinstance(body, dict) else None
    era = isinstance(raw, list) and any(_is_era(m) for m in raw)
    if not era or (format or detect(body)) != "openai-chat":
        return parse_tools_form(body, format, notes=notes)
    found = Notes()
    try:
        return _parse_era(body, raw, found)
    finally:
        if notes is not None:
            notes.extend(found)


def _parse_era(body: dict, raw: list, found: Notes) -> Request:
    messages: list[Any] = []
    extra: dict[int, tuple[str, Note]] = {}  # message index -> (after what, the era's note)
    calls: dict[str, str] = {}  # functions-era calls not yet answered: name -> made-up id
    for i, m in enumerate(raw):
        try:
            messages.append(_translate(m, i, calls, extra))
        except FormatError:
            if m.get("role") != "function":  # a call: its content and tool calls come first
                skip = ("function_call", "name")
                messages.append({k: v for k, v in m.items() if k not in skip})
            _read({"messages": messages}, extra, found)
            if m.get("role") == "function":
                note_unused(m, _ERA_KEYS, f"messages[{i}]", found)
            raise
    return _read({**body, "messages": messages}, extra, found)


def _read(tools_form: dict, extra: dict[int, tuple[str, Note]], found: Notes) -> Request:
    """Parse the tools form, adding the era's notes of every message the parser got to."""
    read = Notes()
    try:
        return parse_tools_form(tools_form, "openai-chat", notes=read)
    except FormatError as err:
        stop = _failing_message(tools_form["messages"])
        if stop is not None:
            reached = stop if str(err).startswith(f"messages[{stop}].name") else stop - 1
            keep = {
                i: e for i, e in extra.items() if i <= reached or e[0] == "unused" and i == stop
            }
            extra.clear()
            extra.update(keep)
        raise
    finally:
        found.extend(_merged(read, extra))


def _failing_message(messages: list) -> int | None:
    """The first message the parser refuses, or None if the error is in the rest of the body."""
    for j in range(len(messages)):
        try:
            parse_tools_form({"messages": messages[: j + 1]}, "openai-chat")
        except FormatError:
            return j
    return None


def _translate(m: Any, i: int, calls: dict[str, str], extra: dict) -> Any:
    """One message in the tools form (others as they are, without an ignored ``function_call``)."""
    if not isinstance(m, dict):
        return m
    where = f"messages[{i}]"
    if m.get("role") == "function":
        name = string(m.get("name"), f"{where}.name")
        extra[i] = ("unused", Note(where, _RESULT_NOTE))
        out = {k: v for k, v in m.items() if k not in ("name", "function_call", "tool_call_id")}
        return {**out, "role": "tool", "tool_call_id": calls.pop(name, f"function_{name}")}
    out = {k: v for k, v in m.items() if k != "function_call"}
    if m.get("role") != "assistant" or m.get("function_call") is None:
        return out
    at, call_id = f"{where}.function_call", f"function_call_{i}"
    call = obj(m["function_call"], at)
    name = string(call.get("name"), f"{at}.name")
    calls[name] = call_id
    function = {"name": name, "arguments": call.get("arguments", "")}
    tool_calls = m.get("tool_calls")
    tool_calls = tool_calls if isinstance(tool_calls, list) else [] if tool_calls is None else None
    if tool_calls is None:  # not a list: the parser refuses it before reaching the call
        return out
    k = len(tool_calls)
    out["tool_calls"] = [*tool_calls, {"id": call_id, "type": "function", "function": function}]
    extra[i] = (f"{where}.tool_calls[{k}]", Note(at, _CALL_NOTE.format(call_id)))
    return out


def _notes_before_error(body: dict, messages: list, m: Any, i: int, found: Notes) -> None:
    """The notes the parser makes before a functions-era message it refuses: those of the
    messages before it, its unused keys, and (a call) those of its content and tool calls."""
    before = {"messages": messages}
    if m.get("role") != "function":
        before["messages"] = [*messages, {k: v for k, v in m.items() if k != "function_call"}]
    read = Notes()
    try:
        parse_tools_form(before, "openai-chat", notes=read)
    finally:
        found.extend(n for n in read if n.where.startswith("messages"))
    if m.get("role") == "function":
        note_unused(m, _ERA_KEYS, f"messages[{i}]", found)


def _index(note: Note) -> int | None:
    head = note.where.removeprefix("messages[")
    number = head.split("]")[0]
    return int(number) if head != note.where and number.isdigit() else None


def _unused_key(note: Note, index: int) -> bool:
    """A note on a key of message ``index`` itself that the parser does not read."""
    key = note.where.removeprefix(f"messages[{index}].")
    unread = note.message == "has no place in the neutral request"
    return unread and key != note.where and "." not in key and "[" not in key


def _merged(read: Notes, extra: dict[int, tuple[str, Note]]) -> list[Note]:
    """The parser's notes with the functions-era ones where reading them directly puts them:
    a result's after its unused keys, a call's after its message's notes (its path renamed)."""
    out: list[Note] = []
    pending = dict(sorted(extra.items()))
    for note in read:
        index = _index(note)
        for i in [i for i in pending if index is None or i < index]:
            out.append(pending.pop(i)[1])
        if index in pending:
            after, era = pending[index]
            if after == "unused" and not _unused_key(note, index):
                out.append(pending.pop(index)[1])
            elif after != "unused" and note.where == after:
                note = Note(era.where, note.message, note.rule)
        out.append(note)
    return out + [note for _, note in pending.values()]


def gemini_accepted(body: Any) -> Any:
    """A Gemini body (it has ``contents``) in the shape ``helpers.formats`` reads, where Google
    accepts another: a function declaration's ``null`` field is absent (proto3 JSON reads null
    as the field's default), ``parts`` given as one object is a list of that one part (recorded
    bills; docs/rules.md). Any other body is returned as it is, never changed in place."""
    if not isinstance(body, dict) or not isinstance(body.get("contents"), list):
        return body
    body = {**body, "contents": [_listed_parts(c) for c in body["contents"]]}
    if isinstance(body.get("systemInstruction"), dict):
        body["systemInstruction"] = _listed_parts(body["systemInstruction"])
    if isinstance(body.get("tools"), list):
        body["tools"] = [_no_null_declarations(t) for t in body["tools"]]
    return body


def _listed_parts(content: Any) -> Any:
    parts = content.get("parts") if isinstance(content, dict) else None
    return {**content, "parts": [parts]} if isinstance(parts, dict) else content


def _no_null_declarations(tool: Any) -> Any:
    for key in ("functionDeclarations", "function_declarations"):
        found = tool.get(key) if isinstance(tool, dict) else None
        if isinstance(found, list):
            clean = [
                {k: v for k, v in d.items() if v is not None} if isinstance(d, dict) else d
                for d in found
            ]
            tool = {**tool, key: clean}
    return tool
