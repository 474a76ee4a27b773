"""Used in lessons: none directly (imported by formats.gemini_parse, formats.providers).

Neutral -> Gemini ``generateContent``, the request body a client sends. Roles become ``user``
and ``model``; each block becomes one part; a tool message becomes a ``user`` content of
``functionResponse`` parts, named after the call they answer. The system prompt goes to
``systemInstruction``. Rendering writes Gemini's canonical camelCase.
"""

from __future__ import annotations

import re
from typing import Any

from helpers.formats.common import Notes, note_image_detail, replayable, system_texts, tool_spec
from helpers.messages import (
    FormatError,
    Image,
    Message,
    Reasoning,
    Request,
    Text,
    ToolCall,
    ToolResult,
)

NAME = "gemini"
PATH = "/v1beta/models/{model}:generateContent"
PROVIDER = "gemini"
OPTIONS: dict[str, tuple[str, ...]] = {}
#: Ids the parser made up for calls that came without one; never sent back to Gemini.
NO_ID = "gemini_noid_"


#: Fields whose values are the user's data: their keys are never renamed.
OPAQUE = frozenset((
    "args", "response", "parameters", "parametersJsonSchema", "responseJsonSchema",
    "responseSchema", "labels",
))  # fmt: skip
#: The fields of a ``Part`` Gemini takes (google-genai ``types.Part`` less ``mediaResolution``,
#: plus server-side ``toolCall`` and ``toolResponse``; sources in docs/evidence.md, "Formats").
PART_FIELDS = frozenset((
    "text", "inlineData", "fileData", "functionCall", "functionResponse", "executableCode",
    "codeExecutionResult", "thought", "thoughtSignature", "videoMetadata", "partMetadata",
    "toolCall", "toolResponse",
))  # fmt: skip


def camel_name(name: str) -> str:
    """``function_call`` -> ``functionCall``; a name already in camelCase stays as it is."""
    return re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), name)


def camel(value: Any) -> Any:
    """A copy of ``value`` with every field name in camelCase, data under ``OPAQUE`` kept.
    Protobuf's JSON mapping accepts both spellings, so hand-written bodies use both; the
    parsers read one. Rendering always writes camelCase."""
    if isinstance(value, list):
        return [camel(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, inner in value.items():
        name = camel_name(key) if isinstance(key, str) else key
        out[name] = inner if name in OPAQUE else camel(inner)
    return out


def _image(image: Image) -> dict:
    if image.data is not None:
        return {"inlineData": {"mimeType": image.media_type, "data": image.data}}
    return {"fileData": {"mimeType": image.media_type, "fileUri": image.url}}


def _call_part(call: ToolCall) -> dict:
    function: dict[str, Any] = {"name": call.name, "args": call.arguments}
    if call.id and not call.id.startswith(NO_ID):
        function = {"id": call.id, **function}
    part: dict[str, Any] = {"functionCall": function}
    if call.signature is not None:
        part["thoughtSignature"] = call.signature
    return part


def _model_parts(message: Message, where: str, notes: Notes) -> list[dict]:
    parts = []
    for j, block in enumerate(message.content):
        at = f"{where}.content[{j}]"
        if isinstance(block, Text):
            parts.append({"text": block.text})
        elif isinstance(block, ToolCall):
            parts.append(_call_part(block))
        elif isinstance(block, Reasoning) and replayable(block, PROVIDER, at, notes):
            part: dict[str, Any] = {"text": block.text, "thought": True}
            if block.signature is not None:
                part["thoughtSignature"] = block.signature
            parts.append(part)
        elif isinstance(block, Image):
            parts.append(_image(block))
    return parts


def _response_part(result: ToolResult, name: str, where: str, notes: Notes) -> dict:
    texts = [b.text for b in result.content if isinstance(b, Text)]
    if len(texts) > 1:
        notes.add(where, f"{len(texts)} text blocks joined into one response string")
    text = "".join(texts)
    response: dict[str, Any] = {
        "name": name,
        "response": {"error" if result.is_error else "output": text},
    }
    if result.call_id and not result.call_id.startswith(NO_ID):
        response = {"id": result.call_id, **response}
    images = [_image(b) for b in result.content if isinstance(b, Image)]
    if images:
        response["parts"] = images
    return {"functionResponse": response}


def _response_parts(message: Message, names: dict[str, str], where: str, notes: Notes) -> list:
    """A tool message's results; each needs the name of its call (``names``: id -> name)."""
    parts = []
    for j, result in enumerate(message.tool_results):
        at = f"{where}.content[{j}]"
        if result.call_id not in names:
            raise FormatError(
                f"{at}: no earlier tool call with id {result.call_id!r}; Gemini needs its "
                "function name for the functionResponse"
            )
        parts.append(_response_part(result, names[result.call_id], at, notes))
    return parts


def render_request(request: Request, notes: Notes) -> dict:
    note_image_detail(request.messages, NAME, notes)
    names: dict[str, str] = {}  # call id -> function name: a functionResponse must name it
    system: list[dict] = []
    contents: list[dict] = []
    for i, message in enumerate(request.messages):
        where = f"messages[{i}]"
        if message.name is not None:
            notes.add(f"{where}.name", "gemini has no participant name; dropped")
        if message.role == "system":
            if i > 0:
                notes.add(
                    where,
                    "system message not first: moved into 'systemInstruction' (its place in "
                    "the conversation is lost)",
                )
            texts = system_texts(message, where, "systemInstruction", notes)
            system += [{"text": t} for t in texts]
            continue
        if message.role == "assistant":
            names.update((c.id, c.name) for c in message.tool_calls)
            content = {"role": "model", "parts": _model_parts(message, where, notes)}
        elif message.role == "tool":
            parts = _response_parts(message, names, where, notes)
            content = {"role": "user", "parts": parts}
        else:
            content = {"role": "user", "parts": [_user_part(b) for b in message.content]}
        if content["parts"]:
            contents.append(content)
        else:
            notes.add(where, "nothing left to send in this message; left out")
    body: dict[str, Any] = {}
    if system:
        body["systemInstruction"] = {"parts": system}
    body["contents"] = contents
    if request.tools:
        body["tools"] = [
            {"functionDeclarations": [tool_spec(t, "parametersJsonSchema") for t in request.tools]}
        ]
    if request.tool_choice is not None:
        body["toolConfig"] = {"functionCallingConfig": _calling_config(request.tool_choice)}
    if request.max_tokens is not None:
        body["generationConfig"] = {"maxOutputTokens": request.max_tokens}
    where = PATH.format(model=request.model)
    notes.add("model", f"gemini names the model in the URL (POST {where}), not in the body")
    return body


def _user_part(block: Text | Image) -> dict:
    return {"text": block.text} if isinstance(block, Text) else _image(block)


def _calling_config(choice: str | dict) -> dict:
    if isinstance(choice, dict):
        return {"mode": "ANY", "allowedFunctionNames": [choice["name"]]}
    return {"mode": {"auto": "AUTO", "none": "NONE", "required": "ANY"}[choice]}
