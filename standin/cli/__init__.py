"""The command line: ``python -m helpers COMMAND ...``, a thin layer over the lessons' functions.

Each command lives in its own module here, with two functions:
``add_arguments(parser)`` and ``run(args) -> int`` (the exit code). Nothing is computed only in
the command line: ``run`` calls the same functions a notebook calls.

One contract for every command, so a script can tell the cases apart:

- exit 0: done; exit 1: ``check`` found violations;
- exit 2: bad input (a missing file, bytes that are not UTF-8, JSON that is not JSON, a field of
  the wrong type, an input over a limit): one line on stderr naming the place;
- exit 3: a bug of ours: one line, ``internal error, please report``, never a traceback.

Limits are checked before any work: an input of at most ``MAX_INPUT_BYTES``, read in chunks that
stop at the limit (a file's stated size is never trusted: a FIFO, ``/dev/zero``); then the JSON
limits of ``standin.input_checks`` (shared with the stand-in): nesting depth,
integer length, no ``NaN``/``Infinity`` (not JSON), no lone surrogate (``"\\ud800"``).
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
from typing import Any, NoReturn

from standin.input_checks import InputError, loads, tool_problem
from standin.input_checks import check_value as _check_value

# command name -> module under standin.cli, in the order ``--help`` lists them
COMMANDS: dict[str, str] = {
    "render": "render",
    "check": "check",
    "serve": "serve",
    "assemble": "assemble",
    "count": "count",
    "cost": "cost",
}


#: Inputs above these limits are refused (exit 2) before any work is done (the JSON limits are
#: in ``standin.input_checks``, shared with the stand-in).
MAX_INPUT_BYTES = 64 * 1024 * 1024
EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class UsageError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


def _name(path: str) -> str:
    return "standard input" if path == "-" else path


def read_bytes(path: str, limit: int | None = None) -> bytes:
    """The raw input, at most ``limit`` bytes (default ``MAX_INPUT_BYTES``), else a usage error.

    Read in chunks up to ``limit + 1`` bytes whatever the file claims: its size is never trusted,
    so a FIFO fed without end, ``/dev/zero`` or a file that grows while read stop at the limit.
    What it does not do: give up on a FIFO that nobody writes to (it waits, as ``cat`` does).
    """
    limit = MAX_INPUT_BYTES if limit is None else limit
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None)  # a text stream in tests: read its text
            if stdin is None:
                text = sys.stdin.read(limit + 1)
                data = text.encode("utf-8", "surrogatepass")[: limit + 1]
            else:
                data = _read_at_most(stdin, limit + 1)
        else:
            with open(path, "rb", buffering=0) as stream:
                data = _read_at_most(stream, limit + 1)
    except OSError as err:
        raise UsageError(f"cannot read {path}: {err.strerror or err}") from None
    if len(data) > limit:
        raise UsageError(
            f"{_name(path)}: more than {limit:,} bytes, over the input limit of {limit:,} bytes "
            "(nothing past the limit was read)"
        )
    return data


#: How much ``read_bytes`` asks for at a time: memory grows with what arrives, never ahead of it.
_CHUNK = 1024 * 1024


def _read_at_most(stream: Any, size: int) -> bytes:
    """Up to ``size`` bytes from a binary stream, in chunks, stopping early at end of file."""
    data = bytearray()
    while len(data) < size:
        chunk = stream.read(min(_CHUNK, size - len(data)))
        if not chunk:
            break
        data += chunk
    return bytes(data)


def read_text(path: str) -> str:
    """The input decoded as UTF-8 (a byte-order mark is allowed); bad bytes name their offset."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UsageError(
            f"{_name(path)}: not UTF-8 text (byte {err.start}: {data[err.start : err.start + 1]!r})"
        ) from None


def read_json(path: str) -> Any:
    """Read JSON from a file path, or from standard input when the path is ``-``.

    Every limit of the module docstring is checked here, so a command only ever sees plain,
    bounded JSON values.
    """
    text = read_text(path)
    name = _name(path)
    try:
        return loads(text, name)
    except json.JSONDecodeError as err:
        raise UsageError(f"{name} is not valid JSON: {err}") from None
    except InputError as err:
        raise UsageError(str(err)) from None


def check_value(value: Any, name: str) -> None:
    """``input_checks.check_value``, failing as a usage error (exit 2)."""
    try:
        _check_value(value, name)
    except InputError as err:
        raise UsageError(str(err)) from None


def check_request(request: Any, name: str) -> None:
    """The fields the counting and rendering code trusts, checked with their place named.

    The parsers keep unknown JSON as they found it (a lesson may show it); the CLI refuses what
    it cannot work on: a model that is not a string, a tool whose name, description or schema
    has the wrong type.
    """
    if request.model is not None and not isinstance(request.model, str):
        raise UsageError(f"{name}: model: expected a string, got {type(request.model).__name__}")
    for i, tool in enumerate(request.tools):
        problem = tool_problem(tool)
        if problem:
            label = f" ({tool.name})" if isinstance(tool.name, str) and tool.name else ""
            raise UsageError(f"{name}: tools[{i}]{label}: {problem}")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (and exit 2), like every other bad input."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"error: {message} (see: {self.prog} --help)\n")


def read_request(path: str, source: str | None, notes: list) -> tuple[dict, str, Any]:
    """The body in the JSON file at ``path``, its format (``source``, or detected), and the
    request parsed from it and checked; what the parser dropped or changed is appended to
    ``notes``. Shared by ``count`` and ``render``, which both start from one request body."""
    from helpers.formats import detect
    from standin.functions_era import parse

    body = read_json(path)
    if not isinstance(body, dict):
        raise UsageError(f"{path}: a request body is a JSON object, not {type(body).__name__}")
    format = source or detect(body)
    request = parse(body, format, notes=notes)
    check_request(request, path)
    return body, format, request


#: A Gemini API or Vertex AI URL (``.../v1/projects/P/locations/L/publishers/google/models/M``,
#: or Vertex AI's express mode, ``.../v1beta1/publishers/google/models/M``)
_GEMINI_URL = re.compile(
    r"/(v1|v1beta\w*)/(?:(?:projects/[^/]+/locations/[^/]+/)?publishers/google/)?"
    r"models/([^/:?]+)"
)


def gemini_url(url: str) -> tuple[str, str | None]:
    """``(API version, model)`` from a Gemini or Vertex AI URL (``.../v1beta/models/M:...``);
    ``("v1beta", None)`` for a URL of another shape."""
    found = _GEMINI_URL.search(url or "")
    if not found:
        return "v1beta", None
    return ("v1" if found.group(1) == "v1" else "v1beta"), found.group(2)


@functools.cache  # building it costs more than most commands (argparse looks up translations)
def build_parser(prog: str = "python -m helpers") -> argparse.ArgumentParser:
    """The parser of every command; ``prog`` is how the help and errors spell the command."""
    parser = _Parser(
        prog=prog,
        description="On the Wire: render, check, count and send LLM requests, offline.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"standin.cli.{module_name}")
        doc = (module.__doc__ or "").strip().splitlines()
        help_line = doc[0] if doc else ""
        command = sub.add_parser(name, help=help_line, description=(module.__doc__ or "").strip())
        module.add_arguments(command)
        command.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None, *, prog: str = "python -m helpers") -> int:
    """Run one command; returns the exit code of the contract above (never raises). ``prog`` is
    how it was invoked (``python -m standin`` passes its own), for the usage and error lines."""
    from helpers.messages import FormatError

    for stream in (sys.stdout, sys.stderr):  # a lone surrogate prints escaped, never crashes
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    try:
        args = build_parser(prog).parse_args(argv)
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
