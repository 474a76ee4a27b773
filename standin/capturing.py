"""See what your own code sends: every request, read back as the series reads its own.

>>> with capture() as seen:                        # doctest: +SKIP
...     OpenAI().chat.completions.create(...)      # any client, built inside the block
>>> seen                                           # cards, count and verdict per request

:func:`capture` starts a stand-in on 127.0.0.1 and points the SDKs' own base-URL variables at it
(``OPENAI_BASE_URL``, ``ANTHROPIC_BASE_URL``, ``GOOGLE_GEMINI_BASE_URL``, and this project's
``GEMINI_BASE_URL``), with placeholder keys, live mode off and openai-agents' trace export off;
everything is restored on exit. Each exchange becomes a :class:`Seen`: the body read in its
format (with the stored history a thread or ``previous_response_id`` names in front), counted
(``standin.wire_count.count_body``, with its label) and checked as the provider would
(``standin.verdict``). :class:`RecordDir` writes the same to files (``serve --record``).
What it does not do: reach a client built before the block (it read its base URL then).
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

__all__ = ["Captured", "RecordDir", "Seen", "capture", "client_environment"]


class Seen:
    """One exchange read back: its format, body, neutral request, count and verdict."""

    def __init__(self, exchange: Exchange, number: int = 1) -> None:
        from standin.provider.routes import find_route

        self.exchange, self.number = exchange, number
        path, _, query = exchange.path.partition("?")
        route = find_route(path, query)
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
            self.verdict = verdict(self.read, self.format, format=self.format)
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
        head = f"#{self.number} {e.method} {e.path} -> {e.status}"
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
    """Every request a capture saw, newest last, read back as :class:`Seen` (list-like)."""

    def __init__(self, provider: Any) -> None:
        self.provider = provider
        self._seen: dict[int, Seen] = {}

    @property
    def requests(self) -> list[Seen]:
        out = []
        for number, exchange in enumerate(self.provider.recorder.exchanges, 1):
            if id(exchange) not in self._seen:
                self._seen[id(exchange)] = Seen(exchange, number)
            out.append(self._seen[id(exchange)])
        return out

    @property
    def refused(self) -> list[Seen]:
        """The requests the provider would refuse (its verdict, or a status of 400 and up)."""
        return [s for s in self.requests if s.accepted is False or s.status >= 400]

    def assert_all_accepted(self) -> None:
        """Fail (an ``AssertionError`` naming each one) if any request would be refused."""
        bad = self.refused
        if bad:
            lines = "\n".join(s.line() for s in bad)
            raise AssertionError(f"{len(bad)} request(s) the provider would refuse:\n{lines}")

    def __len__(self) -> int:
        return len(self.provider.recorder)

    def __iter__(self) -> Iterator[Seen]:
        return iter(self.requests)

    def __getitem__(self, index: int) -> Seen:
        return self.requests[index]

    def __repr__(self) -> str:
        seen = self.requests
        head = f"{len(seen)} request{'s' * (len(seen) != 1)} on the wire"
        return "\n".join([head, *(s.line() for s in seen)])

    def _repr_html_(self) -> str:
        seen = self.requests
        head = f"<div><b>{len(seen)} request{'s' * (len(seen) != 1)} on the wire</b></div>"
        return no_math(head + "".join(s._repr_html_() for s in seen))


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
    """Start a stand-in, point every SDK at it, yield what it sees; restore everything after.

    ``scenario`` is the scripted model: by default ``"general"``, which calls your code's own
    tools by their names and answers from their results (``standin.provider.general``); a
    story's name (``"sundry"``, see ``standin.provider.scenarios``) or any scenario function
    replaces it. ``record`` is a folder that also gets every exchange as files (:class:`RecordDir`);
    an exchange that cannot be written (a full disk, a read-only folder) is answered all the same,
    and one line on stderr says so (``RecordDir.failed`` keeps it).
    """
    from standin.server import LocalProvider

    writer = RecordDir(record) if record is not None else None

    def keep(exchange: Exchange) -> None:
        if writer is not None:
            writer.try_write(exchange, say=_say)

    provider = LocalProvider(scenario, on_exchange=keep if writer else None).start()
    saved = {name: os.environ.get(name) for name in client_environment(provider.url)}
    # the user's own keys, hidden while the block runs, stay secrets: redacted by value
    add_secret(*(value for name, value in saved.items() if value and name.endswith("_API_KEY")))
    try:
        _set(client_environment(provider.url))
        yield Captured(provider)
    finally:
        _set(saved)
        provider.stop()


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

    def write(self, exchange: Exchange, seen: Seen | None = None) -> Path:
        """Write one exchange; its folder is returned. Raises ``OSError`` when it cannot (a full
        disk, a folder gone or read-only), leaving nothing half-written."""
        seen = seen or Seen(exchange, len(self.written) + 1)
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
        seen: Seen | None = None,
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


def _endpoint_name(seen: Seen, exchange: Exchange) -> str:
    """The endpoint part of a folder name: a format, a plain method's name, or ``other``."""
    if seen.format is not None:
        return seen.format
    method = exchange.method.lower() if isinstance(exchange.method, str) else ""
    return method if method in _METHODS else "other"


def _verdict_file(seen: Seen) -> str:
    lines = [seen.line(), "", f"verdict ({seen.format or 'no format'}): {seen.verdict_text()}"]
    if seen.verdict is not None:
        found = seen.verdict.violations
        lines += [str(v) for v in found.errors + found.warnings]
        first = seen.verdict.first_error
        if first is not None and first.provider_error:
            lines.append(f"the provider answers: {first.provider_error}")
    return "\n".join(lines) + "\n"


def _count_file(seen: Seen) -> str:
    if seen.count is None:
        return (seen.problem or "not counted") + "\n"
    lines = [f"{seen.count.total} input tokens on {seen.count.model}: {explained(seen.count)}"]
    lines += ["", table(seen.count)]
    if seen.billed is not None:
        lines += ["", f"the response's usage reports {seen.billed} input tokens"]
    return "\n".join(lines) + "\n"
