"""The network guard: loopback allowed, everything else refused with a clear message."""

from __future__ import annotations

import socket
import threading

import pytest

from standin import netguard


@pytest.fixture(autouse=True)
def guarded():
    # conftest.py already blocks the network for the whole test session
    assert netguard.is_blocking()


def test_public_addresses_are_refused_with_the_address_named():
    with pytest.raises(netguard.NetworkBlockedError, match=r"93\.184\.216\.34:80"):
        socket.create_connection(("93.184.216.34", 80), timeout=1)


def test_name_lookups_other_than_localhost_are_refused():
    with pytest.raises(netguard.NetworkBlockedError, match="api.openai.com"):
        socket.getaddrinfo("api.openai.com", 443)


def test_udp_to_a_public_address_is_refused():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s, pytest.raises(OSError):
        s.sendto(b"x", ("8.8.8.8", 53))


def test_httpx_to_a_real_provider_fails_loudly():
    import httpx

    with pytest.raises(httpx.ConnectError, match="network blocked"):
        httpx.get("https://api.anthropic.com/v1/messages", timeout=2)


def test_loopback_is_allowed():
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    accepted = []
    thread = threading.Thread(target=lambda: accepted.append(server.accept()))
    thread.start()
    with socket.create_connection(("localhost", port), timeout=5):
        thread.join(5)
    server.close()
    accepted[0][0].close()
    assert accepted


@pytest.mark.parametrize(
    "host, local",
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        (None, True),
        ("10.0.0.1", False),
        ("example.com", False),
        ("2606:4700::1111", False),
    ],
)
def test_what_counts_as_this_machine(host, local):
    assert netguard._is_local_host(host) is local


def test_unblock_restores_the_original_functions():
    netguard.unblock_network()
    try:
        assert not netguard.is_blocking()
        assert socket.getaddrinfo.__module__ == "socket"
    finally:
        netguard.block_network()


def test_the_offline_test_environment_drops_keys_and_blocks_kernels(tmp_path, monkeypatch):
    import os

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("ON_THE_WIRE_LIVE", "1")
    monkeypatch.setenv("IPYTHONDIR", os.environ.get("IPYTHONDIR", ""))
    monkeypatch.setenv("ON_THE_WIRE_OFFLINE", "1")
    netguard.offline_test_environment(tmp_path)
    assert "OPENAI_API_KEY" not in os.environ and "ON_THE_WIRE_LIVE" not in os.environ
    assert os.environ["ON_THE_WIRE_OFFLINE"] == "1" and os.environ["IPYTHONDIR"] == str(tmp_path)
    startup = tmp_path / "profile_default" / "startup" / "00-no-network.py"
    assert "block_network()" in startup.read_text()


def test_the_kernels_startup_file_runs_and_blocks_the_network(tmp_path):
    """What IPython runs before a kernel's first cell, run as it runs it: without an error, and
    the network is blocked after it (without ON_THE_WIRE_OFFLINE, which would block it anyway)."""
    import os
    import subprocess
    import sys

    startup = netguard.write_offline_ipython_profile(tmp_path) / "profile_default" / "startup"
    code = (startup / "00-no-network.py").read_text(encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "ON_THE_WIRE_OFFLINE"}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            code + "from standin import netguard\nprint(netguard.is_blocking())",
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0 and done.stdout == "True\n", done.stderr


@pytest.mark.parametrize(
    ("call", "target"),
    [
        (lambda: socket.gethostbyname("api.openai.com"), "api.openai.com"),
        (lambda: socket.gethostbyname_ex("api.anthropic.com"), "api.anthropic.com"),
        (lambda: socket.gethostbyaddr("8.8.8.8"), "8.8.8.8"),
        (lambda: socket.getnameinfo(("1.1.1.1", 443), 0), "1.1.1.1"),
        (lambda: socket.getfqdn("example.com"), None),  # built on gethostbyaddr
    ],
)
def test_every_resolver_is_guarded(call, target):
    if target is None:  # getfqdn swallows errors and answers the name it was given
        assert call() == "example.com"
        return
    with pytest.raises(netguard.NetworkBlockedError, match=target.replace(".", r"\.")):
        call()


def test_resolvers_still_answer_for_this_machine():
    assert socket.gethostbyname("localhost") == "127.0.0.1"
    assert socket.getnameinfo(("127.0.0.1", 80), socket.NI_NUMERICHOST)[0] == "127.0.0.1"


def test_proxy_variables_are_cleared_and_no_proxy_set(monkeypatch):
    environ = {"HTTPS_PROXY": "http://127.0.0.1:3128", "http_proxy": "x", "ALL_PROXY": "y"}
    netguard.clear_proxies(environ)
    assert environ == {"NO_PROXY": "*", "no_proxy": "*"}
    import os

    assert not {k for k in os.environ if k.lower().endswith("_proxy") and k.lower() != "no_proxy"}


def _proxy() -> tuple[socket.socket, list[bytes]]:
    """A 'proxy' on loopback: it accepts and records what a client sends it, and never answers
    (a real one would carry the request out)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    received: list[bytes] = []

    def serve():
        with server:
            conn, _ = server.accept()
            with conn:
                received.append(conn.recv(65536))

    threading.Thread(target=serve, daemon=True).start()
    return server, received


def test_an_sdk_through_a_loopback_proxy_is_refused():
    import httpx

    server, received = _proxy()
    proxy = f"http://127.0.0.1:{server.getsockname()[1]}"
    with httpx.Client(proxy=proxy, timeout=30) as client, pytest.raises(httpx.HTTPError) as err:
        client.post("https://api.openai.com/v1/chat/completions", json={})
    # refused before a byte left: the client sees the connection closed, not a 30 s timeout
    assert not isinstance(err.value, httpx.TimeoutException)
    assert not any(received)  # nothing reached the proxy


def test_a_plain_http_proxy_request_is_refused():
    server, _ = _proxy()
    refused = pytest.raises(netguard.NetworkBlockedError, match="example.com")
    with socket.create_connection(server.getsockname()) as s, refused:
        s.sendall(b"GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n")
    server, _ = _proxy()
    with socket.create_connection(server.getsockname()) as s:
        s.sendall(b"GET http://127.0.0.1/ HTTP/1.1\r\n\r\n")  # loopback through a proxy: fine
