"""Used in lessons: 04, 05, 06, 09, 10, 11, 12.

What a request costs, and how a ticket's cost grows as the message list is rebuilt each turn.

Usage semantics differ by provider; ``usage_from(raw, format)`` turns each provider's usage
object into the neutral ``Usage`` (``helpers.replies``), where ``input_tokens`` counts *all*
input, cached or not:

============  =======================================  =================================
provider      input field                              cached tokens
============  =======================================  =================================
OpenAI chat   ``prompt_tokens`` (includes cached)      ``prompt_tokens_details.cached_tokens``
Responses     ``input_tokens`` (includes cached)       ``input_tokens_details.cached_tokens``
Anthropic     ``input_tokens`` (**excludes** cache     ``cache_read_input_tokens``; writes in
              reads and writes: we add them)           ``cache_creation_input_tokens``
Gemini        ``promptTokenCount`` (includes cached)   ``cachedContentTokenCount``; thoughts
                                                       (``thoughtsTokenCount``) are output
============  =======================================  =================================

``price(usage, model)`` prices it with genai-prices (pinned, offline, at the model table's
``as_of`` date: never ``UpdatePrices``). ``Ticket`` holds one row per turn (input, cached,
written, output, cost, cumulative) for tables and plots; ``ticket_from_usages`` builds it from
real usages and ``project_ticket`` from the requests themselves (counted with
``helpers.tokens``, cached per ``helpers.caching``). ``tool_overhead`` is the arithmetic of the
lesson on tool definitions; ``compact`` replaces early history with a summary.

Modules: ``usage`` (the table above), ``prices`` (``Cost``, ``price``, ``rates``),
``tickets`` (turn-by-turn rows and projection, every output billed), ``tools`` (tool
overhead), ``compaction``.

What it deliberately does not do: type a price (they all come from genai-prices) or fetch one.
"""

from __future__ import annotations

from helpers.caching import cache_break, cache_terms, common_prefix, openai_cached_tokens
from helpers.cost.compaction import compact, compact_ticket
from helpers.cost.prices import Cost, price, rates
from helpers.cost.tickets import Ticket, Turn, project_ticket, ticket_from_usages
from helpers.cost.tools import (
    ToolCountEffect,
    ToolOverhead,
    tool_count_effect,
    tool_overhead,
    with_tools,
)
from helpers.cost.usage import PROVIDERS, usage_from
from helpers.replies import Usage

__all__ = [
    "Cost",
    "PROVIDERS",
    "Ticket",
    "ToolCountEffect",
    "ToolOverhead",
    "Turn",
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
