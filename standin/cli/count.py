"""Count the input tokens of a request body and show where they go (tools, system, messages).

FILE is a neutral request or a request body of any provider format (openai-chat,
openai-responses, anthropic, gemini), or ``-`` for standard input. The format is detected
unless ``--format`` names it. A body is counted the way its own provider counts it: the model is
``--model``, else the body's own ``model``, else the model in ``--url`` (Gemini names it there),
else that provider's default model (``data/models.json``; the OpenAI one for a neutral request).
A model of another provider than the body's is refused. Prints the breakdown table (``--total``:
only the number). The count is ``standin.wire_count.count_body``'s: a label says whether it is exact
or an estimate and which parts of the body make it one (Claude counts always are, and Gemini
counts but text on the models Google's SDK counts with Gemma 3's tokenizer). It
never goes online; in Python, ``standin.count_live.count_live(request)`` asks the provider's own
count-tokens endpoint (it needs the key).

Example: ``python -m helpers count data/sundry/request.json --model claude-sonnet-4-5``
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from helpers.formats import FORMATS

    parser.add_argument("file", help="a JSON request body, or - to read standard input")
    parser.add_argument("--model", metavar="M", help="count for this model (see data/models.json)")
    parser.add_argument(
        "--format",
        dest="source",
        metavar="FORMAT",
        help=f"the body's format: neutral, {', '.join(FORMATS)} (default: detect it)",
    )
    parser.add_argument("--total", action="store_true", help="print only the total")
    parser.add_argument(
        "--url", metavar="URL", help="where the body is sent (a Gemini URL names the model)"
    )


def run(args: argparse.Namespace) -> int:
    from helpers.formats import FORMATS
    from helpers.formats.providers import PROVIDERS
    from helpers.models import UnknownModelError, default_model
    from standin.cli import UsageError, gemini_url, read_request
    from standin.explained import table
    from standin.wire_count import count_body

    known = ("neutral", *FORMATS)
    if args.source is not None and args.source not in known:
        raise UsageError(f"--format: unknown format {args.source!r} (known: {', '.join(known)})")
    notes: list = []
    body, format, request = read_request(args.file, args.source, notes)
    wire = "openai-chat" if format == "neutral" else format
    named = args.url and "{model}" in PROVIDERS[wire].render.PATH  # a URL naming the model
    from_url = gemini_url(args.url)[1] if named else None
    model = args.model or request.model or from_url or default_model(wire)
    try:  # counted from the body: what it carries that the parsed request drops is named too
        counted = count_body(body, format, model)
    except UnknownModelError as err:
        raise UsageError(f"{err}; pass --model") from None
    except ValueError as err:  # a model of another provider than the body's
        raise UsageError(str(err)) from None
    if "functions" in counted.uncertain:  # counted as tools after all: the parser's note is moot
        notes = [n for n in notes if not str(n).startswith(("functions:", "function_call:"))]
    if args.total:
        print(counted.total)
    else:
        print(table(counted))
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return 0
