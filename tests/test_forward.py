"""serve --forward: each request goes to the real provider with the user's key; both sides are
recorded, keys redacted. The "real provider" is a stand-in remote on 127.0.0.1, never the network.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import anthropic
import openai
import pytest

from standin.capturing import Seen
from standin.cli import main
from standin.forward import Forwarder
from standin.server import LocalProvider
from tests.live_support import FAKE_KEYS, live_env

BILLED = 4242  # the remote's usage: a bill that is not our count
HELLO = [{"role": "user", "content": "Hi, my order SO-48213 arrived cracked."}]


class Remote:
    """A loopback "real API" that keeps the raw headers it got (to see which key arrived)."""

    def __init__(self) -> None:
        self.headers: list[dict[str, str]] = []
        seen = self.headers

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                seen.append({k.lower(): v for k, v in self.headers.items()})
                message = {"role": "assistant", "content": "Sorry to hear that."}
                usage = {
                    "prompt_tokens": BILLED,
                    "completion_tokens": 5,
                    "total_tokens": BILLED + 5,
                }
                choice = {"index": 0, "message": message, "finish_reason": "stop"}
                reply = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0,
                         "model": body["model"], "usage": usage, "choices": [choice]}  # fmt: skip
                if body.get("stream"):
                    chunk = {**reply, "object": "chat.completion.chunk", "choices": [
                        {"index": 0, "delta": message, "finish_reason": "stop"}]}  # fmt: skip
                    data = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode()
                    kind = "text/event-stream"
                else:
                    data, kind = json.dumps(reply).encode(), "application/json"
                self.send_response(200)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def remote():
    server = Remote()
    yield server
    server.close()


def _front(env):
    forwarder = Forwarder(env=env)
    provider = LocalProvider(forward=forwarder).start()
    forwarder.own_url = provider.url
    return provider


@pytest.mark.parametrize("stream", [False, True])
def test_forward_sends_the_users_key_and_records_both_sides_redacted(remote, stream):
    front = _front(live_env(remote.url))
    try:
        client = openai.OpenAI(base_url=front.url + "/v1", api_key=front.forward_token)
        reply = client.chat.completions.create(model="gpt-4o-mini", messages=HELLO, stream=stream)
        text = (
            "".join(c.choices[0].delta.content or "" for c in reply)
            if stream
            else (reply.choices[0].message.content)
        )
        exchange = front.recorder.last
    finally:
        front.stop()
    assert text == "Sorry to hear that."
    assert remote.headers[-1]["authorization"] == f"Bearer {FAKE_KEYS['OPENAI_API_KEY']}"
    assert exchange.header("authorization") == "Bearer <redacted>"
    assert FAKE_KEYS["OPENAI_API_KEY"] not in str(exchange)
    assert exchange.note == f"forwarded to {remote.url}"
    line = Seen(exchange).line()
    assert f"billed {BILLED:,}" in line and "input tokens (exact)" in line  # ours beside the bill


def test_a_provider_without_both_switches_is_not_forwarded(remote):
    env = live_env(remote.url)
    del env["ANTHROPIC_API_KEY"]
    front = _front(env)
    try:
        with pytest.raises(anthropic.AuthenticationError, match="ANTHROPIC_API_KEY"):
            anthropic.Anthropic(base_url=front.url, api_key=front.forward_token).messages.create(
                model="claude-sonnet-4-6", max_tokens=16, messages=HELLO
            )
    finally:
        front.stop()
    assert remote.headers == []


def test_forward_needs_live_mode_and_refuses_a_loop(capsys):
    with pytest.raises(ValueError, match="ON_THE_WIRE_LIVE"):
        Forwarder(env={"OPENAI_API_KEY": FAKE_KEYS["OPENAI_API_KEY"]})
    front = LocalProvider().start()
    try:
        forwarder = Forwarder(env={**live_env(None), "OPENAI_BASE_URL": front.url + "/v1"})
        forwarder.own_url = front.url
        front.forward = forwarder
        client = openai.OpenAI(base_url=front.url + "/v1", api_key=forwarder.token, max_retries=0)
        with pytest.raises(openai.APIStatusError, match="is this stand-in itself"):
            client.chat.completions.create(model="gpt-4o-mini", messages=HELLO)
    finally:
        front.stop()


def test_serve_forward_without_the_switches_is_one_line(monkeypatch, capsys):
    for name in ("ON_THE_WIRE_LIVE", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert main(["serve", "--forward"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --forward needs live mode") and len(err.splitlines()) == 1
