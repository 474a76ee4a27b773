"""Used in lessons: 05.

Tool definitions as a cost: the fixed part of every request, and what more tools cost.

``tool_overhead`` splits a request into tool definitions, system prompt and the rest;
``with_tools`` swaps the tool list of a whole ticket; ``tool_count_effect`` prices the ticket
both ways (lesson 05's "what do five more tools cost?").

What it deliberately does not do: guess how a model would behave with more tools (the same
requests are priced with another tool list).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from helpers.cost.tickets import Ticket, project_ticket
from helpers.messages import Request, Tool
from helpers.models import ModelInfo, model_info

__all__ = ["ToolCountEffect", "ToolOverhead", "tool_count_effect", "tool_overhead", "with_tools"]


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
