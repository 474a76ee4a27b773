"""scripts/evidence.py: real request bodies against check, parse + render and the stand-in.

The corpus it is run on by hand (``make evidence CORPUS=dir``) is not part of the repository;
here it runs on ``tests/standin/fixtures/evidence``: nine bodies written for this test in the same
format (accepted and refused, every wire format, one model the stand-in does not know).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "standin" / "fixtures" / "evidence"


def _script():
    spec = importlib.util.spec_from_file_location("evidence", ROOT / "scripts" / "evidence.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["evidence"] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


evidence = _script()


def test_the_tiny_corpus_agrees_on_every_path(capsys):
    assert evidence.main([str(TINY)]) == 0
    out = capsys.readouterr().out
    assert "9 bodies: 5 accepted, 4 refused" in out
    assert "| openai-chat | 3 | 3 / 0 / 0 | 2 / 0 / 0 | 2 / 1 / 0 |" in out
    assert "| openai-responses | 2 | 2 / 0 / 0 | 1 / 0 / 0 | 2 / 0 / 0 |" in out
    assert "exact error text: check 4/4, provider 4/4" in out
    # the unknown model is explained by its kind, not by an entry for this corpus
    assert "1  provider: model unknown to the stand-in" in out
    assert "NEW" not in out and "STALE" not in out


def _copy(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(TINY, corpus)
    return corpus


def test_a_disagreement_is_reported_with_both_verdicts(tmp_path, capsys):
    corpus = _copy(tmp_path)
    index = json.loads((corpus / "index.json").read_text())
    entry = next(e for e in index if e["id"] == "ant-tool-round-trip")
    entry["status"], entry["error"] = 400, {"message": "made up for this test"}
    (corpus / "index.json").write_text(json.dumps(index))
    assert evidence.main([str(corpus), "--paths", "check"]) == 1
    out = capsys.readouterr().out
    assert (
        "NEW check anthropic ant-tool-round-trip: real 400 made up for this test; ours exit 0"
        in out
    )


def test_a_known_disagreement_that_agrees_now_is_stale(monkeypatch, capsys):
    known = {"check": {"chat-tool-round-trip": "a reason that no longer holds"}}
    monkeypatch.setattr(evidence, "KNOWN", {**evidence.KNOWN, **known})
    assert evidence.main([str(TINY), "--paths", "check"]) == 1
    assert "STALE check chat-tool-round-trip: agrees now" in capsys.readouterr().out


def test_an_unreadable_body_is_a_finding_and_bad_corpora_say_where(tmp_path, capsys):
    corpus = _copy(tmp_path)
    (corpus / "bodies" / "gemini" / "gem-function-round-trip.json").write_text("[1, 2]")
    assert evidence.main([str(corpus), "--paths", "check,render"]) == 1
    out = capsys.readouterr().out
    assert "NEW check gemini gem-function-round-trip" in out and "exit 2" in out
    (corpus / "bodies" / "gemini" / "gem-function-round-trip.json").unlink()
    with pytest.raises(SystemExit, match=r"index.json\[7\]: no body file bodies/gemini/"):
        evidence.main([str(corpus)])
    with pytest.raises(SystemExit):
        evidence.main([str(tmp_path / "nowhere")])
    assert "no index.json" in capsys.readouterr().err
