"""Used in lessons: 04, 05, 06, 09, 10.

A ticket turn by turn: the whole message list is resent every turn, so input grows.

``Ticket`` holds one ``Turn`` row per request (input, cached, written, output, cost,
cumulative) for tables and plots. ``ticket_from_usages`` builds it from reported usage;
``project_ticket`` from the requests themselves (counted with ``helpers.tokens``, cached per
``helpers.caching``). ``tool_overhead`` splits a request into tools, system prompt and the rest;
``with_tools`` swaps the tool list; ``compact`` / ``compact_ticket`` replace early history with
a summary, as compaction does.

What it deliberately does not do: simulate time (cache TTLs) or the model's replies (outputs
are read from the next request, or given).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from helpers.cost.prices import price
from helpers.messages import Message, Request, Text, Tool
from helpers.models import ModelInfo, model_info
from helpers.replies import Usage

__all__ = [
    "Ticket",
    "ToolCountEffect",
    "ToolOverhead",
    "Turn",
    "compact",
    "compact_ticket",
    "project_ticket",
    "ticket_from_usages",
    "tool_count_effect",
    "tool_overhead",
    "with_tools",
]


@dataclass
class Turn:
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
    turns: list[Turn]
    estimate: bool = False
    source: str = "usage reported per turn"
    notes: list[str] = field(default_factory=list)

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

    def rows(self) -> list[dict[str, Any]]:
        """Plain dicts, one per turn (for pandas, matplotlib or a JSON dump)."""
        return [t.__dict__.copy() for t in self.turns]

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
        lines.append(f"model {self.model}: {self.source}{kind}; prices: genai-prices, as_of date")
        return "\n".join(lines + [f"note: {n}" for n in self.notes])

    def _repr_html_(self) -> str:
        cells = "".join(
            f"<tr><td>{t.turn}</td><td>{t.input_tokens}</td><td>{t.cached_tokens}</td>"
            f"<td>{t.cache_write_tokens}</td><td>{t.output_tokens}</td><td>{t.cost_usd:.6f}</td>"
            f"<td>{t.cumulative_usd:.6f}</td><td>{html.escape(t.note)}</td></tr>"
            for t in self.turns
        )
        return (
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
            Turn(
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
    output_tokens: list[int] | int | None = None,
    caching: bool = True,
    breakpoints: list[str] | None = None,
) -> Ticket:
    """Cost of sending each request in turn, counted and cached from the tokens themselves.

    ``output_tokens`` per turn: by default each turn's output is what the next request adds as
    the assistant's message (counted), and the last turn's is 0 unless given. ``caching``
    follows the model's cache rule from the table: OpenAI's automatic prefix cache, Anthropic
    ``breakpoints`` (default ``["tools", "system", "last"]``; the automatic cache is not modelled),
    Gemini's implicit cache as a prefix cache with its minimum (no guarantee: an estimate).
    """
    from helpers.caching import (
        anthropic_turn,
        breakpoint_positions,
        common_prefix,
        openai_cached_tokens,
    )
    from helpers.tokens import count, count_message, token_keys

    info = model if isinstance(model, ModelInfo) else model_info(model or requests[0].model)
    outputs = _outputs(requests, info, output_tokens, count_message)
    usages, previous, written = [], [], []
    rule = info.cache if caching else {"kind": "none"}
    estimate = False
    for request, out in zip(requests, outputs, strict=True):
        counted = count(request, info)
        estimate |= counted.estimate
        keys, _ = token_keys(counted)
        read = write = 0
        if rule.get("kind") in ("openai-prefix", "gemini-implicit"):
            shared = max((common_prefix(keys, p) for p in previous[-1:]), default=0)
            step = rule.get("step_tokens", 1)
            read = openai_cached_tokens(shared, rule["min_tokens"], step)
        elif rule.get("kind") == "anthropic-breakpoints":
            marks = breakpoints if breakpoints is not None else ["tools", "system", "last"]
            has_system = any(m.role == "system" for m in request.messages)
            marks = [m for m in marks if (m != "tools" or request.tools)]
            marks = [m for m in marks if m != "system" or has_system]
            turn = anthropic_turn(
                keys, breakpoint_positions(counted, marks), written, rule["min_tokens"]
            )
            read, write = turn.read, turn.write
        previous.append(keys)
        usages.append(Usage(len(keys), out, read, write))
    ticket = ticket_from_usages(usages, info)
    ticket.estimate = estimate or rule.get("kind") == "gemini-implicit"
    ticket.source = "projected: counted with helpers.tokens" + (
        f", cache rule {rule.get('kind')}" if caching else ", no caching"
    )
    return ticket


def _outputs(requests, info, output_tokens, count_message) -> list[int]:
    if isinstance(output_tokens, int):
        return [output_tokens] * len(requests)
    if output_tokens is not None:
        return list(output_tokens)
    outputs = []
    for now, after in zip(requests, requests[1:], strict=False):
        reply = _reply_to(now, after)
        outputs.append(count_message(reply, info) if reply is not None else 0)
    return outputs + [0]


def _reply_to(now: Request, after: Request) -> Message | None:
    """The assistant message the next request adds after ``now``'s last message.

    Usually ``after`` starts with all of ``now``; after compaction it starts with a summary
    instead, so look for ``now``'s last message in ``after`` and take the reply that follows,
    or, when compaction dropped that message too, the first assistant message ``now`` lacks.
    """
    last = now.messages[-1] if now.messages else None
    positions = [i for i, m in enumerate(after.messages) if m == last]
    if positions:
        later = after.messages[positions[-1] + 1 :]
    else:  # compaction dropped it too: the reply is the first assistant message that is new
        later = [m for m in after.messages if m not in now.messages]
    return next((m for m in later if m.role == "assistant"), None)


@dataclass
class ToolOverhead:
    """The fixed part of every request: tool definitions and system prompt, in tokens."""

    model: str
    tools: int
    system: int
    opening_request: int  # the whole first request (tools, system, first user message)

    @property
    def tools_and_system(self) -> int:
        return self.tools + self.system


def tool_overhead(request: Request, model: str | ModelInfo | None = None) -> ToolOverhead:
    """Split a request's tokens into tool definitions, system prompt and the rest."""
    from helpers.tokens import count

    counted = count(request, model)
    systems = [r.part for r in counted.rows if r.level == 0 and r.label.startswith("system")]
    return ToolOverhead(
        counted.model,
        counted.part("tools"),
        sum(counted.part(p) for p in systems),
        counted.total,
    )


def compact(request: Request, keep_last: int, summary: str) -> Request:
    """The request with everything before its last ``keep_last`` messages (after the system
    messages) replaced by one user message holding ``summary``: what compaction sends."""
    head = [m for m in request.messages if m.role == "system"]
    rest = [m for m in request.messages if m.role != "system"]
    kept = rest[-keep_last:] if keep_last else []
    while kept and kept[0].role == "tool":  # never keep a result without its call
        kept = kept[1:]
    note = Message("user", [Text(f"Summary of the conversation so far:\n{summary}")])
    return Request(request.model, [*head, note, *kept], list(request.tools), request.tool_choice)


def compact_ticket(
    requests: list[Request], at: int, summary: str, keep_last: int = 2
) -> list[Request]:
    """The ticket's requests if history is compacted before request ``at`` (0-based).

    Request ``at`` becomes ``compact(requests[at], keep_last, summary)``; every later request
    is that plus what the conversation added after it. Earlier requests are unchanged.
    """
    if not 0 <= at < len(requests):
        raise ValueError(f"compaction turn {at} is outside the ticket (0..{len(requests) - 1})")
    base = compact(requests[at], keep_last, summary)
    seen = len(requests[at].messages)
    later = [
        Request(r.model, [*base.messages, *r.messages[seen:]], list(r.tools), r.tool_choice)
        for r in requests[at + 1 :]
    ]
    return [*requests[:at], base, *later]


def with_tools(requests: list[Request], tools: list[Tool]) -> list[Request]:
    """The same requests with another tool list (for "what do five more tools cost?")."""
    return [Request(r.model, list(r.messages), list(tools), r.tool_choice) for r in requests]


@dataclass
class ToolCountEffect:
    """The same ticket with two tool lists: what the extra definitions cost."""

    before: ToolOverhead
    after: ToolOverhead
    ticket_before: Ticket
    ticket_after: Ticket

    @property
    def ticket_ratio(self) -> Decimal:
        return self.ticket_after.total_usd / self.ticket_before.total_usd

    def __str__(self) -> str:
        b, a = self.before, self.after
        tb, ta = self.ticket_before, self.ticket_after
        return (
            f"tools: {b.tools} -> {a.tools} tokens (+{a.tools - b.tools} per request); "
            f"tools + system: {b.tools_and_system} -> {a.tools_and_system}; "
            f"ticket of {len(tb.turns)} requests: ${tb.total_usd:.6f} -> ${ta.total_usd:.6f} "
            f"(x{self.ticket_ratio:.3f}) on {tb.model}"
        )


def tool_count_effect(
    requests: list[Request],
    tools: list[Tool],
    model: str | ModelInfo | None = None,
    *,
    caching: bool = True,
) -> ToolCountEffect:
    """Cost the ticket as sent, and again with ``tools`` in every request instead."""
    info = model if isinstance(model, ModelInfo) else model_info(model or requests[0].model)
    other = with_tools(requests, tools)
    return ToolCountEffect(
        tool_overhead(requests[0], info),
        tool_overhead(other[0], info),
        project_ticket(requests, info, caching=caching),
        project_ticket(other, info, caching=caching),
    )
