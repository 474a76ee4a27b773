"""standin.rules.table and docs/rules.md: every rule per provider, current and consistent.

The page is generated (``scripts/rules_table.py``); this test fails when it is stale. And the
table must say what ``check`` does: a rule a row calls refused is an error under that profile,
one it calls accepted is at most a warning, and every error ``check`` reports under a
provider's profile is either in the table or a shape no format can carry.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers.rules import SHAPE_RULES
from standin.rules.strict import PROFILES
from standin.rules.table import ROWS, markdown
from standin.verdict import verdict
from tests.standin.test_verdict import CASES

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rules.md"
PROVIDERS = ("openai-chat", "openai-responses", "anthropic", "gemini")
#: Where the verdict's rules are made: a ``Finding("rule", ...)`` or a parser's ``rule="..."``.
_RULE = re.compile(r'(?:Finding\(\s*|rule=)"([a-z]+(?:-[a-z]+)*)"')
#: Rules every profile can apply (the shared core, the pairing, the verdict's own) ...
SHARED = ("helpers/rules/core.py", "helpers/rules/pairing.py", "standin/verdict.py")
#: ... and the rules of one provider (its module and its parser).
OWN = {
    "openai-chat": ("helpers/rules/openai_chat.py", "helpers/formats/openai_chat_parse.py"),
    "openai-responses": (
        "helpers/rules/openai_responses.py",
        "helpers/formats/openai_responses_parse.py",
    ),
    "anthropic": ("helpers/rules/anthropic.py", "helpers/formats/anthropic_parse.py"),
    "gemini": ("helpers/rules/gemini.py", "helpers/formats/gemini_parse.py"),
}


def _rules_in(*files: str) -> set[str]:
    return {r for f in files for r in _RULE.findall((ROOT / f).read_text(encoding="utf-8"))}


def test_the_page_is_current():
    assert PAGE.read_text(encoding="utf-8") == markdown(), "run scripts/rules_table.py"


def test_every_row_has_a_source_and_a_date():
    for row in ROWS:
        assert row.profile in PROFILES
        assert row.verdict in ("refused", "accepted", "not on the wire"), row
        assert row.source and row.checked[:4] == "2026"
        assert bool(row.error) == (row.verdict == "refused")


def _table(profile: str, verdict_name: str) -> set[str]:
    """The rules ``profile`` refuses (or accepts); the strict profile adds to anthropic's."""
    own = {r.rule for r in ROWS if r.profile == profile and r.verdict == verdict_name}
    if profile != "anthropic-strict":
        return own
    base = _table("anthropic", verdict_name)
    return own | (
        base - _table("anthropic-strict", "refused") if verdict_name == "accepted" else base
    )


@pytest.mark.parametrize("name, fmt, body", CASES, ids=[f"{c[1]}: {c[0]}" for c in CASES])
def test_check_does_what_the_table_says(name, fmt, body):
    profiles = [fmt, "anthropic-strict"] if fmt == "anthropic" else [fmt]
    for profile in profiles:
        for v in verdict(body, profile, format=fmt).violations:
            if v.rule in _table(profile, "accepted"):
                assert v.severity == "warning", v
            if v.severity == "error":
                assert v.rule in _table(profile, "refused") | SHAPE_RULES, v


def test_the_enumeration_finds_the_rules():
    """The pattern reads the ids as they are written (else the next test proves nothing)."""
    assert {"call-not-answered", "malformed", "missing-field", "unknown-tool"} <= _rules_in(*SHARED)
    assert _rules_in(*SHARED) | {"unknown-block"} >= SHAPE_RULES
    assert "results-not-first" in _rules_in(*OWN["anthropic"])


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_rule_the_verdict_applies_has_its_row(provider):
    """Each rule the verdict can apply under ``provider`` has a row for it: the shared rules
    and the shape rules for every provider, a provider's own for that provider (the strict
    Anthropic profile's own rules may sit in its rows)."""
    rows = {r.rule for r in ROWS if r.profile == provider}
    if provider == "anthropic":
        rows |= {r.rule for r in ROWS if r.profile == "anthropic-strict"}
    applied = _rules_in(*SHARED) | SHAPE_RULES | _rules_in(*OWN[provider])
    assert sorted(applied - rows) == []


def test_every_rule_of_the_stand_in_has_a_row():
    """Fields, settings, schemas, tool_choice: the stand-in's own rules are in the table."""
    from standin.rules.params import PARAM_RULES

    made = _rules_in(*(str(p.relative_to(ROOT)) for p in (ROOT / "standin/rules").glob("*.py")))
    assert sorted((made | {r.rule for r in PARAM_RULES.values()}) - {r.rule for r in ROWS}) == []


def test_not_on_the_wire_is_said_of_shape_rules_only():
    """Only a shape rule (an error everywhere) can be one a format cannot carry; its row names
    the field's type, from the pinned SDK or the format."""
    for row in ROWS:
        if row.verdict == "not on the wire":
            assert row.rule in SHAPE_RULES and not row.error, row
            assert ";" in row.source, row


def test_a_rule_not_on_the_wire_has_no_other_verdict():
    """A format cannot both carry a rule and not carry it (settings rules may be refused for
    one model and accepted for another: they are on the wire)."""
    for provider in PROVIDERS:
        verdicts: dict[str, set[str]] = {}
        for r in ROWS:
            if r.profile == provider:
                verdicts.setdefault(r.rule, set()).add(r.verdict)
        both = [rule for rule, v in verdicts.items() if "not on the wire" in v and len(v) > 1]
        assert both == [], provider
