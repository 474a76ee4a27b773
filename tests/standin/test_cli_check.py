"""Tests for ``python -m helpers check``: every exit path, files and stdin, with and without
``--profile``, neutral files and provider bodies."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from helpers.examples import sundry
from helpers.messages import user
from standin.cli import main

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
    assert capsys.readouterr().out == "no violations (profile portable)\n"


def test_violations_exit_1_one_line_each(tmp_path, capsys):
    assert main(["check", _write(tmp_path, _broken())]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("messages[2].content[1] (call c1): no tool_result answers")
    assert lines[0].endswith("[call-not-answered]")
    assert lines[-1] == "1 violation (profile portable)"
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
    assert captured.err.startswith("note: read in the anthropic format")
    # the place is a path into the file given: its messages[2] holds the unanswered call
    assert captured.out.startswith("messages[1].content[1] (call c1):")


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
    # Gemini refuses a call turn followed by a user turn (no function response): its text
    assert done.returncode == 1
    assert "gemini answers: Please ensure that the number of function response parts" in done.stdout
    assert done.stdout.splitlines()[-1] == "1 violation, 1 warning (profile gemini)"


# --- the body as the provider sees it: paths into the file, rules the neutral form cannot hold


def _check(tmp_path, capsys, body, profile):
    code = main(["check", _write(tmp_path, body), "--profile", profile])
    return code, capsys.readouterr().out


CHAT_CALL = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": '}}
    ],
}


def test_arguments_that_are_not_json_are_a_rule_not_bad_input(tmp_path, capsys):
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "hi"},
            CHAT_CALL,
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        ],
    }
    code, out = _check(tmp_path, capsys, body, "portable")
    assert code == 1 and "messages[1].tool_calls[0]" in out and "[arguments-not-object]" in out
    # OpenAI takes the string as it is (no public report of a 400): a warning, exit 0
    code, out = _check(tmp_path, capsys, body, "openai-chat")
    assert code == 0 and out.startswith("warning: messages[1].tool_calls[0]")
    assert out.splitlines()[-1] == "no violations, 1 warning (profile openai-chat)"


def test_anthropic_text_before_the_tool_result_is_refused(tmp_path, capsys):
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}],
            },
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "also"},
                    {"type": "tool_result", "tool_use_id": "t1", "content": "ok"},
                ],
            },
        ],
    }
    code, out = _check(tmp_path, capsys, body, "anthropic")
    assert code == 1
    assert out.startswith("messages[2].content[0]: ") and "[results-not-first]" in out
    assert "anthropic answers: messages.1: `tool_use` ids were found without" in out


def test_an_unknown_gemini_part_is_refused_in_geminis_words(tmp_path, capsys):
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}, {"foo": 1}]}]}
    code, out = _check(tmp_path, capsys, body, "gemini")
    assert code == 1 and out.startswith("contents[0].parts[1]: ")
    assert "Unknown name \"foo\" at 'contents[0].parts[1]': Cannot find field." in out


def test_a_system_message_further_down_is_a_warning_for_providers(tmp_path, capsys):
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "system", "content": "be terse"},
        ],
    }
    code, out = _check(tmp_path, capsys, body, "openai-chat")
    assert code == 0 and out.startswith("warning: messages[1]: ")
    code, out = _check(tmp_path, capsys, body, "portable")
    assert code == 1 and "[system-not-first]" in out


def test_a_responses_continuation_is_checked_against_the_chain_given(tmp_path, capsys):
    call = {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"}
    output = {"type": "function_call_output", "call_id": "call_1", "output": "ok"}
    body = {"model": "gpt-4o", "previous_response_id": "resp_1", "input": [output]}
    code, out = _check(tmp_path, capsys, body, "openai-responses")
    assert code == 0 and "check cannot see" in out  # the call may be in the stored chain
    chain = tmp_path / "chain.json"
    chain.write_text(json.dumps([{"role": "user", "content": "hi"}, call]))
    path = _write(tmp_path, body)
    assert main(["check", path, "--profile", "openai-responses", "--chain", str(chain)]) == 0
    assert capsys.readouterr().out == "no violations (profile openai-responses)\n"
