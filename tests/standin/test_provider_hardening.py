"""The stand-in against a hostile client: every malformed request gets a provider-style
400 (never a dropped connection, never a 500 for the client's mistake), sizes are checked before
reading, writes are not delayed (``TCP_NODELAY``), the recorder stays bounded under ``serve``,
and a client that resets the connection is one log line."""

from __future__ import annotations

import copy
import json
import socket
import time
from pathlib import Path

import pytest

from standin import LocalProvider
from tests.support.provider_support import KEY, body

MAX = 100_000


@pytest.fixture(scope="module")
def p():
    lines: list[str] = []
    with LocalProvider("sundry", max_body_bytes=MAX, log=lines.append) as provider:
        provider.lines = lines
        yield provider


def exchange(p, raw: bytes, timeout: float = 10) -> tuple[int, dict, bytes]:
    """Send raw bytes on a fresh connection; the status, headers and body of the answer."""
    with socket.create_connection(("127.0.0.1", p.port), timeout=timeout) as s:
        s.sendall(raw)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            assert chunk, f"connection dropped with no answer (got {data!r})"
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:])
        length = int(headers.get("content-length", 0))
        while len(rest) < length:
            chunk = s.recv(65536)
            if not chunk:
                break
            rest += chunk
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, rest


def post_head(extra: str, path: str = "/v1/messages") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nx-api-key: {KEY}\r\nanthropic-version: 2023-06-01\r\n"
        f"content-type: application/json\r\n{extra}\r\n"
    ).encode()


@pytest.mark.parametrize(
    ("headers", "rest", "wording"),
    [
        ("content-length: abc\r\n", b"{}", "invalid Content-Length 'abc'"),
        ("content-length: -5\r\n", b"{}", "invalid Content-Length '-5'"),
        ("content-length: 1e3\r\n", b"{}", "invalid Content-Length '1e3'"),
        ("content-length: 2\r\ncontent-length: 3\r\n", b"{}", "conflicting Content-Length"),
        ("transfer-encoding: gzip\r\n", b"{}", "unsupported Transfer-Encoding"),
        ("transfer-encoding: chunked\r\n", b"zz\r\n{}\r\n0\r\n\r\n", "invalid chunk size"),
        ("transfer-encoding: chunked\r\n", b"-1\r\n{}\r\n0\r\n\r\n", "invalid chunk size"),
        ("transfer-encoding: chunked\r\n", b"1\r\n{}\r\n0\r\n\r\n", "longer than its declared"),
    ],
)
def test_broken_framing_gets_a_provider_style_400(p, headers, rest, wording):
    status, answer_headers, data = exchange(p, post_head(headers) + rest)
    assert status == 400
    assert answer_headers["connection"] == "close"  # the rest of the bytes can't be trusted
    answer = json.loads(data)
    assert answer["type"] == "error" and answer["error"]["type"] == "invalid_request_error"
    assert wording in answer["error"]["message"]
    assert p.recorder.last.status == 400


def test_a_huge_declared_chunk_is_refused_before_it_is_read(p):
    # 16 TB declared, 2 bytes sent: answered at once, without waiting for (or storing) the rest
    started = time.perf_counter()
    status, _, data = exchange(
        p, post_head("transfer-encoding: chunked\r\n") + b"fffffffffff\r\n{}"
    )
    assert status == 413
    assert (
        "Request exceeds the maximum allowed number of bytes"
        in json.loads(data)["error"]["message"]
    )
    assert time.perf_counter() - started < 5  # not a timing target: it must not wait for 16 TB


def test_a_bad_request_line_is_a_json_400_not_an_html_page(p):
    status, headers, data = exchange(p, b"GARBAGE\r\n\r\n")
    assert status == 400
    assert headers["content-type"] == "application/json"
    assert "Malformed request" in json.loads(data)["error"]["message"]


@pytest.mark.parametrize(
    ("path", "value", "wording"),
    [
        (("tools",), 5, "tools: expected a list"),
        # no JSON Schema: Anthropic's own sentence (standin.rules.schemas)
        (("tools", 0, "input_schema", "required"), [{}], "input_schema: JSON schema is invalid"),
        (("tools", 0, "input_schema", "properties"), 3, "input_schema: JSON schema is invalid"),
        (("model",), ["x"], "model"),
        (("messages", 0, "content"), "\ud800", "lone surrogate"),
    ],
)
def test_bad_but_parseable_bodies_get_a_400_never_a_500(p, path, value, wording):
    payload = copy.deepcopy(body("anthropic"))  # never change a body other tests share
    payload["tools"] = payload.get("tools") or [
        {"name": "f", "description": "d", "input_schema": {"type": "object", "properties": {}}}
    ]
    target = payload
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    raw = json.dumps(payload).encode("utf-8", "surrogatepass")
    head = post_head(f"content-length: {len(raw)}\r\n")
    status, _, data = exchange(p, head + raw)
    assert status == 400, data
    assert wording in json.loads(data)["error"]["message"]


def test_deep_nesting_and_long_integers_are_400s(p):
    for raw in (b"[" * 5000 + b"]" * 5000, b'{"model": 1' + b"0" * 5000 + b"}"):
        status, _, data = exchange(p, post_head(f"content-length: {len(raw)}\r\n") + raw)
        assert status == 400, data


def test_writes_are_not_delayed(p):
    with socket.create_connection(("127.0.0.1", p.port)) as s:
        s.sendall(b"GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
        s.recv(65536)
        with p._server.connections_lock:
            ours = [c for c in p._server.connections if c.getpeername() == s.getsockname()]
            assert len(ours) == 1, "the connection was not tracked"
            assert ours[0].getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_serve_keeps_a_bounded_recorder():
    with LocalProvider("echo", keep=3) as small:
        for _ in range(5):
            exchange(small, b"GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert len(small.recorder) == 3
    from standin.cli import serve

    source = Path(serve.__file__).read_text(encoding="utf-8")
    assert "keep=KEEP" in source and serve.KEEP == 100


def test_a_client_reset_is_one_log_line(p):
    before = len(p.lines)
    s = socket.create_connection(("127.0.0.1", p.port))
    s.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\n")  # half a request, then a reset
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    s.close()
    for _ in range(100):
        if len(p.lines) > before:
            break
        time.sleep(0.05)
    new = p.lines[before:]
    assert len(new) == 1 and "went away" in new[0] and "\n" not in new[0], new
