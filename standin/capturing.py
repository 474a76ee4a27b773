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

import contextlib
import os
import re
from collections.abc import Callable, Iterator
from html import escape
from pathlib import Path
from typing import Any

from helpers.html import no_math, request_html
from standin.explained import explained, table
from standin.provider.recorder import Exchange

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
        """One line: number, request, status, format and model, count (and bill), verdict."""
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
        cards = request_html(self.request) if self.request is not None else ""
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
    replaces it. ``record`` is a folder that also gets every exchange as files (:class:`RecordDir`).
    """
    from standin.server import LocalProvider

    writer = RecordDir(record) if record is not None else None
    provider = LocalProvider(scenario, on_exchange=writer.write if writer else None).start()
    saved = {name: os.environ.get(name) for name in client_environment(provider.url)}
    try:
        _set(client_environment(provider.url))
        yield Captured(provider)
    finally:
        _set(saved)
        provider.stop()


def _set(values: dict[str, str | None]) -> None:
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


class RecordDir:
    """Writes each exchange into its own new folder of ``root``, files a person can open.

    ``0001-openai-chat-200/``: ``request.http`` (request line, headers with keys redacted, the
    body), ``request.json`` (the body as received), ``response.http``, ``response.json`` or
    ``response.sse`` (a stream's raw events), ``verdict.txt`` and ``count.txt``. It never writes
    into a folder it did not create: numbering continues after what is already there, and a
    name that exists is skipped, so a user's files are never overwritten.
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        if self.root.exists() and not self.root.is_dir():
            raise NotADirectoryError(f"--record {self.root}: exists and is not a folder")
        self.root.mkdir(parents=True, exist_ok=True)
        numbers = [int(m.group()) for p in self.root.iterdir() if (m := re.match(r"\d+", p.name))]
        self.next = max(numbers, default=0) + 1
        self.written: list[Path] = []

    def _new_folder(self, name: str) -> Path:
        while True:
            folder = self.root / f"{self.next:04d}-{name}"
            self.next += 1
            try:
                folder.mkdir()  # fails if anything of that name exists: never reuse it
                return folder
            except FileExistsError:
                continue

    def write(self, exchange: Exchange, seen: Seen | None = None) -> Path:
        seen = seen or Seen(exchange, len(self.written) + 1)
        kind = seen.format or exchange.method.lower()
        folder = self._new_folder(f"{kind}-{exchange.status}")
        stream = "event-stream" in (exchange.header("content-type", response=True) or "")
        files = {
            "request.http": exchange.request_http(),
            "request.json": exchange.request_bytes,
            "response.http": exchange.response_http(),
            "response.sse" if stream else "response.json": exchange.response_bytes,
            "verdict.txt": _verdict_file(seen),
            "count.txt": _count_file(seen),
        }
        for name, content in files.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            with open(folder / name, "xb") as out:  # "x": never over an existing file
                out.write(data)
        self.written.append(folder)
        return folder


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
