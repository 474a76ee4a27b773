"""Used in lessons: 05, 06, 09, 10, 11, 12.

What one request costs, and a ticket turn by turn (the whole message list is resent every
turn).

``price`` prices a neutral ``Usage`` (its ``input_tokens`` counts *all* input) with genai-prices
(pinned, offline, at the table's date), split as price lists are: uncached input, cache reads,
cache writes, output (past a 200k-token tier the split is approximate). A ticket comes from
reported usage or is projected from the requests. It types no price and models no reply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from itertools import pairwise

from helpers.cost.caching import cache_reads, cache_terms
from helpers.messages import Message, Request, Usage
from helpers.models import ModelInfo, as_of, genai_price, info_for
from helpers.moved import moved
from helpers.tokens import Count, count, count_output


@dataclass
class Cost:
    """One request's bill in US dollars. Its input is split as the price list splits it when
    first read: uncached, cache reads, cache writes, each priced alone (linear within a tier)."""

    model: str
    usage: Usage
    input_usd: Decimal
    output_usd: Decimal
    info: ModelInfo = field(repr=False)
    cache_write_1h_tokens: int = 0  # of the cache writes, the 1-hour ones (Anthropic)

    @property
    def total_usd(self) -> Decimal:
        return self.input_usd + self.output_usd

    @cached_property
    def cache_read_usd(self) -> Decimal:
        read = self.usage.cache_read_tokens
        if not read:
            return Decimal(0)
        return genai_price(self.info, input_tokens=read, cache_read_tokens=read).input_price

    @cached_property
    def cache_write_usd(self) -> Decimal:
        write, hour = self.usage.cache_write_tokens, self.cache_write_1h_tokens
        if not write:
            return Decimal(0)
        written = dict(cache_write_tokens=write, cache_write_1h_tokens=hour)
        return genai_price(self.info, input_tokens=write, **written).input_price

    @property
    def uncached_usd(self) -> Decimal:
        return self.input_usd - self.cache_read_usd - self.cache_write_usd


def price(usage: Usage, model: str | ModelInfo, *, cache_write_1h_tokens: int = 0) -> Cost:
    """Price a neutral ``Usage`` (input includes cached tokens) with genai-prices. Anthropic's
    1-hour cache writes cost more: pass how many of ``usage.cache_write_tokens`` were 1-hour, or
    keep the raw usage (its ``cache_creation.ephemeral_1h_input_tokens`` is read)."""
    info = info_for(model)
    raw_hour = (usage.raw.get("cache_creation") or {}).get("ephemeral_1h_input_tokens", 0)
    hour = cache_write_1h_tokens or raw_hour
    read, write = usage.cache_read_tokens, usage.cache_write_tokens
    cache = dict(cache_read_tokens=read, cache_write_tokens=write, cache_write_1h_tokens=hour)
    full = genai_price(
        info, **cache, input_tokens=usage.input_tokens, output_tokens=usage.output_tokens
    )
    return Cost(info.id, usage, full.input_price, full.output_price, info, hour)


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
    counts: list[Count] = field(default_factory=list, repr=False)  # projected: each request's
    cache_guess: bool = False  # projected with a cache no provider guarantees (Gemini's implicit)

    @property
    def estimate(self) -> bool:
        """True when a projection's input counts or its cache hits are a guess."""
        return self.cache_guess or any(counted.estimate for counted in self.counts)

    @property
    def spread(self) -> str:
        """For Claude and Gemini projections: how far recorded bills were from such counts."""
        return self.counts[0].spread if self.counts else ""

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
        """The ticket as text: one row per turn, a row of totals, then model, prices and notes."""
        row = "{:>4} {:>8} {:>8} {:>8} {:>7} {:>11} {:>11}"
        totals_row = "{:>4} {:>8} {:>8} {:>8} {:>7} {:>11}"  # no running total
        lines = [row.format("turn", "input", "cached", "written", "output", "cost $", "total $")]
        for t in self.turns:
            tokens = (t.input_tokens, t.cached_tokens, t.cache_write_tokens, t.output_tokens)
            line = row.format(t.turn, *tokens, f"{t.cost_usd:.6f}", f"{t.cumulative_usd:.6f}")
            lines.append(line + (f"  {t.note}" if t.note else ""))
        written = sum(t.cache_write_tokens for t in self.turns)
        totals = (self.input_tokens, self.cached_tokens, written, self.output_tokens)
        lines.append(totals_row.format("all", *totals, f"{self.total_usd:.6f}"))
        kind = ", an estimate" if self.estimate else ""
        lines.append(f"model {self.model}: {self.source}{kind}; prices: genai-prices at {as_of()}")
        return "\n".join(lines + [f"note: {n}" for n in self.notes])


def ticket_from_usages(
    usages: list[Usage], model: str | ModelInfo, notes: list[str] | None = None
) -> Ticket:
    """A ticket from the usage each turn reported (or that ``project_ticket`` computed)."""
    info, notes = info_for(model), notes or []
    turns, running, seen = [], Decimal(0), 0
    for k, u in enumerate(usages, start=1):
        cost = price(u, info).total_usd
        running, seen = running + cost, seen + u.input_tokens
        read, write = u.cache_read_tokens, u.cache_write_tokens
        note = notes[k - 1] if k <= len(notes) else ""
        turns.append(
            TicketTurn(k, u.input_tokens, read, write, u.output_tokens, cost, seen, running, note)
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
    Output per turn: the reply each request got (the next request's new assistant message; for
    the last, ``final_reply``, else 0 and a note), or ``output_tokens`` (one or one per turn).
    ``caching``: the model's cache rule (``caching.cache_reads``, which says what ``breakpoints``
    marks); ``between_tickets``: seconds since the agent's previous ticket, whose tools and
    system prompt may still be cached."""
    info = info_for(model, requests[0])
    notes: list[str] = []
    outputs = _outputs(requests, info, output_tokens, final_reply, notes)
    rule = info.cache if caching else {"kind": "none"}
    counts = [count(request, info) for request in requests]
    cached = cache_reads(requests, counts, rule, breakpoints, between_tickets, notes)
    usages = [
        Usage(counted.total, out, read, write)
        for counted, out, (read, write) in zip(counts, outputs, cached, strict=True)
    ]
    notes += cache_terms(info) if caching else []
    if info.counting in ("anthropic-estimate", "gemini-estimate"):
        notes.append(f"input tokens are a proxy estimate: {counts[0].spread}")
    kind = f", cache rule {rule.get('kind')}" if caching else ", no caching"
    source = "projected: counted with helpers.tokens" + kind
    turns, guess = ticket_from_usages(usages, info).turns, rule.get("kind") == "gemini-implicit"
    return Ticket(info.id, turns, source, notes, counts, guess)


def _outputs(requests, info, output_tokens, final_reply, notes) -> list[int]:
    if isinstance(output_tokens, int):
        return [output_tokens] * len(requests)
    if output_tokens is not None:
        return list(output_tokens)
    if final_reply is None:
        notes.append("final reply not given: its output is not priced (pass final_reply=)")
    replies = [*(_reply_to(now, after) for now, after in pairwise(requests)), final_reply]
    return [count_output(reply, info) if reply is not None else 0 for reply in replies]


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


# --- deprecated paths, kept for one release (helpers/moved.py) ---------------------------------
_LEVER = ("ToolCountEffect", "ToolOverhead", "tool_count_effect", "tool_overhead", "with_tools")
__getattr__ = moved(__name__, dict.fromkeys(_LEVER, "helpers.cost"))
