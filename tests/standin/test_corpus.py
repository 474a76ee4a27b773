"""The recorded corpus as tests: real request bodies and what the real provider answered.

The corpus lives beside the repository, in ``../shared/corpus`` (``index.json`` + ``bodies/``;
its README says where each body comes from); the repository never carries the bodies. Every
body goes through ``python -m helpers check``, ``parse`` + ``render`` and the stand-in
(``scripts/evidence.py``, whose ``KINDS`` and ``KNOWN`` are the one table of known
disagreements, each with its reason), and its recorded bill checks the counts: a count
labelled exact equals the bill, and the estimates' spread is the committed one. Skipped, with
one line naming the folder, where the corpus is absent (a user's clone).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from tests.standin.test_evidence import evidence

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"

pytestmark = pytest.mark.skipif(
    not (CORPUS / "index.json").is_file(), reason=f"no recorded corpus at {CORPUS}: skipped"
)


@pytest.fixture(scope="module")
def cases():
    return evidence.run(CORPUS, progress=False)


@pytest.fixture(scope="module")
def index() -> list[dict]:
    return json.loads((CORPUS / "index.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("fmt", evidence.FORMATS)
@pytest.mark.parametrize("path", evidence.PATHS)
def test_every_body_gets_the_recorded_verdict_or_a_listed_reason(cases, fmt, path):
    cell = evidence.tally(cases)[fmt, path]
    new = [f"{c.id}: real {c.entry['status']}; ours {said}" for c, said in cell.new]
    assert not new, f"{len(new)} unexplained disagreement(s):\n" + "\n".join(new)
    stale = [f"{c.id}: agrees now ({why})" for c, why in cell.stale]
    assert not stale, "known disagreements that no longer happen:\n" + "\n".join(stale)
    assert cell.agree > 0


def test_no_accepted_body_is_refused_by_check(cases):
    """The strongest promise: what the real API took, check takes (warnings at most)."""
    refused = [
        f"{c.id}: {c.results['check'][1]}"
        for c in cases
        if c.accepted and not c.results["check"][0] and not evidence.known(c, "check")
    ]
    assert not refused, "\n".join(refused)


def test_the_readme_counts_are_the_index(index):
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    for fmt in evidence.FORMATS:
        entries = [e for e in index if e["format"] == fmt]
        bodies = {
            hashlib.sha256((CORPUS / "bodies" / fmt / f"{e['id']}.json").read_bytes()).hexdigest()
            for e in entries
        }
        row = (
            f"| {fmt} | {sum(e['status'] == 200 for e in entries)} | "
            f"{sum(e['status'] != 200 for e in entries)} | {len(bodies)} | "
            f"{sum(bool(e.get('usage')) for e in entries)} |"
        )
        assert row in readme, row


@pytest.fixture(scope="module")
def bills():
    import benchmarks.estimate_spread as bench

    return bench, bench.measure(CORPUS)[0]


def test_a_count_labelled_exact_is_the_bill(bills):
    _, rows = bills
    exact = [r for r in rows if r["exact"]]
    wrong = [f"{r['path']}#{r['interaction']}: {r['counted']} != {r['billed']}" for r in exact]
    wrong = [w for w, r in zip(wrong, exact, strict=True) if r["counted"] != r["billed"]]
    assert exact and not wrong, f"{len(wrong)} of {len(exact)} exact counts are not the bill:\n" + (
        "\n".join(wrong)
    )


def test_the_estimate_spread_is_the_one_committed(bills):
    from helpers.tokens.estimate import measured

    bench, rows = bills
    assert bench.spread(rows) == measured()["spread"]
    assert bench.by_project(rows) == measured()["spread_by_project"]
    assert all(not r["exact"] for r in rows if re.match(r"(anthropic|gemini)-estimate", r["rule"]))


def test_gemini_text_on_gemma3_models_is_counted_as_billed(bills):
    """Issue 34: on the models Google's SDK maps to Gemma 3, a text-only request counts exactly
    as billed in at least 95 % of recorded cases (Gemini 2.0 is labelled an estimate: 2 of its
    recorded text bills were 1 and 3 tokens below the count)."""
    _, rows = bills
    text = [r for r in rows if r["rule"] == "gemini-gemma3" and r["text_only"]]
    newer = [r for r in text if not r["model"].startswith("gemini-2.0")]
    assert len(newer) >= 20 and all(r["exact"] and r["counted"] == r["billed"] for r in newer)
    assert sum(r["counted"] == r["billed"] for r in text) >= 0.9 * len(text)


def test_gemini_function_calling_on_gemma3_models_is_within_five_percent_of_the_bill(bills):
    """Issue 34: on the models Google's SDK maps to Gemma 3, plain requests' bill / count p10-p90
    is within 0.95-1.05; every plain Gemini 3 request with function calling equals its bill; a
    request sending back a thought signature (the previous reply's thinking) is never plain."""
    from helpers.tokens.gemini import DUMMY

    bench, rows = bills
    spread = bench.spread(rows)["gemini-gemma3"]
    assert spread["p10"] >= 0.95 and spread["p90"] <= 1.05, spread
    plain = [r for r in bench._plain_rows(rows) if r["rule"] == "gemini-gemma3"]
    three = [r for r in plain if r["model"].startswith("gemini-3") and not r["text_only"]]
    assert len(three) >= 5 and all(r["counted"] == r["billed"] for r in three)
    parts = [p for r in plain for c in r["body"].get("contents", []) for p in c.get("parts", [])]
    assert all(p.get("thoughtSignature") in (None, DUMMY) for p in parts)
