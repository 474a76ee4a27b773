"""Used in lessons: 04, 05, 06, 09, 10, 11, 12.

What a request costs, how a ticket's cost grows as the message list is rebuilt, and two levers:
the tool definitions every request carries (``tool_count_effect``) and compaction
(``compact_ticket``: early history replaced by a summary the caller gives).

What it deliberately does not do: type a price (they all come from genai-prices) or fetch one,
or guess how a model would behave with other tools.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from functools import cached_property

from helpers.cost.caching import cache_break, cache_terms, common_prefix, openai_cached_tokens
from helpers.cost.tickets import Cost, Ticket, price, project_ticket, ticket_from_usages
from helpers.messages import Message, Request, Text, Tool
from helpers.models import ModelInfo, info_for
from helpers.moved import moved
from helpers.tokens import Count

__all__ = [
    "Cost", "Ticket", "ToolCountEffect", "ToolOverhead", "cache_break", "cache_terms",
    "common_prefix", "compact", "compact_ticket", "openai_cached_tokens", "price",
    "project_ticket", "ticket_from_usages", "tool_count_effect", "tool_overhead", "with_tools",
]  # fmt: skip


def compact(request: Request, keep_last: int, summary: str) -> Request:
    """The request with everything before its last ``keep_last`` messages (after the system
    messages) replaced by one user message holding ``summary``: what compaction sends. A
    request with no more than ``keep_last`` of them is returned as it is."""
    head = [m for m in request.messages if m.role == "system"]
    rest = [m for m in request.messages if m.role != "system"]
    if len(rest) <= keep_last:
        return request
    kept = rest[-keep_last:] if keep_last else []
    while kept and kept[0].role == "tool":  # never keep a result without its call
        kept = kept[1:]
    note = Message("user", [Text(f"Summary of the conversation so far:\n{summary}")])
    return replace(request, messages=[*head, note, *kept], tools=list(request.tools))


def compact_ticket(
    requests: list[Request], at: int, summary: str, keep_last: int = 2
) -> list[Request]:
    """The ticket's requests if history is compacted before request ``at`` (0-based).
    Request ``at`` becomes ``compact(requests[at], keep_last, summary)``; every later request is
    that plus what the conversation added after it. Earlier requests are unchanged."""
    if not 0 <= at < len(requests):
        raise ValueError(f"compaction turn {at} is outside the ticket (0..{len(requests) - 1})")
    base = compact(requests[at], keep_last, summary)
    seen = len(requests[at].messages)
    later = [replace(r, messages=[*base.messages, *r.messages[seen:]]) for r in requests[at + 1 :]]
    return [*requests[:at], base, *later]


# --- the tools lever: the definitions every request carries -------------------------------


@dataclass
class ToolOverhead:
    """The fixed part of every request: tool definitions and system prompt, in tokens."""

    model: str
    tools: int
    system: int

    @property
    def tools_and_system(self) -> int:
        return self.tools + self.system


def tool_overhead(counted: Count) -> ToolOverhead:
    """A counted request's tokens of tool definitions and of system prompt."""
    system = sum(counted.part(p) for p in counted.systems())
    return ToolOverhead(counted.model, counted.part("tools"), system)


def with_tools(requests: list[Request], tools: list[Tool]) -> list[Request]:
    """The same requests with another tool list (for "what do five more tools cost?")."""
    return [replace(r, messages=list(r.messages), tools=list(tools)) for r in requests]


@dataclass
class ToolCountEffect:
    """The same ticket with two tool lists: what the extra definitions cost."""

    ticket_before: Ticket
    ticket_after: Ticket

    @cached_property
    def before(self) -> ToolOverhead:
        return tool_overhead(self.ticket_before.counts[0])

    @cached_property
    def after(self) -> ToolOverhead:
        return tool_overhead(self.ticket_after.counts[0])

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
    info = info_for(model, requests[0])
    before = project_ticket(requests, info, caching=caching)
    after = project_ticket(with_tools(requests, tools), info, caching=caching)
    return ToolCountEffect(before, after)


# --- deprecated paths, kept for one release (helpers/moved.py) ---------------------------------
__getattr__ = moved(__name__, {"Usage": "helpers.messages", "rates": "helpers.models"})
