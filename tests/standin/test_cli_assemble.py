"""python -m helpers assemble FILE --format FORMAT."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from standin.cli import main

FIXTURES = Path(__file__).parents[1] / "support" / "fixtures" / "sse"


def test_assembles_a_recorded_anthropic_stream(capsys):
    assert (
        main(["assemble", str(FIXTURES / "anthropic_tool_use.sse"), "--format", "anthropic"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["stop_reason"] == "tool_calls"
    assert out["message"]["content"][1] == {
        "type": "tool_call",
        "id": "toolu_01NRLabsLyVHZPKxbKvkfSMn",
        "name": "get_weather",
        "arguments": {"location": "Paris"},
    }
    assert out["usage"]["output_tokens"] == 65


def test_reads_standard_input():
    raw = (FIXTURES / "openai_chat_tool_call.sse").read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "helpers", "assemble", "-", "--format", "openai-chat"],
        input=raw, capture_output=True, check=True,
    )  # fmt: skip
    assert json.loads(done.stdout)["message"]["content"][0]["name"] == "GetWeatherArgs"


def test_a_cut_stream_is_one_line_on_stderr(tmp_path, capsys):
    cut = tmp_path / "cut.sse"
    cut.write_bytes((FIXTURES / "openai_chat_tool_call.sse").read_bytes()[:1500])
    assert main(["assemble", str(cut), "--format", "openai-chat"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "not JSON" in err and err.count("\n") == 1


def test_a_stream_cut_short_says_what_was_recovered(tmp_path, capsys):
    from standin.sse_write import encode_reply
    from tests.support.sse_support import tools_reply

    raw = encode_reply(tools_reply("anthropic", think=False), "anthropic")
    cut = tmp_path / "cut.sse"
    cut.write_bytes(raw[: raw.index(b"event: message_delta")])
    assert main(["assemble", str(cut), "--format", "anthropic"]) == 2
    err = capsys.readouterr().err
    assert "recovered before the cut: text (" in err
    assert "tool_call search_code, tool_call run_tests" in err


def test_missing_file(capsys):
    assert main(["assemble", "/nonexistent.sse", "--format", "gemini"]) == 2
    assert "cannot read /nonexistent.sse" in capsys.readouterr().err
