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
        assert first.startswith("On the Wire local provider: http://127.0.0.1:")
        url = first.split()[5]
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
