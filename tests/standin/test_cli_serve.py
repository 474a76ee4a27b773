"""python -m helpers serve: prints URLs and curl examples, serves, stops cleanly on Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import httpx

from standin import LocalProvider
from standin.cli.serve import banner


def test_banner_shows_urls_sdk_settings_and_curl():
    with LocalProvider() as p:
        text = banner(p)
        assert f"base_url='{p.url}/v1'" in text
        assert f"curl {p.url}/v1/chat/completions" in text
    assert "streamGenerateContent?alt=sse" in text
    assert "sk-local-on-the-wire" in text  # the placeholder, not a real key


def test_serve_runs_and_stops_on_ctrl_c():
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "helpers", "serve", "--scenario", "echo"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        first = proc.stdout.readline()
        assert first.startswith("On the Wire stand-in: http://127.0.0.1:")
        url = first.split()[4]
        body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "ping"}]}
        r = httpx.post(url + "/v1/chat/completions", json=body,
                       headers={"authorization": "Bearer sk-local"}, timeout=10)  # fmt: skip
        assert r.json()["choices"][0]["message"]["content"] == "ping"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "POST /v1/chat/completions -> 200" in out and "stopping" in out


#: ``python -m helpers ARGS`` with files limited to FSIZE bytes: a disk that fills mid-write.
_SMALL_DISK = (
    "import resource, runpy, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
    "resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), resource.RLIM_INFINITY)); "
    "sys.argv[:2] = ['helpers']; runpy.run_module('helpers', run_name='__main__')"
)


def test_serve_record_survives_a_full_disk_hostile_methods_and_a_closed_stdout(tmp_path):
    """``serve --record DIR | head``: an exchange the disk cannot take is answered and its line
    says so, leaving nothing half-written; a NUL in a method prints escaped; once stdout is
    closed every request is still answered and recorded, and the server stops cleanly."""
    import socket

    records = tmp_path / "records"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    proc = subprocess.Popen(
        [sys.executable, "-c", _SMALL_DISK, "20000", "serve", "--scenario", "echo",
         "--record", str(records)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        url = proc.stdout.readline().split()[4]
        while not proc.stdout.readline().startswith("recording every exchange into"):
            pass
        headers = {"authorization": "Bearer sk-local"}

        def post(text: str) -> str:
            body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": text}]}
            r = httpx.post(url + "/v1/chat/completions", json=body, headers=headers, timeout=10)
            return r.json()["choices"][0]["message"]["content"]

        assert post("ping") == "ping"
        assert proc.stdout.readline().startswith("#1 POST /v1/chat/completions -> 200")
        assert proc.stdout.readline() == f"    -> {records}/0001-openai-chat-200\n"
        big = "x" * 30000  # over the 20,000 bytes a file may have
        assert post(big) == big
        assert proc.stdout.readline().startswith("#2 POST /v1/chat/completions -> 200")
        assert proc.stdout.readline() == (
            f"    -> not recorded in {records}/: OSError: File too large\n"
        )
        with socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])), 10) as conn:
            conn.sendall(b"GE\x00T /v1/chat/completions HTTP/1.1\r\nhost: x\r\n\r\n")
            assert conn.recv(100).startswith(b"HTTP/1.1 400 ")
        assert proc.stdout.readline().startswith("#3 GE\\x00T /v1/chat/completions -> 400")
        assert proc.stdout.readline() == f"    -> {records}/0002-openai-chat-400\n"
        proc.stdout.close()  # what head does once it has its lines
        assert [post("after"), post("and after")] == ["after", "and after"]
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=10)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and err == ""
    assert sorted(p.name for p in records.iterdir()) == [
        "0001-openai-chat-200", "0002-openai-chat-400", "0003-openai-chat-200",
        "0004-openai-chat-200",
    ]  # fmt: skip
    assert "and after" in (records / "0004-openai-chat-200" / "request.json").read_text()
