"""Price a ticket turn by turn: input, cached and output tokens, cost, cumulative cost, totals.

TRACE is a JSON file (or ``-``) in one of these shapes::

    {"model": "gpt-4o-mini",            # optional when --model is given
     "provider": "anthropic",           # format of raw usages / replies (omit for neutral usage)
     "turns": [TURN, ...]}              # or just the list of turns

where each TURN is one of

- ``{"usage": {...}}``: neutral usage (``input_tokens`` including cached, ``cache_read_tokens``,
  ``cache_write_tokens``, ``output_tokens``), or the provider's raw usage object when
  ``provider`` is set (``prompt_tokens``..., ``usageMetadata`` fields...);
- ``{"request": BODY, "reply": BODY}``: the reply's usage (parsed as ``provider``);
- ``{"request": BODY, "output_tokens": N}``: no usage at all; when *every* turn is like this
  the ticket is projected offline: each request counted with helpers.tokens, cached tokens
  from the model's cache rule (an estimate where the counting is).

Prices come from genai-prices at the model table's date. ``data/sundry/trace.json`` is an
example. Example: ``python -m helpers cost data/sundry/trace.json --model gpt-4o-mini``
"""

from __future__ import annotations

import argparse
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("trace", help="a TRACE JSON file (see above), or - for standard input")
    parser.add_argument("--model", metavar="M", help="price for this model (see data/models.json)")


def _usage(turn: dict[str, Any], provider: str | None, where: str):
    from helpers.cost import usage_from
    from helpers.formats import parse_response
    from helpers.machinery.cli import UsageError
    from helpers.replies import Usage

    if "usage" in turn:
        raw = turn["usage"]
        if not isinstance(raw, dict):
            raise UsageError(f"{where}.usage: expected an object")
        if provider:
            return usage_from(raw, provider)
        fields = {"input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"}
        unknown = sorted(set(raw) - fields - {"reasoning_tokens"})
        if unknown:
            raise UsageError(
                f'{where}.usage: unknown field {unknown[0]!r} for neutral usage; set "provider" '
                "for a provider's raw usage"
            )
        return Usage(**{k: int(v) for k, v in raw.items()})
    if "reply" in turn:
        if not provider:
            raise UsageError(f'{where}: a reply needs the trace\'s "provider" (its format)')
        return parse_response(turn["reply"], provider).usage
    raise UsageError(f'{where}: a turn needs "usage" or "reply" (or every turn a request)')


def run(args: argparse.Namespace) -> int:
    from helpers.cost import PROVIDERS, project_ticket, ticket_from_usages
    from helpers.formats import parse
    from helpers.machinery.cli import UsageError, read_json
    from helpers.models import UnknownModelError, model_info

    data = read_json(args.trace)
    header = data if isinstance(data, dict) else {}
    turns = data.get("turns") if isinstance(data, dict) else data
    if not isinstance(turns, list) or not turns:
        raise UsageError(f'{args.trace}: expected a list of turns (or an object with "turns")')
    if not all(isinstance(t, dict) for t in turns):
        raise UsageError(f"{args.trace}: every turn is a JSON object")
    provider = header.get("provider")
    if provider is not None and provider not in PROVIDERS:
        raise UsageError(f"provider {provider!r} is not one of {', '.join(PROVIDERS)}")
    model = args.model or header.get("model")
    if not model:
        raise UsageError('no model: pass --model or put "model" in the trace')
    try:
        info = model_info(model)
    except UnknownModelError as err:
        raise UsageError(str(err)) from None
    if all("request" in t and "usage" not in t and "reply" not in t for t in turns):
        requests = [parse(t["request"]) for t in turns]
        outputs = [int(t.get("output_tokens", 0)) for t in turns]
        ticket = project_ticket(requests, info, output_tokens=outputs)
    else:
        usages = [_usage(t, provider, f"turns[{i}]") for i, t in enumerate(turns)]
        notes = [str(t.get("note", "")) for t in turns]
        ticket = ticket_from_usages(usages, info, notes)
    print(ticket.table())
    return 0
