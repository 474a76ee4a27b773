"""Used in lessons: none directly (imported by formats.providers).

Gemini ``generateContent`` -> neutral: read a request body or a ``GenerateContentResponse`` back.
Calls without an ``id`` get a deterministic one (``gemini_noid_...``, with a Note) and responses
pair with them by name and order. What the neutral model has no place for is named in a
``Note``. Field names are read in camelCase and snake_case alike.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from helpers.formats.common import Notes
from helpers.formats.gemini_render import NO_ID, PART_FIELDS, PROVIDER, camel
from helpers.formats.reading import (
    array,
    as_reply,
    limit,
    note_unused,
    obj,
    split_results,
    string,
    token_field,
)
from helpers.messages import (
    FormatError,
    Image,
    Message,
    Reasoning,
    Reply,
    Request,
    StopReason,
    Text,
    Tool,
    ToolCall,
    ToolResult,
    Usage,
)


def _image(part: dict, where: str, notes: Notes) -> Image | None:
    if "inlineData" in part:
        blob = obj(part["inlineData"], f"{where}.inlineData")
        mime = string(blob.get("mimeType"), f"{where}.inlineData.mimeType")
        return Image(mime, data=string(blob.get("data"), f"{where}.inlineData.data"))
    if "fileData" in part:
        ref = obj(part["fileData"], f"{where}.fileData")
        mime = string(ref.get("mimeType", "image/png"), f"{where}.fileData.mimeType")
        return Image(mime, url=string(ref.get("fileUri"), f"{where}.fileData.fileUri"))
    if not set(part) - PART_FIELDS:  # unknown fields are the verdict's (unknown-block)
        notes.add(where, f"part with {sorted(part)} has no neutral block; dropped")
    return None


def _function_call(part: dict, at: str, pending: list[ToolCall], notes: Notes, new_id: str):
    call = obj(part["functionCall"], f"{at}.functionCall")
    call_id = call.get("id")
    if not call_id:
        call_id = new_id
        message = f"functionCall has no id; named it {call_id!r} (left out again when rendering"
        notes.add(at, message + " to gemini)")
    name = string(call.get("name"), f"{at}.functionCall.name")
    args = call.get("args") or {}
    if not isinstance(args, dict):
        message = f"args of functionCall {name!r} is not an object; kept as it came"
        notes.add(at, message, rule="arguments-not-object")
    signature = _signature(part, at)
    block = ToolCall(string(call_id, f"{at}.functionCall.id"), name, args, signature)
    pending.append(block)
    return block


def _json_text(value: Any) -> str:
    """Text as-is; anything else as JSON text (a function response holds any object)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _function_response(part: dict, at: str, pending: list[ToolCall], notes: Notes) -> ToolResult:
    response = obj(part["functionResponse"], f"{at}.functionResponse")
    call_id = response.get("id") or _answer(response.get("name"), pending, at, notes)
    call_id = string(call_id, f"{at}.functionResponse.id")
    pending[:] = [c for c in pending if c.id != call_id]
    payload = response.get("response")
    if not isinstance(payload, dict):
        raise FormatError(f"{at}.functionResponse.response: expected an object")
    key = "error" if "error" in payload else "output" if "output" in payload else None
    if key is None:
        notes.add(at, "response has neither 'output' nor 'error'; the whole object is the text")
        text = _json_text(payload)
    else:
        note_unused(payload, {key}, f"{at}.functionResponse.response", notes)
        text = _json_text(payload[key])
    content: list[Text | Image] = [Text(text)]
    for n, inner in enumerate(array(response.get("parts"), f"{at}.functionResponse.parts")):
        where = f"{at}.functionResponse.parts[{n}]"
        image = _image(obj(inner, where), where, notes)
        if image is not None:
            content.append(image)
    return ToolResult(call_id, content, is_error=key == "error")


def _signature(part: dict, at: str) -> str | None:
    signature = part.get("thoughtSignature")
    return None if signature is None else string(signature, f"{at}.thoughtSignature")


def _part(part: Any, at: str, pending: list[ToolCall], notes: Notes, new_id: str) -> Any:
    """One part as a neutral block, or None (with a note) when it has none."""
    signature = _signature(obj(part, at), at)
    if part.get("thought"):
        return Reasoning(string(part.get("text", ""), f"{at}.text"), signature, provider=PROVIDER)
    if "text" in part:
        if signature is not None:
            notes.add(at, "thoughtSignature on a text part dropped (a text block has none)")
        return Text(string(part["text"], f"{at}.text"))
    if "functionCall" in part:
        return _function_call(part, at, pending, notes, new_id)
    if "functionResponse" in part:
        return _function_response(part, at, pending, notes)
    return _image(part, at, notes)


def _parts(parts: Any, where: str, pending: list[ToolCall], notes: Notes, stem: str) -> list:
    """Neutral blocks for one content's parts. ``pending`` holds the calls not answered yet; an
    id-less call at part ``k`` gets ``gemini_noid_{stem}_{k}``."""
    blocks = []
    for k, part in enumerate(array(parts, f"{where}.parts")):
        block = _part(part, f"{where}.parts[{k}]", pending, notes, f"{NO_ID}{stem}_{k}")
        if block is not None:
            blocks.append(block)
    return blocks


def _answer(name: Any, pending: list[ToolCall], where: str, notes: Notes) -> str:
    """The id of the first unanswered call with this name: how Gemini pairs id-less responses.
    With no such call the response answers nothing: it gets an id no call has, so the rules
    report it (an orphan) at its place in the body."""
    for call in pending:
        if call.name == name:
            return call.id
    notes.add(where, f"functionResponse {name!r} has no id and no unanswered call of that name")
    return f"{NO_ID}unmatched_{name}"


# "model" is not Gemini's (it is in the URL), but a body written by hand may carry it
_BODY_KEYS = {"model", "contents", "systemInstruction", "tools", "toolConfig", "generationConfig"}


def parse_request(body: dict, notes: Notes) -> Request:
    body = camel(body)  # snake_case field names read too
    raw = body.get("contents")
    if not isinstance(raw, list):
        raise FormatError("contents: a gemini body needs a 'contents' list")
    messages: list[Message] = []
    system = body.get("systemInstruction")
    if system:
        system = obj(system, "systemInstruction")
        parts = _parts(system.get("parts"), "systemInstruction", [], notes, "system")
        for k, block in enumerate(parts):
            if not isinstance(block, Text):
                notes.add(f"systemInstruction.parts[{k}]", "a system message holds text only")
        texts = [b for b in parts if isinstance(b, Text)]
        messages.append(Message("system", texts))
    pending: list[ToolCall] = []
    for i, content in enumerate(raw):
        where = f"contents[{i}]"
        role = obj(content, where).get("role", "user")
        blocks = _parts(content.get("parts"), where, pending, notes, f"c{i}")
        if role == "model":
            messages.append(Message("assistant", blocks))
            continue
        messages += split_results(blocks)
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


def _digest(body: dict) -> str:
    return hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:10]


#: finishReason -> the neutral stop reason (a reply that stops with a call in it: tool_calls)
_STOP: dict[str, StopReason] = {
    "STOP": "end_turn",
    "MAX_TOKENS": "max_tokens",
    "SAFETY": "refusal",
    "RECITATION": "refusal",
    "BLOCKLIST": "refusal",
    "PROHIBITED_CONTENT": "refusal",
    "SPII": "refusal",
    "IMAGE_SAFETY": "refusal",
}


def parse_response(body: dict, notes: Notes) -> Reply:
    """A ``GenerateContentResponse``. Gemini counts thoughts *outside* ``candidatesTokenCount``;
    the neutral ``output_tokens`` adds them in (see ``helpers.messages.Usage``)."""
    body = camel(body)
    candidates = array(body.get("candidates"), "candidates")
    if not candidates:
        raise FormatError("candidates: a Gemini response needs at least one candidate")
    candidate = obj(candidates[0], "candidates[0]")
    parts = obj(candidate.get("content") or {}, "candidates[0].content").get("parts")
    # Ids made up here must differ from one response to the next: take the response's own id.
    stem = re.sub(r"[^A-Za-z0-9]+", "_", str(body.get("responseId") or "")) or _digest(body)
    blocks = _parts(parts, "candidates[0].content", [], notes, stem)
    stop = _STOP.get(str(candidate.get("finishReason")), "other")
    if stop == "end_turn" and any(isinstance(b, ToolCall) for b in blocks):
        stop = "tool_calls"
    usage = parse_usage(obj(body.get("usageMetadata") or {}, "usageMetadata"))
    return as_reply(body, blocks, usage, stop, keys=("modelVersion", "responseId"))


def parse_usage(usage: dict) -> Usage:
    """Tool-use prompt tokens (results of Google's own tools) are input too; thoughts output."""
    usage = camel(usage)
    thoughts = token_field(usage, "thoughtsTokenCount", "usageMetadata")
    return Usage(
        input_tokens=token_field(usage, "promptTokenCount", "usageMetadata")
        + token_field(usage, "toolUsePromptTokenCount", "usageMetadata"),
        output_tokens=token_field(usage, "candidatesTokenCount", "usageMetadata") + thoughts,
        cache_read_tokens=token_field(usage, "cachedContentTokenCount", "usageMetadata"),
        reasoning_tokens=thoughts,
        raw=usage,
    )


def evidence(body: dict) -> list[str]:
    """What marks a body as a Gemini request."""
    keys = ("contents", "systemInstruction", "generationConfig", "toolConfig")
    return [f"has '{key}'" for key in keys if key in body]
