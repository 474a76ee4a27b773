"""Used in lessons: 04, 10.

Compaction: replace early history with a summary, as an agent does when a ticket grows long.

``compact(request, keep_last, summary)`` is the request compaction sends; ``compact_ticket``
rewrites a whole ticket from the turn where compaction happens. Price both versions with
``project_ticket`` to see what it saves.

What it deliberately does not do: write the summary (a model does that in real life; here the
caller gives it) or check that the summary keeps what matters.
"""

from __future__ import annotations

from helpers.messages import Message, Request, Text

__all__ = ["compact", "compact_ticket"]


def compact(request: Request, keep_last: int, summary: str) -> Request:
    """The request with everything before its last ``keep_last`` messages (after the system
    messages) replaced by one user message holding ``summary``: what compaction sends."""
    head = [m for m in request.messages if m.role == "system"]
    rest = [m for m in request.messages if m.role != "system"]
    kept = rest[-keep_last:] if keep_last else []
    while kept and kept[0].role == "tool":  # never keep a result without its call
        kept = kept[1:]
    note = Message("user", [Text(f"Summary of the conversation so far:\n{summary}")])
    return Request(request.model, [*head, note, *kept], list(request.tools), request.tool_choice)


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
    later = [
        Request(r.model, [*base.messages, *r.messages[seen:]], list(r.tools), r.tool_choice)
        for r in requests[at + 1 :]
    ]
    return [*requests[:at], base, *later]
