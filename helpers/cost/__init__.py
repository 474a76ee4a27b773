"""Used in lessons: 04, 05, 06, 09, 10, 11, 12.

What a request costs, how a ticket's cost grows as the message list is rebuilt, and two levers:
the tool definitions every request carries (``tool_count_effect``) and compaction
(``compact_ticket``: early history replaced by a summary the caller gives).

What it deliberately does not do: type a price (they all come from genai-prices) or fetch one,
or guess how a model would behave with other tools.
"""

from __future__ import annotations

from dataclasses import replace

from helpers.cost.caching import cache_break, cache_terms, common_prefix, openai_cached_tokens
from helpers.cost.tickets import (
    Cost,
    Ticket,
    ToolCountEffect,
    ToolOverhead,
    price,
    project_ticket,
    ticket_from_usages,
    tool_count_effect,
    tool_overhead,
    with_tools,
)
from helpers.messages import Message, Request, Text
from helpers.moved import moved

__all__ = [
    "Cost", "Ticket", "ToolCountEffect", "ToolOverhead", "cache_break", "cache_terms",
    "common_prefix", "compact", "compact_ticket", "openai_cached_tokens", "price",
    "project_ticket", "ticket_from_usages", "tool_count_effect", "tool_overhead", "with_tools",
]  # fmt: skip


def compact(request: Request, keep_last: int, summary: str) -> Request:
    """The request with everything before its last ``keep_last`` messages (after the system
    messages) replaced by one user message holding ``summary``: what compaction sends.
    A request with no more than ``keep_last`` of them has nothing to replace: it is returned
    as it is."""
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

    Request ``at`` becomes ``compact(requests[at], keep_last, summary)``; every later request
    is that plus what the conversation added after it. Earlier requests are unchanged.
    """
    if not 0 <= at < len(requests):
        raise ValueError(f"compaction turn {at} is outside the ticket (0..{len(requests) - 1})")
    base = compact(requests[at], keep_last, summary)
    seen = len(requests[at].messages)
    later = [replace(r, messages=[*base.messages, *r.messages[seen:]]) for r in requests[at + 1 :]]
    return [*requests[:at], base, *later]


# --- deprecated paths, kept for one release (helpers/moved.py) ---------------------------------
__getattr__ = moved(__name__, {"Usage": "helpers.messages", "rates": "helpers.models"})
