"""Used in lessons: 04, 05, 06, 09, 10, 11, 12.

What a request costs, and how a ticket's cost grows as the message list is rebuilt each turn.

``prices``: each provider's usage as the neutral ``Usage`` (``usage_from``) and its price in
dollars (``price``, genai-prices, offline); ``tickets``: a ticket turn by turn, from reported
usage or projected from the requests; ``levers``: the same ticket with other tools or
compacted; the cache arithmetic is ``helpers.caching``. This door re-exports them all.

What it deliberately does not do: type a price (they all come from genai-prices) or fetch one.
"""

from __future__ import annotations

from helpers.caching import cache_break, cache_terms, common_prefix, openai_cached_tokens
from helpers.cost.levers import (
    ToolCountEffect,
    ToolOverhead,
    compact,
    compact_ticket,
    tool_count_effect,
    tool_overhead,
    with_tools,
)
from helpers.cost.prices import PROVIDERS, Cost, price, rates, usage_from
from helpers.cost.tickets import Ticket, TicketTurn, project_ticket, ticket_from_usages
from helpers.messages import Usage

__all__ = [
    "Cost",
    "PROVIDERS",
    "Ticket",
    "ToolCountEffect",
    "ToolOverhead",
    "TicketTurn",
    "Usage",
    "cache_break",
    "cache_terms",
    "common_prefix",
    "compact",
    "compact_ticket",
    "openai_cached_tokens",
    "price",
    "project_ticket",
    "rates",
    "ticket_from_usages",
    "tool_count_effect",
    "tool_overhead",
    "usage_from",
    "with_tools",
]
