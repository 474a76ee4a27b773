"""See what your own code sends: every request, read back as the series reads its own.

>>> with capture() as seen:                        # doctest: +SKIP
...     OpenAI().chat.completions.create(...)      # any client in this process
>>> seen                                           # cards, count and verdict per request

:func:`capture` starts a stand-in on 127.0.0.1 and, until the block ends, sends it every
request this process makes to a provider's host (``standin.routing``: at httpx's, requests'
and aiohttp's send, so a client built before the block or given an explicit
``https://api.openai.com/v1`` is captured too; the exchange keeps the URL it meant). It also
points the SDKs' own base-URL variables at it (``OPENAI_BASE_URL``, ``ANTHROPIC_BASE_URL``,
``GOOGLE_GEMINI_BASE_URL``, and this project's ``GEMINI_BASE_URL``), with placeholder keys,
live mode off and openai-agents' trace export off, and fences the network: any other connection
off this machine fails, naming the host (``standin.netguard``). Everything is restored on exit,
also on an exception. Each exchange becomes a :class:`ReadBack`: the body read in its format (with
the stored history a thread or ``previous_response_id`` names in front), counted
(``standin.wire_count.count_body``, with its label) and checked as the provider would
(``standin.verdict``). :class:`RecordDir` writes the same to files (``serve --record``).

What it does not reach: another process (a subprocess, a server, a notebook kernel other than
this one) or a client in another language: run ``python -m standin serve`` and give that
client the base URL it prints. Nor a host that is not a provider's (a gateway, another
provider): off this machine it is fenced off, on loopback it is let through, uncaptured.
Nested captures stack (the inner one sees the requests until it ends); two open at once in
different threads share one routing for the process: the newest gets every request.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import os
import re
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from html import escape
from pathlib import Path
from typing import Any

from helpers.html import no_math, request_html
from standin.explained import explained, table
from standin.provider.recorder import Exchange
from standin.redaction import add_secret, redact

__all__ = ["Captured", "RecordDir", "ReadBack", "capture", "client_environment"]


class ReadBack:
    """One exchange read back: its format, body, neutral request, count and verdict."""

    def __init__(self, exchange: Exchange, number: int = 1) -> None:
        from standin.provider.routes import find_route
        from standin.routing import ROUTED_FROM

        self.exchange, self.number = exchange, number
        path, _, query = exchange.path.partition("?")
        #: the URL the client meant: a provider's, when routed to the stand-in, else the path
        self.url: str = exchange.header(ROUTED_FROM) or exchange.path
        route = self.route = find_route(path, query)
        self.format: str | None = route.provider if route else None
        self.model: str | None = route.model if route else None
        self.body: dict | None = None  # as sent
        #: as the model reads it: a thread's or a stored response's history in front
        self.read: dict | None = None
        self.stored = 0  # how many stored messages (or items) went in front
        self.request: Any = None
        self.count: Any = None
        self.verdict: Any = None
        self.problem = ""  # why it could not be read, counted or checked
        if self.format is None:
            self.problem = f"not an endpoint of the four formats ({exchange.method} {path})"
        else:
            self._read()

    def _read(self) -> None:
        from helpers.formats import FormatError
        from helpers.models import UnknownModelError
        from standin.input_checks import InputError, loads
        from standin.provider.state import as_read
        from standin.verdict import verdict
        from standin.wire_count import count_body

        try:  # the same limits as the server's: a body nested 100,000 deep is refused, not parsed
            body = (
                loads(self.exchange.request_bytes, "the body")
                if self.exchange.request_bytes
                else None
            )
        except InputError as err:
            self.problem = str(err)
            return
        except (ValueError, UnicodeDecodeError) as err:
            self.problem = f"the body is not JSON ({err})"
            return
        if not isinstance(body, dict):
            self.problem = "the body is not a JSON object"
            return
        self.body = body
        self.read, self.stored = as_read(body, self.format)
        named = body.get("model")
        self.model = self.model or (named if isinstance(named, str) else None)
        try:
            # as the server decides: with the request's betas and the Gemini path's version
            beta = self.exchange.header("anthropic-beta") or ""
            betas = tuple(b.strip() for b in beta.split(",") if b.strip())
            version = self.route.version if self.route is not None else "v1beta"
            self.verdict = verdict(
                self.read, self.format, format=self.format, betas=betas, version=version
            )
            self.request = self.verdict.request
            self.count = count_body(self.read, self.format, self.model)
        except UnknownModelError as err:
            self.problem = f"not counted: {err}"
        except (FormatError, KeyError, TypeError, ValueError) as err:
            self.problem = f"not read as {self.format}: {err}"
        except RecursionError:
            self.problem = f"not read as {self.format}: nested too deep to read"

    @property
    def status(self) -> int:
        return self.exchange.status

    @property
    def accepted(self) -> bool | None:
        """The verdict: True (the provider takes it), False (it refuses), None (not checked)."""
        return None if self.verdict is None else self.verdict.accepted

    @property
    def forwarded(self) -> bool:
        return self.exchange.note.startswith("forwarded")

    @property
    def billed(self) -> int | None:
        """The input tokens the response reports in its usage (the bill, when forwarded)."""
        from helpers.formats import parse_response
        from helpers.sse import assemble

        if self.format is None or not 200 <= self.status < 300:
            return None
        try:
            if "event-stream" in (self.exchange.header("content-type", response=True) or ""):
                return assemble(self.exchange.response_bytes, self.format).usage.input_tokens
            return parse_response(self.exchange.response_json, self.format).usage.input_tokens
        except Exception:  # any reply we cannot read has no bill to show
            return None

    def verdict_text(self) -> str:
        """``accepted``, or what the provider refuses (first error) and how many warnings."""
        if self.verdict is None:
            return f"not checked: {self.problem}" if self.problem else "not checked"
        found = self.verdict.violations
        warned = f", {len(found.warnings)} warning{'s' * (len(found.warnings) != 1)}"
        warned = warned if found.warnings else ""
        if self.verdict.accepted:
            return "accepted" + warned
        return f"refused: {self.verdict.first_error}{warned}"

    def count_text(self) -> str:
        if self.count is None:
            return self.problem or "not counted"
        return f"{self.count.total:,} input tokens ({self.count.label})"

    def line(self) -> str:
        """One line: number, request, status, format and model, count (and bill), verdict.

        Redacted once more as a whole (the exchange already is): nothing it quotes, a stored
        history's text included, can show a key the process knows or a key shape."""
        return redact(self._line())

    def _line(self) -> str:
        e = self.exchange
        head = f"#{self.number} {e.method} {self.url} -> {e.status}"
        if self.format is None:
            return f"{head}  ({self.problem})"
        what = f"{self.format} {self.model or '(no model)'}: {self.count_text()}"
        if self.stored:
            what += f"; read with {self.stored} stored message{'s' * (self.stored != 1)} in front"
        billed = self.billed
        if self.forwarded and billed is not None:
            what += f"; billed {billed:,}"
        note = f"  ({e.note})" if e.note else ""
        return f"{head}{note}  {what}; {self.verdict_text()}"

    def __repr__(self) -> str:
        return self.line()

    def _repr_html_(self) -> str:
        head = f"<div><b>{escape(self.line())}</b></div>"
        cards = redact(request_html(self.request)) if self.request is not None else ""
        return no_math(f"<div style='margin:8px 0'>{head}{cards}</div>")


class Captured:
    """Every request a capture saw, newest last, read back as :class:`ReadBack` (list-like)."""

    def __init__(self, provider: Any) -> None:
        self.provider = provider
        self._seen: dict[int, ReadBack] = {}

    @property
    def requests(self) -> list[ReadBack]:
        out = []
        for number, exchange in enumerate(self.provider.recorder.exchanges, 1):
            if id(exchange) not in self._seen:
                self._seen[id(exchange)] = ReadBack(exchange, number)
            out.append(self._seen[id(exchange)])
        return out

    @property
    def refused(self) -> list[ReadBack]:
        """The requests the provider would refuse (its verdict, or a status of 400 and up)."""
        return [s for s in self.requests if s.accepted is False or s.status >= 400]

    def assert_all_accepted(self) -> None:
        """Fail (an ``AssertionError`` naming each one) if any request would be refused, or if
        there was no request at all (saying where the requests may have gone)."""
        if not len(self):
            raise AssertionError(NOTHING_CAPTURED)
        bad = self.refused
        if bad:
            lines = "\n".join(s.line() for s in bad)
            raise AssertionError(f"{len(bad)} request(s) the provider would refuse:\n{lines}")

    def __len__(self) -> int:
        return len(self.provider.recorder)

    def __iter__(self) -> Iterator[ReadBack]:
        return iter(self.requests)

    def __getitem__(self, index: int) -> ReadBack:
        return self.requests[index]

    def __repr__(self) -> str:
        seen = self.requests
        head = f"{len(seen)} request{'s' * (len(seen) != 1)} on the wire"
        return "\n".join([head, *(s.line() for s in seen)])

    def _repr_html_(self) -> str:
        seen = self.requests
        head = f"<div><b>{len(seen)} request{'s' * (len(seen) != 1)} on the wire</b></div>"
        return no_math(head + "".join(s._repr_html_() for s in seen))


#: Why a capture may be empty (what :meth:`Captured.assert_all_accepted` says).
NOTHING_CAPTURED = (
    "no request was captured: nothing reached the stand-in inside the block. A capture sees "
    "the requests this process sends while the block runs, through httpx, requests or aiohttp, "
    "to a provider's host (api.openai.com, api.anthropic.com, "
    "generativelanguage.googleapis.com, Vertex AI's) or to the base URL the SDK variables name. "
    "Not seen: a client that talks to another host (a gateway, a proxy on this machine), one in "
    "another process or language (run `python -m standin serve` and give it the base URL it "
    "prints), or code that ran before the block (or a call whose error was caught: a fenced "
    "host fails with a NetworkBlockedError naming it)."
)


def client_environment(url: str) -> dict[str, str | None]:
    """The variables :func:`capture` sets (None: removed): every SDK's base URL is the stand-in."""
    from standin.server import LOCAL_KEY

    return {
        "OPENAI_BASE_URL": url + "/v1",
        "ANTHROPIC_BASE_URL": url,
        "GOOGLE_GEMINI_BASE_URL": url,  # google-genai
        "GEMINI_BASE_URL": url,  # this project's live mode
        "OPENAI_API_KEY": LOCAL_KEY,  # a real key is never sent, not even to loopback
        "ANTHROPIC_API_KEY": LOCAL_KEY,
        "GEMINI_API_KEY": LOCAL_KEY,
        "GOOGLE_API_KEY": LOCAL_KEY,
        "OPENAI_AGENTS_DISABLE_TRACING": "1",  # openai-agents exports traces to api.openai.com
        "ON_THE_WIRE_LIVE": None,  # nothing goes live inside a capture
    }


@contextlib.contextmanager
def capture(
    scenario: str | Callable[..., Any] = "general", record: str | Path | None = None
) -> Iterator[Captured]:
    """Start a stand-in, send it every SDK's requests, yield what it sees; restore everything.

    While the block runs: requests to the providers' hosts go to the stand-in (any client in
    this process: ``standin.routing``), the SDKs' base-URL variables name it, and any other
    connection off this machine fails naming its host. ``scenario`` is the scripted model: by
    default ``"general"``, which calls your code's own tools by their names and answers from
    their results (``standin.provider.general``); a story's name (``"sundry"``, see
    ``standin.provider.scenarios``) or any scenario function replaces it. ``record`` is a
    folder that also gets every exchange as files (:class:`RecordDir`); an exchange that cannot
    be written (a full disk, a read-only folder) is answered all the same, and one line on
    stderr says so (``RecordDir.failed`` keeps it). Nested, the inner capture gets the requests
    until it ends; the environment, the routing and the fence are put back as they were when the
    last one ends, also on an exception.
    """
    from standin.routing import routed
    from standin.server import LocalProvider

    writer = RecordDir(record) if record is not None else None

    def keep(exchange: Exchange) -> None:
        if writer is not None:
            writer.try_write(exchange, say=_say)

    provider = LocalProvider(scenario, on_exchange=keep if writer else None).start()
    try:
        with _active(provider.url), routed(provider.url):
            yield Captured(provider)
    finally:
        provider.stop()


#: The fence's message while a capture is active.
_FENCED = (
    "While capture() is active, only this machine is reachable; requests to the providers' "
    "hosts (api.openai.com, api.anthropic.com, generativelanguage.googleapis.com, Vertex AI's) "
    "go to the stand-in. Point this client at the stand-in (its base URL: seen.provider.url) "
    "or make the call outside the block."
)
_state_lock = threading.RLock()
_open: list[str] = []  # the stand-ins' URLs of the captures open now, newest last
_restore: dict[str, str | None] = {}  # the variables as they were before the first one
_fenced_here = False  # whether the first capture turned the fence on (then the last turns it off)


@contextlib.contextmanager
def _active(url: str) -> Iterator[None]:
    """Set the environment (and the fence) for a capture at ``url``; put them back after."""
    from standin.netguard import PROXY_VARIABLES, block_network, is_blocking, unblock_network

    global _fenced_here
    with _state_lock:
        if not _open:
            names = [*client_environment(url), "NO_PROXY", "no_proxy"]
            names += [n for n in os.environ if n.lower() in PROXY_VARIABLES]
            _restore.clear()
            _restore.update({name: os.environ.get(name) for name in names})
            # the user's own keys, hidden while the block runs, stay secrets: redacted by value
            keys = (v for n, v in _restore.items() if v and n.endswith("_API_KEY"))
            add_secret(*keys)
            _fenced_here = not is_blocking()
            if _fenced_here:
                block_network(why=_FENCED)  # also clears the proxy variables (restored after)
        _open.append(url)
        _set(client_environment(url))
    try:
        yield
    finally:
        with _state_lock:
            for i in range(len(_open) - 1, -1, -1):
                if _open[i] == url:
                    del _open[i]
                    break
            if _open:
                _set(client_environment(_open[-1]))
            else:
                if _fenced_here:
                    unblock_network()
                    _fenced_here = False
                _set(_restore)
                _restore.clear()


def _say(line: str) -> None:
    """One line on stderr (what a capture could not record); a closed stderr is not an error."""
    with contextlib.suppress(Exception):
        print(redact(f"capture: {line}"), file=sys.stderr, flush=True)


def _set(values: dict[str, str | None]) -> None:
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


#: A name in a record folder that numbering reads: a counter of 1 to 9 digits at its start. Any
#: other name (a 250-digit one included) is skipped, never a reason to stop recording.
_NUMBERED = re.compile(r"(\d{1,9})(?!\d)")
#: The methods a folder name may show when the exchange is not one of the four formats.
_METHODS = frozenset({"get", "post", "put", "patch", "delete", "head", "options"})
#: How many failures :attr:`RecordDir.failed` keeps (``serve`` runs for hours).
_KEEP_FAILED = 100


class RecordDir:
    """Writes each exchange into its own new folder of ``root``, files a person can open.

    ``0001-openai-chat-200/``: ``request.http`` (request line, headers with keys redacted, the
    body), ``request.json`` (the body as received), ``response.http``, ``response.json`` or
    ``response.sse`` (a stream's raw events), ``verdict.txt`` and ``count.txt``.

    A folder's name is made only of a counter, the endpoint's format (or a plain HTTP method
    name, else ``other``) and the status: never the method or path as received. Each record is
    written whole into a hidden temporary folder of ``root`` and then renamed, so a full disk
    leaves no half-written record (the temporary folder is removed). It never writes into a
    folder it did not create: numbering continues after what is already there (names that do not
    start with a short counter are skipped), and a name that exists is skipped, so a user's files
    are never overwritten. What it does not do: survive a crash mid-write without leaving a
    hidden ``.partial-*`` folder behind.
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        if self.root.exists() and not self.root.is_dir():
            raise NotADirectoryError(f"--record {self.root}: exists and is not a folder")
        self.root.mkdir(parents=True, exist_ok=True)
        numbers = [int(m.group(1)) for p in self.root.iterdir() if (m := _NUMBERED.match(p.name))]
        self.next = max(numbers, default=0) + 1
        self.written: list[Path] = []
        #: one line per exchange that could not be written (the newest ``_KEEP_FAILED``)
        self.failed: collections.deque[str] = collections.deque(maxlen=_KEEP_FAILED)
        self._lock = threading.Lock()  # capture() writes from every connection's thread

    def write(self, exchange: Exchange, seen: ReadBack | None = None) -> Path:
        """Write one exchange; its folder is returned. Raises ``OSError`` when it cannot (a full
        disk, a folder gone or read-only), leaving nothing half-written."""
        seen = seen or ReadBack(exchange, len(self.written) + 1)
        name = f"{_endpoint_name(seen, exchange)}-{int(exchange.status)}"
        stream = "event-stream" in (exchange.header("content-type", response=True) or "")
        files = {
            "request.http": exchange.request_http(),
            "request.json": exchange.request_bytes,
            "response.http": exchange.response_http(),
            "response.sse" if stream else "response.json": exchange.response_bytes,
            "verdict.txt": _verdict_file(seen),
            "count.txt": _count_file(seen),
        }
        partial = Path(tempfile.mkdtemp(prefix=".partial-", dir=self.root))
        try:
            for file, content in files.items():
                data = content.encode("utf-8") if isinstance(content, str) else content
                with open(partial / file, "xb") as out:
                    out.write(data)
            folder = self._place(partial, name)
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
        with self._lock:
            self.written.append(folder)
        return folder

    def try_write(
        self,
        exchange: Exchange,
        seen: ReadBack | None = None,
        say: Callable[[str], None] | None = None,
    ) -> Path | None:
        """:meth:`write`, but a failure is one line (naming this folder and the reason) kept in
        :attr:`failed` and passed to ``say``, and ``None`` is returned: never an exception."""
        try:
            return self.write(exchange, seen)
        except Exception as err:  # a full disk, a folder gone, an exchange that cannot be read
            reason = err.strerror if isinstance(err, OSError) and err.strerror else err
            line = f"not recorded in {self.root}/: {type(err).__name__}: {reason}"
            line = " ".join(line.splitlines())
            self.failed.append(line)
            if say is not None:
                say(line)
            return None

    def _place(self, partial: Path, name: str) -> Path:
        """Rename the finished ``partial`` folder to the next free ``NNNN-name``. The name is
        claimed with ``mkdir`` (which fails if anything of that name exists); the rename then
        replaces that empty claim in one step, so no one ever sees a half-written record."""
        while True:
            with self._lock:
                number, self.next = self.next, self.next + 1
            folder = self.root / f"{number:04d}-{name}"
            try:
                folder.mkdir()
            except FileExistsError:
                continue  # a name that exists is never reused
            try:
                os.rename(partial, folder)  # POSIX: onto an empty folder, atomically
            except OSError as err:
                if err.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                    with contextlib.suppress(OSError):
                        folder.rmdir()
                    raise
                try:  # a system that renames onto no folder, or someone wrote into the claim
                    folder.rmdir()  # only if still empty: then it is ours
                except OSError:
                    continue  # theirs now: leave it, take the next number
                os.rename(partial, folder)
            return folder


def _endpoint_name(seen: ReadBack, exchange: Exchange) -> str:
    """The endpoint part of a folder name: a format, a plain method's name, or ``other``."""
    if seen.format is not None:
        return seen.format
    method = exchange.method.lower() if isinstance(exchange.method, str) else ""
    return method if method in _METHODS else "other"


def _verdict_file(seen: ReadBack) -> str:
    lines = [seen.line(), "", f"verdict ({seen.format or 'no format'}): {seen.verdict_text()}"]
    if seen.verdict is not None:
        found = seen.verdict.violations
        lines += [str(v) for v in found.errors + found.warnings]
        first = seen.verdict.first_error
        if first is not None and first.provider_error:
            lines.append(f"the provider answers: {first.provider_error}")
    return "\n".join(lines) + "\n"


def _count_file(seen: ReadBack) -> str:
    if seen.count is None:
        return (seen.problem or "not counted") + "\n"
    lines = [f"{seen.count.total} input tokens on {seen.count.model}: {explained(seen.count)}"]
    lines += ["", table(seen.count)]
    if seen.billed is not None:
        lines += ["", f"the response's usage reports {seen.billed} input tokens"]
    return "\n".join(lines) + "\n"


def __getattr__(name: str) -> Any:
    """``Seen``, the old name of :class:`ReadBack` (one meaning per name), for one release."""
    if name == "Seen":
        import warnings

        warnings.warn(
            "standin.capturing.Seen is now standin.capturing.ReadBack (the old name goes next "
            "release)",
            DeprecationWarning,
            stacklevel=2,
        )
        return ReadBack
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
