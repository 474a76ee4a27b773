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
  published gpt-3.5 figures for 2 and 3 calls were 10 to 11 tokens short; recorded gpt-4o
  bills for 2 calls (pydantic-ai's ``test_dbos_agent_with_hitl_tool`` and
  ``test_temporal_complex_agent_run`` cassettes, Mirascope's ``call_with_tools``) are 2 to 3
  tokens short of it, or 4 long: no rendering we tried (it, or one message per call) fits
  them all, so it stays an estimate, up to 6 per call;
- an object none of whose properties is described is written on one line (``tool_namespace``):
  2024 published figures and recorded gpt-4o, gpt-4o-mini and gpt-4.1-mini bills match, nested
  objects and integer enums included; an object with some properties described and some
  not, or an ``anyOf``: published and recorded figures differ by 1 to 4 tokens per tool;
- descriptions of nested properties: the 2024 figures count them, the 2023 ones did not;
- a property's ``title`` (pydantic writes one) is its comment line when it has no
  description: recorded gpt-4o bills of Mirascope's ``call_with_tools`` match;
- schema keywords the namespace does not render (a schema's own ``title``, ``default``,
  ``$defs``, ``$ref``, ``format``, ``minimum``...): if the API renders them, up to their JSON's
  tokens more (recorded pydantic-ai agent runs with ``default`` and ``$defs`` are 3 to 5 tokens
  off, within that bound);
- ``tool_choice="required"`` is primed as ``"auto"`` is: recorded gpt-4o bills match
  (pydantic-ai's ``test_tool_output`` cassette, 68 and 89 billed input tokens);
- ``response_format``: ``{"type": "json_object"}`` adds nothing (recorded gpt-4o bills of
  pydantic-ai's ``test_prompted_output`` and Mirascope's ``validation_retry`` match without
  it); a ``json_schema`` is added in a form no figure pins down: an estimate, bounded by its
  schema as compact JSON under a ``# Response Formats`` header plus a message's framing (the
  recorded +37 and +48 of ``test_native_output`` and Mirascope's ``refusal`` are within);
- the legacy ``functions`` / ``function_call`` fields are counted as ``tools`` /
  ``tool_choice`` (hmarr's 2023 figures, measured with them, match that rendering), an
  estimate: a named ``function_call`` was 3 tokens fewer than a forced tool in those figures;
- an image given by URL (no size offline): from one tile up to the largest image;
- the Responses API (``openai-responses``): plain text conversations bill what Chat bills for
  the same messages (recorded gpt-4o and gpt-4o-mini bills of Mirascope's and pydantic-ai's
  cassettes match), but its function tools do not: the same request with one tool billed 36
  tokens through Responses and 75 through Chat (Mirascope's ``call_with_tools``, gpt-4o), so
  Responses tools are an estimate of unknown error; so are a ``text.format`` JSON schema
  (recorded +31 to +38), an empty ``instructions`` (recorded +18), input files and items the
  count does not read (compaction, built-in tool calls); on gpt-4 (cl100k_base) a plain
  request billed 1 token fewer than Chat's rule (pydantic-ai's ``usage_limit`` cassette).

What it deliberately does not do: pretend the bounds are measured errors. They are the
largest differences the published figures show, or what the unrendered text would cost.
"""

from __future__ import annotations

import json
from typing import Any

from helpers.messages import Image, Request, Text, ToolCall
from helpers.models import ModelInfo

__all__ = ["RENDERED", "images_of_unknown_size", "uncertain"]

#: The JSON Schema keywords the tool namespace renders (``tool_namespace``); others are dropped.
RENDERED = {"type", "properties", "required", "description", "enum", "items", "anyOf", "oneOf"}
#: Dropped, and verified to cost nothing: ``additionalProperties`` (recorded gpt-4o-mini bills).
VERIFIED_UNRENDERED = {"additionalProperties"}
PER_PARALLEL_CALL, TOOL_SHAPE, LEGACY_FORCED = 6, 4, 3


def uncertain(request: Request, info: ModelInfo) -> dict[str, tuple[int | None, str]]:
    """Part -> (how many tokens it can be off, None if unknown; why), for one OpenAI request."""
    out: dict[str, tuple[int | None, str]] = {}
    if not info.counting_verified:
        out["model"] = (None, f"no published figure for {info.id}: gpt-4o's rendering assumed")
    if info.matched_by_prefix is not None:
        out["model"] = (None, f"{info.note}: its rendering and tokenizer are assumed the same")
    for i, message in enumerate(request.messages):
        if len(message.content) == 1 and type(message.content[0]) is Text:
            continue  # one text block: nothing estimated (most of a long conversation)
        calls = [b for b in message.content if isinstance(b, ToolCall)]
        if len(calls) > 1:
            bound = PER_PARALLEL_CALL * len(calls)
            why = f"{len(calls)} parallel calls: their rendering is a community guess, unverified"
            out[f"messages[{i}]"] = (bound, why)
        for j, block in enumerate(message.content):
            if isinstance(block, Image) and block.data is None and info.image:
                out[f"messages[{i}].content[{j}]"] = (_image_bound(info), "image size unknown")
    for k, tool in enumerate(request.tools):
        bound, why = _schema_bound(tool.parameters or {}, info)
        if bound:
            out[f"tools[{k}]"] = (bound, why)
    return out


def images_of_unknown_size(request: Request, info: ModelInfo) -> dict[str, tuple[int | None, str]]:
    """For the Claude and Gemini estimates: images given by URL (their size is unknown offline).

    Measured: an image URL sent to claude-haiku-4-5 (pydantic-ai's cassette
    ``test_image_url_input_invalid_mime_type``) billed 335 input tokens where the guess counted
    773; the bound is the distance from the guess to the farthest possible size.
    """
    from helpers.tokens.images import image_tokens

    out: dict[str, tuple[int | None, str]] = {}
    rule = info.image or {}
    for i, message in enumerate(request.messages):
        for j, block in enumerate(message.content):
            if not isinstance(block, Image) or block.data is not None or not rule:
                continue
            guess = image_tokens(block, rule).tokens
            most = rule.get("max_tokens") if rule.get("method") == "anthropic-area" else None
            bound = (
                max(guess, most - guess) if most else (0 if rule.get("method") == "flat" else None)
            )
            out[f"messages[{i}].content[{j}]"] = (bound, "image size unknown")
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
        if key == "title" and not top and not schema.get("description"):
            continue  # a property's title is its comment (tool_namespace._comment): verified
        if key not in RENDERED and key not in VERIFIED_UNRENDERED:
            dropped.setdefault(key, value)
    if "anyOf" in schema or "oneOf" in schema:
        shapes.add("anyOf")
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    described = [isinstance(p, dict) and bool(p.get("description")) for p in properties.values()]
    if any(described) and not all(described):  # one line per property, some without comment
        shapes.add("property without description")
    for prop in properties.values():
        if isinstance(prop, dict) and prop.get("description") and not top:
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
