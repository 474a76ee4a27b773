"""Each provider's stand-in module (``standin/providers/NAME.py``) defines what the stand-in's
concern modules ask of it, so a fifth provider's module is complete when these pass (not only
when a request first reaches the question)."""

from __future__ import annotations

import pytest

from helpers.formats.providers import FAMILIES, PROVIDERS
from standin.providers import of, of_family

#: What every format's module defines: read by the rules, the verdict, the routes and the counts.
EVERY_FORMAT = (
    "REQUIRED", "KINDS", "SHARED", "SIGNATURE_PREFIX", "FUNCTIONS_ERA", "TOOL_CALL_ID",
    "TWO_SPELLINGS", "REQUEST_ID_HEADER", "REPLY_ID", "STORES", "SIGNS_FIRST_CALL",
    "NAMES_STOP_SEQUENCE", "USAGE_ON_ASK", "json_array", "FORWARDED", "ID_PATTERNS",
    "NAMES_PARAM", "NOTE_NAMES_KIND", "PAIRS_ON_THE_WIRE", "UNKNOWN_FIELDS_FIRST", "TURNS",
    "PARTS_BY_KEY", "UNCOUNTED_FIELDS", "UNCOUNTED_PARTS", "response_body", "reasoning",
    "wants_reasoning", "bad_signature", "key_refusal", "read_options", "origins", "wire_notes",
    "tool_choice", "tool_schema", "settings", "wire_answer", "unknown_fields", "tool_place",
    "output_place", "uncounted_extras", "structured_output", "built_in_tool", "ROUTES", "claims",
    "curl", "tool_choice_rows",
)  # fmt: skip
#: What the first module of each family defines: its errors and its live count.
EVERY_FAMILY = (
    "BAD_JSON", "NOT_FOUND", "UNKNOWN_MODEL", "ERROR_TYPES", "error_body", "live_count",
    "LIVE_COUNT_TOTAL", "LIVE_COUNT_NOTES",
)  # fmt: skip


@pytest.mark.parametrize("fmt", PROVIDERS)
def test_a_format_module_defines_what_the_stand_in_asks(fmt):
    missing = [name for name in EVERY_FORMAT if not hasattr(of(fmt), name)]
    assert not missing, f"standin/providers/{fmt.replace('-', '_')}.py lacks {missing}"


@pytest.mark.parametrize("family", FAMILIES)
def test_a_family_module_defines_its_errors_and_live_count(family):
    missing = [name for name in EVERY_FAMILY if not hasattr(of_family(family), name)]
    assert not missing, f"{of_family(family).__name__} lacks {missing} (family {family})"


def test_an_unknown_format_is_named_with_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown format 'nope' \(known: openai-chat, "):
        of("nope")


def test_the_routes_and_the_error_style_come_from_the_provider_modules():
    """Each endpoint is found through its provider's ``ROUTES``; Gemini's model paths are tried
    before OpenAI's models list (which would also match them); an unroutable request takes the
    style of the provider whose module claims it, else OpenAI Chat's."""
    from standin.provider.errors import provider_for_path
    from standin.provider.routes import find_route

    assert find_route("/v1/models/gemini-2.5-flash:generateContent", "").provider == "gemini"
    assert find_route("/v1/models/gpt-4o-mini", "").provider == "openai-chat"
    assert find_route("/v1/messages/count_tokens", "").kind == "count"
    assert provider_for_path("/v1/messages", {"x-goog-api-key": "k"}) == "gemini"
    assert provider_for_path("/nowhere", {"anthropic-version": "2023-06-01"}) == "anthropic"
    assert provider_for_path("/nowhere", {}) == "openai-chat"
