"""Block every network connection that does not stay on this machine.

The lessons and tests promise to run offline: the only server they talk to is the stand-in
on 127.0.0.1. The test suite calls ``block_network()`` in its own process and in every
notebook kernel it starts, so a lesson that quietly needs the internet fails loudly, with a
message naming the address, instead of hanging or passing by luck on a connected machine.

It works by wrapping the standard library's ``socket`` functions that resolve names
(``getaddrinfo``, ``gethostbyname``, ``gethostbyname_ex``, ``gethostbyaddr``, ``getnameinfo``)
and open connections (``connect``, ``connect_ex``, ``sendto``). A proxy on this machine would
carry traffic out through an allowed loopback connection, so the guard also clears the proxy
variables (``HTTPS_PROXY``...; ``NO_PROXY=*``) and refuses to *send* a proxy request for a
remote host (``CONNECT api.openai.com:443``, ``GET http://example.com/``) on any socket. C
libraries that open their own sockets (ZeroMQ, which Jupyter uses to talk to the kernel, only
ever on loopback) are not affected.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import socket
from pathlib import Path

__all__ = [
    "NetworkBlockedError",
    "clear_proxies",
    "block_network",
    "is_blocking",
    "unblock_network",
    "offline_test_environment",
    "write_offline_ipython_profile",
]

_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}
_originals: dict[str, object] = {}
#: Environment variables that send HTTP clients (httpx, requests, urllib, pip) through a proxy.
PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "ftp_proxy", "ws_proxy", "wss_proxy")
_RESOLVERS = ("gethostbyname", "gethostbyname_ex", "gethostbyaddr", "getnameinfo")
# the start of a request to a proxy: CONNECT host:port, or an absolute URL in the request line
_PROXY_REQUEST = re.compile(
    rb"(?:CONNECT ([^\s:/]+|\[[^\]]+\])|[A-Z]+ https?://([^\s:/]+|\[[^\]]+\]))"
)


def clear_proxies(environ: dict | None = None) -> None:
    """Remove every proxy variable (any case) and set ``NO_PROXY=*`` in ``environ``."""
    environ = os.environ if environ is None else environ
    for name in list(environ):
        if name.lower() in PROXY_VARIABLES:
            del environ[name]
    environ["NO_PROXY"] = environ["no_proxy"] = "*"


def _check_payload(data: object) -> None:
    """Refuse a proxy request (``CONNECT`` or an absolute URL) for a host off this machine."""
    if not isinstance(data, bytes | bytearray | memoryview):
        return
    head = bytes(data[:300])
    match = _PROXY_REQUEST.match(head)
    if match:
        host = (match.group(1) or match.group(2)).decode("latin-1")
        if not _is_local_host(host):
            raise _refuse("a proxy request for", host)


class NetworkBlockedError(ConnectionRefusedError):
    """Raised instead of connecting anywhere but this machine."""


def _is_local_host(host: object) -> bool:
    if host is None:
        return True  # getaddrinfo(None, port) means the local machine
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    host = str(host).strip("[]").split("%")[0]
    if host.lower() in _LOCAL_NAMES or host == "":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name other than localhost would need DNS: not local


#: What a refusal says after naming the host (``block_network(why=...)`` sets it).
_OFFLINE = "Lessons and tests run offline; only 127.0.0.1 (the stand-in) is reachable."
_why = _OFFLINE


def _refuse(what: str, host: object, port: object = None) -> NetworkBlockedError:
    where = f"{host}:{port}" if port is not None else f"{host}"
    return NetworkBlockedError(f"network blocked: {what} {where} is not on this machine. {_why}")


def _check_address(what: str, address: object) -> None:
    # AF_INET / AF_INET6 addresses are tuples; AF_UNIX paths (str/bytes) never leave the machine.
    if isinstance(address, tuple) and address and not _is_local_host(address[0]):
        raise _refuse(what, address[0], address[1] if len(address) > 1 else None)


def block_network(why: str | None = None) -> None:
    """Allow only loopback connections in this process, until ``unblock_network()``.

    ``why`` is what each refusal says after naming the host (by default: lessons and tests run
    offline). Already blocking, it changes nothing (not even the message)."""
    global _why
    if _originals:
        return
    _why = why or _OFFLINE
    clear_proxies()
    _originals.update(
        connect=socket.socket.connect,
        connect_ex=socket.socket.connect_ex,
        sendto=socket.socket.sendto,
        send=socket.socket.send,
        sendall=socket.socket.sendall,
        getaddrinfo=socket.getaddrinfo,
        **{name: getattr(socket, name) for name in _RESOLVERS},
    )
    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex
    original_sendto = socket.socket.sendto
    original_send = socket.socket.send
    original_sendall = socket.socket.sendall
    original_getaddrinfo = socket.getaddrinfo

    def connect(self, address):
        _check_address("connection to", address)
        return original_connect(self, address)

    def connect_ex(self, address):
        _check_address("connection to", address)
        return original_connect_ex(self, address)

    def sendto(self, data, *args):
        _check_address("datagram to", args[-1])
        return original_sendto(self, data, *args)

    def getaddrinfo(host, port, *args, **kwargs):
        if not _is_local_host(host):
            raise _refuse("name lookup of", host, port)
        return original_getaddrinfo(host, port, *args, **kwargs)

    def refuse_proxying(sock, data) -> None:
        try:
            _check_payload(data)
        except NetworkBlockedError:
            # Close it too: an HTTP client that ignores a failed write and waits for an early
            # answer (httpcore does) then fails at once instead of after its read timeout.
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            raise

    def send(self, data, *args):
        refuse_proxying(self, data)
        return original_send(self, data, *args)

    def sendall(self, data, *args):
        refuse_proxying(self, data)
        return original_sendall(self, data, *args)

    def resolver(name: str):
        original = getattr(socket, name)

        def guarded(host, *args, **kwargs):
            target = host[0] if isinstance(host, tuple) else host  # getnameinfo((host, port), f)
            if not _is_local_host(target):
                raise _refuse(f"{name} of", target)
            return original(host, *args, **kwargs)

        guarded.__name__ = name
        return guarded

    socket.socket.connect = connect
    socket.socket.connect_ex = connect_ex
    socket.socket.sendto = sendto
    socket.socket.send = send
    socket.socket.sendall = sendall
    socket.getaddrinfo = getaddrinfo
    for name in _RESOLVERS:
        setattr(socket, name, resolver(name))


def unblock_network() -> None:
    """Undo ``block_network()``."""
    if not _originals:
        return
    for name in ("connect", "connect_ex", "sendto", "send", "sendall"):
        setattr(socket.socket, name, _originals[name])
    for name in ("getaddrinfo", *_RESOLVERS):
        setattr(socket, name, _originals[name])
    _originals.clear()


def is_blocking() -> bool:
    return bool(_originals)


def write_offline_ipython_profile(ipython_dir: Path) -> Path:
    """Make an IPython directory whose startup file blocks the network in every new kernel.

    Point ``IPYTHONDIR`` at it before starting kernels (the tests and ``make outputs`` do), and
    each kernel runs ``block_network()`` before its first cell, whatever the notebook imports.
    """
    startup = Path(ipython_dir) / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    (startup / "00-no-network.py").write_text(
        "__import__('standin.netguard').netguard.block_network()\n",
        encoding="utf-8",
    )
    return Path(ipython_dir)


def offline_test_environment(ipython_dir: Path) -> None:
    """Make this process and the kernels it starts run as the tests do.

    Drops every ``*_API_KEY``, the proxy variables (``NO_PROXY=*``) and the live-mode switch
    (nothing can reach a real provider), sets ``ON_THE_WIRE_OFFLINE=1`` (any Python subprocess
    that imports ``helpers`` blocks the network) and points ``IPYTHONDIR`` at a fresh profile
    whose kernels block it before their first cell. The test suite and ``make outputs`` both
    call this, so stored outputs come from
    exactly the conditions nbval re-checks them under.
    """
    for name in list(os.environ):
        if name.endswith("_API_KEY") or name == "ON_THE_WIRE_LIVE":
            del os.environ[name]
    clear_proxies()  # a proxy on loopback would carry requests out past the guard
    os.environ["ON_THE_WIRE_OFFLINE"] = "1"
    os.environ["IPYTHONDIR"] = str(write_offline_ipython_profile(ipython_dir))
