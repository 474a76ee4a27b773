"""Check a request against the rules of the list, for one provider's profile or the portable one.

Reads FILE (or ``-`` for standard input): a neutral request, or any provider's request body.
Every place it names is a path into that file (``messages[3].tool_calls[0]``,
``contents[2].parts[1]``, ``input[4]``). Prints one line per violation and, with a provider's
``--profile``, what that provider answers; warnings (accepted, but worth a look) are printed
too. Exits 1 if the provider would refuse the request, 0 if it would accept it, 2 if the file
is not JSON or not a request of any known shape. Same decision as the lessons and the local
provider: ``standin.verdict.verdict``.

Example: ``python -m helpers check data/sundry/request.json --profile anthropic``
"""

from __future__ import annotations

import argparse
import sys

from standin.rules.strict import PROFILES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a JSON request (neutral or a provider's), or - for stdin")
    parser.add_argument(
        "--profile",
        default="portable",
        choices=PROFILES,
        metavar="PROFILE",
        help=f"whose rules to check: {', '.join(PROFILES)} (default: portable, the rules that "
        "hold everywhere)",
    )
    parser.add_argument(
        "--chain",
        metavar="FILE",
        help="for an OpenAI Responses body that continues a stored response "
        "(previous_response_id): the stored input and output items, a JSON list; for an "
        "Anthropic thread continuation (thread.type 'continue'): the thread's stored messages",
    )
    parser.add_argument(
        "--beta",
        metavar="NAMES",
        help="Anthropic: the anthropic-beta header the body is sent with (comma-separated; '' "
        "for none). Without it, a field only a beta knows is a warning",
    )
    parser.add_argument(
        "--url",
        metavar="URL",
        help="where the body is sent; for Gemini its API version (/v1 lacks fields of /v1beta)",
    )


def run(args: argparse.Namespace) -> int:
    from standin.cli import UsageError, check_request, read_json
    from standin.verdict import verdict

    body = read_json(args.file)
    if not isinstance(body, dict):
        name = "standard input" if args.file == "-" else args.file
        raise UsageError(f"{name}: a request is a JSON object, not a {type(body).__name__}")
    chain = read_json(args.chain) if args.chain else None
    if chain is not None and not isinstance(chain, list):
        raise UsageError(f"{args.chain}: the chain is a JSON list of Responses items")
    from standin.cli import gemini_url

    betas = (
        None if args.beta is None else tuple(b.strip() for b in args.beta.split(",") if b.strip())
    )
    version = gemini_url(args.url)[0] if args.url else "v1beta"
    result = verdict(body, args.profile, chain=chain, betas=betas, version=version)
    if result.request is not None:
        check_request(result.request, args.file)
    if result.format != "neutral":
        print(f"note: read in the {result.format} format", file=sys.stderr)
    for note in result.notes:
        if not note.rule:
            print(f"note: {note}", file=sys.stderr)
    for v in result.violations.errors + result.violations.warnings:
        print(v)
        if v.provider_error and v.severity == "error":
            print(f"  {args.profile} answers: {v.provider_error}")
    errors, warnings = len(result.violations.errors), len(result.violations.warnings)
    count = f"{errors} violation{'s' if errors != 1 else ''}" if errors else "no violations"
    if warnings:
        count += f", {warnings} warning{'s' if warnings != 1 else ''}"
    print(f"{count} (profile {args.profile})")
    return 0 if result.accepted else 1
