"""Used in lessons: 09.

What one request costs: each provider's usage as the neutral ``Usage``, priced.

``usage_from(raw, format)`` reads a provider's usage object (``input_tokens`` counts *all*
input, cached or not); ``price(usage, model)`` prices it with genai-prices (pinned, offline, at
the model table's date), split the way price lists are: uncached input, cache reads, cache
writes (Anthropic 5-minute and 1-hour), output. The split prices each kind alone: exact except
where the price tier depends on the total input (above 200k tokens the split is approximate).

What it deliberately does not do: type a price, or download one (never ``UpdatePrices``).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from helpers.html import no_math
from helpers.messages import Usage
from helpers.models import ModelInfo, model_info, price_timestamp

PROVIDERS = ("openai-chat", "openai-responses", "anthropic", "gemini")


def usage_from(raw: dict[str, Any], format: str) -> Usage:
    """A provider's raw usage object (as a TRACE file or a log holds it) as the neutral ``Usage``.

    Its ``input_tokens`` counts all input: Anthropic's excludes cache reads and writes, so they
    are added. The rules live with each wire format (``helpers.formats.<format>.parse_usage``).
    """
    from helpers.formats import parse_usage

    if format not in PROVIDERS:
        raise ValueError(f"unknown format {format!r} (known: {', '.join(PROVIDERS)})")
    return parse_usage(raw, format)


@dataclass
class Cost:
    """One request's bill, in US dollars, split the way the price list splits it."""

    model: str
    usage: Usage
    uncached_usd: Decimal
    cache_read_usd: Decimal
    cache_write_usd: Decimal
    output_usd: Decimal

    @property
    def input_usd(self) -> Decimal:
        return self.uncached_usd + self.cache_read_usd + self.cache_write_usd

    @property
    def total_usd(self) -> Decimal:
        return self.input_usd + self.output_usd

    def _repr_html_(self) -> str:
        u = self.usage
        return no_math(
            f"<p><b>${self.total_usd:.6f}</b> on <code>{html.escape(self.model)}</code>: "
            f"{u.uncached_input_tokens} uncached (${self.uncached_usd:.6f}) + "
            f"{u.cache_read_tokens} cache reads (${self.cache_read_usd:.6f}) + "
            f"{u.cache_write_tokens} cache writes (${self.cache_write_usd:.6f}) + "
            f"{u.output_tokens} output (${self.output_usd:.6f})</p>"
        )


def _calc(info: ModelInfo, **usage: int):
    from genai_prices import Usage as PriceUsage
    from genai_prices import calc_price

    usage = {k: v for k, v in usage.items() if v}
    return calc_price(
        PriceUsage(**usage),
        info.price_ref,
        provider_id=info.price_provider,
        genai_request_timestamp=price_timestamp(),
    )


def price(usage: Usage, model: str | ModelInfo, *, cache_write_1h_tokens: int = 0) -> Cost:
    """Price a neutral ``Usage`` (input includes cached tokens) with genai-prices.

    Anthropic's 1-hour cache writes cost more than 5-minute ones: pass how many of
    ``usage.cache_write_tokens`` were 1-hour (or keep the raw usage: its
    ``cache_creation.ephemeral_1h_input_tokens`` is read).
    """
    info = model if isinstance(model, ModelInfo) else model_info(model)
    one_hour = cache_write_1h_tokens or (usage.raw.get("cache_creation") or {}).get(
        "ephemeral_1h_input_tokens", 0
    )
    read, write = usage.cache_read_tokens, usage.cache_write_tokens
    full = _calc(
        info,
        input_tokens=usage.input_tokens,
        cache_read_tokens=read,
        cache_write_tokens=write,
        cache_write_1h_tokens=one_hour,
        output_tokens=usage.output_tokens,
    )
    # Split the input price: price each kind of input token alone (genai-prices is linear).
    read_usd, write_usd = Decimal(0), Decimal(0)
    if read:
        read_usd = _calc(info, input_tokens=read, cache_read_tokens=read).input_price
    if write:
        write_usd = _calc(
            info, input_tokens=write, cache_write_tokens=write, cache_write_1h_tokens=one_hour
        ).input_price
    uncached_usd = full.input_price - read_usd - write_usd
    return Cost(info.id, usage, uncached_usd, read_usd, write_usd, full.output_price)


def rates(model: str | ModelInfo) -> dict[str, Decimal]:
    """US dollars per million tokens by kind: ``input``, ``cached_input``, ``output`` (and
    ``cache_write`` where the price list has one), from genai-prices at the table's date."""
    info = model if isinstance(model, ModelInfo) else model_info(model)
    million = 1_000_000
    out = {
        "input": _calc(info, input_tokens=million).input_price,
        "cached_input": _calc(info, input_tokens=million, cache_read_tokens=million).input_price,
        "output": _calc(info, output_tokens=million).output_price,
    }
    write = _calc(info, input_tokens=million, cache_write_tokens=million).input_price
    if write != out["input"]:
        out["cache_write"] = write
    return out
