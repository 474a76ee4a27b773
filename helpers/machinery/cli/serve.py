"""Serve the local provider on 127.0.0.1 until Ctrl-C.

Prints the base URL of each wire format, the SDK settings, and a curl command per endpoint (the
key shown is the local placeholder; real keys are never printed). Every exchange is logged as
one line. Only loopback is ever bound.
"""

from __future__ import annotations

import argparse
import threading


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from helpers.provider.scenarios import SCENARIOS

    parser.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    names = list(SCENARIOS)
    parser.add_argument("--scenario", default="sundry", choices=names, help="the scripted model")


def banner(p) -> str:
    """The text printed at start: URLs, SDK settings and one curl per endpoint."""
    from helpers.machinery.provider_server import LOCAL_KEY

    lines = [
        f"On the Wire local provider: {p.url}  (scenario {p.scenario_name!r}; Ctrl-C stops)",
        "",
        f"  OpenAI SDK:    OpenAI(base_url={p.base_url('openai')!r}, api_key={LOCAL_KEY!r})",
        f"  Anthropic SDK: Anthropic(base_url={p.base_url('anthropic')!r}, api_key=...)",
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
            f"    -H '{header} {LOCAL_KEY}' -H 'content-type: application/json' \\",
            f"    -d '{data}'",
            "",
        ]
    gemini = '{"contents":[{"role":"user","parts":[{"text":"Hi, my order SO-48213 arrived."}]}]}'
    lines += [
        f"  curl -N '{p.endpoint('gemini', 'gemini-2.5-flash', stream=True)}' \\",
        f"    -H 'x-goog-api-key: {LOCAL_KEY}' -H 'content-type: application/json' \\",
        f"    -d '{gemini}'",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from helpers.machinery.cli import UsageError
    from helpers.provider import LocalProvider

    def log(exchange) -> None:
        note = f"  ({exchange.note})" if exchange.note else ""
        print(f"{exchange.method} {exchange.path} -> {exchange.status}{note}", flush=True)

    try:
        provider = LocalProvider(args.scenario, port=args.port, on_exchange=log).start()
    except OSError as err:
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {err.strerror or err}") from None
    print(banner(provider), flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        print("\nstopping", flush=True)
    finally:
        provider.stop()
    return 0
