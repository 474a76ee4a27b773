"""``python -m helpers render``: body on stdout, notes on stderr, one-line errors with status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from helpers.examples import DATA
from standin.cli import main

SUNDRY = str(DATA / "sundry" / "request.json")
CRASH = str(DATA / "crash_triage" / "request.json")


def run(
    argv: list[str], capsys, stdin: str | None = None, monkeypatch=None
) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["render", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_render_to_anthropic_prints_the_body_and_notes(capsys):
    code, out, err = run([SUNDRY, "--format", "anthropic"], capsys)
    assert code == 0
    body = json.loads(out)
    assert body["messages"][2]["content"][0]["type"] == "tool_result"
    assert out.startswith('{\n  "model": ')  # pretty JSON
    assert err == "note: max_tokens: required by anthropic; none given, sent 1024\n"


def test_render_with_system_role_and_no_notes(capsys):
    code, out, err = run([SUNDRY, "--format", "openai-chat", "--system-role", "developer"], capsys)
    assert (code, err) == (0, "")
    assert json.loads(out)["messages"][0]["role"] == "developer"


def test_provider_to_provider(tmp_path, capsys):
    code, out, err = run([CRASH, "--format", "gemini"], capsys)
    assert code == 0
    assert err.splitlines() == [
        "note: messages[2].content[0]: reasoning from anthropic dropped: its signature is only "
        "valid for anthropic, not gemini",
        "note: model: gemini names the model in the URL (POST "
        "/v1beta/models/gpt-4.1-mini:generateContent), not in the body",
    ]
    gemini = tmp_path / "gemini.json"
    gemini.write_text(out, encoding="utf-8")
    code, out, err = run([str(gemini), "--format", "anthropic"], capsys)
    body = json.loads(out)
    assert (code, body["model"]) == (0, "")  # the model name stayed in Gemini's URL
    assert [b["type"] for b in body["messages"][1]["content"]] == ["text", "tool_use"]
    assert err == "note: max_tokens: required by anthropic; none given, sent 1024\n"


def test_stdin_and_back_to_neutral(capsys, monkeypatch):
    chat = {
        "model": "gpt-x",
        "temperature": 0,
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "f"}}],
    }
    code, out, err = run(["-", "--format", "neutral"], capsys, json.dumps(chat), monkeypatch)
    assert code == 0
    assert json.loads(out)["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    ]
    assert err == "note: temperature: has no place in the neutral request\n"


def test_from_overrides_detection(capsys, monkeypatch):
    text_only = {
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}],
    }
    code, out, _ = run(
        ["-", "--input-format", "anthropic", "--format", "gemini"],
        capsys,
        json.dumps(text_only),
        monkeypatch,
    )
    assert code == 0 and json.loads(out)["contents"] == [{"role": "user", "parts": [{"text": "x"}]}]


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (
            ["nope.json", "--format", "gemini"],
            None,
            "error: cannot read nope.json: No such file or directory",
        ),
        ([str(DATA), "--format", "gemini"], None, f"error: cannot read {DATA}: Is a directory"),
        (["-", "--format", "gemini"], "{not json", "error: standard input is not valid JSON: "),
        (
            ["-", "--format", "gemini"],
            "[1, 2]",
            "error: -: a request body is a JSON object, not list",
        ),
        (
            ["-", "--format", "gemini"],
            '{"foo": 1}',
            "error: not a request body of any known format",
        ),
        (
            [SUNDRY, "--format", "claude"],
            None,
            "error: --format: unknown format 'claude' (known: neutral, openai-chat",
        ),
        (
            [SUNDRY, "--format", "gemini", "--input-format", "xml"],
            None,
            "error: --input-format: unknown format 'xml'",
        ),
        (
            ["-", "--format", "gemini"],
            '{"messages": [{"role": "bot", "content": []}]}',
            "error: messages[0].role",
        ),
        (
            [SUNDRY, "--format", "anthropic", "--system-role", "developer"],
            None,
            "error: option 'system_role' is not used by anthropic",
        ),
    ],
)
def test_errors_are_one_line_with_status_2(argv, stdin, message, capsys, monkeypatch):
    code, out, err = run(argv, capsys, stdin, monkeypatch)
    assert code == 2
    assert out == ""
    assert err.startswith(message)
    assert err.count("\n") == 1


def test_the_module_runs_as_a_command():
    result = subprocess.run(
        [sys.executable, "-m", "helpers", "render", "-", "--format", "openai-responses"],
        input=(DATA / "sundry" / "request.json").read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["instructions"].startswith("You are the support agent")
    assert result.stderr == ""
    missing = subprocess.run(
        [sys.executable, "-m", "helpers", "render", "missing.json", "--format", "gemini"],
        capture_output=True,
        text=True,
    )
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == "error: cannot read missing.json: No such file or directory\n"
