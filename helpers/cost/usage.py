"""Used in lessons: none directly (imported by cost).

Each provider's usage object, as the neutral ``Usage`` (input includes cached tokens).

See the table in ``helpers.cost``. The rules themselves live in ``helpers.formats`` (one
``parse_usage`` per wire format), which applies them when it parses a whole response; this
module takes the usage object alone, as a TRACE file or a log holds it.

What it deliberately does not do: price anything (``helpers.cost.prices``).
"""

from __future__ import annotations

from typing import Any

from helpers.replies import Usage

__all__ = ["PROVIDERS", "usage_from"]

PROVIDERS = ("openai-chat", "openai-responses", "anthropic", "gemini")


def usage_from(raw: dict[str, Any], format: str) -> Usage:
    """A provider's raw usage object as the neutral ``Usage`` (see the table above).

    The rules live with each wire format (``helpers.formats.<format>.parse_usage``), where
    the response parsers use them too; this is the entry point the cost lessons call.
    """
    from helpers.formats import parse_usage

    if format not in PROVIDERS:
        raise ValueError(f"unknown format {format!r} (known: {', '.join(PROVIDERS)})")
    return parse_usage(raw, format)
