"""Check a request against the rules of the list, for one provider's profile or the shared core.

Reads FILE (or ``-`` for standard input): a neutral request, or any provider's request body
(read with ``helpers.formats.parse``). Prints one line per violation, and with ``--profile``
what that provider answers for it; exits 1 if anything is broken, 0 if nothing is. Same
function as the lessons: ``helpers.rules.check``.

Example: ``python -m helpers check data/sundry/request.json --profile anthropic``
"""

from __future__ import annotations

import argparse
import sys

from helpers.rules import PROFILES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a JSON request (neutral or a provider's), or - for stdin")
    parser.add_argument(
        "--profile",
        default="neutral",
        choices=PROFILES,
        metavar="PROFILE",
        help=f"whose rules to check: {', '.join(PROFILES)} (default: neutral, the shared core)",
    )


def run(args: argparse.Namespace) -> int:
    from helpers.machinery.cli import UsageError, check_request, read_json
    from helpers.rules import check

    body = read_json(args.file)
    if not isinstance(body, dict):
        name = "standard input" if args.file == "-" else args.file
        raise UsageError(f"{name}: a request is a JSON object, not a {type(body).__name__}")
    request = _read_request(body)
    check_request(request, args.file)
    violations = check(request, args.profile)
    for v in violations:
        print(v)
        if v.provider_error:
            print(f"  {args.profile} answers: {v.provider_error}")
    count = f"{len(violations)} violation{'s' if len(violations) != 1 else ''}"
    print(f"{count if violations else 'no violations'} (profile {args.profile})")
    return 1 if violations else 0


def _read_request(body: dict):
    """A neutral request as is; a provider body through ``helpers.formats`` (notes on stderr)."""
    from helpers.messages import load

    try:
        from helpers.formats import detect, parse
    except ImportError:  # the formats layer is optional here: neutral files still work
        return load(body)
    fmt = detect(body)
    notes: list = []
    request = parse(body, fmt, notes=notes)
    if fmt != "neutral":
        print(
            f"note: read in the {fmt} format; messages[N] below count its neutral messages "
            "(python -m helpers render FILE --format neutral shows them)",
            file=sys.stderr,
        )
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return request
