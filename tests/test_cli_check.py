"""Tests for ``python -m helpers check``: every exit path, files and stdin, with and without
``--profile``, neutral files and provider bodies."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from helpers.examples import sundry
from helpers.machinery.cli import main
from helpers.messages import user

MISSING_C1 = (
    "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: c1."
)


def _write(tmp_path, obj, name="request.json"):
    path = tmp_path / name
    path.write_text(json.dumps(obj) if not isinstance(obj, str) else obj, encoding="utf-8")
    return str(path)


def _broken():
    request = sundry.ticket()
    request.messages[3] = user("Hello? Anyone there?")
    return request.to_json()


def test_a_valid_request_exits_0(tmp_path, capsys):
    assert main(["check", _write(tmp_path, sundry.ticket().to_json())]) == 0
    assert capsys.readouterr().out == "no violations (profile neutral)\n"


def test_violations_exit_1_one_line_each(tmp_path, capsys):
    assert main(["check", _write(tmp_path, _broken())]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("messages[2].content[1] (call c1): no tool_result answers")
    assert lines[0].endswith("[call-not-answered]")
    assert lines[-1] == "1 violation (profile neutral)"
    assert len(lines) == 2  # no provider, no provider text


def test_provider_adds_its_error_text(tmp_path, capsys):
    assert main(["check", _write(tmp_path, _broken()), "--profile", "anthropic"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith(f"  anthropic answers: {MISSING_C1}")
    assert out[-1] == "1 violation (profile anthropic)"


def test_standard_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(_broken())))
    assert main(["check", "-", "--profile", "openai-chat"]) == 1
    out = capsys.readouterr().out
    assert "openai-chat answers: An assistant message with 'tool_calls'" in out


def test_a_provider_body_is_read_through_formats(tmp_path, capsys):
    pytest.importorskip("helpers.formats")
    from helpers.formats import render
    from helpers.messages import load

    body = render(load(_broken()), "anthropic").body
    assert main(["check", _write(tmp_path, body), "--profile", "anthropic"]) == 1
    captured = capsys.readouterr()
    assert MISSING_C1 in captured.out
    assert captured.err.startswith("note: read in the anthropic format; messages[N] below")


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "is not valid JSON"),
        ("[1, 2]", "a request is a JSON object, not a list"),
        ('{"foo": 1}', "top-level keys: foo"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, content, message):
    assert main(["check", _write(tmp_path, content)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ") and message in captured.err
    assert captured.err.count("\n") == 1


def test_a_missing_file_exits_2(tmp_path, capsys):
    assert main(["check", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_an_unknown_provider_is_a_usage_error(tmp_path, capsys):
    assert main(["check", _write(tmp_path, _broken()), "--profile", "openai"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice" in err
    assert len(err.splitlines()) == 1  # one line, no usage block


def test_the_command_runs_as_a_module(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "helpers",
            "check",
            _write(tmp_path, _broken()),
            "--profile",
            "gemini",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == "1 violation (profile gemini)"
