"""Gemini streaming, the write side: a whole response body cut into its events.

The stand-in streams with this. The event order it follows, and what each event carries,
is explained where the stream is read back: ``helpers/sse/accumulators.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from standin.sse_write.framing import frame, pieces

__all__ = ["records", "encode"]


def records(body: dict[str, Any], size: int = 24) -> list[dict[str, Any]]:
    """A whole ``GenerateContentResponse`` cut into the partial responses Gemini streams."""
    candidate = body["candidates"][0]
    usage = dict(body.get("usageMetadata") or {})
    head = {k: v for k, v in body.items() if k not in ("candidates", "usageMetadata")}
    early_usage = {k: usage[k] for k in ("promptTokenCount",) if k in usage}
    early_usage["totalTokenCount"] = usage.get("promptTokenCount", 0)
    parts: list[dict[str, Any]] = []
    for part in candidate["content"].get("parts") or []:
        if "text" in part and len(part["text"]) > size:
            texts = pieces(part["text"], size)
            rest = {k: v for k, v in part.items() if k not in ("text", "thoughtSignature")}
            parts.extend({**rest, "text": t} for t in texts[:-1])
            parts.append({**part, "text": texts[-1]})  # the signature rides on the last piece
        else:
            parts.append(part)  # function calls, short texts: whole
    out = []
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        piece = {"content": {"parts": [part], "role": "model"}, "index": 0}
        if last:
            piece.update({k: v for k, v in candidate.items() if k not in ("content", "index")})
        out.append({"candidates": [piece], "usageMetadata": usage if last else early_usage, **head})
    if not parts:
        out.append({"candidates": [candidate], "usageMetadata": usage, **head})
    return out


def encode(body: dict[str, Any], size: int = 24) -> Iterator[str]:
    """A whole response as the ``data:`` records of ``streamGenerateContent?alt=sse``."""
    for record in records(body, size):
        yield frame(record)
