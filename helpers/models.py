"""Used in lessons: 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 12, 13.

The model table: which tokenizer, counting rule, prices and cache rules each model has.

Everything comes from one dated file, ``data/models.json``: lessons never hard-code a model id
and nothing per-model is typed into code. Prices are looked up in genai-prices at one fixed date
(``price_timestamp``), so results are reproducible. An id the table lacks is a known id's dated
snapshot (noted, ``matched_by_prefix``), else genai-prices' model or alias or a name of its
provider's, counted with its provider's rule (``unlisted``); a name no provider uses raises
``UnknownModelError``. The tokenizers are in ``helpers.tokens.tokenizers``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from decimal import Decimal
from functools import cache
from typing import Any

from helpers.examples import DATA
from helpers.formats.providers import FAMILIES, PROVIDERS
from helpers.moved import moved

__all__ = [
    "PRICE_PROVIDERS", "TABLE", "ModelInfo", "UnknownModelError", "as_of", "current_model",
    "default_model", "genai_price", "info_for", "model_info", "models", "price_timestamp", "rates",
    "unlisted",
]  # fmt: skip

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


def genai_price(info: ModelInfo, **tokens: int):
    """genai-prices' price of ``tokens`` by kind (``input_tokens=``...) at the table's date."""
    from genai_prices import Usage as Tokens
    from genai_prices import calc_price

    usage = Tokens(**{kind: n for kind, n in tokens.items() if n})
    at, provider = price_timestamp(), info.price_provider
    return calc_price(usage, info.price_ref, provider_id=provider, genai_request_timestamp=at)


def rates(model: str | ModelInfo) -> dict[str, Decimal]:
    """US dollars per million tokens by kind: ``input``, ``cached_input``, ``output`` (and
    ``cache_write`` where the price list has one), from genai-prices at the table's date: 1,000
    tokens priced and scaled (a million in one request would hit some long-context tiers)."""
    info, n, scale = info_for(model), 1_000, 1_000
    out = {
        "input": genai_price(info, input_tokens=n).input_price * scale,
        "cached_input": genai_price(info, input_tokens=n, cache_read_tokens=n).input_price * scale,
        "output": genai_price(info, output_tokens=n).output_price * scale,
    }
    write = genai_price(info, input_tokens=n, cache_write_tokens=n).input_price * scale
    if write != out["input"]:
        out["cache_write"] = write
    return out


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
    return _listed("defaults", provider)


def current_model(provider: str) -> str:
    """``provider``'s newest generation in the table: what a design is priced on today (its
    counts are estimates; ``default_model`` is what the lessons count with)."""
    return _listed("current", provider)


def _listed(key: str, provider: str) -> str:
    models = _table()[key]
    provider = PROVIDERS[provider].family if provider in PROVIDERS else provider
    if provider not in models:
        known = ", ".join(sorted(models))
        raise UnknownModelError(f"no model for {provider!r} in the table's {key!r}; known: {known}")
    return models[provider]


@cache
def model_info(model_id: str) -> ModelInfo:
    """The table row for ``model_id`` (a bare id or a path ending ``models/ID:method``), else
    for the longest known id it starts with, else ``unlisted``'s row (noted). Memoised: treat
    the returned row as read-only."""
    rows = _table()["models"]
    model_id = model_id.split("models/")[-1].split(":")[0] if "models/" in model_id else model_id
    prefixes = [known for known in rows if model_id.replace("@", "-").startswith(known + "-")]
    if model_id in rows:
        info = _row(model_id, rows[model_id])
    elif prefixes:
        known = max(prefixes, key=len)
        info = _row(known, rows[known])
        note = f"{model_id!r} is not in the table; using {known!r} (matched by prefix)"
        note = f"{note}. {info.note}".strip().rstrip(".")
        info = replace(info, note=note, matched_by_prefix=model_id)
    else:
        info = unlisted(model_id)
    if info is None:
        known_ids = ", ".join(sorted(rows))
        raise UnknownModelError(
            f"unknown model {model_id!r}: no provider uses this name; data/models.json (as of "
            f"{as_of()}) knows: {known_ids}, and genai-prices its providers' models"
        )
    if model_id not in _table()["gemma3_models"]:
        return info
    # Google's SDK counts this id (as named, not a variant) with Gemma 3's tokenizer
    return replace(info, counting="gemini-gemma3", encoding="gemma3", counting_verified=True)


#: The price data's providers whose models the series counts, and whose rule counts them.
PRICE_PROVIDERS = {row.price_id: family for family, row in FAMILIES.items()}


def unlisted(model_id: str) -> ModelInfo | None:
    """A model the table lacks: genai-prices' model (aliases and snapshots resolved), else a name
    its provider's naming matches; counted with that provider's default row (its rule, prompt
    and image sizes; OpenAI's with tiktoken's encoding for the name). None if no provider."""
    from genai_prices.data_snapshot import get_snapshot

    for provider in get_snapshot().providers:
        rule = PRICE_PROVIDERS.get(provider.id)
        found = provider.find_model(model_id) if rule else None
        found = found or next((m for m in provider.models if rule and m.id == model_id), None)
        if found is None and not (rule and provider.model_match.is_match(model_id.lower())):
            continue
        price = found.id if found else model_id
        how = f"genai-prices names it {price!r}" if found else "nor in genai-prices"
        if price in _table()["models"]:
            info = model_info(price)
        else:
            base = model_info(default_model("harmony" if "gpt-oss" in price else rule))
            encoding = _tiktoken_name(price) if base.encoding else None  # a tiktoken rule's
            info = replace(base, id=price, encoding=encoding, price_ref=price)
            info, how = replace(info, price_provider=provider.id), f"{how}; {base.id}'s rule"
        note = f"{model_id!r} is not in the table; {how}"
        return replace(info, counting_verified=False, note=note, matched_by_prefix=model_id)
    return None


def _tiktoken_name(model_id: str) -> str | None:
    """tiktoken's encoding for an OpenAI model id, if ``encoding`` loads it; else None."""
    import tiktoken

    try:
        name = tiktoken.encoding_name_for_model(model_id)
    except KeyError:
        return None
    return name if name in ("o200k_base", "o200k_harmony", "cl100k_base") else None


def info_for(model: str | ModelInfo | None, request: Any = None) -> ModelInfo:
    """The row to count or price with: ``model`` itself, else the request's own model, else the
    lessons' OpenAI default. ``request`` is anything with a ``.model`` (a neutral ``Request``)."""
    if isinstance(model, ModelInfo):
        return model
    chosen = model or (request.model if request is not None else "") or default_model("openai")
    return model_info(chosen)


# --- deprecated paths, kept for one release (helpers/moved.py) ---------------------------------
_TOKENIZERS = ("PROXY", "encode", "encoding", "encoding_name", "special_id", "split_at")
__getattr__ = moved(__name__, dict.fromkeys(_TOKENIZERS, "helpers.tokens.tokenizers"))
