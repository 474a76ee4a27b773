"""Send every request for a provider's host to the stand-in, whatever base URL the client has.

While :func:`routed` is active, an HTTP request this process sends to one of the providers'
hosts (:data:`PROVIDER_HOSTS`: ``api.openai.com``, ``api.anthropic.com``,
``generativelanguage.googleapis.com``, Vertex AI's ``aiplatform.googleapis.com`` and
``LOCATION-aiplatform.googleapis.com``) goes to the stand-in's URL instead, with the same
method, path, query, headers and body. It is done where each HTTP library hands a request to
its transport, as respx does for httpx:

- ``Client.send`` and ``AsyncClient.send`` of ``httpx`` and of its fork ``httpx2`` (the
  official SDKs use ``httpx2``; LiteLLM uses ``httpx``, its aiohttp transport below
  ``AsyncClient.send``): any transport, any client, built before
  the block or given an explicit ``base_url``;
- ``requests.Session.send`` and ``aiohttp.ClientSession._request``, when those are installed.

A routed request keeps the URL the client meant in a header, ``x-on-the-wire-routed-from``
(the exchange shows it), and its key headers (``Authorization``, ``x-api-key``,
``x-goog-api-key``, ``api-key``) and a ``?key=`` carry the local placeholder key instead of
the client's: a real key never reaches even the stand-in. What it does not do: reach another
process, a client in another language, a library that opens its own sockets (``urllib``,
``http.client``: the network fence makes those fail, naming the host), or a host that is not a
provider's (a gateway, a proxy on loopback). Routing is per process, not per thread: while
several are active, the newest gets every routed request (:func:`routed` nests).
"""

from __future__ import annotations

import contextlib
import importlib
import threading
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from helpers.formats.providers import FAMILIES

__all__ = ["PROVIDER_HOSTS", "ROUTED_FROM", "is_provider_host", "routed", "target"]

#: The hosts routed to the stand-in (and every ``LOCATION-aiplatform.googleapis.com``).
PROVIDER_HOSTS = frozenset(
    {urlsplit(row.host).hostname for row in FAMILIES.values()} | {"aiplatform.googleapis.com"}
)
#: The request header that keeps the URL the client meant.
ROUTED_FROM = "x-on-the-wire-routed-from"
#: httpx and its fork ``httpx2`` (what openai 3.x, anthropic 2.x and google-genai 3.x use).
_HTTPX = ("httpx", "httpx2")
_KEY_HEADERS = ("authorization", "x-api-key", "x-goog-api-key", "api-key")

_lock = threading.RLock()
_targets: list[str] = []  # the stand-ins' URLs, newest last
_originals: dict[tuple[object, str], object] = {}


def is_provider_host(host: str | None) -> bool:
    """Whether ``host`` is one that :func:`routed` sends to the stand-in."""
    host = (host or "").lower().rstrip(".")
    return host in PROVIDER_HOSTS or host.endswith("-aiplatform.googleapis.com")


def target() -> str | None:
    """The URL routed requests go to now (the newest active :func:`routed`), or None."""
    with _lock:
        return _targets[-1] if _targets else None


@contextlib.contextmanager
def routed(url: str) -> Iterator[str]:
    """Route the providers' hosts to ``url`` (``http://127.0.0.1:PORT``) until the block ends.

    Nested or overlapping uses stack: the newest gets the traffic; each exit removes its own
    entry, and the last one out puts every patched method back (also on an exception)."""
    with _lock:
        if not _targets:
            _patch()
        _targets.append(url)
    try:
        yield url
    finally:
        with _lock:
            # remove this use's entry (the last equal one: a stack, in any exit order)
            for i in range(len(_targets) - 1, -1, -1):
                if _targets[i] == url:
                    del _targets[i]
                    break
            if not _targets:
                _unpatch()


def _rewrite(url: str) -> tuple[str, str] | None:
    """``(stand-in URL, meant URL)`` for a provider's URL while routing, else None. A ``key``
    query parameter carries the placeholder key in both."""
    from standin.server import LOCAL_KEY

    to = target()
    if to is None:
        return None
    parts = urlsplit(str(url))
    if not is_provider_host(parts.hostname):
        return None
    query = parts.query
    if query and any(name == "key" for name, _ in parse_qsl(query, keep_blank_values=True)):
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(n, LOCAL_KEY if n == "key" else v) for n, v in pairs])
    meant = urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))
    base = urlsplit(to)
    return urlunsplit((base.scheme, base.netloc, parts.path, query, "")), meant


def _placeholder(name: str, value: str) -> str:
    from standin.server import LOCAL_KEY

    if name.lower() == "authorization":
        scheme = value.split(" ", 1)[0] if " " in value else "Bearer"
        return f"{scheme} {LOCAL_KEY}"
    return LOCAL_KEY


def _fix_headers(headers, meant: str, host: str) -> None:
    """In place: key headers carry the placeholder, ``Host`` the stand-in's, the meant URL."""
    for name in _KEY_HEADERS:
        if name in headers:
            headers[name] = _placeholder(name, headers[name])
    if "host" in headers:
        headers["host"] = host
    headers[ROUTED_FROM] = meant


def _httpx_request(request):
    rewritten = _rewrite(str(request.url))
    if rewritten is None:
        return request
    to, meant = rewritten
    request.url = type(request.url)(to)
    _fix_headers(request.headers, meant, request.url.netloc.decode("ascii"))
    return request


def _patch() -> None:
    for name in _HTTPX:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        _patch_httpx(module)

    try:
        import requests
    except ImportError:
        requests = None
    if requests is not None:
        session_send = requests.Session.send

        def requests_send(self, request, **kwargs):
            rewritten = _rewrite(request.url)
            if rewritten is not None:
                request.url, meant = rewritten
                _fix_headers(request.headers, meant, urlsplit(request.url).netloc)
            return session_send(self, request, **kwargs)

        _replace(requests.Session, "send", requests_send)

    try:
        import aiohttp
    except ImportError:
        aiohttp = None
    if aiohttp is not None:
        session_request = aiohttp.ClientSession._request

        def aiohttp_request(self, method, str_or_url, *args, **kwargs):
            rewritten = _rewrite(str(str_or_url))
            if rewritten is not None:
                str_or_url, meant = rewritten
                given = dict(kwargs.get("headers") or {})
                defaults = dict(getattr(self, "_default_headers", None) or {})
                keys = {k: v for k, v in defaults.items() if k.lower() in _KEY_HEADERS}
                headers = {k.lower(): v for k, v in {**keys, **given}.items()}
                _fix_headers(headers, meant, urlsplit(str_or_url).netloc)
                kwargs["headers"] = headers
            return session_request(self, method, str_or_url, *args, **kwargs)

        _replace(aiohttp.ClientSession, "_request", aiohttp_request)


def _patch_httpx(httpx) -> None:
    """Route at ``Client.send`` and ``AsyncClient.send`` of ``httpx`` (or its fork)."""
    sync_send, async_send = httpx.Client.send, httpx.AsyncClient.send

    def send(self, request, *args, **kwargs):
        return sync_send(self, _httpx_request(request), *args, **kwargs)

    async def send_async(self, request, *args, **kwargs):
        return await async_send(self, _httpx_request(request), *args, **kwargs)

    _replace(httpx.Client, "send", send)
    _replace(httpx.AsyncClient, "send", send_async)


def _replace(owner: object, name: str, function: object) -> None:
    _originals[(owner, name)] = owner.__dict__[name]
    setattr(owner, name, function)


def _unpatch() -> None:
    for (owner, name), original in _originals.items():
        setattr(owner, name, original)
    _originals.clear()
