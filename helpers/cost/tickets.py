"""Used in lessons: 05, 06, 10, 11.

A ticket turn by turn: the whole message list is resent every turn, so input grows.

``Ticket`` holds one ``TicketTurn`` row per request (input, cached, written, output, cost,
cumulative) for tables and plots. ``ticket_from_usages`` builds it from reported usage;
``project_ticket`` from the requests themselves: input counted with ``helpers.tokens``, cached
per ``helpers.cost.caching``, and every reply's output billed with ``tokens.count_output`` (the rule
the local provider bills by), so a ticket has one price whether read or projected.

What it deliberately does not do: model eviction (see ``helpers.cost.caching``) or the model's
replies (they are read from the requests, or given).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from decimal import Decimal

from helpers.cost.prices import price
from helpers.html import no_math
from helpers.messages import Message, Request, Usage
from helpers.models import ModelInfo, as_of, model_info
from helpers.tokens import Count


@dataclass
class TicketTurn:
    """One row of a ticket: one request and its reply."""

    turn: int
    input_tokens: int
    cached_tokens: int
    cache_write_tokens: int
    output_tokens: int
    cost_usd: Decimal
    cumulative_input_tokens: int
    cumulative_usd: Decimal
    note: str = ""


@dataclass
class Ticket:
    """A whole ticket, turn by turn: the rows a lesson prints, plots or sums."""

    model: str
    turns: list[TicketTurn]
    source: str = "usage reported per turn"
    notes: list[str] = field(default_factory=list)
    #: for Claude and Gemini projections: how far recorded bills were from such input counts
    spread: str = ""
    counts: list[Count] = field(default_factory=list, repr=False)  # projected: each request's
    cache_guess: bool = False  # projected with a cache no provider guarantees (Gemini's implicit)

    @property
    def estimate(self) -> bool:
        """True when a projection's input counts or its cache hits are a guess."""
        return self.cache_guess or any(counted.estimate for counted in self.counts)

    @property
    def count_error(self) -> int | None:
        """How many tokens a projection's input count can be off in all (None: unknown)."""
        errors = [counted.error for counted in self.counts]
        return None if None in errors else sum(errors)  # type: ignore[arg-type]

    @property
    def total_usd(self) -> Decimal:
        return sum((t.cost_usd for t in self.turns), Decimal(0))

    @property
    def input_tokens(self) -> int:
        return sum(t.input_tokens for t in self.turns)

    @property
    def cached_tokens(self) -> int:
        return sum(t.cached_tokens for t in self.turns)

    @property
    def output_tokens(self) -> int:
        return sum(t.output_tokens for t in self.turns)

    def table(self) -> str:
        lines = [
            f"{'turn':>4} {'input':>8} {'cached':>8} {'written':>8} {'output':>7} "
            f"{'cost $':>11} {'total $':>11}"
        ]
        for t in self.turns:
            lines.append(
                f"{t.turn:>4} {t.input_tokens:>8} {t.cached_tokens:>8} {t.cache_write_tokens:>8} "
                f"{t.output_tokens:>7} {t.cost_usd:>11.6f} {t.cumulative_usd:>11.6f}"
                + (f"  {t.note}" if t.note else "")
            )
        lines.append(
            f"{'all':>4} {self.input_tokens:>8} {self.cached_tokens:>8} "
            f"{sum(t.cache_write_tokens for t in self.turns):>8} {self.output_tokens:>7} "
            f"{self.total_usd:>11.6f}"
        )
        kind = ", an estimate" if self.estimate else ""
        lines.append(f"model {self.model}: {self.source}{kind}; prices: genai-prices at {as_of()}")
        return "\n".join(lines + [f"note: {n}" for n in self.notes])

    def _repr_html_(self) -> str:
        cells = "".join(
            f"<tr><td>{t.turn}</td><td>{t.input_tokens}</td><td>{t.cached_tokens}</td>"
            f"<td>{t.cache_write_tokens}</td><td>{t.output_tokens}</td><td>{t.cost_usd:.6f}</td>"
            f"<td>{t.cumulative_usd:.6f}</td><td>{html.escape(t.note)}</td></tr>"
            for t in self.turns
        )
        return no_math(
            f"<table><tr><th>turn</th><th>input</th><th>cached</th><th>written</th>"
            f"<th>output</th><th>cost $</th><th>cumulative $</th><th></th></tr>{cells}"
            f"<tr><th>all</th><th>{self.input_tokens}</th><th>{self.cached_tokens}</th><th></th>"
            f"<th>{self.output_tokens}</th><th>{self.total_usd:.6f}</th><th></th><th></th></tr>"
            f"</table><small>{html.escape(self.model)}</small>"
        )


def ticket_from_usages(
    usages: list[Usage], model: str | ModelInfo, notes: list[str] | None = None
) -> Ticket:
    """A ticket from the usage each turn reported (or that ``project_ticket`` computed)."""
    info = model if isinstance(model, ModelInfo) else model_info(model)
    turns, running, seen = [], Decimal(0), 0
    for k, usage in enumerate(usages, start=1):
        cost = price(usage, info).total_usd
        running += cost
        seen += usage.input_tokens
        turns.append(
            TicketTurn(
                k,
                usage.input_tokens,
                usage.cache_read_tokens,
                usage.cache_write_tokens,
                usage.output_tokens,
                cost,
                seen,
                running,
                notes[k - 1] if notes and k <= len(notes) else "",
            )
        )
    return Ticket(info.id, turns)


def project_ticket(
    requests: list[Request],
    model: str | ModelInfo | None = None,
    *,
    final_reply: Message | None = None,
    output_tokens: list[int] | int | None = None,
    caching: bool = True,
    breakpoints: list[str] | None = None,
    between_tickets: float | None = None,
) -> Ticket:
    """Cost of sending each request in turn, counted and cached from the tokens themselves.

    Output per turn: by default the reply each request got, i.e. the assistant message the
    next request adds, and ``final_reply`` for the last request (without it the last output
    is unknown: 0, and a note says so); or ``output_tokens`` (one number, or one per turn).
    ``caching`` follows the model's cache rule from the table (``caching.cache_reads``):
    OpenAI's automatic prefix cache, Anthropic ``breakpoints`` (default ``["tools", "system",
    "last"]``), Gemini's implicit cache as a prefix cache (no guarantee: an estimate).
    ``between_tickets``: seconds since the previous ticket of the same agent; within the cache
    lifetime, its tools and system prompt are still cached.
    """
    from helpers.cost.caching import cache_reads, cache_terms
    from helpers.tokens import count

    info = model if isinstance(model, ModelInfo) else model_info(model or requests[0].model)
    notes: list[str] = []
    outputs = _outputs(requests, info, output_tokens, final_reply, notes)
    rule = info.cache if caching else {"kind": "none"}
    counts = [count(request, info) for request in requests]
    cached = cache_reads(requests, counts, rule, breakpoints, between_tickets, notes)
    usages = [
        Usage(counted.total, out, read, write)
        for counted, out, (read, write) in zip(counts, outputs, cached, strict=True)
    ]
    kind = f", cache rule {rule.get('kind')}" if caching else ", no caching"
    notes += cache_terms(info) if caching else []
    spread = ""
    if info.counting in ("anthropic-estimate", "gemini-estimate"):
        from helpers.tokens.estimate import sentence

        spread = sentence(info.counting, info.id)
        notes.append(f"input tokens are a proxy estimate: {spread}")
    turns = ticket_from_usages(usages, info).turns
    source = "projected: counted with helpers.tokens" + kind
    guess = rule.get("kind") == "gemini-implicit"
    return Ticket(info.id, turns, source, notes, spread, counts, guess)


def _outputs(requests, info, output_tokens, final_reply, notes) -> list[int]:
    from helpers.tokens import count_output

    if isinstance(output_tokens, int):
        return [output_tokens] * len(requests)
    if output_tokens is not None:
        return list(output_tokens)
    outputs = []
    for now, after in zip(requests, requests[1:], strict=False):
        reply = _reply_to(now, after)
        outputs.append(count_output(reply, info) if reply is not None else 0)
    if final_reply is None:
        notes.append("final reply not given: its output is not priced (pass final_reply=)")
    return outputs + [count_output(final_reply, info) if final_reply is not None else 0]


def _reply_to(now: Request, after: Request) -> Message | None:
    """The assistant message the next request adds after ``now``'s last message (after
    compaction, ``after`` starts with a summary instead of all of ``now``)."""
    last = now.messages[-1] if now.messages else None
    positions = [i for i, m in enumerate(after.messages) if m == last]
    if positions:
        later = after.messages[positions[-1] + 1 :]
    else:  # compaction dropped it too: the reply is the first assistant message that is new
        later = [m for m in after.messages if m not in now.messages]
    return next((m for m in later if m.role == "assistant"), None)
