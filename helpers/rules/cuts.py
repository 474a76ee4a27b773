"""Used in lessons: 10.

Where a history can be cut without breaking the rules of the list.

Shortening a long conversation means dropping (or summarising) its older messages. A cut is
safe at index ``k`` when the kept part ``messages[k:]`` starts a turn: ``messages[k]`` is not a
``tool`` message, and every tool call before ``k`` was answered before ``k``. Cut anywhere else
and a result loses its call (an orphan) or a call loses its result.

System messages are not part of the history being cut: they are kept whatever happens.
"""

from __future__ import annotations

from helpers.messages import Message, ToolCall, ToolResult

__all__ = ["turn_boundaries"]


def turn_boundaries(messages: list[Message]) -> list[int]:
    """Indices ``k`` (past the leading system messages) where ``messages[k:]`` can start."""
    first = next((i for i, m in enumerate(messages) if m.role != "system"), len(messages))
    open_calls: set[str] = set()
    safe = []
    for k in range(first, len(messages)):
        if messages[k].role != "tool" and not open_calls:
            safe.append(k)
        for block in messages[k].content:
            if isinstance(block, ToolCall):
                open_calls.add(block.id)
            elif isinstance(block, ToolResult):
                open_calls.discard(block.call_id)
    return safe
