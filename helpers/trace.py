"""Used in lessons: none directly (imported by loop).

The agent loop's trace: every request and reply, with a running token and cost meter.

One :class:`Step` per model call: the body sent, the body received, and the meter's numbers
(input tokens sent, of them cached, output tokens, dollars). :class:`Trace` adds them up and
shows a table in a notebook. Plain dataclasses, nothing clever; the loop fills them in.

Costs come from ``helpers.cost.price`` (genai-prices data); the token numbers are the ones the
provider reported in its usage, never recomputed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from html import escape
from typing import Any

from helpers.html import no_math
from helpers.messages import Message, ToolCall
from helpers.replies import Reply

#: The response header in which the local provider says how it counted a reply's input tokens.
COUNT_HEADER = "x-on-the-wire-input-count"

__all__ = ["Step", "Trace"]


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
        """The calls of this step's reply, as ``Message.tool_calls`` gives them."""
        return self.reply.message.tool_calls

    @property
    def tool_names(self) -> list[str]:
        """The names of those calls, in order: ``["search_orders", "check_refund_policy"]``."""
        return [c.name for c in self.tool_calls]

    @property
    def count_label(self) -> str:
        """How exact the reported input tokens are, when the provider says: the local provider
        does, in a response header ("exact" or the estimate and its bound); a real API's usage
        is the bill, so "exact" when there is no such header."""
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
            out.append([str(v) for v in row] + [s.reply.stop_reason, ", ".join(s.tool_names)])
        totals = [self.total("input_tokens"), self.total("cache_read_tokens")]
        totals += [self.total("output_tokens"), f"${self.cost_usd:.6f}"]
        out.append(["total"] + [str(v) for v in totals] + ["", ""])
        return out

    HEADERS = ["turn", "input sent", "cached", "output", "cost", "stop (neutral)", "tool calls"]

    def count_notes(self) -> list[str]:
        """Which "input sent" figures are estimates, and how far off they can be.

        Real APIs report the tokens they bill, so a live trace has no notes. The local provider
        counts offline and says how in a response header (``COUNT_HEADER``): "exact", or e.g.
        "estimate; on 75 recorded requests (10-1,491 tokens) the bill was 0.69-1.50x...".
        """
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


def _turns(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> "each of turns 1-3, 5": the turns a note is about, in runs (the
    bound is per request, not for them all)."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    spans = [f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs]
    return ("turn " if len(numbers) == 1 else "each of turns ") + ", ".join(spans)
