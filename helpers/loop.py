"""Used in lessons: 03, 04, 05, 06, 07, 09, 10, 11.

A minimal agent loop and its meter: send the whole list, append the reply, run every tool,
repeat. Three habits keep the rules of the list (lesson 10), each one line of ``run``, marked
(a), (b), (c). Plain HTTP with ``httpx`` in any of the four formats, or the official SDK
(``via="sdk"``). A ``Trace`` keeps one ``Step`` per model call: bodies, the tokens the provider
reported and their price. It does not retry, stream or truncate history.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from html import escape
from typing import Any

from helpers.formats import provider
from helpers.html import no_math
from helpers.messages import Message, Reasoning, Reply, Request, Text, ToolCall, ToolResult, tool

ToolRunner = Callable[[ToolCall], ToolResult]


def auth_headers(format: str, api_key: str) -> dict[str, str]:
    """How each provider wants its key (and Anthropic its API version): its row's ``auth``."""
    return provider(format).auth(api_key)


class ProviderError(RuntimeError):
    """The provider answered with an error: its status and its own error body, unchanged."""

    def __init__(self, format: str, url: str, status: int, body: str):
        super().__init__(f"{format} answered {status}: {body}")
        self.url, self.status, self.body = url, status, body


def send(client: Any, format: str, body: dict, path: str) -> tuple[dict, dict[str, str]]:
    """POST one request body: the reply's JSON and its response headers (request id, rate
    limits...). Raise with the provider's error text on a non-2xx answer."""
    response = client.post(path, json=body)
    if response.status_code >= 400:
        raise ProviderError(format, str(response.url), response.status_code, response.text)
    return response.json(), dict(response.headers)


def _send_sdk(client: Any, format: str, body: dict) -> tuple[dict, dict[str, str]]:
    """The same body through the official SDK: its typed reply dumped back to JSON, and the
    response headers (``with_raw_response`` keeps them)."""
    if format == "openai-chat":
        raw = client.chat.completions.with_raw_response.create(**body)
    elif format == "openai-responses":
        raw = client.responses.with_raw_response.create(**body)
    elif format == "anthropic":
        raw = client.messages.with_raw_response.create(**body)
    else:
        raise ValueError(f"no official SDK installed for {format!r}; use via='httpx'")
    return raw.parse().model_dump(mode="json"), dict(raw.headers)


def _client(format: str, base_url: str, api_key: str, via: str) -> Any:
    if via == "httpx":
        import httpx

        return httpx.Client(base_url=base_url, headers=auth_headers(format, api_key), timeout=60)
    if provider(format).family == "openai":
        import openai

        return openai.OpenAI(base_url=base_url + provider(format).sdk_suffix, api_key=api_key)
    import anthropic

    return anthropic.Anthropic(base_url=base_url, api_key=api_key)


def run(
    request: Request,
    run_tool: ToolRunner,
    *,
    format: str = "anthropic",
    base_url: str,
    api_key: str = "sk-local-on-the-wire",
    via: str = "httpx",
    max_turns: int = 12,
    finish: str | None = None,
) -> Trace:
    """Run ``request`` to a final answer (or ``max_turns``), calling ``run_tool`` for each call.

    ``finish`` names a tool whose call, once answered, ends the run (``trace.finish`` holds it).
    """
    from helpers.cost import price
    from helpers.formats import parse_response, render

    messages = list(request.messages)
    trace = Trace(format, request.model, messages=messages)
    with _client(format, base_url, api_key, via) as client:
        for number in range(1, max_turns + 1):
            rendered = render(replace(request, messages=messages), format)  # the whole list, again
            if via == "sdk":
                raw, headers = _send_sdk(client, format, rendered.body)
            else:
                raw, headers = send(client, format, rendered.body, rendered.path)
            reply: Reply = parse_response(raw, format)
            messages.append(reply.message)  # (a) the reply goes into the history first
            step = Step(number, rendered.body, raw, reply, headers, messages_sent=len(messages) - 1)
            step.cost_usd = _cost(price, reply, request.model)
            trace.steps.append(step)

            results: list[ToolResult] = []
            for block in reply.message.content:  # (c) dispatch on the block type
                match block:
                    case ToolCall():
                        results.append(run_tool(block))
                        if block.name == finish and not results[-1].is_error:
                            trace.finish = block
                    case Text() | Reasoning():
                        pass  # already in the history; shown by the trace
            if not results:
                return trace
            messages.append(tool(*results))  # (b) every call answered, in one message
            if trace.finish is not None:
                return trace  # the agent said it is done, in a form the program can read
    return trace


def _cost(price: Callable, reply: Reply, model: str) -> Any:
    """The turn's price, or None when the price list does not know the model."""
    try:
        return price(reply.usage, model).total_usd
    except LookupError:
        return None


# --- the meter: what one run did, turn by turn ----------------------------------------

#: The response header in which the local provider says how it counted a reply's input tokens.
COUNT_HEADER = "x-on-the-wire-input-count"


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
        """ "exact", or the local provider's estimate and its bound (from ``COUNT_HEADER``)."""
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
        """Which "input sent" figures are the local provider's estimates, and their bounds (a
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
