"""Used in lessons: none directly.

Gemini streaming (``:streamGenerateContent?alt=sse``): ``data:`` records, no ``[DONE]``.

Each record is itself a whole ``GenerateContentResponse`` whose ``candidates[0].content.parts``
hold only the *new* parts: text arrives in pieces (concatenate them in order), a
``functionCall`` part always arrives whole (the Gemini API does not stream arguments), and a
``thoughtSignature`` rides on a part (sometimes a part with empty text). ``finishReason`` comes
on the last record, which also carries the final ``usageMetadata``; earlier usage is provisional.
Gemini has no tool-specific finish reason: a tool-calling turn ends with ``STOP`` too.

Without ``alt=sse`` the same endpoint returns the records as one JSON array instead.
Not handled: several candidates (``candidateCount > 1``), safety ratings, citations.

The other direction (a whole body cut into these events, for the local provider) is machinery:
``standin/sse_write/gemini.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from helpers.sse import StreamError

__all__ = ["accumulate"]


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
