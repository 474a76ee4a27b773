"""The stand-in's latency on one keep-alive connection, against a bare ``http.server``.

Both servers answer the same bytes (the provider's own answer to a short Sundry request, read
once), on 127.0.0.1, to the same ``http.client`` connection kept alive for every request; the
bare one does nothing else, so the ratio is the provider's own cost (routing, checking the
request, counting tokens, rendering, recording). Target: p50 <= 5 ms.

Before ``TCP_NODELAY`` the provider's p50 was ~44 ms: its status line and body left in two
writes, and Nagle's algorithm held the second until the client's delayed ACK. Run:
``python -m benchmarks.provider_latency``.
"""

from __future__ import annotations

import http.client
import json
import socket
import statistics
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REQUESTS = 300


def _request_body() -> bytes:
    from helpers.examples import sundry
    from helpers.formats import render
    from helpers.models import default_model

    request = sundry.opening(default_model("openai"))
    return json.dumps(render(request, "openai-chat").body).encode()


def _timings(port: int, path: str, body: bytes, headers: dict[str, str]) -> list[float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times = []
    for i in range(REQUESTS + 20):
        started = time.perf_counter()
        connection.request("POST", path, body=body, headers=headers)
        answer = connection.getresponse()
        answer.read()
        if i >= 20:  # warm-up: imports, caches, the first connection
            times.append(time.perf_counter() - started)
    connection.close()
    return times


def _bare_server(answer: bytes) -> ThreadingHTTPServer:
    class Bare(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            self.rfile.read(int(self.headers["content-length"]))
            self.wfile.write(answer)  # the same bytes, in one write

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Bare)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def measure() -> dict[str, float]:
    """p50 and p95 (ms) of the provider and of the bare server, and the ratio of the p50s."""
    from standin import LocalProvider

    body = _request_body()
    headers = {"content-type": "application/json", "authorization": "Bearer sk-local"}
    with LocalProvider("sundry", keep=10) as provider:
        # the provider's answer, as raw bytes, for the bare server to send back
        with socket.create_connection(("127.0.0.1", provider.port)) as s:
            head = "\r\n".join(
                [
                    "POST /v1/chat/completions HTTP/1.1",
                    "host: 127.0.0.1",
                    *(f"{k}: {v}" for k, v in headers.items()),
                    f"content-length: {len(body)}",
                    "connection: close",
                ]
            )
            s.sendall(head.encode() + b"\r\n\r\n" + body)
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        answer = answer.replace(b"connection: close\r\n", b"")
        provider_times = _timings(provider.port, "/v1/chat/completions", body, headers)
    bare = _bare_server(answer)
    try:
        bare_times = _timings(bare.server_address[1], "/", body, headers)
    finally:
        bare.shutdown()
        bare.server_close()

    def ms(times: list[float], q: int) -> float:
        return statistics.quantiles(times, n=100)[q - 1] * 1000

    result = {
        "provider_p50": ms(provider_times, 50),
        "provider_p95": ms(provider_times, 95),
        "bare_p50": ms(bare_times, 50),
        "bare_p95": ms(bare_times, 95),
    }
    result["ratio"] = result["provider_p50"] / result["bare_p50"]
    return result


if __name__ == "__main__":
    for name, value in measure().items():
        print(f"{name:>14}: {value:.2f}")
