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


def _tokens(value: Any, where: str) -> int:
    """A token count: a whole number, 0 or more (not a string, null, NaN or a fraction)."""
    from standin.cli import UsageError

    if isinstance(value, bool) or not isinstance(value, int):
        kind = "null" if value is None else type(value).__name__
        raise UsageError(f"{where}: expected a token count (a whole number), got {kind}")
    if value < 0:
        raise UsageError(f"{where}: a token count cannot be negative ({value})")
    return value


def _checked(usage, where: str):
    """A usage the price table can work on: counts >= 0, cached and written within the input."""
    from standin.cli import UsageError

    for name in ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"):
        _tokens(getattr(usage, name), f"{where}.usage ({name})")
    if usage.cache_read_tokens + usage.cache_write_tokens > usage.input_tokens:
        raise UsageError(
            f"{where}.usage: cached ({usage.cache_read_tokens}) plus written "
            f"({usage.cache_write_tokens}) tokens exceed the input ({usage.input_tokens}); "
            "neutral input_tokens includes the cached ones"
        )
    return usage


def _usage(turn: dict[str, Any], provider: str | None, where: str):
    from helpers.formats import parse_response, parse_usage
    from helpers.messages import FormatError, Usage
    from standin.cli import UsageError

    if "usage" in turn:
        raw = turn["usage"]
        if not isinstance(raw, dict):
            raise UsageError(f"{where}.usage: expected an object")
        if provider:
            try:
                return parse_usage(raw, provider)
            except FormatError as err:
                raise UsageError(f"{where}.{err}") from None
        fields = {"input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"}
        unknown = sorted(set(raw) - fields - {"reasoning_tokens"})
        if unknown:
            raise UsageError(
                f'{where}.usage: unknown field {unknown[0]!r} for neutral usage; set "provider" '
                "for a provider's raw usage"
            )
        return Usage(**{k: _tokens(v, f"{where}.usage.{k}") for k, v in raw.items()})
    if "reply" in turn:
        if not provider:
            raise UsageError(f'{where}: a reply needs the trace\'s "provider" (its format)')
        try:
            return parse_response(turn["reply"], provider).usage
        except FormatError as err:
            raise UsageError(f"{where}.reply: {err}") from None
    raise UsageError(f'{where}: a turn needs "usage" or "reply" (or every turn a request)')


def run(args: argparse.Namespace) -> int:
    from helpers.cost import project_ticket, ticket_from_usages
    from helpers.formats import FORMATS
    from helpers.messages import FormatError
    from helpers.models import UnknownModelError, model_info, rates
    from standin.cli import UsageError, check_request, read_json
    from standin.functions_era import parse

    data = read_json(args.trace)
    header = data if isinstance(data, dict) else {}
    turns = data.get("turns") if isinstance(data, dict) else data
    if not isinstance(turns, list) or not turns:
        raise UsageError(f'{args.trace}: expected a list of turns (or an object with "turns")')
    if not all(isinstance(t, dict) for t in turns):
        raise UsageError(f"{args.trace}: every turn is a JSON object")
    provider = header.get("provider")
    if provider is not None and (not isinstance(provider, str) or provider not in FORMATS):
        raise UsageError(f"provider {provider!r} is not one of {', '.join(FORMATS)}")
    model = args.model or header.get("model")
    if model is not None and not isinstance(model, str):
        raise UsageError(f"{args.trace}: model: expected a string, got {type(model).__name__}")
    if not model:
        raise UsageError('no model: pass --model or put "model" in the trace')
    try:
        info = model_info(model)
        rates(info)  # a model counted with its provider's rule may have no price (issue 34)
    except UnknownModelError as err:
        raise UsageError(str(err)) from None
    except LookupError:
        raise UsageError(
            f"unknown model {model!r} to genai-prices (pinned): no price to cost it with; "
            "pass --model with a priced model"
        ) from None
    if all("request" in t and "usage" not in t and "reply" not in t for t in turns):
        requests = []
        for i, turn in enumerate(turns):
            try:
                requests.append(parse(turn["request"]))
            except FormatError as err:
                raise UsageError(f"{args.trace}: turns[{i}].request: {err}") from None
            check_request(requests[-1], f"{args.trace}: turns[{i}].request")
        outputs = [
            _tokens(t.get("output_tokens", 0), f"turns[{i}].output_tokens")
            for i, t in enumerate(turns)
        ]
        ticket = project_ticket(requests, info, output_tokens=outputs)
    else:
        usages = [
            _checked(_usage(t, provider, f"turns[{i}]"), f"turns[{i}]") for i, t in enumerate(turns)
        ]
        notes = [str(t.get("note", "")) for t in turns]
        ticket = ticket_from_usages(usages, info, notes)
    print(ticket.table())
    return 0
