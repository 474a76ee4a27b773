"""SSE framing for the write side: one event as text, and text cut into deltas."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["frame", "pieces"]


def frame(data: dict[str, Any] | str, event: str | None = None) -> str:
    """One SSE event as text: an optional ``event:`` line, one ``data:`` line, a blank line."""
    payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n"


def pieces(text: str, size: int = 12) -> list[str]:
    """Deterministic deltas: ``text`` cut after whitespace roughly every ``size`` characters.

    Real providers cut at token boundaries; any cut is valid, and a fixed rule keeps the
    stand-in's streams reproducible.
    """
    out: list[str] = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        space = text.rfind(" ", start + 1, end)
        if end < len(text) and space > start:
            end = space + 1
        out.append(text[start:end])
        start = end
    return out or [""]
