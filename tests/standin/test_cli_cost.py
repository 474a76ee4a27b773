"""``python -m helpers cost``: the TRACE shapes, the per-turn table, one-line errors."""

from __future__ import annotations

import json

import pytest

from benchmarks.sundry_ticket import requests as sundry_requests
from benchmarks.sundry_ticket import trace
from helpers.cost import project_ticket
from helpers.examples import DATA
from standin.cli import main


def _write(tmp_path, data):
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _totals(out: str) -> list[str]:
    return next(line for line in out.splitlines() if line.strip().startswith("all")).split()


def test_the_example_trace_is_up_to_date_and_prices(capsys):
    assert json.loads((DATA / "sundry" / "trace.json").read_text()) == trace()
    assert main(["cost", str(DATA / "sundry" / "trace.json")]) == 0
    out = capsys.readouterr().out
    from benchmarks.sundry_ticket import ANSWER
    from helpers.messages import assistant

    ticket = project_ticket(sundry_requests("gpt-4o-mini"), final_reply=assistant(ANSWER))
    assert _totals(out)[1:3] == [str(ticket.input_tokens), str(ticket.cached_tokens)]
    assert f"{ticket.total_usd:.6f}" in out and "search_orders result" in out


def test_a_bare_list_of_neutral_usages(tmp_path, capsys):
    path = _write(tmp_path, [{"usage": {"input_tokens": 2000, "cache_read_tokens": 1024}}])
    assert main(["cost", path, "--model", "gpt-4o"]) == 0
    # 976 uncached at $2.50/M + 1024 cached at $1.25/M
    assert "0.003720" in capsys.readouterr().out


def test_raw_provider_usage_and_replies(tmp_path, capsys):
    raw = {"input_tokens": 100, "cache_read_input_tokens": 1000, "output_tokens": 10}
    reply = {"content": [{"type": "text", "text": "hi"}], "usage": raw}
    data = {
        "model": "claude-sonnet-4-5",
        "provider": "anthropic",
        "turns": [{"usage": raw}, {"request": {"messages": []}, "reply": reply}],
    }
    assert main(["cost", _write(tmp_path, data)]) == 0
    assert _totals(capsys.readouterr().out)[1:3] == ["2200", "2000"]  # input includes cached


def test_requests_only_are_projected(tmp_path, capsys):
    turns = [{"request": r.to_json(), "output_tokens": 30} for r in sundry_requests("gpt-4o-mini")]
    assert main(["cost", _write(tmp_path, {"turns": turns}), "--model", "gpt-4o-mini"]) == 0
    out = capsys.readouterr().out
    assert "projected" in out and _totals(out)[4] == str(30 * len(turns))


@pytest.mark.parametrize(
    ("data", "argv", "message"),
    [
        ({"turns": [{"usage": {"input_tokens": 5}}]}, [], "no model"),
        ([{"usage": {"input_tokens": 5}}], ["--model", "gpt-9"], "unknown model 'gpt-9'"),
        ([{"note": "x"}], ["--model", "gpt-4o"], 'turns[0]: a turn needs "usage"'),
        ([{"usage": {"prompt_tokens": 5}}], ["--model", "gpt-4o"], "unknown field 'prompt_tokens'"),
        ({"provider": "cohere", "turns": [{}]}, ["--model", "gpt-4o"], "provider 'cohere'"),
        ({"turns": []}, ["--model", "gpt-4o"], "expected a list of turns"),
        ([{"request": {}, "reply": {}}], ["--model", "gpt-4o"], "a reply needs"),
    ],
)
def test_errors_are_one_line_and_exit_2(data, argv, message, tmp_path, capsys):
    assert main(["cost", _write(tmp_path, data), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
