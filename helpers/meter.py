"""Used in lessons: none directly (imported by loop).

The meter: what one run of the agent loop did, turn by turn. A ``Trace`` keeps one ``Step``
per model call (bodies, the tokens the provider reported, their price) and prints as a table,
with a note for each input count that is the stand-in's estimate. It sends nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from html import escape
from typing import Any

from helpers.html import no_math
from helpers.messages import Message, Reply, ToolCall
from helpers.standin_wire import COUNT_HEADER

__all__ = ["STOPPED", "Step", "Trace"]


@dataclass
class Step:
    """One request/response round trip of the loop."""

    number: int
    request_body: dict[str, Any]
    response_body: dict[str, Any] | str
    reply: Reply
    headers: dict[str, str] = field(default_factory=dict)  # the response's HTTP headers
    cost_usd: Decimal | None = None
    messages_sent: int = 0  # how many messages of the history this request carried

    @property
    def tool_calls(self) -> list[ToolCall]:
        return self.reply.message.tool_calls

    @property
    def tool_names(self) -> list[str]:
        """``["search_orders", "check_refund_policy"]``: the reply's calls, in order."""
        return [c.name for c in self.tool_calls]

    @property
    def count_label(self) -> str:
        """ "exact", or the stand-in's estimate and its bound (from ``COUNT_HEADER``)."""
        return self.headers.get(COUNT_HEADER, "exact").replace("+/-", "±")


@dataclass(repr=False)
class Trace:
    """What one run of the loop did, turn by turn."""

    format: str
    model: str
    steps: list[Step] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    finish: ToolCall | None = None  # the finishing tool's call, when the run ended through one

    @property
    def final_text(self) -> str:
        return self.messages[-1].text if self.messages else ""

    def request_messages(self, step: int = -1) -> list[Message]:
        """The history that request ``step`` sent (default: the last request of the run)."""
        return self.messages[: self.steps[step].messages_sent]

    def total(self, name: str) -> int:
        """Sum of one usage field over all steps: ``trace.total("input_tokens")``."""
        return sum(getattr(s.reply.usage, name) for s in self.steps)

    @property
    def cost_usd(self) -> Decimal:
        return sum((s.cost_usd or Decimal(0) for s in self.steps), Decimal(0))

    def rows(self) -> list[list[str]]:
        """The meter as rows: turn, sent, cached, output, cost, stop, tools."""
        out = []
        for s in self.steps:
            u = s.reply.usage
            cost = f"${s.cost_usd:.6f}" if s.cost_usd is not None else "n/a"
            row = [s.number, u.input_tokens, u.cache_read_tokens, u.output_tokens, cost]
            why = STOPPED[s.reply.stop_reason]
            out.append([str(v) for v in row] + [why, ", ".join(s.tool_names)])
        totals = [self.total("input_tokens"), self.total("cache_read_tokens")]
        totals += [self.total("output_tokens"), f"${self.cost_usd:.6f}"]
        out.append(["total"] + [str(v) for v in totals] + ["", ""])
        return out

    HEADERS = ["turn", "input sent", "cached", "output", "cost", "why it stopped", "tool calls"]

    def count_notes(self) -> list[str]:
        """Which "input sent" figures are the stand-in's estimates, and their bounds (a
        real API reports the tokens it bills, so a live trace has none)."""
        turns: dict[str, list[int]] = {}
        for s in self.steps:
            if s.count_label != "exact":
                turns.setdefault(s.count_label, []).append(s.number)
        return [f"input sent, {_turns(numbers)}: {label}" for label, numbers in turns.items()]

    def __str__(self) -> str:
        rows = [self.HEADERS] + self.rows()
        widths = [max(len(r[i]) for r in rows) for i in range(len(self.HEADERS))]
        lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)) for r in rows]
        lines += self.count_notes()
        return f"{self.format} / {self.model}\n" + "\n".join(line.rstrip() for line in lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{escape(h)}</th>" for h in self.HEADERS)
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(v)}</td>" for v in row) + "</tr>" for row in self.rows()
        )
        title = f"<b>{escape(self.format)}</b> / <code>{escape(self.model)}</code>"
        notes = "".join(f"<div><small>{escape(n)}</small></div>" for n in self.count_notes())
        return no_math(f"<div>{title}<table><tr>{head}</tr>{body}</table>{notes}</div>")


#: The neutral stop reason in plain words (providers spell it their own way).
STOPPED = {
    "end_turn": "answered",
    "tool_calls": "called tools",
    "max_tokens": "out of tokens",
    "refusal": "refused",
    "other": "other",
}


def _turns(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> "each of turns 1-3, 5" (a note's bound is per request)."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    spans = [f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs]
    return ("turn " if len(numbers) == 1 else "each of turns ") + ", ".join(spans)
