"""Used in lessons: 05, 12.

The token arithmetic lab: a ticket described by a few numbers, costed turn by turn.

A ``LabScenario`` says which model, how many requests a ticket takes, how many tool definitions
ride along, how big each tool result is, whether the prompt cache is used, whether (and when)
history is compacted, and how many tickets a day. ``build_requests`` turns it into the actual
requests a loop would send (Sundry's system prompt and tools; tool results of exactly the
requested size in tokens), and ``cost_scenario`` prices them with the same code as every other
lesson (``helpers.cost.project_ticket``): real tokenizer, genai-prices, the cache rules of
``helpers.cost.caching``. Nothing here is a formula fitted by hand.

What it does not do: model the assistant's prose (each turn is a short narration plus one call)
or how a real model would change its behaviour with more tools.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from helpers.messages import Message, Request, assistant, tool, tool_call, tool_result

__all__ = ["LabResult", "LabScenario", "build_requests", "cost_scenario", "final_reply"]

#: The agent's last message, the answer to the buyer: its output is billed like every other.
ANSWER = (
    "Hi Maya, I'm sorry your headphones arrived damaged. I've checked order SO-48213 and "
    "refunded $129.00 to your card; it arrives within 5 business days. No need to send them back."
)

_FILLER = (
    '{"order_id": "SO-48213", "item": "Aurora ANC wireless headphones", "total_usd": 129.0, '
    '"status": "delivered", "events": ["Picked up by carrier", "Out for delivery", '
    '"Delivered, left at front door"], "seller": "SoundNest", "buyer_id": "B-1093"}\n'
)


@dataclass
class LabScenario:
    model: str
    requests: int = 6  # model calls per ticket
    tools: int = 9  # tool definitions sent with every request (Sundry's catalogue, up to 14)
    result_tokens: int = 150  # size of each tool result
    caching: bool = True
    compact_at: int | None = None  # compact from requests[compact_at] on, as compact_ticket(at=)
    keep_last: int = 2  # messages kept verbatim when compacting
    tickets_per_day: int = 1000
    warm_prefix: bool = False  # tickets spread evenly over the day keep tools + system cached

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)

    @classmethod
    def from_json(cls, text: str) -> LabScenario:
        data = json.loads(text)
        if "compact_before" in data and "compact_at" not in data:  # saved before 2026-12-02
            before = data.pop("compact_before")  # counted from 1, 0 for never
            data["compact_at"] = before - 1 if before else None
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown scenario field(s): {', '.join(sorted(unknown))}")
        return cls(**data)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path


def _text_of(tokens: int, model: str) -> str:
    """A realistic tool result (order records) cut to exactly ``tokens`` tokens."""
    from helpers import gemma
    from helpers.models import model_info
    from helpers.tokens.tokenizers import encoding

    if model_info(model).encoding == "gemma3":
        return gemma.decode(list(gemma.encode(_FILLER * (tokens // 40 + 2))[:tokens]))
    enc = encoding(model_info(model).encoding or "o200k_base")
    ids = enc.encode_ordinary(_FILLER * (tokens // 40 + 2))
    return enc.decode(ids[:tokens])


def build_requests(s: LabScenario) -> list[Request]:
    """The requests one ticket sends: request k carries the first k-1 tool round trips."""
    from helpers.examples import sundry

    if not 1 <= s.requests <= 200:
        raise ValueError(f"requests per ticket must be 1 to 200, got {s.requests}")
    catalogue = sundry.TOOLS + sundry.EXTRA_TOOLS
    if not 0 <= s.tools <= len(catalogue):
        raise ValueError(f"tools must be 0 to {len(catalogue)}, got {s.tools}")
    tools = catalogue[: s.tools]
    messages = list(sundry.opening(s.model).messages)
    result = _text_of(s.result_tokens, s.model)
    requests = [Request(s.model, list(messages), list(tools))]
    for k in range(1, s.requests):
        name = tools[(k - 1) % len(tools)].name if tools else "lookup"
        call = tool_call(f"c{k}", name, {"order_id": "SO-48213"})
        messages += [assistant(f"Step {k}: checking.", call), tool(tool_result(call.id, result))]
        requests.append(Request(s.model, list(messages), list(tools)))
    return requests


def final_reply(s: LabScenario) -> Message:
    """The ticket's last reply: the answer to the buyer (its output tokens are billed)."""
    return assistant(ANSWER)


def seconds_between_tickets(s: LabScenario) -> float:
    """The gap between tickets if they are spread evenly over the day (an assumption)."""
    return 86_400 / s.tickets_per_day


@dataclass
class LabResult:
    scenario: LabScenario
    ticket: Any  # helpers.cost.Ticket
    notes: list[str] = field(default_factory=list)

    @property
    def per_ticket(self) -> Decimal:
        return self.ticket.total_usd

    @property
    def per_day(self) -> Decimal:
        return self.per_ticket * self.scenario.tickets_per_day

    @property
    def per_month(self) -> Decimal:
        return self.per_day * 30

    def summary(self) -> str:
        t = self.ticket
        kind = " (estimate)" if t.estimate else ""
        return (
            f"{self.scenario.model}: {len(t.turns)} requests, {t.input_tokens:,} input tokens "
            f"({t.cached_tokens:,} cached), {t.output_tokens:,} output; ${self.per_ticket:.6f} "
            f"per ticket, ${self.per_day:,.2f} per day at {self.scenario.tickets_per_day:,} "
            f"tickets, ${self.per_month:,.2f} per 30 days{kind}"
            + "".join(f"\n  note: {n}" for n in self.notes)
        )

    __str__ = summary

    def caveats(self) -> list[str]:
        """Under a row of lesson 12's table: the ticket's input tokens (read from and written to
        the cache), how far off such a count can be, and what the projection assumes."""
        from helpers.models import model_info

        t, info = self.ticket, model_info(self.scenario.model)
        written = sum(turn.cache_write_tokens for turn in t.turns)
        lines = [
            f"{t.input_tokens:,} input tokens a ticket, {t.cached_tokens:,} read from the cache, "
            f"{written:,} written to it"
        ]
        if t.spread:  # Claude, Gemini: how far recorded bills were from such counts
            lines.append(f"counted by proxy: {t.spread}")
        elif t.count_error is None:  # a model whose tokenizer is not public
            lines.append("counted with a proxy tokenizer: error unknown")
        elif t.count_error:  # parts whose rendering is not verified (lesson 05)
            lines.append(f"counted within ±{t.count_error} tokens")
        largest, minimum = max(turn.input_tokens for turn in t.turns), info.cache.get("min_tokens")
        if self.scenario.caching and minimum and largest < minimum:
            lines.append(f"nothing cached: every request is under the {minimum:,}-token minimum")
        if info.provider == "anthropic" and info.tool_use_overhead is None:
            lines.append("not counted: its tool-use system prompt (size not published)")
        if "min_tokens" in info.cache.get("contested", {}):  # the ticket's notes say why
            lines.append(f"cache minimum {info.cache['min_tokens']:,} tokens: contested, assumed")
        elif "min_tokens" in info.cache.get("secondhand", {}):  # no provider page says it
            minimum = info.cache["min_tokens"]
            lines.append(f"cache minimum {minimum:,} tokens: secondhand, not the provider's page")
        return lines


def cost_scenario(s: LabScenario) -> LabResult:
    """Build the ticket's requests, compact them if asked, and price every request."""
    from helpers.cost import compact_ticket, project_ticket

    requests = build_requests(s)
    notes = []
    if s.compact_at is not None:
        if not 1 <= s.compact_at < len(requests):
            raise ValueError(
                f"compact_at must be 1 to {len(requests) - 1} (an index into the "
                f"{len(requests)} requests; None for never), got {s.compact_at}"
            )
        summary = "Order SO-48213 checked; see the last steps."
        requests = compact_ticket(requests, s.compact_at, summary, s.keep_last)
        notes.append(f"history compacted from requests[{s.compact_at}] on")
    gap = seconds_between_tickets(s) if s.warm_prefix else None
    ticket = project_ticket(
        requests, s.model, final_reply=final_reply(s), caching=s.caching, between_tickets=gap
    )
    return LabResult(s, ticket, notes)
