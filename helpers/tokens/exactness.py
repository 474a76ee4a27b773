"""Used in lessons: none directly (imported by tokens, tokens.estimate, tokens.openai_chat).

What a count can know exactly: an image's cost from its size, and where the rest is a guess.

Images are charged by size, per model (``data/models.json``); the size comes from the image
header, and an image given by URL has none offline. A count is exact only where a published API
figure or a recorded bill verifies the model and every feature it uses; otherwise ``uncertain``
names the part and how many tokens it can be off (``docs/evidence.md``, "Counting").

What it deliberately does not do: decode pixels, fetch URLs, or call a bound a measured error.
"""

from __future__ import annotations

import base64
import json
import math
import struct
from dataclasses import dataclass
from typing import Any

from helpers.messages import Image, Request, Text, ToolCall
from helpers.models import ModelInfo
from helpers.tokens.tokenizers import PROXY, encode, encoding_name


@dataclass
class ImageCost:
    tokens: int
    exact: bool
    how: str


def image_size(data_b64: str) -> tuple[int, int] | None:
    """(width, height) from the header of a base64 image, or None if it cannot be read."""
    try:
        head = base64.b64decode(data_b64[:65536] + "=" * (-len(data_b64[:65536]) % 4))
    except (ValueError, TypeError):
        return None
    if head[:8] == b"\x89PNG\r\n\x1a\n" and len(head) >= 24:
        return struct.unpack(">II", head[16:24])
    if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        return struct.unpack("<HH", head[6:10])
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return _webp_size(head)
    if head[:2] == b"\xff\xd8":
        return _jpeg_size(head)
    return None


def _webp_size(head: bytes) -> tuple[int, int] | None:
    chunk = head[12:16]
    if chunk == b"VP8X" and len(head) >= 30:
        return 1 + int.from_bytes(head[24:27], "little"), 1 + int.from_bytes(head[27:30], "little")
    if chunk == b"VP8 " and len(head) >= 30:
        width, height = struct.unpack("<HH", head[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(head) >= 25:
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def _jpeg_size(head: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 < len(head):
        if head[i] != 0xFF:
            return None
        marker, length = head[i + 1], int.from_bytes(head[i + 2 : i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE):
            height, width = struct.unpack(">HH", head[i + 5 : i + 9])
            return width, height
        i += 2 + length
    return None


def _tiles(width: int, height: int, rule: dict[str, Any], detail: str) -> int:
    base, tile = rule["base_tokens"], rule["tile_tokens"]
    if detail == "low":
        return base
    if max(width, height) > 2048:
        scale = 2048 / max(width, height)
        width, height = int(width * scale), int(height * scale)
    if min(width, height) > 768:
        scale = 768 / min(width, height)
        width, height = int(width * scale), int(height * scale)
    return base + tile * math.ceil(width / 512) * math.ceil(height / 512)


def _patches(width: int, height: int, rule: dict[str, Any]) -> int:
    size, cap = rule["patch_px"], rule["max_patches"]
    patches = math.ceil(width / size) * math.ceil(height / size)
    if patches > cap:  # shrink to fit the cap, then round down to whole patches (OpenAI guide)
        shrink = math.sqrt(cap * size * size / (width * height))
        w, h = width * shrink, height * shrink
        w_fit = math.floor(w / size) / (w / size)
        h_fit = math.floor(h / size) / (h / size)
        shrink *= min(w_fit, h_fit)
        patches = math.ceil(width * shrink / size) * math.ceil(height * shrink / size)
    return math.ceil(min(patches, cap) * rule["multiplier"])


def image_tokens(image: Image, rule: dict[str, Any] | None, detail: str | None = None) -> ImageCost:
    """Tokens for one image under one model's rule (from ``data/models.json``)."""
    detail = detail or image.detail or "auto"
    if rule is None:
        return ImageCost(85, False, "no image rule for this model: guessed 85 (gpt-4o low detail)")
    if rule["method"] == "flat":
        return ImageCost(
            rule["tokens"], False, f"{rule['tokens']} per image (documented flat rate)"
        )
    if rule["method"] == "tiles" and detail == "low":
        return ImageCost(rule["base_tokens"], True, "detail=low: base tokens only")
    size = image_size(image.data) if image.data else None
    if size is None:
        tokens = _tiles(512, 512, rule, detail) if rule["method"] == "tiles" else 765
        return ImageCost(tokens, False, "size unknown offline (URL or unreadable): one 512px tile")
    width, height = size
    if rule["method"] == "tiles":
        return ImageCost(_tiles(width, height, rule, detail), True, f"{width}x{height}, tiles")
    if rule["method"] == "patches":
        return ImageCost(_patches(width, height, rule), True, f"{width}x{height}, 32px patches")
    if rule["method"] == "anthropic-area":
        tokens = min(math.ceil(width * height / rule["pixels_per_token"]), rule["max_tokens"])
        return ImageCost(tokens, False, f"{width}x{height} / {rule['pixels_per_token']} (estimate)")
    raise ValueError(f"unknown image rule {rule['method']!r} in data/models.json")


#: The JSON Schema keywords the tool namespace renders (``openai_chat``); others are dropped.
RENDERED = {"type", "properties", "required", "description", "enum", "items", "anyOf", "oneOf"}
#: Dropped, and verified to cost nothing: ``additionalProperties`` (recorded gpt-4o-mini bills).
VERIFIED_UNRENDERED = {"additionalProperties"}
PER_PARALLEL_CALL, TOOL_SHAPE = 6, 4


def method(info: ModelInfo) -> str:
    """How a count on ``info`` is obtained, in words (``Count.method``)."""
    if info.counting == "harmony":
        return "openai-harmony render_conversation_for_completion, o200k_harmony (exact)"
    if info.counting == "anthropic-estimate":
        return (
            f"estimate: {PROXY} as a proxy for Claude's tokenizer (not public) over the Anthropic "
            "rendering (tools as JSON Schema, system, messages, 3 tokens framing per message) + "
            "the documented tool-use system prompt from data/models.json"
        )
    if info.counting == "gemini-gemma3":
        return (
            "Gemini's tokenizer, Gemma 3's (as google-genai's LocalTokenizer; the shipped file is "
            "Gemma 4's, which splits text the same), over each text part, + 1 token per content "
            "and systemInstruction as bills show (exact for text)"
        )
    if info.counting == "gemini-estimate":
        return (
            f"estimate: {PROXY} as a proxy for Gemini's tokenizer (not public offline) over the "
            "Gemini rendering (function declarations as JSON, systemInstruction, contents, 3 "
            "tokens framing per content)"
        )
    if info.encoding is None:
        return (
            f"estimate: tiktoken {PROXY} as a proxy ({info.id}'s tokenizer is not public) over "
            "the openai-chat-2024 rendering model"
        )
    how = f"tiktoken {info.encoding} over the openai-chat-2024 rendering model"
    if info.counting_verified:
        return how + " (checked against published API prompt_tokens)"
    return how + f" (verified on gpt-4o/gpt-4o-mini, assumed for {info.id})"


def uncertain(request: Request, info: ModelInfo) -> dict[str, tuple[int | None, str]]:
    """Part -> (how many tokens it can be off, None if unknown; why), for one request."""
    if info.counting == "harmony":
        return {}
    if info.counting != "openai-chat-2024":
        return images_of_unknown_size(request, info)
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
    """For the Claude and Gemini estimates: images given by URL (their size is unknown offline)."""
    out: dict[str, tuple[int | None, str]] = {}
    for i, message in enumerate(request.messages):
        for j, block in enumerate(message.content):
            if isinstance(block, Image) and block.data is None and info.image:
                out[f"messages[{i}].content[{j}]"] = (_image_bound(info), "image size unknown")
    return out


def _schema_bound(schema: dict[str, Any], info: ModelInfo) -> tuple[int, str]:
    shapes, dropped, nested = set(), {}, []
    _walk(schema, shapes, dropped, nested, top=True)
    enc = encoding_name(info)
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
            continue  # a property's title is its comment (openai_chat._comment): verified
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


def _image_bound(info: ModelInfo) -> int | None:
    """How far an image of unknown size can be from its guess (``image_tokens``): the largest
    image's tokens minus the guess (for Claude's area rule, the guess minus the smallest too)."""
    rule = info.image or {}
    if rule.get("method") == "tiles":
        return _tiles(768, 2048, rule, "high") - _tiles(512, 512, rule, "high")
    if rule.get("method") == "patches":
        return _patches(2048, 2048, rule) - 765
    if rule.get("method") == "anthropic-area" and rule.get("max_tokens"):
        return max(765, rule["max_tokens"] - 765)  # 765: the guess for an unknown size
    return 0 if rule.get("method") == "flat" or info.counting == "openai-chat-2024" else None
