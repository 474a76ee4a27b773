"""Serve the local provider on 127.0.0.1 until Ctrl-C.

Prints the base URL of each wire format, the SDK settings, and a curl command per endpoint (the
key shown is the local placeholder, or under ``--forward`` this run's token; real keys are never
printed). Every exchange is logged as
one line: the request, its status, its input tokens counted with their label, and the
provider's verdict on the body (``standin.capturing.Seen``). Only loopback is ever bound.

``--record DIR`` also writes each exchange as files (``standin.capturing.RecordDir``: headers with
keys redacted, bodies, raw stream events, verdict, count), never over a file it did not write.
``--forward`` passes each request to the real provider instead of the scripted model, under
live mode's two switches (``standin.forward``), and the line shows our count beside the bill.
Clients then use the per-run token the banner prints as their API key (never the user's key):
a request without it, for another host, or to a path that is not an endpoint is refused.
"""

from __future__ import annotations

import argparse
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
    from standin.capturing import Seen

    return Seen(exchange, number).line()


def banner(p) -> str:
    """The text printed at start: URLs, SDK settings and one curl per endpoint."""
    from standin.server import LOCAL_KEY

    key = p.forward_token or LOCAL_KEY
    shown = "api_key=..." if key == LOCAL_KEY else f"api_key={key!r}"
    lines = [
        f"On the Wire local provider: {p.url}  (scenario {p.scenario_name!r}; Ctrl-C stops)",
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
    hello = '"messages":[{"role":"user","content":"Hi, my order SO-48213 arrived cracked."}]'
    examples = [
        ("openai-chat", "authorization: Bearer", f'{{"model":"gpt-4o-mini",{hello}}}'),
        ("anthropic", "x-api-key:", f'{{"model":"claude-sonnet-4-5","max_tokens":512,{hello}}}'),
    ]
    for provider, header, data in examples:
        lines += [
            f"  curl {p.endpoint(provider)} \\",
            f"    -H '{header} {key}' -H 'content-type: application/json' \\",
            f"    -d '{data}'",
            "",
        ]
    gemini = '{"contents":[{"role":"user","parts":[{"text":"Hi, my order SO-48213 arrived."}]}]}'
    lines += [
        f"  curl -N '{p.endpoint('gemini', 'gemini-3.8-flash', stream=True)}' \\",
        f"    -H 'x-goog-api-key: {key}' -H 'content-type: application/json' \\",
        f"    -d '{gemini}'",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from standin import LocalProvider
    from standin.capturing import RecordDir, Seen
    from standin.cli import UsageError

    forwarder = _forwarder() if args.forward else None
    try:
        writer = RecordDir(args.record) if args.record else None
    except OSError as err:
        raise UsageError(f"--record {args.record}: {err.strerror or err}") from None
    numbers = iter(range(1, 1 << 62))
    lock = threading.Lock()

    def log(exchange) -> None:
        with lock:  # one line per exchange, whole, in the order they were recorded
            seen = Seen(exchange, next(numbers))
            line = seen.line()
            if writer is not None:
                try:
                    line += f"\n    -> {writer.write(exchange, seen)}"
                except OSError as err:
                    line += f"\n    -> not recorded: {err.strerror or err}"
            print(line, flush=True)

    try:
        provider = LocalProvider(
            args.scenario,
            port=args.port,
            on_exchange=log,
            keep=KEEP,  # runs for hours: memory stays bounded
            log=lambda line: print(line, flush=True),
            forward=forwarder,
        ).start()
    except (OSError, OverflowError) as err:
        reason = getattr(err, "strerror", None) or err
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {reason}") from None
    except ValueError as err:  # the forwarder's base URL points back at this server
        raise UsageError(f"--forward: {err}") from None
    print(banner(provider), flush=True)
    if writer is not None:
        print(f"\nrecording every exchange into {writer.root}/", flush=True)
    if forwarder is not None:
        print("\nFORWARDING to the real providers (each request is billed):", flush=True)
        print(forwarder.describe(), flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        print("\nstopping", flush=True)
    finally:
        provider.stop()
    return 0


def _forwarder():
    from standin.cli import UsageError
    from standin.forward import Forwarder

    try:
        return Forwarder()
    except ValueError as err:
        raise UsageError(str(err)) from None
