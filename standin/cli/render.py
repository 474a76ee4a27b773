"""Convert a request body between wire formats (neutral, openai-chat, openai-responses, ...).

Reads FILE (or ``-`` for standard input), detects its format unless ``--input-format`` says
it, and prints the body in the ``--format`` format as pretty JSON on standard output. Everything the
conversion changed or dropped is printed on standard error, one ``note:`` line each, so
``> out.json`` keeps only the body. Same functions as the lessons: ``helpers.formats``.

Example: ``python -m helpers render data/sundry/request.json --format anthropic``
"""

from __future__ import annotations

import argparse
import json
import sys

from helpers.formats import FORMATS

TARGETS = ("neutral", *FORMATS)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a JSON request body, or - to read standard input")
    parser.add_argument("--format", required=True, metavar="FORMAT", help=", ".join(TARGETS))
    parser.add_argument(
        "--input-format",
        dest="source",
        metavar="FORMAT",
        help="the input's format (default: detect it)",
    )
    parser.add_argument(
        "--system-role",
        choices=("system", "developer"),
        help="openai-chat only: the role that carries the system prompt (default: system)",
    )


def _check(name: str | None, flag: str) -> None:
    from standin.cli import UsageError

    if name is not None and name not in TARGETS:
        raise UsageError(f"{flag}: unknown format {name!r} (known: {', '.join(TARGETS)})")


def run(args: argparse.Namespace) -> int:
    from helpers.formats import render
    from standin.cli import read_request

    _check(args.format, "--format")
    _check(args.source, "--input-format")
    notes: list = []
    _, _, request = read_request(args.file, args.source, notes)
    if args.format == "neutral":
        out = request.to_json()
    else:
        options = {"system_role": args.system_role} if args.system_role else {}
        out = render(request, args.format, notes=notes, **options).body
    print(json.dumps(out, indent=2, ensure_ascii=False))
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return 0
