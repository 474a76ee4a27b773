"""The stand-in: a real HTTP server on 127.0.0.1 that speaks the four wire formats.

>>> with LocalProvider(scenario="sundry") as p:          # doctest: +SKIP
...     client = OpenAI(base_url=p.base_url("openai"), api_key="sk-local")
...     client.chat.completions.create(...)
...     print(p.recorder.last)                           # the exchange, keys redacted

Why the standard library's ``http.server.ThreadingHTTPServer``: it is already installed, small
enough to read, and real HTTP/1.1 (keep-alive, ``Content-Length``, and chunked transfer for
streams, exactly what the SDKs' clients expect). A thread per connection handles a few
concurrent clients, which is all a lesson needs. An async framework would hide the bytes.

Robustness: every exception inside a handler becomes a logged 500 in the provider's envelope
(the log line names the exception type) with the exchange kept in the recorder, never a
dropped connection; a schema the general model cannot fill is the stand-in's own 422
(``standin.provider.routes``); an ``on_exchange`` callback that fails is logged and serving
goes on. The listen backlog is ``_Server.request_queue_size`` (256), so a burst of 200
connections waits in the kernel's queue instead of in SYN retries.

Safety: it binds to **127.0.0.1 only** (any other host is refused, so nothing off this machine
can reach it), on a free port chosen by the OS unless you pick one. Its threads are daemon
threads, and :meth:`LocalProvider.stop` closes open connections and releases the port.

What it does not do: TLS, authentication beyond "a key is present" (under ``--forward`` the
forwarder also checks Host, Origin and a per-run token: ``standin.forward``), or real models.
Routing and answers live in :mod:`standin.provider.routes`; faults in
:mod:`standin.provider.faults`.
"""

from __future__ import annotations

import contextlib
import re
import socket
import sys
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import SplitResult, urlsplit

from helpers.formats.providers import FAMILIES, PROVIDERS
from helpers.standin_wire import LOCAL_KEY  # the key the lessons send (any non-empty key works)
from standin.live_switch import family
from standin.provider import errors, faults, routes
from standin.provider.recorder import Exchange, Recorder
from standin.provider.scenarios import Scenario, resolve

__all__ = ["LOCAL_KEY", "LocalProvider"]

LOOPBACK = "127.0.0.1"
_STREAM_ERRORS = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)
_DIGITS = re.compile(r"[0-9]{1,18}")
_HEX = re.compile(rb"[0-9A-Fa-f]{1,15}")
_LINE = 8192  # the longest chunk-size or trailer line read


class _Malformed(Exception):
    """The request's framing is broken: answered with a 400 and the connection is closed."""


def _head(status: int, headers: list[tuple[str, str]]) -> bytes:
    """Status line and headers as bytes, ready to go out with the body in one write."""
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = ""
    lines = [f"HTTP/1.1 {status} {reason}".rstrip(), *(f"{k}: {v}" for k, v in headers)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1", "replace")


def _split(target: str) -> SplitResult:
    """``urlsplit(target)``, or an empty split for a target it cannot parse (``http://[x``):
    such a request is answered (a 404, or the forwarder's 400), never dropped."""
    try:
        return urlsplit(target)
    except ValueError:
        return urlsplit("")


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a stuck client never keeps Python alive
    block_on_close = False
    #: connections the kernel holds before ``accept``: with the standard library's 5, 200
    #: simultaneous clients took 32 s to connect (SYN retries), 1 s with 128, none with 256
    #: (``make bench`` row "200 simultaneous connections")
    request_queue_size = 256

    def __init__(self, address: tuple[str, int], provider: LocalProvider):
        self.provider = provider
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        self.stopping = threading.Event()
        super().__init__(address, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One line instead of socketserver's traceback: a reset client is routine, not a bug."""
        err = sys.exc_info()[1]
        who = f"{client_address[0]}:{client_address[1]}" if client_address else "a client"
        if isinstance(err, _STREAM_ERRORS + (ConnectionError,)):
            line = f"client {who} went away ({type(err).__name__})"
        else:
            line = f"stand-in: unexpected {type(err).__name__} serving {who}: {err}"
        self.provider._log(line)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "on-the-wire-local/1.0"
    sys_version = ""
    server: _Server

    def setup(self) -> None:
        self.timeout = self.server.provider.idle_timeout
        super().setup()
        # Send each write now: with Nagle's algorithm a small response waits for the client's
        # delayed ACK (~40 ms a request on a keep-alive connection).
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.server.connections_lock:
            self.server.connections.add(self.connection)

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()
        with self.server.connections_lock:
            self.server.connections.discard(self.connection)

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr log: the recorder keeps everything."""

    do_GET = do_PUT = do_DELETE = do_PATCH = lambda self: self._handle_safely()  # noqa: E731

    def do_POST(self) -> None:
        self._handle_safely()

    # --- whatever goes wrong: a logged 500, the exchange kept -------------------------------

    def _handle_safely(self) -> None:
        """``_handle``, with any exception it lets out answered as a logged 500."""
        self._answered = False  # set once a response has started going out
        self._body_read: bytes = b""
        try:
            self._handle()
        except _STREAM_ERRORS:
            self.close_connection = True  # the client went away: nothing to answer
        except Exception as err:
            self._crashed(err)

    def _crashed(self, err: BaseException) -> None:
        """Log ``err`` (its type named, secrets redacted), answer 500 in the provider's
        envelope if nothing went out yet, and keep the exchange in the recorder. Never raises."""
        from standin.redaction import redact

        provider = self.server.provider
        what = f"{type(err).__name__}: {err}"[:500]
        with contextlib.suppress(Exception):
            where = f"{self.command} {_split(self.path).path}"[:200]
            provider._log(redact(f"stand-in: {type(err).__name__} answering {where}: {err}"))
        self.close_connection = True
        if self._answered:
            return
        with contextlib.suppress(Exception):
            lower = {k.lower(): v for k, v in self.headers.items()}
            style = errors.provider_for_path(_split(self.path).path, lower)
            response = routes.error(style, 500, f"stand-in error: {what}")
            request_headers = list(self.headers.items())
            try:
                self._send(response, request_headers, self._body_read, None)
            except _STREAM_ERRORS:
                pass
            except Exception:  # the exchange itself cannot be built: keep it without the body
                response.note += "; the request body could not be kept"
                self._send(response, request_headers, b"", None)

    # --- one request -------------------------------------------------------------------------

    def _read_body(self, provider: str) -> bytes | routes.Response:
        """The body, its declared size checked against the limit *before* anything is read."""
        limit = self.server.provider.max_body_bytes
        encodings = self.headers.get_all("transfer-encoding") or []
        if encodings:
            if [e.strip().lower() for e in encodings] != ["chunked"]:
                raise _Malformed(f"unsupported Transfer-Encoding {', '.join(encodings)!r}")
            return self._read_chunked(provider, limit)
        lengths = {v.strip() for v in self.headers.get_all("content-length") or []}
        if len(lengths) > 1:
            raise _Malformed("conflicting Content-Length headers")
        declared = lengths.pop() if lengths else "0"
        if not _DIGITS.fullmatch(declared):
            raise _Malformed(f"invalid Content-Length {declared[:40]!r}")
        length = int(declared)
        if length > limit:
            return self._too_large(provider, limit, length)
        return self.rfile.read(length)

    def _too_large(self, provider: str, limit: int, got: int) -> routes.Response:
        self.close_connection = True  # the unread body would poison the connection
        text = errors.MESSAGES[413] + f" (limit {limit} bytes, got {got})"
        return routes.error(provider, 413, text)

    def _read_chunked(self, provider: str, limit: int) -> bytes | routes.Response:
        parts: list[bytes] = []
        total = 0
        while True:
            line = self.rfile.readline(_LINE + 1)
            size_text = line.split(b";", 1)[0].strip()
            if len(line) > _LINE or not line.endswith(b"\n") or not _HEX.fullmatch(size_text):
                raise _Malformed(f"invalid chunk size line {line[:40]!r}")
            size = int(size_text, 16)
            if size == 0:
                for _ in range(64):  # trailer fields, then the blank line
                    trailer = self.rfile.readline(_LINE + 1)
                    if trailer in (b"\r\n", b"\n", b""):
                        return b"".join(parts)
                raise _Malformed("too many trailer lines")
            total += size
            if total > limit:
                return self._too_large(provider, limit, total)
            parts.append(self.rfile.read(size))
            if self.rfile.readline(3) not in (b"\r\n", b"\n"):
                raise _Malformed("a chunk is longer than its declared size")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard library's answer to a broken request line or header, in a provider's
        JSON envelope (a 400, as the real APIs answer) instead of an HTML page."""
        path = self.path = getattr(self, "path", "") or ""
        self.command = getattr(self, "command", None) or "?"
        headers = getattr(self, "headers", None)
        lower = {k.lower(): v for k, v in headers.items()} if headers is not None else {}
        style = errors.provider_for_path(_split(path).path, lower)
        text = f"Malformed request: {message or explain or code}"
        self.close_connection = True
        self._send(routes.error(style, 400, text), list(lower.items()), b"", None)

    def _handle(self) -> None:
        provider_obj = self.server.provider
        url = _split(self.path)
        request_headers = list(self.headers.items())
        lower = {k.lower(): v for k, v in request_headers}
        route = routes.find_route(url.path, url.query)
        style = route.provider if route else errors.provider_for_path(url.path, lower)
        try:
            body = self._read_body(style)
        except _Malformed as err:
            self.close_connection = True
            self._send(
                routes.error(style, 400, f"Malformed request: {err}"), request_headers, b"", None
            )
            return
        if isinstance(body, routes.Response):
            self._send(body, request_headers, b"", None)
            return
        self._body_read = body
        if provider_obj.forward is not None:  # ``serve --forward``: the real provider answers
            response = provider_obj.forward(self.command, self.path, request_headers, body, style)
            self._send(response, request_headers, body, None)
            return
        if route is None or self.command != route.method:
            status = 404 if route is None else 405
            self._send(self._not_found(style, status), request_headers, body, None)
            return
        fault = provider_obj.faults.take()
        if isinstance(fault, faults.RateLimited):
            headers = [("retry-after", f"{fault.retry_after:g}")]
            if fault.retry_after_ms is not None:
                headers.append(("retry-after-ms", str(fault.retry_after_ms)))
            wait = f"{fault.retry_after:g}s"
            response = routes.error(style, 429, errors.MESSAGES[429].format(retry=wait), headers)
        elif isinstance(fault, faults.ServerError):
            text = errors.MESSAGES.get(fault.status, errors.MESSAGES[500])
            response = routes.error(style, fault.status, text)
        else:
            if isinstance(fault, faults.Slow):
                self.server.stopping.wait(fault.seconds)
            response = self._answer(route, lower, body)
        if fault is not None:
            response.note = f"fault: {fault!r}" + (f"; {response.note}" if response.note else "")
        self._send(response, request_headers, body, fault)

    def _answer(self, route: routes.Route, headers: dict[str, str], body: bytes) -> routes.Response:
        """The answer; a schema the scenario cannot fill is the stand-in's 422, any other
        exception a logged 500 (a bug in a scenario must not kill the connection silently)."""
        from standin.provider.schema_values import Unsatisfiable
        from standin.redaction import redact

        try:
            return routes.answer(route, headers, body, self.server.provider.scenario)
        except Unsatisfiable as err:
            text = (
                f"stand-in: a schema the scenario cannot fill, at {err.path or 'its top'}: {err}. "
                "A limit of the stand-in, not of the API: the real API may accept this request."
            )
            status = errors.STAND_IN_STATUS
            return routes.error(route.provider, status, text)
        except RecursionError:  # JSON inside the body's strings, nested past Python's stack
            text = "Invalid request: a value in the body is nested too deep to read."
            return routes.error(route.provider, 400, text)
        except Exception as err:
            line = f"stand-in: {type(err).__name__} answering {self.command} {route.provider}"
            self.server.provider._log(redact(f"{line}: {err}"[:1000]))
            text = f"stand-in error: {type(err).__name__}: {err}"
            return routes.error(route.provider, 500, text)

    def _not_found(self, style: str, status: int) -> routes.Response:
        path = _split(self.path).path
        text = errors.texts(style).NOT_FOUND.format(method=self.command, path=path)
        return routes.error(style, status, text)

    # --- writing -----------------------------------------------------------------------------

    def _send(
        self,
        response: routes.Response,
        request_headers: list[tuple[str, str]],
        request_body: bytes,
        fault: faults.Fault | None,
    ) -> None:
        """Write the response. It is recorded *before* the client can have any of it (a plain
        answer before its one write, a stream before its first byte), so a client that has its
        answer, or stopped reading at the stop reason, always finds the exchange in the
        recorder already; ``on_exchange`` hears of a stream before its last event."""
        cut = fault.after if isinstance(fault, faults.CutStream) else None
        events = response.events
        headers = [("server", self.server_version), *response.headers]  # no Date: reproducible
        if events is not None:
            headers.append(("transfer-encoding", "chunked"))
            if cut is not None:
                events = events[:cut]
            body = "".join(events).encode("utf-8")
        else:
            headers.append(("content-length", str(len(response.body))))
            body = response.body[: len(response.body) // 2] if cut is not None else response.body
        if self.close_connection or cut is not None:
            headers.append(("connection", "close"))
            self.close_connection = True
        note = response.note
        if cut is not None and response.events is not None:
            note += f"; stream cut after {cut} of {len(response.events)} events"
        elif cut is not None:
            note += "; connection closed halfway through the body"
        exchange = Exchange(  # redacts every secret as it is built
            method=self.command,
            path=self.path,
            request_headers=request_headers,
            request_bytes=request_body,
            status=response.status,
            response_headers=headers,
            response_bytes=body,
            provider=response.provider,
            note=note.strip("; "),
        )
        self._answered = True
        provider = self.server.provider
        told = False  # whether ``on_exchange`` has heard of this exchange
        try:
            head = _head(response.status, headers)
            if events is None:
                provider._record(exchange)
                told = True
                self.wfile.write(head + body)  # one write: one packet for a small answer
            else:
                # Kept before the first byte is written: a client may return before the last
                # event (LiteLLM stops at Anthropic's stop reason, before ``message_stop``), and
                # a caller then reading ``recorder.last`` must find this exchange, not the one
                # before. ``on_exchange`` (a record folder's files) hears of it before the last
                # event, or when the client goes away, so its files say how the stream ended.
                provider.recorder.add(exchange)
                self.wfile.write(head)
                for number, event in enumerate(events, 1):
                    if number == len(events):
                        provider._tell(exchange)
                        told = True
                    data = event.encode("utf-8")
                    self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                    self.wfile.flush()  # one event, one network write: the client sees it now
                if not told:  # a stream of no events
                    provider._tell(exchange)
                    told = True
                if cut is None:
                    self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except _STREAM_ERRORS:
            exchange.note = (exchange.note + "; " if exchange.note else "") + "client disconnected"
            self.close_connection = True
            if not any(e is exchange for e in provider.recorder.exchanges):
                provider._record(exchange)
            elif not told:
                provider._tell(exchange)


class LocalProvider:
    """A scripted model behind the real endpoints, on ``http://127.0.0.1:<port>``.

    Use it as a context manager (``with LocalProvider() as p: ...``) or call :meth:`start` and
    :meth:`stop`. ``p.recorder`` holds every exchange; ``p.inject(...)`` queues faults.
    """

    def __init__(
        self,
        scenario: str | Scenario = "sundry",
        *,
        port: int = 0,
        host: str = LOOPBACK,
        max_body_bytes: int = 32 * 1024 * 1024,
        idle_timeout: float = 60.0,
        on_exchange: Callable[[Exchange], None] | None = None,
        keep: int | None = None,
        log: Callable[[str], None] | None = None,
        forward: Callable[..., routes.Response] | None = None,
    ):
        if host not in (LOOPBACK, "localhost"):
            raise ValueError(
                f"the stand-in listens on {LOOPBACK} only (loopback, unreachable from "
                f"other machines); refusing host {host!r}"
            )
        self.scenario_name = scenario if isinstance(scenario, str) else scenario.__name__
        self.scenario: Scenario = resolve(scenario)
        self.recorder = Recorder(keep=keep)  # keep=N: only the newest N (``serve`` runs long)
        self.log = log
        self.faults = faults.FaultQueue()
        self.max_body_bytes = max_body_bytes
        self.idle_timeout = idle_timeout
        self.on_exchange = on_exchange
        #: answers every request instead of the scenario (``standin.forward.Forwarder``)
        self.forward = forward
        self._port = port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # --- life cycle ----------------------------------------------------------------------------

    def start(self) -> LocalProvider:
        """Bind 127.0.0.1 and serve in a daemon thread. Returns ``self``."""
        if self._server is not None:
            return self
        self._server = _Server((LOOPBACK, self._port), self)
        self._bind_forwarder()
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"local-provider-{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def _bind_forwarder(self) -> None:
        """Tell the forwarder (if any) its server's URL before the first request can arrive, so
        it checks ``Host`` against this port and refuses a base URL that loops back here (the
        server is closed again and the ValueError raised)."""
        bind = getattr(self.forward, "bind", None)
        if bind is None:
            return
        try:
            bind(self.url)
        except ValueError:
            server, self._server = self._server, None
            if server is not None:
                server.server_close()
            raise

    @property
    def forward_token(self) -> str | None:
        """The API key clients must send under ``serve --forward`` (``Forwarder.token``, made
        fresh each run; never the user's key); None when not forwarding."""
        return getattr(self.forward, "token", None)

    def stop(self) -> None:
        """Stop serving, close open connections and release the port (safe to call twice)."""
        server, self._server = self._server, None
        if server is None:
            return
        server.stopping.set()
        server.shutdown()
        with server.connections_lock:
            for connection in list(server.connections):
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> LocalProvider:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._server is not None

    # --- addresses -----------------------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the stand-in is not running: call start() first")
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``: the root every endpoint hangs from."""
        return f"http://{LOOPBACK}:{self.port}"

    def base_url(self, provider: str) -> str:
        """What to pass as an SDK's ``base_url``: OpenAI's includes ``/v1``, Anthropic's not."""
        return self.url + FAMILIES[family(provider)].sdk_suffix

    def endpoint(self, provider: str, model: str = "", stream: bool = False) -> str:
        """The full URL of ``provider``'s endpoint (Gemini's names the model and the stream)."""
        if provider not in PROVIDERS:
            raise ValueError(f"unknown provider {provider!r} (known: {', '.join(PROVIDERS)})")
        path = PROVIDERS[provider].render.PATH.format(model=model)
        if stream and path.endswith(":generateContent"):  # a path that names its method
            path = path.replace(":generateContent", ":streamGenerateContent?alt=sse")
        return self.url + path

    # --- faults and records ------------------------------------------------------------------

    def inject(self, fault: faults.Fault | str, times: int = 1) -> faults.Fault:
        """Queue a fault for the next ``times`` requests: ``p.inject("rate_limit")``."""
        return self.faults.add(fault, times)

    @property
    def exchanges(self) -> list[Exchange]:
        return self.recorder.exchanges

    def _log(self, line: str) -> None:
        """One line about the server itself (a client that went away...): ``log`` or stderr,
        with every key the process knows (and any key shape) redacted."""
        from standin.redaction import redact

        line = redact(line)
        if self.log is not None:
            self.log(line)
        else:
            with contextlib.suppress(Exception):
                print(line, file=sys.stderr)

    def _record(self, exchange: Exchange) -> None:
        """Keep ``exchange``, then tell ``on_exchange``."""
        self.recorder.add(exchange)
        self._tell(exchange)

    def _tell(self, exchange: Exchange) -> None:
        """Tell ``on_exchange`` of a kept exchange; a failing callback is logged (its exception
        type named) and the request is still answered."""
        if self.on_exchange is not None:
            try:
                self.on_exchange(exchange)
            except Exception as err:
                from standin.redaction import redact

                line = f"stand-in: on_exchange failed with {type(err).__name__}: {err}"
                self._log(redact(line[:1000]))

    def __repr__(self) -> str:
        where = self.url if self.running else "stopped"
        count = len(self.recorder)
        return f"<LocalProvider {where} scenario={self.scenario_name!r}, {count} exchanges>"
