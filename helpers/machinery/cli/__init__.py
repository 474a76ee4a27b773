"""The command line: ``python -m helpers COMMAND ...``, a thin layer over the lessons' functions.

Each command lives in its own module here, with two functions:
``add_arguments(parser)`` and ``run(args) -> int`` (the exit code). Nothing is computed only in
the command line: ``run`` calls the same functions a notebook calls.

Errors a user can cause (a missing file, unreadable JSON, an unknown shape) print one clear
line on stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

# command name -> module under helpers.machinery.cli, in the order ``--help`` lists them
COMMANDS: dict[str, str] = {
    "render": "render",
    "check": "check",
    "serve": "serve",
    "assemble": "assemble",
    "count": "count",
    "cost": "cost",
}


class UsageError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


def read_json(path: str) -> Any:
    """Read JSON from a file path, or from standard input when the path is ``-``."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        name = "standard input" if path == "-" else path
        raise UsageError(f"{name} is not valid JSON: {err}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m helpers",
        description="On the Wire: render, check, count and send LLM requests, offline.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"helpers.machinery.cli.{module_name}")
        doc = (module.__doc__ or "").strip().splitlines()
        help_line = doc[0] if doc else ""
        command = sub.add_parser(name, help=help_line, description=(module.__doc__ or "").strip())
        module.add_arguments(command)
        command.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    from helpers.messages import FormatError

    args = build_parser().parse_args(argv)
    try:
        return int(args._module.run(args) or 0)
    except (UsageError, FormatError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
