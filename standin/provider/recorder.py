"""Used in lessons: 01, 03, 04, 05, 06, 07, 08, 09, 10, 11.

The recorder: every request the stand-in received and every response it sent.

An :class:`Exchange` keeps the request as it arrived (method, path, headers in wire order, body
bytes) and the response as it left (status, headers, body bytes, or the SSE text of a stream).
``str(exchange)`` prints both as HTTP text, ``POST /v1/messages HTTP/1.1`` then headers then the
body as pretty JSON, and a notebook cell shows the same thing side by side.

Secrets never reach the recorder: :mod:`standin.redaction` runs *when an exchange is
recorded* (request and response alike, method, path, header names and values, bodies, note).
By value: the request's own keys (its credential headers and query parameters) and the
process's (the forwarder's), in any spelling (JSON-escaped, percent-encoded, cut across stream
events...); by name: headers and query parameters named like a credential; by shape: strong key
shapes (``sk-proj-...``, ``AIza...``), decoded first. So every output built from a record
(``str()``, ``dump()``, the HTML view, the ``serve`` log) is free of keys. The recorded body is
"as received, except secrets": each key is replaced in place by ``<redacted>``, every other
byte stays as it came.

What it does not do: persist anything to disk, or record traffic of any server but this one.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import escape
from typing import Any

from helpers.html import no_math
from standin.redaction import (
    REDACTED,
    redact,
    redact_body,
    redact_headers,
    redact_path,
    secrets_of,
)

__all__ = ["REDACTED", "Exchange", "Recorder", "redact", "redact_headers"]


def _redact_bytes(body: bytes, headers: list[tuple[str, str]], secrets: frozenset[str]) -> bytes:
    content_type = next((v for k, v in headers if k.lower() == "content-type"), "")
    return redact_body(body, content_type, secrets)


def _pretty(body: bytes, content_type: str) -> str:
    """The body for reading: JSON pretty-printed, SSE and anything else as text."""
    text = body.decode("utf-8", errors="replace")
    if "json" in content_type and text.strip():
        try:
            return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
        except (ValueError, RecursionError):  # not JSON, or nested too deep to pretty-print
            return text
    return text


@dataclass
class Exchange:
    """One request and its response, secrets already redacted."""

    method: str
    path: str
    request_headers: list[tuple[str, str]]
    request_bytes: bytes
    status: int = 0
    response_headers: list[tuple[str, str]] = field(default_factory=list)
    response_bytes: bytes = b""
    provider: str = ""
    #: What happened beyond the status: "streamed", "fault: rate_limit", "client disconnected"...
    note: str = ""

    def __post_init__(self) -> None:
        # this request's own keys (headers, query) join the process's: found by value anywhere
        secrets = secrets_of(self.request_headers, self.path)
        self.method = redact(self.method, secrets)
        self.path = redact_path(self.path, secrets)
        self.request_bytes = _redact_bytes(self.request_bytes, self.request_headers, secrets)
        self.request_headers = redact_headers(self.request_headers, secrets)
        self.response_bytes = _redact_bytes(self.response_bytes, self.response_headers, secrets)
        self.response_headers = redact_headers(self.response_headers, secrets)
        self.note = redact(self.note, secrets)

    def header(self, name: str, response: bool = False) -> str | None:
        """A header's value (case-insensitive), from the request or the response."""
        headers = self.response_headers if response else self.request_headers
        return next((v for k, v in headers if k.lower() == name.lower()), None)

    @property
    def request_json(self) -> Any:
        return json.loads(self.request_bytes) if self.request_bytes else None

    @property
    def response_json(self) -> Any:
        """The response body as JSON (not for SSE streams: read ``response_text``)."""
        return json.loads(self.response_bytes) if self.response_bytes else None

    @property
    def response_text(self) -> str:
        return self.response_bytes.decode("utf-8", errors="replace")

    def request_http(self) -> str:
        """The request as HTTP text: request line, headers, blank line, pretty body."""
        lines = [f"{self.method} {self.path} HTTP/1.1"]
        lines += [f"{k}: {v}" for k, v in self.request_headers]
        body = _pretty(self.request_bytes, self.header("content-type") or "")
        return "\n".join(lines) + "\n\n" + body

    def response_http(self) -> str:
        """The response as HTTP text: status line, headers, blank line, body or SSE text."""
        from http import HTTPStatus

        try:
            reason = HTTPStatus(self.status).phrase
        except ValueError:
            reason = ""
        lines = [f"HTTP/1.1 {self.status} {reason}".rstrip()]
        lines += [f"{k}: {v}" for k, v in self.response_headers]
        body = _pretty(self.response_bytes, self.header("content-type", response=True) or "")
        return "\n".join(lines) + "\n\n" + body

    def __str__(self) -> str:
        note = f"  ({self.note})" if self.note else ""
        return f"{self.request_http()}\n\n--- response{note} ---\n{self.response_http()}"

    def __repr__(self) -> str:
        extra = f", {self.note}" if self.note else ""
        return f"<Exchange {self.method} {self.path} -> {self.status}{extra}>"

    def _repr_html_(self) -> str:
        cell = (
            "vertical-align:top;text-align:left;padding:4px 8px;white-space:pre-wrap;"
            "font-family:var(--jp-code-font-family,monospace);font-size:12px;max-width:50%"
        )
        note = f" <i>({escape(self.note)})</i>" if self.note else ""
        return no_math(
            "<table><tr><th style='text-align:left'>request</th>"
            f"<th style='text-align:left'>response{note}</th></tr>"
            f"<tr><td style='{cell}'>{escape(self.request_http())}</td>"
            f"<td style='{cell}'>{escape(self.response_http())}</td></tr></table>"
        )


class Recorder:
    """A thread-safe list of exchanges, newest last.

    ``keep=N`` keeps only the newest N (``python -m helpers serve`` runs for hours: memory
    stays bounded); the default keeps every exchange, as a lesson wants.
    """

    def __init__(self, keep: int | None = None) -> None:
        self._exchanges: deque[Exchange] = deque(maxlen=keep)
        self._lock = threading.Lock()
        self.keep = keep

    def add(self, exchange: Exchange) -> Exchange:
        with self._lock:
            self._exchanges.append(exchange)
        return exchange

    def clear(self) -> None:
        with self._lock:
            self._exchanges.clear()

    @property
    def exchanges(self) -> list[Exchange]:
        with self._lock:
            return list(self._exchanges)

    @property
    def last(self) -> Exchange | None:
        with self._lock:
            return self._exchanges[-1] if self._exchanges else None

    def dump(self) -> str:
        """Every exchange as HTTP text, separated by a rule."""
        return ("\n\n" + "=" * 72 + "\n\n").join(str(e) for e in self.exchanges)

    def __len__(self) -> int:
        return len(self._exchanges)

    def __iter__(self) -> Iterator[Exchange]:
        return iter(self.exchanges)

    def __getitem__(self, index: int) -> Exchange:
        return self.exchanges[index]

    def __repr__(self) -> str:
        lines = [f"<Recorder: {len(self)} exchanges>"]
        lines += [f"  {i}: {e!r}" for i, e in enumerate(self.exchanges)]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{i}</td><td><code>{escape(e.method)} {escape(e.path)}</code></td>"
            f"<td>{e.status}</td><td>{escape(e.note)}</td></tr>"
            for i, e in enumerate(self.exchanges)
        )
        head = "<tr><th>#</th><th>request</th><th>status</th><th>note</th></tr>"
        return no_math(f"<table>{head}{rows}</table>")
