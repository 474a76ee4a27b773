"""serve --forward: each request goes to the real provider with the user's key; both sides are
recorded, keys redacted. The "real provider" is a stand-in remote on 127.0.0.1, never the network.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import anthropic
import openai
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from standin.capturing import ReadBack
from standin.cli import main
from standin.cli.serve import banner
from standin.forward import Forwarder
from standin.server import LOCAL_KEY, LocalProvider
from tests.support.live_support import FAKE_KEYS, live_env

BILLED = 4242  # the remote's usage: a bill that is not our count
HELLO = [{"role": "user", "content": "Hi, my order SO-48213 arrived cracked."}]


class Remote:
    """A loopback "real API" that keeps the raw headers it got (to see which key arrived)."""

    def __init__(self) -> None:
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []
        seen, paths = self.headers, self.paths

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                seen.append({k.lower(): v for k, v in self.headers.items()})
                paths.append(self.path)
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
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
    line = ReadBack(exchange).line()
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


# --- issue 32: the key goes only to the configured origin, and only for this run's clients ------


class Listener:
    """A loopback "attacker": counts every connection it gets, and closes each at once."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(scope="module")
def upstream():
    server = Remote()
    yield server
    server.close()


@pytest.fixture(scope="module")
def attacker():
    listener = Listener()
    yield listener
    listener.close()


@pytest.fixture(scope="module")
def front(upstream):
    forwarder = Forwarder(env=live_env(upstream.url))
    with LocalProvider(forward=forwarder) as provider:
        yield provider


@pytest.fixture
def fresh(upstream, attacker):
    """Each test starts with nothing received upstream or by the attacker."""
    upstream.headers.clear()
    upstream.paths.clear()
    attacker.connections = 0
    return upstream, attacker


def raw(front, target, headers=None, method="POST", body=b'{"model":"gpt-4o-mini"}'):
    """Send exactly this request line and these headers; (status, error message or body)."""
    if headers is None:
        headers = {"authorization": f"Bearer {front.forward_token}"}
    headers = {"host": f"127.0.0.1:{front.port}", **headers}
    head = f"{method} {target} HTTP/1.1\r\n" + "".join(
        f"{k}: {v}\r\n" for k, v in headers.items() if v is not None
    )
    head += f"content-type: application/json\r\ncontent-length: {len(body)}\r\n"
    head += "connection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", front.port), timeout=10) as conn:
        conn.sendall(head.encode("latin-1") + body)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    reply = json.loads(data.partition(b"\r\n\r\n")[2] or b"null")
    error = reply.get("error") if isinstance(reply, dict) else None
    return status, (error.get("message") if isinstance(error, dict) else reply)


def _nothing_sent(upstream, attacker):
    assert attacker.connections == 0
    assert upstream.headers == []  # no request, so no key, left the stand-in


ATTACKS = [  # (request-target, status, what the message names); {A} is the attacker's port
    (":{A}/v1/chat/completions", 400, "not an origin-form path"),
    ("@127.0.0.1:{A}/v1/messages", 400, "not an origin-form path"),
    ("127.0.0.1:{A}/v1/messages", 400, "not an origin-form path"),
    ("http://127.0.0.1:{A}/v1/chat/completions", 400, "absolute-form"),
    ("HTTPS://127.0.0.1:{A}/v1/messages", 400, "absolute-form"),
    ("http://[127.0.0.1:{A}/v1/messages", 400, "absolute-form"),  # urlsplit cannot parse it
    ("//127.0.0.1:{A}/v1/messages", 400, "is not an endpoint"),  # http.server makes it '/...'
    ("/v1/../x", 400, "'..'"),
    ("/v1/chat/completions/../../../x", 400, "'..'"),
    ("/v1/./chat/completions", 400, "'.'"),
    ("/v1/%2e%2e/chat/completions", 400, "percent-encoding"),
    ("/v1/chat%2Fcompletions", 400, "percent-encoding"),
    ("/%40127.0.0.1:{A}/v1/messages", 400, "percent-encoding"),
    ("/v1/chat/completions@127.0.0.1:{A}", 400, "'@'"),
    ("/v1beta/models/x@127.0.0.1:{A}:generateContent", 400, "'@'"),
    ("/v1\\chat/completions", 400, "backslash"),
    ("/v1/chat/completions\x01", 400, "control"),
    ("/v1/chat/completions#x", 400, "fragment"),
    ("/v1/files", 400, "is not an endpoint"),
    ("/v1/models", 400, "is not an endpoint"),
    ("/v1beta/models/..:generateContent", 400, "'..'"),
    ("/v1/messages?x=%40", 400, "query string"),
]


@pytest.mark.parametrize("target, status, reason", ATTACKS)
def test_a_target_that_is_not_an_endpoint_path_is_refused_and_nothing_is_sent(
    front, fresh, target, status, reason
):
    upstream, attacker = fresh
    got, message = raw(front, target.format(A=attacker.port))
    assert (got, reason in message) == (status, True), message
    assert message.startswith("not forwarded: ")
    _nothing_sent(upstream, attacker)


def test_a_method_the_endpoint_does_not_take_is_refused(front, fresh):
    got, message = raw(front, "/v1/chat/completions", method="PUT")
    assert got == 405 and "PUT /v1/chat/completions is not forwarded" in message
    _nothing_sent(*fresh)


@pytest.mark.parametrize(
    "headers, status, reason",
    [
        ({"host": "attacker.example"}, 403, "Host 'attacker.example' is not this server"),
        ({"host": "127.0.0.1:{A}"}, 403, "is not this server"),  # rebinding to another port
        ({"host": "127.0.0.1"}, 403, "is not this server"),
        ({"origin": "http://attacker.example"}, 403, "Origin 'http://attacker.example'"),
        ({"origin": "null"}, 403, "Origin 'null'"),
        ({"origin": "https://127.0.0.1:{P}"}, 403, "Origin"),
        ({"authorization": None}, 401, "no forwarding token"),
        ({"authorization": f"Bearer {LOCAL_KEY}"}, 401, "a wrong forwarding token"),
        ({"authorization": "Bearer {T}x"}, 401, "a wrong forwarding token"),
        ({"authorization": None, "cookie": "key={T}; token={T}"}, 401, "no forwarding token"),
        ({"authorization": None, "x-api-key": FAKE_KEYS["OPENAI_API_KEY"]}, 401, "wrong"),
    ],
)
def test_wrong_host_foreign_origin_or_no_token_is_refused(front, fresh, headers, status, reason):
    upstream, attacker = fresh
    token = front.forward_token
    base = {"authorization": f"Bearer {token}"}
    fill = {"A": attacker.port, "P": front.port, "T": token}
    sent = base | {k: v and v.format(**fill) for k, v in headers.items()}
    got, message = raw(front, "/v1/chat/completions", sent)
    assert got == status and reason.format(**fill) in message, message
    assert token not in message
    _nothing_sent(upstream, attacker)


def test_a_good_request_sends_the_users_key_once_and_nothing_of_the_clients(front, fresh):
    upstream, attacker = fresh
    token, key = front.forward_token, FAKE_KEYS["OPENAI_API_KEY"]
    headers = {
        "host": f"localhost:{front.port}",
        "origin": f"http://localhost:{front.port}",
        "authorization": f"Bearer {token}",
        "x-api-key": "sk-ant-the-clients-own-key-0123456789abcdef",
        "cookie": "session=jupyterhub-cookie-value",
    }
    got, reply = raw(front, "/v1/chat/completions", headers)
    assert got == 200 and reply["choices"][0]["message"]["content"] == "Sorry to hear that."
    [seen] = upstream.headers
    assert seen["authorization"] == f"Bearer {key}"
    assert seen["host"] == upstream.url.removeprefix("http://")
    assert [v for v in seen.values() if key in v] == [f"Bearer {key}"]  # once, in its header
    assert not {"cookie", "origin", "x-api-key"} & set(seen)
    assert token not in json.dumps(seen)
    assert attacker.connections == 0


def test_gemini_takes_the_token_in_the_query_and_its_key_goes_in_the_header(front, fresh):
    upstream, attacker = fresh
    target = f"/v1beta/models/gemini-2.5-flash:generateContent?alt=sse&key={front.forward_token}"
    got, _ = raw(front, target, {"authorization": None})
    assert got == 200
    assert upstream.paths == ["/v1beta/models/gemini-2.5-flash:generateContent?alt=sse"]
    assert upstream.headers[0]["x-goog-api-key"] == FAKE_KEYS["GEMINI_API_KEY"]
    assert front.forward_token not in str(front.recorder.last)
    assert attacker.connections == 0


def test_anthropic_sdk_with_the_token_reaches_its_endpoint(front, fresh):
    upstream, _ = fresh
    client = anthropic.Anthropic(base_url=front.url, api_key=front.forward_token, max_retries=0)
    client.messages.count_tokens(model="claude-sonnet-4-5", messages=HELLO)  # the reply: Chat's
    assert upstream.paths == ["/v1/messages/count_tokens"]
    assert upstream.headers[0]["x-api-key"] == FAKE_KEYS["ANTHROPIC_API_KEY"]


def test_without_forward_the_local_placeholder_still_works():
    with LocalProvider() as p:
        assert p.forward_token is None
        reply = openai.OpenAI(base_url=p.base_url("openai"), api_key=LOCAL_KEY).models.list()
        assert reply.data


def test_each_forwarder_has_its_own_token_and_never_shows_it(upstream):
    one, two = Forwarder(env=live_env(upstream.url)), Forwarder(env=live_env(upstream.url))
    assert one.token.startswith("otw-fwd-") and len(one.token) > 30 and one.token != two.token
    assert one.token not in repr(one) and FAKE_KEYS["OPENAI_API_KEY"] not in one.describe()


def test_a_reply_over_the_cap_is_a_502_naming_the_cap(upstream, attacker):
    forwarder = Forwarder(env=live_env(upstream.url), max_reply_bytes=100)
    with LocalProvider(forward=forwarder) as p:
        got, message = raw(p, "/v1/chat/completions")
    assert got == 502 and "over the cap of 100 bytes" in message
    assert FAKE_KEYS["OPENAI_API_KEY"] not in message


LOOPS = ["127.0.0.1", "0.0.0.0", "127.1", "2130706433", "0x7f.0.0.1", "localhost",
         "LOCALHOST.", "[::1]", "[::ffff:127.0.0.1]", "[::]", "127.9.9.9"]  # fmt: skip


@pytest.mark.parametrize("host", LOOPS)
def test_a_base_url_pointing_back_at_the_stand_in_is_refused_in_any_spelling(host):
    forwarder = Forwarder(env={**live_env(None), "ANTHROPIC_BASE_URL": f"http://{host}:4321"})
    with pytest.raises(ValueError, match="ANTHROPIC_BASE_URL points at this stand-in itself"):
        forwarder.bind("http://127.0.0.1:4321")
    forwarder.bind("http://127.0.0.1:4322")  # another port: no loop


def test_serve_forward_refuses_a_loop_at_start(monkeypatch, capsys):
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    for name, value in live_env(None).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.1:{port}/v1")
    assert main(["serve", "--forward", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert "OPENAI_BASE_URL points at this stand-in itself" in err and len(err.splitlines()) == 1
    with socket.create_server(("127.0.0.1", port)):  # the port was released
        pass


BAD_BASES = [
    ("api.openai.com/v1", "must start with http:// or https://"),
    ("ftp://127.0.0.1:9", "must start with http:// or https://"),
    ("http:/127.0.0.1:9", "must start with http:// or https://"),
    ("http://user:sk-proj-SECRETinUSERINFO@127.0.0.1:9/v1", "user-info"),
    ("http://127.0.0.1:9/v1?key=sk-proj-SECRETinQUERY", "query"),
    ("http://127.0.0.1:9/v1#x", "fragment"),
    ("http://127.0.0.1:9 /v1", "space"),
    ("http://127.0.0.1:99999/v1", "port"),
    ("http:///v1", "no host"),
    ("http://127.0.0.1\\@x:9", "backslash"),
]


@pytest.mark.parametrize("value, reason", BAD_BASES)
def test_a_malformed_base_url_is_refused_at_start_without_echoing_it(value, reason):
    with pytest.raises(ValueError, match="OPENAI_BASE_URL is not a usable base URL") as info:
        Forwarder(env={**live_env(None), "OPENAI_BASE_URL": value})
    assert reason in str(info.value) and "SECRET" not in str(info.value)


def test_serve_forward_with_a_malformed_base_url_is_one_line(monkeypatch, capsys):
    for name, value in live_env(None).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://me:sk-ant-SECRET0123456789abcdef@x.test")
    assert main(["serve", "--forward"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ANTHROPIC_BASE_URL is not a usable base URL: it has user-info")
    assert len(err.splitlines()) == 1 and "SECRET" not in err


def test_the_banner_gives_the_token_as_the_key_under_forward(front):
    text = banner(front)
    token = front.forward_token
    assert f"-H 'authorization: Bearer {token}'" in text
    assert f"-H 'x-api-key: {token}'" in text and f"-H 'x-goog-api-key: {token}'" in text
    assert f"api_key={token!r}" in text and LOCAL_KEY not in text
    assert not any(key in text for key in FAKE_KEYS.values())


_PIECES = ["/v1/chat/completions", "/v1beta/models/g:countTokens",
           "/", "v1", "v1beta", "chat", "completions", "responses", "messages", "count_tokens",
           "models/", "gemini-2.5-flash", ":generateContent", ":", "@", ".", "..", "%2e", "%2F",
           "%40", "\\", "?", "#", "&", "key=", "alt=sse", "http://", "//", "localhost",
           "127.0.0.1", "127.1", "0.0.0.0", "[::1]", "\x00", "\t", " ", "ü"]  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    start=st.sampled_from(["", "/v1/chat/completions", "/v1/messages", "/v1beta/models/g"]),
    pieces=st.lists(
        st.sampled_from([*_PIECES, "{A}", ":{A}", "{U}"]) | st.text(max_size=3), max_size=10
    ),
    method=st.sampled_from(["POST", "POST", "GET", "CONNECT"]),
)
def test_whatever_the_target_the_key_goes_to_the_configured_origin_or_nowhere(
    front, upstream, attacker, start, pieces, method
):
    upstream.headers.clear()
    attacker.connections = 0
    port = upstream.url.rsplit(":", 1)[1]
    target = start + "".join(pieces).replace("{A}", str(attacker.port)).replace("{U}", port)
    token = front.forward_token
    headers = [("Host", f"127.0.0.1:{front.port}"), ("Authorization", f"Bearer {token}")]
    response = front.forward(method, target, headers, b'{"model":"m"}', "openai-chat")
    assert attacker.connections == 0
    assert all(seen["host"] == f"127.0.0.1:{port}" for seen in upstream.headers)
    assert (response.status == 200) == bool(upstream.headers), response.body
    event(f"status {response.status}")


def test_a_key_that_cannot_go_in_a_header_is_refused_at_start_without_showing_it():
    env = {**live_env(None), "OPENAI_API_KEY": FAKE_KEYS["OPENAI_API_KEY"] + "\r"}
    with pytest.raises(ValueError, match="OPENAI_API_KEY contains a space, a line end") as info:
        Forwarder(env=env)
    assert FAKE_KEYS["OPENAI_API_KEY"] not in str(info.value)


def test_an_upstream_that_cannot_be_reached_is_a_502_without_the_key(attacker):
    env = {**live_env(None), "OPENAI_BASE_URL": f"http://127.0.0.1:{attacker.port}/v1"}
    with LocalProvider(forward=Forwarder(env=env)) as p:  # the listener closes at once
        got, message = raw(p, "/v1/chat/completions")
    assert got == 502 and message.startswith(f"forwarding to http://127.0.0.1:{attacker.port}")
    assert FAKE_KEYS["OPENAI_API_KEY"] not in message
