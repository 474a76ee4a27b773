"""Used in lessons: 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 12, 13.

The model table: which tokenizer, counting rule, prices and cache rules each model has.

Everything comes from one dated file, ``data/models.json``: lessons never hard-code a model id
and nothing per-model is typed into code. Prices are looked up in genai-prices at one fixed date
(``price_timestamp``), so results are reproducible.

It does not guess: an unknown id raises ``UnknownModelError``, unless it *starts with* a known
id (a dated snapshot such as ``gpt-4o-2024-08-06``): then ``matched_by_prefix`` names it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cache
from typing import Any

from helpers.examples import DATA

TABLE = DATA / "models.json"


class UnknownModelError(KeyError):
    """The model id is not in ``data/models.json`` (the message lists the ids that are)."""

    def __str__(self) -> str:  # KeyError would print the message with quotes around it
        return str(self.args[0])


@dataclass(frozen=True)
class ModelInfo:
    """One row of the model table."""

    id: str
    provider: str  # "openai", "anthropic" or "gemini": whose wire format and usage rules
    encoding: str | None  # tiktoken encoding name, or None when the tokenizer is not public
    counting: str  # counting rule: "openai-chat-2024", "anthropic-estimate", ...
    counting_verified: bool  # published API-reported figures exist for this rule and model
    price_ref: str
    price_provider: str
    cache: dict[str, Any] = field(default_factory=dict)
    image: dict[str, Any] | None = None
    tool_use_overhead: dict[str, int] | None = None  # Anthropic: tokens by tool_choice type
    legacy: bool = False
    note: str = ""
    #: The id asked for, when it is not in the table and this row matched it by prefix.
    matched_by_prefix: str | None = None


@cache
def _table() -> dict[str, Any]:
    return json.loads(TABLE.read_text(encoding="utf-8"))


def _row(model_id: str, raw: dict[str, Any]) -> ModelInfo:
    return ModelInfo(
        id=model_id,
        provider=raw["provider"],
        encoding=raw.get("encoding"),
        counting=raw["counting"],
        counting_verified=bool(raw.get("counting_verified", False)),
        price_ref=raw["price"]["model_ref"],
        price_provider=raw["price"]["provider_id"],
        cache=dict(raw.get("cache") or {}),
        image=raw.get("image"),
        tool_use_overhead=raw.get("tool_use_overhead"),
        legacy=bool(raw.get("legacy", False)),
        note=raw.get("note", ""),
    )


def as_of() -> str:
    """The date the table (and the prices looked up with it) describes, e.g. ``2026-08-21``."""
    return _table()["as_of"]


def price_timestamp() -> datetime:
    """The fixed ``genai_request_timestamp`` for genai-prices: midnight UTC of ``as_of()``."""
    return datetime.fromisoformat(as_of()).replace(tzinfo=UTC)


def models(provider: str | None = None, *, include_legacy: bool = False) -> list[str]:
    """Known model ids, optionally only one provider's; legacy rows only when asked for."""
    rows = _table()["models"]
    return [
        model_id
        for model_id, raw in rows.items()
        if (provider is None or raw["provider"] == provider)
        and (include_legacy or not raw.get("legacy", False))
    ]


def default_model(provider: str) -> str:
    """The model a lesson uses for ``provider`` ("openai", "anthropic", "gemini", "harmony"),
    or for a wire format ("openai-chat" and "openai-responses" are OpenAI's)."""
    defaults = _table()["defaults"]
    if provider in ("openai-chat", "openai-responses"):
        provider = "openai"
    if provider not in defaults:
        raise UnknownModelError(
            f"no default model for {provider!r}; known: {', '.join(sorted(defaults))}"
        )
    return defaults[provider]


def current_model(provider: str) -> str:
    """``provider``'s newest generation in the table ("openai", "anthropic", "gemini"): what a
    design is priced on today. Counts on it are estimates; ``default_model`` is what the lessons
    count with."""
    current = _table()["current"]
    if provider not in current:
        raise UnknownModelError(f"no current model for {provider!r}; known: {', '.join(current)}")
    return current[provider]


@cache
def model_info(model_id: str) -> ModelInfo:
    """The table row for ``model_id``, or for the longest known id it starts with (noted).

    Memoised: counting a long ticket asks for the same row once per request. Treat the
    returned row as read-only.
    """
    rows = _table()["models"]
    if model_id in rows:
        return _row(model_id, rows[model_id])
    prefixes = [known for known in rows if model_id.startswith(known + "-")]
    if prefixes:
        known = max(prefixes, key=len)
        info = _row(known, rows[known])
        note = f"{model_id!r} is not in the table; using {known!r} (matched by prefix)"
        note = f"{note}. {info.note}".strip().rstrip(".")
        return replace(info, note=note, matched_by_prefix=model_id)
    known_ids = ", ".join(sorted(rows))
    raise UnknownModelError(
        f"unknown model {model_id!r}; data/models.json (as of {as_of()}) knows: {known_ids}"
    )


def info_for(model: str | ModelInfo | None, request: Any = None) -> ModelInfo:
    """The row to count or price with: ``model`` itself, else the request's own model, else the
    lessons' OpenAI default. ``request`` is anything with a ``.model`` (a neutral ``Request``)."""
    if isinstance(model, ModelInfo):
        return model
    chosen = model or (request.model if request is not None else "") or default_model("openai")
    return model_info(chosen)
