"""standin.rules.table and docs/rules.md: every rule per provider, current and consistent.

The page is generated (``scripts/rules_table.py``); this test fails when it is stale. And the
table must say what ``check`` does: a rule a row calls refused is an error under that profile,
one it calls accepted is at most a warning, and every error ``check`` reports under a
provider's profile is either in the table or a shape no format can carry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.rules import PROFILES, SHAPE_RULES
from standin.rules.table import ROWS, markdown
from standin.verdict import verdict
from tests.test_verdict import CASES

PAGE = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def test_the_page_is_current():
    assert PAGE.read_text(encoding="utf-8") == markdown(), "run scripts/rules_table.py"


def test_every_row_has_a_source_and_a_date():
    for row in ROWS:
        assert row.profile in PROFILES and row.verdict in ("refused", "accepted")
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
