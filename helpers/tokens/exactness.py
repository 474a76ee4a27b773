"""Used in lessons: 04, 05, 06, 09, 12.

When a count may say "exact": only where a published API figure verifies the model and feature.

A count is exact only if the model's tokenizer is public, the model itself has published
API-reported figures (``counting_verified`` in ``data/models.json``, not a model matched by a
prefix of its name), and every feature the request uses renders in a way a published figure
checked (``tests/published_counts.py``). Anything else makes the count an estimate, and
``uncertain`` says **which part** is estimated and **by how many tokens** it can be off:

- a single tool call and its result are verified: published gpt-3.5/gpt-4 figures and recorded
  gpt-4o, gpt-4o-mini and gpt-4.1-mini bills (pydantic-ai's public VCR cassettes) match;
- several calls in one turn: the ``multi_tool_use.parallel`` rendering is a community model;
  published gpt-3.5 figures for 2 and 3 calls were 10 to 11 tokens short, recorded gpt-4o
  bills 4 tokens long for 2 calls: up to 6 per call;
- a tool schema with nested objects, arrays of objects, integer enums, ``anyOf`` or
  properties without a description: published figures differ by 1 to 3 tokens per tool
  (string enums and described top-level properties match);
- descriptions of nested properties: the 2024 figures count them, the 2023 ones did not;
- schema keywords the namespace does not render (``title``, ``default``, ``$defs``, ``$ref``,
  ``format``, ``minimum``...): if the API renders them, up to their JSON's tokens more;
- ``tool_choice="required"``: no published figure; the priming may differ by a few tokens;
- an image given by URL (no size offline): from one tile up to the largest image.

What it deliberately does not do: pretend the bounds are measured errors. They are the
largest differences the published figures show, or what the unrendered text would cost.
"""

from __future__ import annotations

import json
from typing import Any

from helpers.messages import Image, Request, Text, ToolCall
from helpers.models import ModelInfo

__all__ = ["RENDERED", "uncertain", "unmodelled"]

#: Request fields and content parts the neutral request does not carry, so no count sees them.
UNMODELLED_FIELDS = {
    "response_format": "response_format: its JSON schema is added to the prompt, size unknown",
    "functions": "legacy functions: not counted",
    "function_call": "legacy function_call: not counted",
    "audio": "audio output settings: not counted",
    "prediction": "predicted output: not counted",
}
UNMODELLED_PARTS = {"file", "input_audio", "input_file", "document", "audio"}

#: The JSON Schema keywords the tool namespace renders (``tool_namespace``); others are dropped.
RENDERED = {"type", "properties", "required", "description", "enum", "items", "anyOf", "oneOf"}
#: Dropped, and verified to cost nothing: ``additionalProperties`` (recorded gpt-4o-mini bills).
VERIFIED_UNRENDERED = {"additionalProperties"}
PER_PARALLEL_CALL, TOOL_SHAPE, REQUIRED_CHOICE = 6, 3, 4


def uncertain(request: Request, info: ModelInfo) -> dict[str, tuple[int | None, str]]:
    """Part -> (how many tokens it can be off, None if unknown; why), for one OpenAI request."""
    out: dict[str, tuple[int | None, str]] = {}
    if not info.counting_verified:
        out["model"] = (None, f"no published figure for {info.id}: gpt-4o's rendering assumed")
    if "matched by prefix" in info.note:
        out["model"] = (None, f"{info.note}: its rendering and tokenizer are assumed the same")
    for i, message in enumerate(request.messages):
        if len(message.content) == 1 and type(message.content[0]) is Text:
            continue  # one text block: nothing estimated (most of a long conversation)
        calls = [b for b in message.content if isinstance(b, ToolCall)]
        if len(calls) > 1:
            bound = PER_PARALLEL_CALL * len(calls)
            out[f"messages[{i}]"] = (bound, f"{len(calls)} parallel calls: a community model")
        for j, block in enumerate(message.content):
            if isinstance(block, Image) and block.data is None and info.image:
                out[f"messages[{i}].content[{j}]"] = (_image_bound(info), "image size unknown")
    for k, tool in enumerate(request.tools):
        bound, why = _schema_bound(tool.parameters or {}, info)
        if bound:
            out[f"tools[{k}]"] = (bound, why)
    if request.tools and request.tool_choice == "required":
        out["priming"] = (REQUIRED_CHOICE, "no published figure for tool_choice='required'")
    return out


def unmodelled(body: dict[str, Any], format: str) -> dict[str, tuple[int | None, str]]:
    """What a wire body carries that the neutral request drops: each makes a count an estimate
    of unknown error (seen in recorded traffic: a ``file`` part or a ``response_format``
    added 48 to 219 billed tokens that no offline count saw)."""
    out: dict[str, tuple[int | None, str]] = {}
    for key, why in UNMODELLED_FIELDS.items():
        if body.get(key) not in (None, [], {}) and format == "openai-chat":
            out[key] = (None, why)
    for i, message in enumerate(body.get("messages") or []):
        content = message.get("content") if isinstance(message, dict) else None
        for j, part in enumerate(content if isinstance(content, list) else []):
            if isinstance(part, dict) and part.get("type") in UNMODELLED_PARTS:
                out[f"messages[{i}].content[{j}]"] = (None, f"{part['type']} part: not counted")
    return out


def _schema_bound(schema: dict[str, Any], info: ModelInfo) -> tuple[int, str]:
    from helpers.tokens.encodings import encode

    shapes, dropped, nested = set(), {}, []
    _walk(schema, shapes, dropped, nested, top=True)
    enc = info.encoding or "o200k_base"
    bound = TOOL_SHAPE if shapes else 0
    if dropped:
        bound += len(encode(enc, json.dumps(dropped)))
    if nested:  # rendered by the 2024 figures, dropped by the 2023 ones
        bound += len(encode(enc, "".join(f"  // {d}\n" for d in nested)))
        shapes.add("nested descriptions")
    why = ", ".join(sorted(shapes) + [f"unrendered {k}" for k in sorted(dropped)])
    return bound, why


def _walk(schema: Any, shapes: set, dropped: dict, nested: list, top: bool = False) -> None:
    if not isinstance(schema, dict):
        return
    for key, value in schema.items():
        if key not in RENDERED and key not in VERIFIED_UNRENDERED:
            dropped.setdefault(key, value)
    if any(not isinstance(v, str) for v in schema.get("enum") or []):
        shapes.add("non-string enum")
    if "anyOf" in schema or "oneOf" in schema:
        shapes.add("anyOf")
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    if properties and not top:
        shapes.add("nested object")
    for prop in properties.values():
        if isinstance(prop, dict) and not prop.get("description"):
            shapes.add("property without description")
        elif isinstance(prop, dict) and not top:
            nested.append(prop["description"])
        _walk(prop, shapes, dropped, nested)
    for option in (schema.get("anyOf") or []) + (schema.get("oneOf") or []):
        _walk(option, shapes, dropped, nested)
    _walk(schema.get("items"), shapes, dropped, nested)


def _image_bound(info: ModelInfo) -> int:
    """The largest image minus the one-tile guess (``images.image_tokens``)."""
    from helpers.tokens.images import _patches, _tiles

    rule = info.image or {}
    if rule.get("method") == "tiles":
        return _tiles(768, 2048, rule, "high") - _tiles(512, 512, rule, "high")
    if rule.get("method") == "patches":
        return _patches(2048, 2048, rule) - 765
    return 0
