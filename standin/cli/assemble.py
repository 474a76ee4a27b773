"""Assemble a recorded SSE stream into one neutral message (JSON).

Reads raw stream bytes (a file, or - for standard input) as a provider speaking ``--format``
sends them, and prints the assembled reply: the message with its blocks, the stop reason and
the usage. What had to be recovered rather than read whole (a tool call whose block never
closed, say) is printed on stderr as a note; a stream cut short says what was recovered before
the cut. The same function as ``helpers.sse.assemble``, after the stand-in's stream limits.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from helpers.sse import ACCUMULATORS

    parser.add_argument("file", metavar="FILE", help="the SSE bytes, or - for standard input")
    choices = list(ACCUMULATORS)
    parser.add_argument("--format", required=True, choices=choices)


def run(args: argparse.Namespace) -> int:
    from helpers.sse import StreamError
    from standin.cli import UsageError, check_value, read_bytes
    from standin.stream_checks import assemble

    raw = read_bytes(args.file)
    notes: list[str] = []
    try:
        reply = assemble(raw, args.format, notes)
    except StreamError as err:
        raise UsageError(f"{args.file}: {err}{recovered(err.partial, args.format)}") from None
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    out = {
        "message": reply.message.to_json(),
        "stop_reason": reply.stop_reason,
        "usage": {k: v for k, v in vars(reply.usage).items() if k != "raw"},
        "model": reply.model,
        "id": reply.id,
    }
    check_value(out, args.file)  # no lone surrogate or runaway nesting reaches the output
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


def recovered(partial: dict[str, Any] | None, format: str) -> str:
    """ "; recovered before the cut: ..." from a partial body, or "" if nothing is readable."""
    from helpers.formats import FormatError, parse_response

    if not partial:
        return "; nothing was recovered"
    try:
        blocks = parse_response(partial, format).message.content
    except (FormatError, KeyError, TypeError, ValueError):
        return ""
    parts = [
        f"text ({len(b.text)} chars)" if b.type == "text" else f"{b.type} {getattr(b, 'name', '')}"
        for b in blocks
    ]
    return "; recovered before the cut: " + (", ".join(p.strip() for p in parts) or "no blocks")
