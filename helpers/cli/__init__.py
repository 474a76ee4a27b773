"""The command line: ``python -m helpers COMMAND ...``, a thin layer over the lessons' functions.

Each command lives in its own module here, with two functions:
``add_arguments(parser)`` and ``run(args) -> int`` (the exit code). Nothing is computed only in
the command line: ``run`` calls the same functions a notebook calls.

One contract for every command, so a script can tell the cases apart:

- exit 0: done; exit 1: ``check`` found violations;
- exit 2: bad input (a missing file, bytes that are not UTF-8, JSON that is not JSON, a field of
  the wrong type, an input over a limit): one line on stderr naming the place;
- exit 3: a bug of ours: one line, ``internal error, please report``, never a traceback.

Limits are checked before any work: an input of at most ``MAX_INPUT_BYTES``, JSON nested at most
``MAX_DEPTH`` deep, integers of at most ``MAX_INT_DIGITS`` digits, no ``NaN``/``Infinity`` (not
JSON) and no lone surrogate (``"\\ud800"``: no real API accepts one).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any, NoReturn

# command name -> module under helpers.cli, in the order ``--help`` lists them
COMMANDS: dict[str, str] = {
    "render": "render",
    "check": "check",
    "serve": "serve",
    "assemble": "assemble",
    "count": "count",
    "cost": "cost",
}


#: Inputs above these limits are refused (exit 2) before any work is done.
MAX_INPUT_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 100
MAX_INT_DIGITS = 30
EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class UsageError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


class _TooLong(ValueError):
    pass


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _TooLong(f"an integer of {len(text.lstrip('-'))} digits")
    return int(text)


class _NotJSON(ValueError):
    pass


def _constant(name: str) -> Any:
    raise _NotJSON(f"{name} is not a JSON value (JSON has no NaN or Infinity)")


def _name(path: str) -> str:
    return "standard input" if path == "-" else path


def read_bytes(path: str) -> bytes:
    """The raw input, refused before reading when it is larger than ``MAX_INPUT_BYTES``."""
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None)  # a text stream in tests: read its text
            data = (
                stdin.read(MAX_INPUT_BYTES + 1)
                if stdin is not None
                else sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8", "surrogatepass")
            )
        else:
            size = Path(path).stat().st_size
            if size > MAX_INPUT_BYTES:
                raise UsageError(f"{path}: {size} bytes, over the limit of {MAX_INPUT_BYTES}")
            data = Path(path).read_bytes()
    except OSError as err:
        raise UsageError(f"cannot read {path}: {err.strerror or err}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{_name(path)}: over the limit of {MAX_INPUT_BYTES} bytes")
    return data


def read_text(path: str) -> str:
    """The input decoded as UTF-8 (a byte-order mark is allowed); bad bytes name their offset."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UsageError(
            f"{_name(path)}: not UTF-8 text (byte {err.start}: {data[err.start : err.start + 1]!r})"
        ) from None


def check_value(value: Any, name: str) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` and lone surrogates, naming the JSON path."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        node, at, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise UsageError(f"{name}: nested deeper than {MAX_DEPTH} levels at {at or 'top'}")
        if isinstance(node, dict):
            for key, item in node.items():
                if _SURROGATE.search(key):
                    raise UsageError(f"{name}: a key at {at or 'top'} holds a lone surrogate")
                stack.append((item, f"{at}.{key}" if at else key, depth + 1))
        elif isinstance(node, list):
            stack.extend((item, f"{at}[{i}]", depth + 1) for i, item in enumerate(node))
        elif isinstance(node, str) and _SURROGATE.search(node):
            raise UsageError(
                f"{name}: {at or 'the value'} holds a lone surrogate (not valid Unicode text)"
            )


def read_json(path: str) -> Any:
    """Read JSON from a file path, or from standard input when the path is ``-``.

    Every limit of the module docstring is checked here, so a command only ever sees plain,
    bounded JSON values.
    """
    text = read_text(path)
    name = _name(path)
    try:
        value = json.loads(text, parse_int=_int, parse_constant=_constant)
    except json.JSONDecodeError as err:
        raise UsageError(f"{name} is not valid JSON: {err}") from None
    except _TooLong as err:
        where = _LONG_INT.search(text)
        at = f" (line {text.count(chr(10), 0, where.start()) + 1})" if where else ""
        raise UsageError(f"{name}: {err}{at} is refused (limit {MAX_INT_DIGITS} digits)") from None
    except _NotJSON as err:
        raise UsageError(f"{name}: {err}") from None
    except RecursionError:
        raise UsageError(f"{name}: nested deeper than {MAX_DEPTH} levels") from None
    check_value(value, name)
    return value


def check_request(request: Any, name: str) -> None:
    """The fields the counting and rendering code trusts, checked with their place named.

    The parsers keep unknown JSON as they found it (a lesson may show it); the CLI refuses what
    it cannot work on: a model that is not a string, a tool whose name, description or schema
    has the wrong type.
    """
    if request.model is not None and not isinstance(request.model, str):
        raise UsageError(f"{name}: model: expected a string, got {type(request.model).__name__}")
    for i, tool in enumerate(request.tools):
        where = f"{name}: tools[{i}]"
        if not isinstance(tool.name, str) or not tool.name:
            raise UsageError(f"{where}.name: expected a non-empty string")
        where += f" ({tool.name})"
        if not isinstance(tool.description, str):
            kind = type(tool.description).__name__
            raise UsageError(f"{where}: description: expected a string, got {kind}")
        schema = tool.parameters
        if not isinstance(schema, dict):
            raise UsageError(
                f"{where}: parameters: expected an object, got {type(schema).__name__}"
            )
        properties = schema.get("properties", {})
        if not isinstance(properties, dict) or not all(
            isinstance(v, dict | bool) for v in properties.values()
        ):
            raise UsageError(f"{where}: parameters.properties: expected an object of schemas")
        required = schema.get("required", [])
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            raise UsageError(f"{where}: parameters.required: expected a list of strings")


_SURROGATE = re.compile("[\ud800-\udfff]")
_LONG_INT = re.compile(rf"-?\d{{{MAX_INT_DIGITS + 1},}}")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (and exit 2), like every other bad input."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"error: {message} (see: {self.prog} --help)\n")


@functools.cache  # building it costs more than most commands (argparse looks up translations)
def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m helpers",
        description="On the Wire: render, check, count and send LLM requests, offline.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"helpers.cli.{module_name}")
        doc = (module.__doc__ or "").strip().splitlines()
        help_line = doc[0] if doc else ""
        command = sub.add_parser(name, help=help_line, description=(module.__doc__ or "").strip())
        module.add_arguments(command)
        command.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit code of the contract above (never raises)."""
    from helpers.messages import FormatError

    for stream in (sys.stdout, sys.stderr):  # a lone surrogate prints escaped, never crashes
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    try:
        args = build_parser().parse_args(argv)
        return int(args._module.run(args) or 0)
    except SystemExit as done:  # argparse: --help (0) or a usage mistake (2, already printed)
        return done.code if isinstance(done.code, int) else EXIT_BAD_INPUT
    except (UsageError, FormatError) as err:
        _say(f"error: {err}")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (``| head``): nothing left to say
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # what a shell reports for a process ended by SIGPIPE
    except BaseException as err:  # the last resort: one line, never a traceback
        detail = f"{type(err).__name__}: {err}"
        _say(f"error: internal error, please report: {detail[:300]}")
        return EXIT_INTERNAL


def _say(line: str) -> None:
    with contextlib.suppress(Exception):
        print(" ".join(line.splitlines()), file=sys.stderr)  # one line, whatever it quotes
