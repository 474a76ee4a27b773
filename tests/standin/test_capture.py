"""standin.capturing: the official SDKs pointed at a stand-in, every request read back, recorded."""

from __future__ import annotations

import json
import os

import httpx
import pytest

from standin.capturing import RecordDir, capture
from standin.server import LOCAL_KEY
from standin.verdict import verdict
from standin.wire_count import count_body
from tests.support.live_support import FAKE_KEYS

HELLO = [{"role": "user", "content": "Hi, my order SO-48213 arrived cracked."}]


def test_capture_points_the_official_sdks_at_the_stand_in_and_restores(monkeypatch):
    import anthropic
    import openai

    monkeypatch.setenv("OPENAI_BASE_URL", "https://example.invalid/v1")
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEYS["ANTHROPIC_API_KEY"])
    monkeypatch.setenv("ON_THE_WIRE_LIVE", "1")
    monkeypatch.delenv("GOOGLE_GEMINI_BASE_URL", raising=False)
    with capture() as seen:
        assert os.environ["OPENAI_BASE_URL"] == seen.provider.url + "/v1"
        assert "ON_THE_WIRE_LIVE" not in os.environ
        openai.OpenAI().chat.completions.create(model="gpt-4o-mini", messages=HELLO)
        client = anthropic.Anthropic()
        assert client.api_key == LOCAL_KEY  # the user's key is never sent, not even to loopback
        with client.messages.stream(model="claude-sonnet-4-6", max_tokens=64, messages=HELLO) as s:
            s.get_final_message()
    assert os.environ["OPENAI_BASE_URL"] == "https://example.invalid/v1"
    assert os.environ["ANTHROPIC_API_KEY"] == FAKE_KEYS["ANTHROPIC_API_KEY"]
    assert os.environ["ON_THE_WIRE_LIVE"] == "1"
    assert "GOOGLE_GEMINI_BASE_URL" not in os.environ
    assert [s.format for s in seen] == ["openai-chat", "anthropic"]
    for s in seen:  # the count and the verdict are the series' own, on the body as sent
        assert s.count.total == count_body(s.body, s.format, s.model).total
        assert s.accepted is verdict(s.body, s.format, format=s.format).accepted is True
        assert f"{s.count.total:,} input tokens ({s.count.label})" in s.line()
    assert "(streamed)" in seen[1].line()
    html = seen._repr_html_()
    assert "2 requests on the wire" in html and "SO-48213" in html and ">[0] user<" in html
    seen.assert_all_accepted()


def test_a_refused_request_is_named_with_the_providers_reason():
    with capture() as seen:
        body = {  # a tool_result that answers no tool_use: Anthropic refuses it
            "model": "claude-sonnet-4-6",
            "max_tokens": 64,
            "messages": [
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1"}]}
            ],
        }
        r = httpx.post(seen.provider.url + "/v1/messages", json=body,
                       headers={"x-api-key": LOCAL_KEY}, timeout=10)  # fmt: skip
        httpx.get(seen.provider.url + "/v1/nothing", timeout=10)
    assert r.status_code == 400
    refused, unknown = seen
    assert refused.accepted is False and "refused: " in refused.line()
    assert unknown.format is None and "not an endpoint" in unknown.line()
    with pytest.raises(AssertionError, match="2 request"):
        seen.assert_all_accepted()


def test_gemini_counts_on_the_model_named_in_the_path():
    with capture() as seen:
        url = seen.provider.url + "/v1beta/models/gemini-2.5-flash:generateContent"
        body = {"contents": [{"role": "user", "parts": [{"text": "Hello there"}]}]}
        httpx.post(url, json=body, headers={"x-goog-api-key": LOCAL_KEY}, timeout=10)
    (only,) = seen
    assert only.model == "gemini-2.5-flash" and only.count.model == "gemini-2.5-flash"


def test_record_writes_files_with_keys_redacted(tmp_path):
    key = FAKE_KEYS["OPENAI_API_KEY"]
    with capture(record=tmp_path) as seen:
        body = {"model": "gpt-4o-mini", "messages": HELLO + [{"role": "user", "content": key}]}
        httpx.post(seen.provider.url + "/v1/chat/completions", json=body,
                   headers={"authorization": f"Bearer {key}"}, timeout=10)  # fmt: skip
        body["stream"] = True
        httpx.post(seen.provider.url + "/v1/chat/completions", json=body,
                   headers={"authorization": f"Bearer {key}"}, timeout=10)  # fmt: skip
    plain, streamed = sorted(tmp_path.iterdir())
    assert plain.name == "0001-openai-chat-200" and streamed.name == "0002-openai-chat-200"
    assert {p.name for p in plain.iterdir()} == {
        "request.http", "request.json", "response.http", "response.json", "verdict.txt",
        "count.txt",
    }  # fmt: skip
    assert (streamed / "response.sse").read_text().startswith("data: ")
    for folder in (plain, streamed):
        for file in folder.iterdir():
            assert key not in file.read_text(), file
    assert "authorization: Bearer <redacted>" in (plain / "request.http").read_text()
    assert json.loads((plain / "request.json").read_text())["messages"][1]["content"] == (
        "<redacted>"
    )
    first = seen[0]
    assert (plain / "verdict.txt").read_text().startswith(first.line())
    assert f"{first.count.total} input tokens on gpt-4o-mini" in (plain / "count.txt").read_text()


def test_record_never_overwrites_what_it_did_not_write(tmp_path):
    mine = tmp_path / "0001-openai-chat-200"
    mine.mkdir()
    (mine / "request.json").write_text("the user's own file")
    (tmp_path / "0003-notes.txt").write_text("a file named like a record")
    (tmp_path / "README").write_text("keep me")
    with capture(record=tmp_path) as seen:
        for _ in range(2):
            httpx.post(seen.provider.url + "/v1/chat/completions",
                       json={"model": "gpt-4o-mini", "messages": HELLO},
                       headers={"authorization": f"Bearer {LOCAL_KEY}"}, timeout=10)  # fmt: skip
    assert (mine / "request.json").read_text() == "the user's own file"
    assert (tmp_path / "0003-notes.txt").read_text() == "a file named like a record"
    assert (tmp_path / "README").read_text() == "keep me"
    new = sorted(p.name for p in tmp_path.iterdir() if p.is_dir() and p != mine)
    assert new == ["0004-openai-chat-200", "0005-openai-chat-200"]


def test_record_skips_a_name_that_appears_meanwhile(tmp_path):
    writer = RecordDir(tmp_path)
    (tmp_path / "0001-openai-chat-200").mkdir()  # made by someone else after the start
    (tmp_path / "0001-openai-chat-200" / "count.txt").write_text("theirs")
    with capture() as seen:
        httpx.post(seen.provider.url + "/v1/chat/completions",
                   json={"model": "gpt-4o-mini", "messages": HELLO},
                   headers={"authorization": f"Bearer {LOCAL_KEY}"}, timeout=10)  # fmt: skip
        folder = writer.write(seen.provider.recorder.last)
    assert folder.name == "0002-openai-chat-200"
    assert (tmp_path / "0001-openai-chat-200" / "count.txt").read_text() == "theirs"


def test_record_into_a_file_is_a_clear_error(tmp_path):
    target = tmp_path / "a-file"
    target.write_text("x")
    with pytest.raises(NotADirectoryError, match="not a folder"):
        RecordDir(target)


def test_a_continued_thread_is_read_with_its_stored_turns_in_front():
    """The anthropic tool runner's default: request 2 carries only the tool result."""
    import anthropic
    from anthropic import beta_tool

    @beta_tool
    def lookup_order(order_id: str) -> str:
        """Look up one order by its number."""
        return '{"status": "delivered"}'

    with capture() as seen:
        runner = anthropic.Anthropic().beta.messages.tool_runner(
            model="claude-sonnet-4-6", max_tokens=256, tools=[lookup_order], messages=HELLO
        )
        runner.until_done()
    first, second = seen
    assert second.body["thread"]["type"] == "continue" and len(second.body["messages"]) == 1
    assert "tools" not in second.body and "thread" not in second.read
    assert second.stored == 2 and len(second.read["messages"]) == 3
    assert second.read["tools"] == first.body["tools"]
    assert second.count.total == count_body(second.read, "anthropic").total
    assert second.count.total > count_body(second.body, "anthropic").total
    assert "read with 2 stored messages in front; accepted" in second.line()
    assert first.stored == 0 and "stored" not in first.line()
    seen.assert_all_accepted()


def test_a_previous_response_id_is_read_with_the_stored_chain():
    import openai

    with capture() as seen:
        client = openai.OpenAI()
        one = client.responses.create(model="gpt-4o-mini", input="Hi, my order SO-48213.")
        client.responses.create(model="gpt-4o-mini", previous_response_id=one.id, input="Thanks")
    first, second = seen
    assert second.stored == 2 and len(second.read["input"]) == 3  # input, output, new input
    assert second.accepted is True and first.stored == 0


def test_capture_calls_the_clients_own_tools_by_default():
    """The general model: any tool name, its arguments from the question, no story's text."""
    import openai

    tool = {"type": "function", "function": {"name": "find_parcel", "parameters": {
        "type": "object", "properties": {"parcel_id": {"type": "string"}},
        "required": ["parcel_id"]}}}  # fmt: skip
    with capture() as seen:
        reply = openai.OpenAI().chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": "Where is parcel PX-1234?"}],
            tools=[tool],
        )
    call = reply.choices[0].message.tool_calls[0].function
    assert (call.name, json.loads(call.arguments)) == ("find_parcel", {"parcel_id": "PX-1234"})
    assert seen.provider.scenario_name == "general"
    with capture("sundry") as story:
        pass
    assert story.provider.scenario_name == "sundry"


def _raw(url: str, request_line: bytes) -> bytes:
    """Send one request line (a method no client would send) and return the status line."""
    import socket

    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(request_line + b"\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}")
        return conn.recv(65536).split(b"\r\n")[0]


def test_record_names_a_folder_only_by_counter_endpoint_and_status(tmp_path):
    """A hostile method (``/``, 300 characters, a NUL byte) never reaches a folder's name; a
    file whose 250-digit name no counter can follow is skipped, not a reason to stop."""
    import re

    (tmp_path / ("9" * 250)).write_text("the user's")
    methods = [b"/", b"A" * 300, b"GE\x00T", b"POST"]
    with capture(record=tmp_path) as seen:
        answers = [_raw(seen.provider.url, m + b" /x/../y HTTP/1.1") for m in methods]
        answers.append(_raw(seen.provider.url, b"/ /v1/chat/completions HTTP/1.1"))
    assert all(a.startswith(b"HTTP/1.1 4") for a in answers), answers
    names = sorted(p.name for p in tmp_path.iterdir() if p.is_dir())
    assert names == [
        "0001-other-400", "0002-other-400", "0003-other-400", "0004-post-404",
        "0005-openai-chat-400",
    ]  # fmt: skip
    assert all(re.fullmatch(r"\d{4}-[a-z-]+-\d{3}", n) for n in names)
    assert (tmp_path / ("9" * 250)).read_text() == "the user's"
    assert (tmp_path / "0003-other-400" / "request.http").read_text().startswith("GE\x00T /x/")


def test_an_exchange_that_cannot_be_recorded_is_answered_and_reported(tmp_path, capsys):
    """The record folder stops taking files mid-run (read-only; as root, which ignores
    permissions, it is replaced by a file): every client still gets its answer, stderr says
    which exchanges were not recorded, and nothing half-written is left."""
    records = tmp_path / "records"
    body = {"model": "gpt-4o-mini", "messages": HELLO}
    headers = {"authorization": f"Bearer {LOCAL_KEY}"}
    with capture(record=records) as seen:
        url = seen.provider.url + "/v1/chat/completions"
        assert httpx.post(url, json=body, headers=headers, timeout=10).status_code == 200
        if os.geteuid() == 0:
            (records / "0001-openai-chat-200").rename(tmp_path / "kept")
            records.rmdir()
            records.write_text("no longer a folder")
        else:
            records.chmod(0o500)
        try:
            with httpx.Client(timeout=10) as client:  # one connection: it must stay open
                codes = [client.post(url, json=body, headers=headers).status_code for _ in "ab"]
        finally:
            if records.is_dir():
                records.chmod(0o700)
    assert codes == [200, 200] and len(seen) == 3
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(f"capture: not recorded in {records}/: " in e for e in err), err
    if records.is_dir():
        assert [p.name for p in records.iterdir()] == ["0001-openai-chat-200"]
