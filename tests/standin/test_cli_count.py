"""``python -m helpers count``: the breakdown, --total, every provider format, one-line errors."""

from __future__ import annotations

import io
import json

import pytest

from helpers.examples import sundry
from helpers.formats import FORMATS, render
from helpers.tokens import count
from standin.cli import main


def _write(tmp_path, body, name="body.json"):
    path = tmp_path / name
    path.write_text(json.dumps(body), encoding="utf-8")
    return str(path)


def test_breakdown_table_of_a_neutral_request(tmp_path, capsys):
    path = _write(tmp_path, sundry.ticket("gpt-4o-mini").to_json())
    assert main(["count", path]) == 0
    out = capsys.readouterr().out
    counted = count(sundry.ticket("gpt-4o-mini"))
    assert "tools[4]" in out and "issue_refund" in out
    assert f"{counted.label}, gpt-4o-mini" in out
    assert all(f"estimated: {part} " in out for part in counted.uncertain)
    total_line = next(line for line in out.splitlines() if line.startswith("total"))
    assert total_line.split()[-1] == str(counted.total)


def test_total_only(tmp_path, capsys):
    path = _write(tmp_path, sundry.opening("gpt-4o-mini").to_json())
    assert main(["count", path, "--total"]) == 0
    assert capsys.readouterr().out.strip() == str(count(sundry.opening("gpt-4o-mini")).total)


OWN_MODEL = {
    "openai-chat": "gpt-4o-mini",
    "openai-responses": "gpt-4o-mini",
    "anthropic": "claude-sonnet-4-5",
    "gemini": "gemini-2.5-flash",
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_provider_body_counts_like_its_neutral_request(fmt, tmp_path, capsys):
    from helpers.formats import parse

    own = OWN_MODEL[fmt]
    body = render(sundry.ticket(own), fmt).body
    path = _write(tmp_path, body)
    assert main(["count", path, "--model", own, "--total"]) == 0
    expected = count(parse(body), own).total
    assert capsys.readouterr().out.strip() == str(expected)
    other = "claude-sonnet-4-5" if fmt != "anthropic" else "gpt-4o-mini"
    assert main(["count", path, "--format", fmt, "--model", other]) == 2  # never silently
    assert f"a {fmt} body is counted the way" in capsys.readouterr().err


def test_a_gemini_body_counts_as_gemini_always_an_estimate(tmp_path, capsys):
    """No model field: the URL's model when given, else the default Gemini model."""
    body = render(sundry.ticket("gemini-2.5-flash"), "gemini").body
    assert "model" not in body
    path = _write(tmp_path, body)
    assert main(["count", path]) == 0
    total = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("total"))
    assert total.startswith("total") and "estimate; on " in total and "gemini-3.8-flash" in total
    url = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent"
    assert main(["count", path, "--url", url]) == 0
    total = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("total"))
    assert "gemini-2.5-pro" in total and "estimate" in total and "exact" not in total


def test_standard_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(sundry.opening("gpt-4o").to_json())))
    assert main(["count", "-", "--total"]) == 0
    assert int(capsys.readouterr().out) == count(sundry.opening("gpt-4o")).total


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["count", "missing.json"], "cannot read missing.json"),
        (["count", "{bad}"], "cannot read"),
        (["count", "BODY", "--model", "llama-9"], "unknown model 'llama-9'"),
        (["count", "BODY", "--format", "cohere"], "--format: unknown format 'cohere'"),
        (["count", "LIST"], "a request body is a JSON object, not list"),
        (["count", "NOTJSON"], "is not valid JSON"),
    ],
)
def test_errors_are_one_line_and_exit_2(argv, message, tmp_path, capsys):
    paths = {
        "BODY": _write(tmp_path, sundry.opening("gpt-4o").to_json()),
        "LIST": _write(tmp_path, [1, 2], "list.json"),
    }
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    paths["NOTJSON"] = str(bad)
    argv = [paths.get(a, a) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_body_whose_model_is_unknown_asks_for_model(tmp_path, capsys):
    body = sundry.opening("my-finetune").to_json()
    assert main(["count", _write(tmp_path, body)]) == 2
    assert "pass --model" in capsys.readouterr().err


def test_the_cli_counts_what_count_body_counts_and_names_what_it_cannot_see(tmp_path, capsys):
    """A response_format schema, legacy functions, Responses tools: the command's label is
    ``count_body``'s, and a parser note about fields it counted after all is not printed."""
    from standin.wire_count import count_body

    hello = [{"role": "user", "content": "Weather in Paris?"}]
    city = {"type": "object", "properties": {"city": {"type": "string"}}}
    schema = {"type": "json_schema", "json_schema": {"name": "W", "schema": city}}
    tool = {"type": "function", "name": "weather", "parameters": city}
    for body, fmt in (
        ({"model": "gpt-4o", "messages": hello, "response_format": schema}, "openai-chat"),
        ({"model": "gpt-4o", "messages": hello, "functions": [tool]}, "openai-chat"),
        ({"model": "gpt-4o", "input": hello, "tools": [tool]}, "openai-responses"),
    ):
        assert main(["count", _write(tmp_path, body)]) == 0
        out, err = capsys.readouterr()
        expected = count_body(body, fmt)
        assert expected.label.startswith("estimate") and f" {expected.total}\n" in out
        assert f"{expected.label}, gpt-4o" in out and "functions: has no place" not in err


def test_a_device_without_end_is_refused_at_the_limit(capsys):
    """``/dev/zero`` says it holds 0 bytes and never ends: reading stops at the limit + 1."""
    from standin.cli import MAX_INPUT_BYTES

    assert main(["count", "/dev/zero"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: /dev/zero: more than") and f"limit of {MAX_INPUT_BYTES:,}" in err
    assert len(err.strip().splitlines()) == 1


def test_a_fifo_fed_without_end_is_refused_at_the_limit(tmp_path, capsys, monkeypatch):
    """A writer that would go on far past the limit finds its reader gone (a broken pipe)."""
    import os
    import threading

    limit = 256 * 1024
    monkeypatch.setattr("standin.cli.MAX_INPUT_BYTES", limit)
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    outcome: list[str] = []

    def feed() -> None:
        block, sent = b'{"model": "gpt-4o", ' * 3000, 0
        try:
            with open(fifo, "wb") as out:
                while sent < 64 * limit:  # "endless" for the reader: 64 times its limit
                    out.write(block)
                    sent += len(block)
            outcome.append(f"all {sent} bytes taken")
        except BrokenPipeError:
            outcome.append("the reader stopped")

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    assert main(["count", str(fifo)]) == 2
    writer.join(timeout=10)
    assert outcome == ["the reader stopped"]
    err = capsys.readouterr().err
    assert f"{fifo}: more than {limit:,} bytes" in err and f"limit of {limit:,}" in err
