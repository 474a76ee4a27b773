"""``serve --forward``: pass each request on to the real provider, with the user's key.

Live mode's two switches apply (``standin.live``): ``ON_THE_WIRE_LIVE=1`` and the provider's key
(``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY``). A provider without both is not
forwarded to: its requests get a 401 in its own envelope saying which variable is missing. The
real base URL can be overridden as in live mode (``OPENAI_BASE_URL``...), which the tests use to
put a stand-in remote on loopback.

The user's key goes to one place only: the configured origin of the provider whose endpoint was
called. Before anything is sent, a request must pass, in this order (the first failure is the
answer, in the provider's own error envelope, and nothing leaves this machine):

1. ``Host`` is a loopback name of this server (``127.0.0.1:PORT``, ``localhost:PORT``,
   ``[::1]:PORT``) and ``Origin``, if sent, is ``http://`` one of them: else 403 (a web page
   reaching the forwarder through DNS rebinding, or from another site);
2. the request carries this run's token (:attr:`Forwarder.token`, printed by ``serve``) as its
   API key, in the provider's key place: else 401 (another process or user on a shared machine);
3. the request-target is an origin-form path (``/`` first; no scheme, authority, ``..``,
   backslash, ``@``, percent-encoding or control character) of an endpoint the stand-in serves
   (:data:`ENDPOINTS`), and the method is ``POST``: else 400 (or 405) naming the reason.

The upstream URL is then built with ``httpx.URL`` from the parsed origin (scheme, host, port,
base path) plus that path, and its scheme, host and port are compared with the origin's before
the key is attached. The client's own key headers, cookies and ``?key=`` are never passed on.
A base URL that is not a plain ``http(s)://host[:port][/path]`` is refused when the forwarder is
made, and one that points back at this server (by address and port: ``0.0.0.0``, ``127.1``,
``[::ffff:127.0.0.1]``... all count) when it is bound to its server. The reply is read up to
:data:`MAX_REPLY_BYTES`; a longer one is answered with a 502.

What it does not do: stream as it arrives (a stream is passed on whole, once the provider has
sent its last event), follow redirects, retry, resolve a DNS name to look for a loop (a request
that loops through a name arrives without the token and is refused), or change the body.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
import socket
from collections.abc import Mapping
from urllib.parse import urlsplit

from helpers.formats.providers import FAMILIES, PROVIDERS
from standin.live_switch import (
    BASE_URL_VARS,
    KEYS,
    LIVE_URLS,
    environ,
    family,
    is_live,
    live_url,
    why_not_live,
)
from standin.provider import routes
from standin.providers import of
from standin.redaction import add_secret, redact

__all__ = [
    "ENDPOINTS",
    "MAX_REPLY_BYTES",
    "TOKEN_PREFIX",
    "Forwarder",
    "Refusal",
    "check_base_url",
    "check_target",
    "is_loopback_host",
]

#: The prefix of the per-run token clients use as their API key under ``--forward``.
TOKEN_PREFIX = "otw-fwd-"
#: The largest upstream reply passed on (bytes); a longer one is answered with a 502.
MAX_REPLY_BYTES = 32 * 1024 * 1024

# hop-by-hop and framing headers: the forwarder's own HTTP client sets them
_DROPPED = {"host", "content-length", "connection", "transfer-encoding", "keep-alive", "te"}
_DROPPED |= {"upgrade", "proxy-connection", "accept-encoding", "content-encoding"}
# never passed on: the client's own credentials and browser state
_KEY_HEADERS = {"authorization", "x-api-key", "x-goog-api-key", "api-key", "proxy-authorization"}
_PRIVATE = {"cookie", "cookie2", "origin", "referer", "forwarded", "x-forwarded-for"}

#: The endpoints forwarded, by provider (what ``standin.provider.routes`` serves for generation
#: and counting: each provider's ``FORWARDED``). Anything else is refused with a 400.
ENDPOINTS: dict[str, re.Pattern[str]] = {format: of(format).FORWARDED for format in PROVIDERS}
_QUERY = re.compile(r"[A-Za-z0-9._~=&-]*")
_LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")


class Refusal(Exception):
    """A request the forwarder will not send: ``status`` and a one-line ``reason``."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


def _key_header(name: str, key: str) -> tuple[str, str]:
    """The header in which ``name``'s API takes its key."""
    row = FAMILIES[name]
    return row.key_header, row.key_prefix + key


def _events(text: str) -> list[str]:
    """SSE text cut into events, each with its blank-line end, exactly as received."""
    return [m.group() for m in re.finditer(r".*?(?:\r?\n\r?\n|$)", text, re.S) if m.group()]


def _shown(text: str, limit: int = 60) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters."""
    return repr(text[:limit] + ("..." if len(text) > limit else ""))


# --- the base URL -------------------------------------------------------------------------------


def check_base_url(var: str, value: str) -> None:
    """Raise ValueError naming ``var`` unless ``value`` is ``http(s)://host[:port][/path]``.

    The message never repeats the value (it could hold a password or a key)."""
    bad = f"{var} is not a usable base URL"
    if not value or any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        raise ValueError(f"{bad}: it is empty or contains a space or control character")
    if "\\" in value:
        raise ValueError(f"{bad}: it contains a backslash")
    parts = urlsplit(value)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not value.lower().startswith(scheme + "://"):
        raise ValueError(f"{bad}: it must start with http:// or https://")
    if "@" in parts.netloc:
        raise ValueError(f"{bad}: it has user-info (a name or password before '@'); remove it")
    if "?" in value or "#" in value:
        raise ValueError(f"{bad}: it has a query ('?') or a fragment ('#'); remove it")
    if not parts.hostname:
        raise ValueError(f"{bad}: it has no host")
    try:
        parts.port  # noqa: B018 (raises on a bad port)
    except ValueError:
        raise ValueError(f"{bad}: its port is not a number from 0 to 65535") from None
    import httpx

    try:
        httpx.URL(value)
    except httpx.InvalidURL:
        raise ValueError(f"{bad}: httpx cannot parse it") from None


def _port(url) -> int:
    """The port an ``httpx.URL`` connects to (its default when none is written)."""
    return url.port or {"http": 80, "https": 443}.get(url.scheme, 0)


def is_loopback_host(host: str) -> bool:
    """True when ``host`` (as ``httpx.URL.host`` gives it) names this machine: ``localhost``,
    any loopback or unspecified address in any spelling (``127.1``, ``2130706433``, ``0.0.0.0``,
    ``::1``, ``::ffff:127.0.0.1``). Numbers are parsed as the C library parses them
    (``inet_aton``); names are never looked up in DNS."""
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(host)
    except ValueError:
        try:  # the C library's other IPv4 spellings: 127.1, 2130706433, 0x7f.0.0.1, 0177.0.0.1
            address = ipaddress.IPv4Address(socket.inet_aton(host))
        except (OSError, UnicodeError, ValueError):
            return False  # a name: not resolved here (see the module docstring)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_unspecified


# --- the request --------------------------------------------------------------------------------


def check_target(method: str, target: str) -> tuple[str, str, str]:
    """``(provider, path, query)`` of a request-target the forwarder may send, the ``key=``
    parameter removed from the query; else raise :class:`Refusal` naming the reason."""
    if any(ord(c) < 0x21 or ord(c) >= 0x7F for c in target):
        raise Refusal(400, "the request-target contains a control, space or non-ASCII character")
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", target):
        raise Refusal(400, "absolute-form request-target (scheme and host) is not forwarded")
    if not target.startswith("/"):
        raise Refusal(400, f"the request-target {_shown(target)} is not an origin-form path")
    if target.startswith("//"):
        raise Refusal(400, "a request-target starting with '//' (an authority) is not forwarded")
    if "#" in target:
        raise Refusal(400, "the request-target has a fragment ('#')")
    path, _, query = target.partition("?")
    for bad, what in [("\\", "a backslash"), ("@", "'@'"), ("%", "percent-encoding")]:
        if bad in path:
            raise Refusal(400, f"the request path contains {what}")
    if ".." in path or "/./" in path or path.endswith("/."):
        raise Refusal(400, "the request path contains a '.' or '..' segment")
    provider = next((p for p, rule in ENDPOINTS.items() if rule.fullmatch(path)), None)
    if provider is None:
        raise Refusal(400, f"{_shown(path)} is not an endpoint the stand-in forwards")
    if method != "POST":
        raise Refusal(405, f"{method} {path} is not forwarded (the endpoint takes POST)")
    if not _QUERY.fullmatch(query):
        raise Refusal(400, "the query string has characters other than letters, digits, ._~=&-")
    kept = [p for p in query.split("&") if p and not p.lower().startswith("key=")]
    return provider, path, "&".join(kept)


def _values(headers: list[tuple[str, str]], name: str) -> list[str]:
    return [v for k, v in headers if k.lower() == name]


def check_host(headers: list[tuple[str, str]], port: int) -> None:
    """Raise a 403 :class:`Refusal` unless ``Host`` is a loopback name of this server on
    ``port`` and ``Origin`` (when present) is ``http://`` one of them."""
    allowed = {f"{name}:{port}" for name in _LOCAL_NAMES}
    hosts = _values(headers, "host")
    if len(hosts) != 1 or hosts[0].strip().lower() not in allowed:
        shown = _shown(hosts[0]) if len(hosts) == 1 else f"{len(hosts)} Host headers"
        raise Refusal(
            403, f"Host {shown} is not this server (127.0.0.1:{port} or localhost:{port})"
        )
    origins = _values(headers, "origin")
    if origins and (
        len(origins) != 1 or origins[0].strip().lower() not in {f"http://{a}" for a in allowed}
    ):
        shown = _shown(origins[0])
        raise Refusal(403, f"Origin {shown} is not this server (other sites' pages may not use it)")


def _presented(headers: list[tuple[str, str]], target: str) -> list[str]:
    """Every credential the request presents in a key place: ``Authorization: Bearer``,
    ``x-api-key``, ``x-goog-api-key`` or ``?key=``."""
    bearer = [
        v.strip()[7:].strip()
        for v in _values(headers, "authorization")
        if v.strip()[:7].lower() == "bearer "
    ]
    query = target.partition("?")[2]
    in_query = [p[4:] for p in query.split("&") if p.lower().startswith("key=")]
    return bearer + _values(headers, "x-api-key") + _values(headers, "x-goog-api-key") + in_query


# --- the forwarder ------------------------------------------------------------------------------


class Forwarder:
    """Answers a request by sending it to the real provider (see the module docstring)."""

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        timeout: float = 600.0,
        max_reply_bytes: int = MAX_REPLY_BYTES,
    ) -> None:
        self.env = dict(environ(env))
        self.timeout = timeout
        self.max_reply_bytes = max_reply_bytes
        self.own_url = ""  # the stand-in's own root: never forwarded to (set by ``bind``)
        #: this run's API key for clients (not the user's key): every request must carry it
        self.token = TOKEN_PREFIX + secrets.token_urlsafe(24)
        self.live = [name for name in KEYS if is_live(name, self.env)]
        # its keys (and a base URL's user-info) are redacted by value from every output
        add_secret(*(self.env.get(KEYS[name], "") for name in KEYS))
        for url in (urlsplit(live_url(n, self.env)) for n in KEYS):
            add_secret(url.password or "", url.username or "")
        if not self.live:
            reasons = "; ".join(why_not_live(name, self.env) or "" for name in KEYS)
            raise ValueError(f"--forward needs live mode for at least one provider: {reasons}")
        for name in self.live:
            var = BASE_URL_VARS[name]
            check_base_url(var, self.env.get(var) or LIVE_URLS[name])
            if any(c.isspace() or ord(c) < 0x20 or ord(c) >= 0x7F for c in self.env[KEYS[name]]):
                raise ValueError(
                    f"{KEYS[name]} contains a space, a line end or a non-ASCII character "
                    "(copied with a stray character?): it cannot be sent in a header"
                )

    def __repr__(self) -> str:
        return f"<Forwarder {', '.join(self.live)} (token and keys hidden)>"

    def bind(self, url: str) -> None:
        """Tie the forwarder to its server at ``url``; ValueError if a live provider's base URL
        points back at it (by address and port, not by spelling)."""
        import httpx

        own = httpx.URL(url)
        for name in self.live:
            root = httpx.URL(live_url(name, self.env))
            if is_loopback_host(root.host) and _port(root) == _port(own):
                var = BASE_URL_VARS[name]
                raise ValueError(f"{var} points at this stand-in itself ({url}): it would loop")
        self.own_url = url

    def describe(self) -> str:
        """One line per provider: where its requests go (keys never shown)."""
        lines = []
        for name in KEYS:
            if name in self.live:
                lines.append(f"  {name}: forwarded to {live_url(name, self.env)} with {KEYS[name]}")
            else:
                lines.append(f"  {name}: not forwarded ({why_not_live(name, self.env)})")
        return redact("\n".join(lines))  # a base URL's password never prints

    def admit(self, method: str, target: str, headers: list[tuple[str, str]]) -> tuple[str, str]:
        """``(provider, path?query)`` of a request that passes every check before sending (see
        the module docstring); else raise :class:`Refusal`."""
        import httpx

        if not self.own_url:
            raise Refusal(503, "the forwarder is not bound to a server (call bind first)")
        check_host(headers, _port(httpx.URL(self.own_url)))
        presented = _presented(headers, target)
        token = self.token.encode()
        if not any(hmac.compare_digest(c.encode("utf-8", "replace"), token) for c in presented):
            what = "a wrong" if presented else "no"
            raise Refusal(
                401,
                f"{what} forwarding token: under --forward the API key is the token serve "
                f"printed ({TOKEN_PREFIX}...), not a provider key",
            )
        provider, path, query = check_target(method, target)
        return provider, path + ("?" + query if query else "")

    def __call__(
        self, method: str, path: str, headers: list[tuple[str, str]], body: bytes, style: str
    ) -> routes.Response:
        import httpx

        try:
            style, target = self.admit(method, path, headers)
        except Refusal as refused:
            response = routes.error(style, refused.status, f"not forwarded: {refused.reason}")
            response.note = f"refused to forward: {refused.reason}"
            return response
        name = family(style)
        if name not in self.live:
            return routes.error(style, 401, f"not forwarded: {why_not_live(name, self.env)}")
        root = live_url(name, self.env)
        if self.own_url and _same_server(root, self.own_url):
            return routes.error(style, 508, f"not forwarded: {root} is this stand-in itself")
        base = httpx.URL(root)
        rest, _, query = target.partition("?")
        url = base.copy_with(path=base.path.rstrip("/") + rest, query=query.encode() or None)
        if (url.scheme, url.host, _port(url)) != (base.scheme, base.host, _port(base)):
            return routes.error(style, 400, f"not forwarded: the URL left {root}")
        sent = [(k, v) for k, v in headers if k.lower() not in _DROPPED | _KEY_HEADERS | _PRIVATE]
        sent += [_key_header(name, self.env[KEYS[name]]), ("accept-encoding", "identity")]
        try:
            status, kept, data = self._send(method, url, sent, body)
        except httpx.HTTPError as err:
            # only these errors' texts are shown: others can quote a header, and so the key
            quiet = not isinstance(err, httpx.ConnectError | httpx.TimeoutException)
            text = f"forwarding to {root} failed: {type(err).__name__}" + f": {err}" * (not quiet)
            text = redact(text)  # and nothing it shows holds a key the process knows
            response = routes.error(style, 502, text)
            response.note = f"forward failed: {type(err).__name__}"
            return response
        if data is None:
            cap = f"{self.max_reply_bytes:,} bytes"
            response = routes.error(style, 502, f"the reply from {root} is over the cap of {cap}")
            response.note = f"forward failed: reply over {cap}"
            return response
        note = f"forwarded to {root}"
        if any(k.lower() == "content-type" and "event-stream" in v for k, v in kept):
            events = _events(data.decode("utf-8", errors="replace"))
            return routes.Response(status, kept, events=events, provider=style, note=note)
        return routes.Response(status, kept, data, provider=style, note=note)

    def _send(
        self, method: str, url, headers: list[tuple[str, str]], body: bytes
    ) -> tuple[int, list[tuple[str, str]], bytes | None]:
        """Status, headers and body of the upstream reply; body None when over the cap."""
        import httpx

        with (
            httpx.Client(timeout=self.timeout, follow_redirects=False) as client,
            client.stream(method, url, headers=headers, content=body) as reply,
        ):
            kept = [(k, v) for k, v in reply.headers.multi_items() if k.lower() not in _DROPPED]
            chunks, size = [], 0
            for chunk in reply.iter_bytes():
                size += len(chunk)
                if size > self.max_reply_bytes:
                    return reply.status_code, kept, None
                chunks.append(chunk)
            return reply.status_code, kept, b"".join(chunks)


def _same_server(a: str, b: str) -> bool:
    """True when URLs ``a`` and ``b`` reach the same loopback address and port."""
    import httpx

    x, y = httpx.URL(a), httpx.URL(b)
    return is_loopback_host(x.host) and is_loopback_host(y.host) and _port(x) == _port(y)
