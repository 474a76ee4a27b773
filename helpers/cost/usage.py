"""Each provider's usage object, as the neutral ``Usage`` (input includes cached tokens).

See the table in ``helpers.cost``. ``helpers.formats`` applies the same rules when it parses a
whole response (a test checks they agree); this module takes the usage object alone, as a
TRACE file or a log holds it.

What it deliberately does not do: price anything (``helpers.cost.prices``).
"""

from __future__ import annotations

from typing import Any

from helpers.replies import Usage

__all__ = ["PROVIDERS", "usage_from"]

PROVIDERS = ("openai-chat", "openai-responses", "anthropic", "gemini")


def usage_from(raw: dict[str, Any], provider: str) -> Usage:
    """A provider's raw usage object as the neutral ``Usage`` (see the table above)."""
    if provider == "openai-chat":
        details = raw.get("prompt_tokens_details") or {}
        out = raw.get("completion_tokens_details") or {}
        return Usage(
            input_tokens=raw.get("prompt_tokens", 0),
            output_tokens=raw.get("completion_tokens", 0),
            cache_read_tokens=details.get("cached_tokens") or 0,
            cache_write_tokens=details.get("cache_write_tokens") or 0,
            reasoning_tokens=out.get("reasoning_tokens") or 0,
            raw=raw,
        )
    if provider == "openai-responses":
        details = raw.get("input_tokens_details") or {}
        out = raw.get("output_tokens_details") or {}
        return Usage(
            input_tokens=raw.get("input_tokens", 0),
            output_tokens=raw.get("output_tokens", 0),
            cache_read_tokens=details.get("cached_tokens") or 0,
            cache_write_tokens=details.get("cache_write_tokens") or 0,
            reasoning_tokens=out.get("reasoning_tokens") or 0,
            raw=raw,
        )
    if provider == "anthropic":
        read = raw.get("cache_read_input_tokens") or 0
        write = raw.get("cache_creation_input_tokens") or 0
        return Usage(
            input_tokens=raw.get("input_tokens", 0) + read + write,
            output_tokens=raw.get("output_tokens", 0),
            cache_read_tokens=read,
            cache_write_tokens=write,
            reasoning_tokens=(raw.get("output_tokens_details") or {}).get("thinking_tokens") or 0,
            raw=raw,
        )
    if provider == "gemini":
        thoughts = raw.get("thoughtsTokenCount") or 0
        return Usage(
            input_tokens=(raw.get("promptTokenCount") or 0)
            + (raw.get("toolUsePromptTokenCount") or 0),
            output_tokens=(raw.get("candidatesTokenCount") or 0) + thoughts,
            cache_read_tokens=raw.get("cachedContentTokenCount") or 0,
            reasoning_tokens=thoughts,
            raw=raw,
        )
    raise ValueError(f"unknown provider {provider!r} (known: {', '.join(PROVIDERS)})")
