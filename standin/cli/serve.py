"""Serve the stand-in on 127.0.0.1 until Ctrl-C.

Prints the base URL of each wire format, the SDK settings, and a curl command per endpoint (the
key shown is the local placeholder, or under ``--forward`` this run's token; real keys are never
printed). Every exchange is logged as
one line: the request, its status, its input tokens counted with their label, and the
provider's verdict on the body (``standin.capturing.ReadBack``). Only loopback is ever bound.

``--record DIR`` also writes each exchange as files (``standin.capturing.RecordDir``: headers with
keys redacted, bodies, raw stream events, verdict, count), each folder whole or not at all, never
over a file it did not write; an exchange it cannot write is answered all the same, and its line
says ``not recorded`` and why. Lines show control characters escaped; once stdout is closed
(``serve | head``) printing stops and serving goes on.
``--forward`` passes each request to the real provider instead of the scripted model, under
live mode's two switches (``standin.forward``), and the line shows our count beside the bill.
Clients then use the per-run token the banner prints as their API key (never the user's key):
a request without it, for another host, or to a path that is not an endpoint is refused.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import threading

#: Exchanges ``serve`` keeps in memory (the newest; each line is printed as it happens).
KEEP = 100


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from standin.provider.scenarios import SCENARIOS

    parser.add_argument("--port", type=_port, default=0, help="port (default: a free one)")
    names = list(SCENARIOS)
    parser.add_argument(
        "--scenario",
        default="general",
        choices=names,
        help="the scripted model (default: general, which answers any client's own tools)",
    )
    parser.add_argument(
        "--record",
        metavar="DIR",
        help="also write every exchange into DIR, one new folder each (nothing is overwritten)",
    )
    parser.add_argument(
        "--forward",
        action="store_true",
        help="send each request on to the real provider (needs ON_THE_WIRE_LIVE=1 and its key)",
    )


def _port(text: str) -> int:
    """A TCP port, 0 (any free one) to 65535; anything else is a usage error (exit 2)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port (0 to 65535; 0 = any free one)")
    return port


def log_line(exchange, number: int = 1) -> str:
    """One line per exchange: request, status, count and verdict (keys already redacted)."""
    from standin.capturing import ReadBack

    return ReadBack(exchange, number).line()


def banner(p) -> str:
    """The text printed at start: URLs, SDK settings and one curl per endpoint."""
    from standin.server import LOCAL_KEY

    key = p.forward_token or LOCAL_KEY
    shown = "api_key=..." if key == LOCAL_KEY else f"api_key={key!r}"
    lines = [
        f"On the Wire stand-in: {p.url}  (scenario {p.scenario_name!r}; Ctrl-C stops)",
        "",
        f"  OpenAI SDK:    OpenAI(base_url={p.base_url('openai')!r}, api_key={key!r})",
        f"  Anthropic SDK: Anthropic(base_url={p.base_url('anthropic')!r}, {shown})",
        f"  Gemini SDK:    genai.Client({shown}, http_options=types.HttpOptions("
        f"base_url={p.url!r}))  (/v1 and /v1beta both served)",
        f"  Environment:   OPENAI_BASE_URL={p.base_url('openai')}  ANTHROPIC_BASE_URL={p.url}"
        f"  GOOGLE_GEMINI_BASE_URL={p.url}",
        "",
    ]
    if p.forward_token:
        lines += [
            f"  API key for your client (this run only; not your provider key): {key}",
            "  Requests without it, for another Host, or to other paths are refused.",
            "",
        ]
    from helpers.formats.providers import PROVIDERS
    from standin.providers import of

    for provider in PROVIDERS:  # each API's curl example, from its stand-in module
        lines += of(provider).curl(p, key)
    return "\n".join(lines).removesuffix("\n")


def run(args: argparse.Namespace) -> int:
    from standin import LocalProvider
    from standin.capturing import ReadBack, RecordDir
    from standin.cli import UsageError

    forwarder = _forwarder() if args.forward else None
    try:
        writer = RecordDir(args.record) if args.record else None
    except OSError as err:
        raise UsageError(f"--record {args.record}: {err.strerror or err}") from None
    numbers = iter(range(1, 1 << 62))
    lock = threading.Lock()
    terminal = Terminal()

    def log(exchange) -> None:
        with lock:  # one line per exchange, whole, in the order they were recorded
            number = next(numbers)
            try:
                seen = ReadBack(exchange, number)
                line = seen.line()
            except Exception as err:  # never lose the exchange (or the connection) over a line
                seen = None
                line = f"#{number} {exchange.method} {exchange.path} -> {exchange.status}"
                line += f"  (not read: {type(err).__name__})"
            line = printable(line)
            if writer is not None:
                folder = writer.try_write(exchange, seen)
                line += f"\n    -> {folder if folder is not None else writer.failed[-1]}"
            terminal.say(line)

    try:
        provider = LocalProvider(
            args.scenario,
            port=args.port,
            on_exchange=log,
            keep=KEEP,  # runs for hours: memory stays bounded
            log=lambda line: terminal.say(printable(line)),
            forward=forwarder,
        ).start()
    except (OSError, OverflowError) as err:
        reason = getattr(err, "strerror", None) or err
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {reason}") from None
    except ValueError as err:  # the forwarder's base URL points back at this server
        raise UsageError(f"--forward: {err}") from None
    terminal.say(banner(provider))
    if writer is not None:
        terminal.say(f"\nrecording every exchange into {writer.root}/")
    if forwarder is not None:
        terminal.say("\nFORWARDING to the real providers (each request is billed):")
        terminal.say(forwarder.describe())
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        terminal.say("\nstopping")
    finally:
        provider.stop()
    return 0


class Terminal:
    """Prints whole lines on stdout, flushed. Once stdout is gone (``serve | head`` after head
    has its lines, a closed terminal), it prints nothing more and says nothing: the server goes
    on serving (and recording). What it does not do: buffer lines for a reader that comes back."""

    def __init__(self) -> None:
        self.gone = False
        self._lock = threading.Lock()

    def say(self, text: str) -> None:
        from standin.redaction import redact

        with self._lock:
            if self.gone:
                return
            try:
                print(redact(text), flush=True)  # no key the process knows, no key shape
            except (OSError, ValueError):  # BrokenPipeError; ValueError: stdout closed
                self.gone = True
                # what is left in the buffer goes nowhere, not into an error at exit
                with contextlib.suppress(OSError, ValueError):
                    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with control characters shown escaped (``\\x00``, ``\\x1b``): a request's method
    or path can never move the cursor, clear the screen or cut a line on the terminal."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _forwarder():
    from standin.cli import UsageError
    from standin.forward import Forwarder

    try:
        return Forwarder()
    except ValueError as err:
        raise UsageError(str(err)) from None
