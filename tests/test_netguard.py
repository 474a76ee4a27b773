"""The network guard: loopback allowed, everything else refused with a clear message."""

from __future__ import annotations

import socket
import threading

import pytest

from helpers.machinery import netguard


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
