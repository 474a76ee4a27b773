"""Used in lessons: none directly (imported by formats.gemini).

Gemini ``generateContent`` -> neutral: read a request body or a ``GenerateContentResponse`` back.

Calls without an ``id`` get a deterministic one (``gemini_noid_...``, with a Note) and responses
pair with them by name and order. Fields the neutral model has no place for are named in a
``Note``. The other direction is ``render.py``.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from helpers.formats.common import (
    Notes,
    array,
    count,
    json_text,
    limit,
    note_unused,
    obj,
    string,
)
from helpers.formats.gemini.render import NO_ID, PROVIDER
from helpers.formats.gemini.spelling import PART_FIELDS, camel
from helpers.messages import (
    FormatError,
    Image,
    Message,
    Reasoning,
    Request,
    Text,
    Tool,
    ToolCall,
    ToolResult,
)
from helpers.replies import Reply, StopReason, Usage

# --- Gemini -> neutral ----------------------------------------------------------------------


def _result(response: dict, call_id: str, where: str, notes: Notes) -> ToolResult:
    payload = response.get("response")
    if not isinstance(payload, dict):
        raise FormatError(f"{where}.functionResponse.response: expected an object")
    key = "error" if "error" in payload else "output" if "output" in payload else None
    if key is None:
        notes.add(where, "response has neither 'output' nor 'error'; the whole object is the text")
        text = json_text(payload)
    else:
        note_unused(payload, {key}, f"{where}.functionResponse.response", notes)
        text = json_text(payload[key])
    content: list[Text | Image] = [Text(text)]
    parts = array(response.get("parts"), f"{where}.functionResponse.parts")
    for k, part in enumerate(parts):
        at = f"{where}.functionResponse.parts[{k}]"
        image = _read_image(obj(part, at), at, notes)
        if image is not None:
            content.append(image)
    return ToolResult(call_id, content, is_error=key == "error")


def _read_image(part: dict, where: str, notes: Notes) -> Image | None:
    if "inlineData" in part:
        blob = obj(part["inlineData"], f"{where}.inlineData")
        mime = string(blob.get("mimeType"), f"{where}.inlineData.mimeType")
        return Image(mime, data=string(blob.get("data"), f"{where}.inlineData.data"))
    if "fileData" in part:
        ref = obj(part["fileData"], f"{where}.fileData")
        mime = string(ref.get("mimeType", "image/png"), f"{where}.fileData.mimeType")
        return Image(mime, url=string(ref.get("fileUri"), f"{where}.fileData.fileUri"))
    if not set(part) - PART_FIELDS:  # unknown fields are named by _read_part
        notes.add(where, f"part with {sorted(part)} has no neutral block; dropped")
    return None


def read_parts(parts: list, where: str, pending: list[ToolCall], notes: Notes, stem: str) -> list:
    """Neutral blocks for one content's parts. ``pending`` holds calls not yet answered;
    an id-less call at part ``k`` gets the id ``gemini_noid_{stem}_{k}``."""
    blocks: list = []
    for k, part in enumerate(array(parts, f"{where}.parts")):
        at = f"{where}.parts[{k}]"
        block = _read_part(part, at, k, pending, notes, stem)
        if block is not None:
            blocks.append(notes.mark(block, at))
    return blocks


def _read_part(part: Any, at: str, k: int, pending: list[ToolCall], notes: Notes, stem: str):
    """One part as a neutral block, or None (with a note) when it has none."""
    unknown = sorted(set(obj(part, at)) - PART_FIELDS)
    if unknown:
        notes.add(at, f"{unknown[0]!r} is not a field of a Gemini part", rule="unknown-block")
    signature = part.get("thoughtSignature")
    if signature is not None:
        signature = string(signature, f"{at}.thoughtSignature")
    if part.get("thought"):
        text = string(part.get("text", ""), f"{at}.text")
        return Reasoning(text, signature, provider=PROVIDER)
    if "text" in part:
        if signature is not None:
            notes.add(at, "thoughtSignature on a text part dropped (a text block has none)")
        return Text(string(part["text"], f"{at}.text"))
    if "functionCall" in part:
        call = obj(part["functionCall"], f"{at}.functionCall")
        call_id = call.get("id")
        if not call_id:
            call_id = f"{NO_ID}{stem}_{k}"
            notes.add(
                at,
                f"functionCall has no id; named it {call_id!r} (left out again "
                "when rendering to gemini)",
            )
        name = string(call.get("name"), f"{at}.functionCall.name")
        args = call.get("args") or {}
        if not isinstance(args, dict):
            message = f"args of functionCall {name!r} is not an object; kept as it came"
            notes.add(at, message, rule="arguments-not-object")
        block = ToolCall(string(call_id, f"{at}.functionCall.id"), name, args, signature)
        pending.append(block)
        return block
    if "functionResponse" in part:
        response = obj(part["functionResponse"], f"{at}.functionResponse")
        call_id = response.get("id") or _answer(response.get("name"), pending, at, notes)
        call_id = string(call_id, f"{at}.functionResponse.id")
        pending[:] = [c for c in pending if c.id != call_id]
        return _result(response, call_id, at, notes)
    return _read_image(part, at, notes)


def _answer(name: Any, pending: list[ToolCall], where: str, notes: Notes) -> str:
    """The id of the first unanswered call with this name: how Gemini pairs id-less responses.

    With no such call the response answers nothing: it gets an id no call has, so the rules
    report it (an orphan) at its place in the body.
    """
    for call in pending:
        if call.name == name:
            return call.id
    orphan = f"{NO_ID}unmatched_{name}"
    notes.add(where, f"functionResponse {name!r} has no id and no unanswered call of that name")
    return orphan


# "model" is not Gemini's (it is in the URL), but a body written by hand may carry it
_BODY_KEYS = {"model", "contents", "systemInstruction", "tools", "toolConfig", "generationConfig"}


def parse_request(body: dict, notes: Notes) -> Request:
    body = camel(body)  # snake_case field names read too (see spelling.py)
    raw = body.get("contents")
    if not isinstance(raw, list):
        raise FormatError("contents: a gemini body needs a 'contents' list")
    messages: list[Message] = []
    system = body.get("systemInstruction")
    if system:
        system = obj(system, "systemInstruction")
        parts = read_parts(system.get("parts"), "systemInstruction", [], notes, "system")
        for k, block in enumerate(parts):
            if not isinstance(block, Text):
                notes.add(f"systemInstruction.parts[{k}]", "a system message holds text only")
        texts = [b for b in parts if isinstance(b, Text)]
        messages.append(notes.mark(Message("system", texts), "systemInstruction"))
    pending: list[ToolCall] = []
    for i, content in enumerate(raw):
        where = f"contents[{i}]"
        role = obj(content, where).get("role", "user")
        if role not in ("user", "model", "function"):
            message = f"role {role!r} is not a Gemini role (user or model); read as user"
            notes.add(f"{where}.role", message, rule="unknown-role")
        blocks = read_parts(content.get("parts"), where, pending, notes, f"c{i}")
        if role == "model":
            messages.append(notes.mark(Message("assistant", blocks), where))
            continue
        results = [b for b in blocks if isinstance(b, ToolResult)]
        rest = [b for b in blocks if not isinstance(b, ToolResult)]
        if results:
            messages.append(notes.mark(Message("tool", list(results)), where))
        if rest or not results:
            messages.append(notes.mark(Message("user", rest), where))
    note_unused(body, _BODY_KEYS, "", notes)
    generation = obj(body.get("generationConfig") or {}, "generationConfig")
    note_unused(generation, {"maxOutputTokens"}, "generationConfig", notes)
    return Request(
        model=string(body.get("model", ""), "model"),
        messages=messages,
        tools=_parse_tools(body.get("tools"), notes),
        tool_choice=_parse_tool_config(body.get("toolConfig"), notes),
        max_tokens=limit(generation, "maxOutputTokens", "generationConfig"),
    )


def _parse_tools(raw: Any, notes: Notes) -> list[Tool]:
    tools = []
    for k, entry in enumerate(array(raw, "tools")):
        note_unused(obj(entry, f"tools[{k}]"), {"functionDeclarations"}, f"tools[{k}]", notes)
        declarations = array(entry.get("functionDeclarations"), f"tools[{k}].functionDeclarations")
        for n, d in enumerate(declarations):
            at = f"tools[{k}].functionDeclarations[{n}]"
            if not isinstance(d, dict) or not isinstance(d.get("name"), str):
                raise FormatError(f"{at}: needs a 'name'")
            schema = d.get("parametersJsonSchema") or d.get("parameters")
            schema = obj(schema or {"type": "object", "properties": {}}, f"{at}.parameters")
            tools.append(
                Tool(d["name"], string(d.get("description", ""), f"{at}.description"), schema)
            )
    return tools


def _parse_tool_config(config: Any, notes: Notes) -> str | dict | None:
    calling = obj(config or {}, "toolConfig").get("functionCallingConfig")
    if not calling:
        return None
    calling = obj(calling, "toolConfig.functionCallingConfig")
    mode = calling.get("mode")
    names = array(calling.get("allowedFunctionNames"), "toolConfig.allowedFunctionNames")
    if mode == "ANY" and len(names) == 1:
        return {"name": string(names[0], "toolConfig.allowedFunctionNames[0]")}
    if mode == "ANY" and names:
        notes.add("toolConfig", f"allowed names {names} have no neutral form; read as 'required'")
    choice = {"AUTO": "auto", "NONE": "none", "ANY": "required"}.get(str(mode))
    if choice is None:
        notes.add("toolConfig", f"mode {mode!r} has no neutral equivalent; dropped")
    return choice


# --- responses ------------------------------------------------------------------------------


def _digest(body: dict) -> str:
    return hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:10]


_REFUSED = {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"}


def parse_response(body: dict, notes: Notes) -> Reply:
    """A ``GenerateContentResponse``. Gemini counts thoughts *outside* ``candidatesTokenCount``;
    the neutral ``output_tokens`` adds them in (see ``helpers.replies``)."""
    body = camel(body)
    candidates = array(body.get("candidates"), "candidates")
    if not candidates:
        raise FormatError("candidates: a Gemini response needs at least one candidate")
    candidate = obj(candidates[0], "candidates[0]")
    parts = obj(candidate.get("content") or {}, "candidates[0].content").get("parts")
    # Ids made up here must differ from one response to the next: take the response's own id.
    stem = re.sub(r"[^A-Za-z0-9]+", "_", str(body.get("responseId") or "")) or _digest(body)
    blocks = read_parts(parts, "candidates[0].content", [], notes, stem)
    finish = str(candidate.get("finishReason"))
    stop: StopReason = "other"
    if finish == "STOP":
        stop = "tool_calls" if any(isinstance(b, ToolCall) for b in blocks) else "end_turn"
    elif finish == "MAX_TOKENS":
        stop = "max_tokens"
    elif finish in _REFUSED:
        stop = "refusal"
    return Reply(
        message=Message("assistant", blocks),
        usage=parse_usage(obj(body.get("usageMetadata") or {}, "usageMetadata")),
        stop_reason=stop,
        model=str(body.get("modelVersion") or ""),
        id=str(body.get("responseId") or ""),
    )


def parse_usage(usage: dict) -> Usage:
    """Tool-use prompt tokens (results of Google's own tools) are input too; thoughts output."""
    usage = camel(usage)
    thoughts = count(usage, "thoughtsTokenCount", "usageMetadata")
    return Usage(
        input_tokens=count(usage, "promptTokenCount", "usageMetadata")
        + count(usage, "toolUsePromptTokenCount", "usageMetadata"),
        output_tokens=count(usage, "candidatesTokenCount", "usageMetadata") + thoughts,
        cache_read_tokens=count(usage, "cachedContentTokenCount", "usageMetadata"),
        reasoning_tokens=thoughts,
        raw=usage,
    )


def evidence(body: dict) -> list[str]:
    """What marks a body as a Gemini request."""
    keys = ("contents", "systemInstruction", "generationConfig", "toolConfig")
    return [f"has '{key}'" for key in keys if key in body]
