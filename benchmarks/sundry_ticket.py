"""A whole Sundry ticket, request by request: the message list as it is rebuilt every turn.

Maya's cracked headphones: the agent looks the order up, checks eligibility, refunds $129,
answers, and answers her follow-up. Tool results come from ``sundry.run_tool`` (the fake
world), the assistant's words are scripted. ``requests()`` returns the five request bodies the
agent sends (neutral); ``long_ticket(n)`` repeats the follow-up exchange to ``n`` turns for the
benchmarks.

``python -m benchmarks.sundry_ticket`` rewrites ``data/sundry/trace.json``: the per-turn usage
our counter and cache model give for the default OpenAI model (the example TRACE for
``python -m helpers cost``).
"""

from __future__ import annotations

import json
import sys

from helpers.examples import DATA, sundry
from helpers.messages import Message, Request, assistant, tool, tool_call, user
from helpers.models import as_of, default_model

TRACE = DATA / "sundry" / "trace.json"

SCRIPT: list[Message] = [
    assistant(
        "Let me look that order up.", tool_call("c1", "search_orders", {"query": "SO-48213"})
    ),
    assistant(
        tool_call("c2", "check_refund_eligibility", {"order_id": "SO-48213", "reason": "damaged"})
    ),
    assistant(
        tool_call(
            "c3",
            "issue_refund",
            {"order_id": "SO-48213", "amount_usd": 129.0, "reason": "damaged"},
        )
    ),
    assistant(
        "I'm sorry the headphones arrived cracked, Maya. I've refunded the full $129.00 to "
        "your original payment method; it should arrive within 5 business days."
    ),
]
FOLLOW_UP = "Thanks! Do I need to send the headphones back?"
ANSWER = "No need to send them back; please recycle them responsibly. Anything else?"


def requests(model: str = "") -> list[Request]:
    """The requests of the ticket, in order (each one contains the whole history so far)."""
    request = sundry.opening(model)
    out = [request]
    for reply in SCRIPT:
        messages = [*request.messages, reply]
        if reply.tool_calls:
            messages.append(tool(*(sundry.run_tool(c) for c in reply.tool_calls)))
        else:
            messages.append(user(FOLLOW_UP))
        request = Request(model, messages, list(sundry.TOOLS))
        out.append(request)
    return out


def long_ticket(turns: int, model: str = "") -> list[Request]:
    """The ticket extended with follow-up exchanges until it has ``turns`` requests."""
    out = requests(model)[:turns]
    while len(out) < turns:
        last = out[-1]
        n = len(out)
        messages = [*last.messages, assistant(f"{ANSWER} ({n})"), user(f"{FOLLOW_UP} ({n})")]
        out.append(Request(model, messages, list(last.tools)))
    return out


NOTES = [
    "opening: policy, tools, Maya's message",
    "search_orders result",
    "check_refund_eligibility result",
    "issue_refund result",
    "Maya's follow-up",
]


def trace() -> dict:
    """The TRACE for ``python -m helpers cost``, computed with our counter and cache model."""
    from helpers.cost import project_ticket

    model = default_model("openai")
    final = assistant(ANSWER)  # the answer to Maya's follow-up: billed like every reply
    ticket = project_ticket(requests(model), model, final_reply=final)
    return {
        "model": model,
        "about": (
            "The Sundry refund ticket (benchmarks/sundry_ticket.py): per-turn usage computed "
            f"offline by helpers.cost.project_ticket for {model} with the model table of "
            f"{as_of()} (input counted with helpers.tokens, cached tokens from OpenAI's prefix "
            "rule, output = each reply, the last one the answer to the follow-up). "
            "Regenerate: python -m benchmarks.sundry_ticket"
        ),
        "turns": [
            {
                "note": note,
                "usage": {
                    "input_tokens": t.input_tokens,
                    "cache_read_tokens": t.cached_tokens,
                    "output_tokens": t.output_tokens,
                },
            }
            for t, note in zip(ticket.turns, NOTES, strict=True)
        ],
    }


def main() -> int:
    TRACE.write_text(json.dumps(trace(), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {TRACE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
