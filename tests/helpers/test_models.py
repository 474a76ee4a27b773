"""The model table: lookups, defaults, prefix fallback, and that genai-prices knows every row."""

from __future__ import annotations

import json

import pytest

from helpers.models import (
    TABLE,
    UnknownModelError,
    as_of,
    default_model,
    model_info,
    models,
    price_timestamp,
)


def test_required_models_are_in_the_table():
    required = {
        "gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-5", "gpt-5-mini",
        "claude-sonnet-4-6", "claude-haiku-4-5", "claude-opus-4-1", "claude-sonnet-4",
        "gemini-2.5-flash", "gpt-oss-120b", "gpt-6-luna", "claude-sonnet-5-5", "gemini-3.8-flash",
    }  # fmt: skip
    assert required <= set(models())
    assert set(models("anthropic")) == {
        "claude-sonnet-4-6", "claude-haiku-4-5", "claude-opus-4-1", "claude-sonnet-4",
        "claude-sonnet-5-5", "claude-sonnet-5",
    }  # fmt: skip
    assert "claude-sonnet-4-5" in models("anthropic", include_legacy=True)  # retired 2026-11-30
    assert "gpt-3.5-turbo" not in models() and "gpt-3.5-turbo" in models(include_legacy=True)


def test_the_default_claude_is_not_past_its_end_of_life():
    """The SDK warns about deprecated models on every call; a lesson default must not be one."""
    from anthropic._data import DEPRECATED_MODELS

    assert default_model("anthropic") not in DEPRECATED_MODELS


def test_defaults_exist_in_the_table():
    for provider in ("openai", "anthropic", "gemini", "harmony"):
        assert default_model(provider) in models()
    for wire_format in ("openai-chat", "openai-responses"):  # lesson 11's switch names formats
        assert default_model(wire_format) == default_model("openai")
    with pytest.raises(UnknownModelError, match="known: anthropic, gemini, harmony, openai"):
        default_model("mistral")


def test_unknown_model_error_lists_the_known_ids():
    with pytest.raises(UnknownModelError) as err:
        model_info("llama-9-turbo")  # no provider names its models so
    message = str(err.value)
    assert "unknown model 'llama-9-turbo'" in message and "gpt-4o-mini" in message
    assert as_of() in message and "no provider uses this name" in message


def test_dated_snapshots_fall_back_by_longest_prefix_with_a_note():
    info = model_info("gpt-4o-mini-2024-07-18")
    assert info.id == "gpt-4o-mini" and "matched by prefix" in info.note
    assert info.matched_by_prefix == "gpt-4o-mini-2024-07-18"  # the id asked for, a field
    assert model_info("gpt-4o-mini").matched_by_prefix is None
    assert model_info("claude-sonnet-4-5-20250929").id == "claude-sonnet-4-5"
    assert "matched by prefix" not in model_info("gpt-4o").note


def test_rows_carry_their_rules_and_sources():
    claude = model_info("claude-haiku-4-5")
    assert claude.encoding is None and claude.counting == "anthropic-estimate"
    assert claude.tool_use_overhead == {"auto": 496, "none": 496, "any": 588, "tool": 588}
    assert claude.cache["min_tokens"] == 4096
    cache = model_info("gpt-4o").cache
    rule = (cache["kind"], cache["min_tokens"], cache["step_tokens"])
    assert rule == ("openai-prefix", 1024, 128)
    assert cache["lifetime_s"] == 300 and "best_effort" in cache
    assert "contested" in model_info("claude-sonnet-4-6").cache
    table = json.loads(TABLE.read_text(encoding="utf-8"))  # every row's sources are cited
    for row in table["models"].values():
        assert all(table["sources"][key] for key in row.get("sources", ()))


def test_price_timestamp_is_midnight_utc_of_as_of():
    stamp = price_timestamp()
    assert stamp.isoformat() == f"{as_of()}T00:00:00+00:00"


@pytest.mark.parametrize("model_id", models(include_legacy=True))
def test_genai_prices_knows_every_row(model_id):
    from genai_prices import Usage, calc_price

    info = model_info(model_id)
    price = calc_price(
        Usage(input_tokens=1000, output_tokens=100),
        info.price_ref,
        provider_id=info.price_provider,
        genai_request_timestamp=price_timestamp(),
    )
    assert price.total_price > 0
