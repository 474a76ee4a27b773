"""Gemini streaming (``:streamGenerateContent?alt=sse``): ``data:`` records, no ``[DONE]``.

Each record is itself a whole ``GenerateContentResponse`` whose ``candidates[0].content.parts``
hold only the *new* parts: text arrives in pieces (concatenate them in order), a
``functionCall`` part always arrives whole (the Gemini API does not stream arguments), and a
``thoughtSignature`` rides on a part (sometimes a part with empty text). ``finishReason`` comes
on the last record, which also carries the final ``usageMetadata``; earlier usage is provisional.
Gemini has no tool-specific finish reason: a tool-calling turn ends with ``STOP`` too.

Without ``alt=sse`` the same endpoint returns the records as one JSON array instead.
Not handled: several candidates (``candidateCount > 1``), safety ratings, citations.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from helpers.sse import StreamError, frame, pieces

__all__ = ["accumulate", "encode", "records"]


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


def _append(parts: list[dict[str, Any]], part: dict[str, Any]) -> None:
    """Add a streamed part, joining text pieces of the same kind into one part."""
    previous = parts[-1] if parts else None
    joinable = (
        previous is not None
        and "text" in part
        and "text" in previous
        and bool(previous.get("thought")) == bool(part.get("thought"))
        and "thoughtSignature" not in previous
    )
    if joinable:
        previous["text"] += part["text"]
        if "thoughtSignature" in part:
            previous["thoughtSignature"] = part["thoughtSignature"]
    else:
        parts.append(dict(part))


def accumulate(events: Iterable[Any]) -> dict[str, Any]:
    """Records -> the ``GenerateContentResponse`` a non-streaming call returns."""
    body: dict[str, Any] = {}
    parts: list[dict[str, Any]] = []
    candidate: dict[str, Any] = {"content": {"parts": parts, "role": "model"}, "index": 0}
    for event in events:
        record = json.loads(event.data)
        if "error" in record:
            error = record["error"]
            raise StreamError(f"error record in the stream: {error.get('message', error)}", body)
        body.update({k: v for k, v in record.items() if k != "candidates"})  # last usage wins
        for streamed in record.get("candidates") or []:
            for part in (streamed.get("content") or {}).get("parts") or []:
                _append(parts, part)
            candidate.update({k: v for k, v in streamed.items() if k not in ("content",)})
    result = {"candidates": [candidate], **body}
    if "finishReason" not in candidate:
        raise StreamError(
            "the stream ended without a finishReason: the reply is incomplete", result
        )
    return result
