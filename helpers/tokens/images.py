"""Used in lessons: none directly (imported by tokens.estimate, tokens.exactness, ...).

What an image costs in input tokens: tile or patch arithmetic from its pixel size.

Providers do not tokenize image bytes as text; they charge by size, per model:

- ``tiles`` (gpt-4o, gpt-4o-mini): ``detail: low`` costs the base; otherwise scale to fit
  2048x2048, then the shortest side to 768, and charge ``base + tile * (512px tiles)``.
  (1x1 PNG on gpt-4o: 85 + 170 = 255; on gpt-4o-mini: 2833 + 5667 = 8500.)
- ``patches`` (gpt-4.1 family, gpt-5-mini): 32px patches, at most 1536, times a multiplier.
- ``anthropic-area``: about width * height / 750, capped (an estimate).
- ``flat``: a fixed number per image (Gemini's commonly cited 258: an estimate).

The numbers live in ``data/models.json``. The pixel size is read from the PNG, GIF, JPEG or
WebP header of inline ``data``; an image given by URL has no size offline, so its cost is an
estimate and says so.

What it deliberately does not do: decode pixels or fetch URLs.
"""

from __future__ import annotations

import base64
import math
import struct
from dataclasses import dataclass
from typing import Any

from helpers.messages import Image

__all__ = ["ImageCost", "image_size", "image_tokens"]


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
        guess = {"tiles": lambda: _tiles(512, 512, rule, detail)}.get(rule["method"])
        tokens = guess() if guess else 765
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
