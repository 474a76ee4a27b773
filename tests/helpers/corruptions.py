"""Small named ways to break a valid conversation, each breaking exactly one rule of the list.

Each function takes a valid ``Request`` and ``choose`` (picks one item of a list; in tests a
hypothesis draw) and returns ``(broken_request, expected)``, or ``None`` when the conversation has
nothing to break that way. ``expected`` is the set of ``(rule, message_index, call_id)`` the
*neutral* profile must report, exactly. The input request is never changed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from helpers.messages import Message, Request, Text, ToolCall, ToolResult

Expected = set[tuple[str, int | None, str | None]]
Choose = Callable[[list], Any]
Corrupted = tuple[Request, Expected] | None


def _calls(request: Request) -> list[tuple[int, int, ToolCall]]:
    return [
        (i, j, b)
        for i, m in enumerate(request.messages)
        for j, b in enumerate(m.content)
        if isinstance(b, ToolCall)
    ]


def _results(request: Request) -> list[tuple[int, int, ToolResult]]:
    return [
        (i, j, b)
        for i, m in enumerate(request.messages)
        for j, b in enumerate(m.content)
        if isinstance(b, ToolResult)
    ]


def _answered_turns(request: Request) -> list[int]:
    """Indices of assistant messages with calls whose results come in the very next message."""
    messages = request.messages
    return [
        i
        for i, m in enumerate(messages[:-1])
        if m.role == "assistant" and m.tool_calls and messages[i + 1].role == "tool"
    ]


def _call_of(request: Request, call_id: str) -> int:
    return next(i for i, _, c in _calls(request) if c.id == call_id)


def drop_result(request: Request, choose: Choose) -> Corrupted:
    """Forget to send one result: its call goes unanswered."""
    r = copy.deepcopy(request)
    if not _results(r):
        return None
    i, j, result = choose(_results(r))
    del r.messages[i].content[j]
    if not r.messages[i].content:
        del r.messages[i]
    return r, {("call-not-answered", _call_of(r, result.call_id), result.call_id)}


def drop_call(request: Request, choose: Choose) -> Corrupted:
    """Lose one tool call (a trimmed history): its result becomes an orphan."""
    r = copy.deepcopy(request)
    if not _calls(r):
        return None
    i, j, call = choose(_calls(r))
    del r.messages[i].content[j]
    if not r.messages[i].content:
        r.messages[i].content.append(Text("Let me check."))
    ri = next(ri for ri, _, res in _results(r) if res.call_id == call.id)
    return r, {("result-without-call", ri, call.id)}


def swap_call_and_result(request: Request, choose: Choose) -> Corrupted:
    """Send the tool message before the assistant message that made the calls."""
    r = copy.deepcopy(request)
    turns = _answered_turns(r)
    if not turns:
        return None
    i = choose(turns)
    r.messages[i], r.messages[i + 1] = r.messages[i + 1], r.messages[i]
    expected = {("result-before-call", i, b.call_id) for b in r.messages[i].tool_results}
    expected |= {("call-not-answered", i + 1, c.id) for c in r.messages[i + 1].tool_calls}
    return r, expected


def duplicate_id(request: Request, choose: Choose) -> Corrupted:
    """Give a later call the id of an earlier one (its result follows along)."""
    r = copy.deepcopy(request)
    calls = _calls(r)
    if len(calls) < 2:
        return None
    first = choose(list(range(len(calls) - 1)))
    second = choose(list(range(first + 1, len(calls))))
    old, new = calls[second][2].id, calls[first][2].id
    calls[second][2].id = new
    next(res for _, _, res in _results(r) if res.call_id == old).call_id = new
    return r, {("duplicate-id", calls[second][0], new)}


def duplicate_result(request: Request, choose: Choose) -> Corrupted:
    """Answer one call twice."""
    r = copy.deepcopy(request)
    if not _results(r):
        return None
    i, j, result = choose(_results(r))
    r.messages[i].content.insert(j + 1, copy.deepcopy(result))
    return r, {("duplicate-result", i, result.call_id)}


def result_past_next_assistant(request: Request, choose: Choose) -> Corrupted:
    """Move a result to just after the *next* assistant message: too late for its call."""
    r = copy.deepcopy(request)
    assistants = [i for i, m in enumerate(r.messages) if m.role == "assistant"]
    candidates = [
        (i, j, res)
        for i, j, res in _results(r)
        if any(a > i for a in assistants)  # a later assistant message exists
    ]
    if not candidates:
        return None
    i, j, result = choose(candidates)
    call_at = _call_of(r, result.call_id)
    later = next(a for a in assistants if a > i)
    del r.messages[i].content[j]
    if not r.messages[i].content:
        del r.messages[i]
        later -= 1
    r.messages.insert(later + 1, Message("tool", [result]))
    return r, {
        ("call-not-answered", call_at, result.call_id),
        ("result-wrong-turn", later + 1, result.call_id),
    }


def user_between_call_and_result(request: Request, choose: Choose) -> Corrupted:
    """Slip a user message between the calls and their results.

    The shared rules allow it (the results still answer the assistant message before them);
    OpenAI Chat, Anthropic and Gemini do not. ``expected`` is therefore empty.
    """
    r = copy.deepcopy(request)
    turns = _answered_turns(r)
    if not turns:
        return None
    i = choose(turns)
    r.messages.insert(i + 1, Message("user", [Text("Are you still there?")]))
    return r, set()


def empty_message(request: Request, choose: Choose) -> Corrupted:
    """Send a user message with no content blocks."""
    r = copy.deepcopy(request)
    users = [i for i, m in enumerate(r.messages) if m.role == "user"]
    i = choose(users)
    r.messages[i].content.clear()
    return r, {("empty-content", i, None)}


def system_not_first(request: Request, choose: Choose) -> Corrupted:
    """Add a system message somewhere after the start of the list."""
    r = copy.deepcopy(request)
    i = choose(list(range(1, len(r.messages) + 1)))
    r.messages.insert(i, Message("system", [Text("Also: answer briefly.")]))
    return r, {("system-not-first", i, None)}


CORRUPTIONS = [
    drop_result,
    drop_call,
    swap_call_and_result,
    duplicate_id,
    duplicate_result,
    result_past_next_assistant,
    user_between_call_and_result,
    empty_message,
    system_not_first,
]
