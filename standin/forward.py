"""``serve --forward``: pass each request on to the real provider, with the user's key.

Live mode's two switches apply (``standin.live``): ``ON_THE_WIRE_LIVE=1`` and the provider's key
(``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY``). A provider without both is not
forwarded to: its requests get a 401 in its own envelope saying which variable is missing. The
client may send any key (the local placeholder): the forwarder puts the user's key in the
provider's own header, and the recorder redacts both sides as usual. The real base URL can be
overridden as in live mode (``OPENAI_BASE_URL``...), which the tests use to put a stand-in
remote on loopback; a URL that points back at this stand-in is refused (no loop).

What it does not do: stream as it arrives (a stream is passed on whole, once the provider has
sent its last event), retry, or change the body in any way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urlsplit

from standin.live_switch import KEYS, environ, family, is_live, live_url, why_not_live
from standin.provider import routes
from standin.redaction import add_secret, redact

__all__ = ["Forwarder"]

# hop-by-hop and framing headers: the forwarder's own HTTP client sets them
_DROPPED = {"host", "content-length", "connection", "transfer-encoding", "keep-alive", "te"}
_DROPPED |= {"upgrade", "proxy-connection", "accept-encoding", "content-encoding"}
_KEY_HEADERS = {"authorization", "x-api-key", "x-goog-api-key", "api-key"}


def _key_header(name: str, key: str) -> tuple[str, str]:
    """The header in which ``name``'s API takes its key."""
    return {
        "openai": ("authorization", f"Bearer {key}"),
        "anthropic": ("x-api-key", key),
        "gemini": ("x-goog-api-key", key),
    }[name]


def _without_key_param(path: str) -> str:
    """The request target without a ``key=`` query parameter (Gemini's key in the URL)."""
    base, sep, query = path.partition("?")
    kept = [p for p in query.split("&") if p and not p.lower().startswith("key=")]
    return base + ("?" + "&".join(kept) if kept else "")


def _events(text: str) -> list[str]:
    """SSE text cut into events, each with its blank-line end, exactly as received."""
    return [m.group() for m in re.finditer(r".*?(?:\r?\n\r?\n|$)", text, re.S) if m.group()]


class Forwarder:
    """Answers a request by sending it to the real provider (see the module docstring)."""

    def __init__(self, env: Mapping[str, str] | None = None, timeout: float = 600.0) -> None:
        self.env = dict(environ(env))
        self.timeout = timeout
        self.own_url = ""  # the stand-in's own root: never forwarded to
        self.live = [name for name in KEYS if is_live(name, self.env)]
        # its keys (and a base URL's user-info) are redacted by value from every output
        add_secret(*(self.env.get(KEYS[name], "") for name in KEYS))
        for url in (urlsplit(live_url(n, self.env)) for n in KEYS):
            add_secret(url.password or "", url.username or "")
        if not self.live:
            reasons = "; ".join(why_not_live(name, self.env) or "" for name in KEYS)
            raise ValueError(f"--forward needs live mode for at least one provider: {reasons}")

    def describe(self) -> str:
        """One line per provider: where its requests go (keys never shown)."""
        lines = []
        for name in KEYS:
            if name in self.live:
                lines.append(f"  {name}: forwarded to {live_url(name, self.env)} with {KEYS[name]}")
            else:
                lines.append(f"  {name}: not forwarded ({why_not_live(name, self.env)})")
        return redact("\n".join(lines))  # a base URL's password never prints

    def __call__(
        self, method: str, path: str, headers: list[tuple[str, str]], body: bytes, style: str
    ) -> routes.Response:
        import httpx

        name = family(style)
        if name not in self.live:
            return routes.error(style, 401, f"not forwarded: {why_not_live(name, self.env)}")
        root = live_url(name, self.env)
        target = root + (_without_key_param(path) if name == "gemini" else path)
        if self.own_url and _same_origin(root, self.own_url):
            return routes.error(style, 508, f"not forwarded: {root} is this stand-in itself")
        sent = [(k, v) for k, v in headers if k.lower() not in _DROPPED | _KEY_HEADERS]
        sent += [_key_header(name, self.env[KEYS[name]]), ("accept-encoding", "identity")]
        try:
            with httpx.Client(timeout=self.timeout) as client:
                reply = client.request(method, target, headers=sent, content=body)
        except httpx.HTTPError as err:
            # an error may quote the key (h11 quotes a header value it refuses): redacted
            text = redact(f"forwarding to {root} failed: {type(err).__name__}: {err}")
            response = routes.error(style, 502, text)
            response.note = f"forward failed: {type(err).__name__}"
            return response
        kept = [(k, v) for k, v in reply.headers.multi_items() if k.lower() not in _DROPPED]
        note, status = f"forwarded to {root}", reply.status_code
        if "event-stream" in reply.headers.get("content-type", ""):
            events = _events(reply.text)
            return routes.Response(status, kept, events=events, provider=style, note=note)
        return routes.Response(status, kept, reply.content, provider=style, note=note)


def _same_origin(a: str, b: str) -> bool:
    x, y = urlsplit(a), urlsplit(b)
    local = {"127.0.0.1", "localhost"}
    host_x = "127.0.0.1" if x.hostname in local else x.hostname
    host_y = "127.0.0.1" if y.hostname in local else y.hostname
    return (host_x, x.port) == (host_y, y.port)
