"""Used in lessons: none directly (imported by rules).

OpenAI Chat Completions: the shared rules, plus "tool messages come right after their calls"
(``results-not-adjacent``). ``chat_numbering`` mirrors the renderer (one chat message per tool
result), so ``messages.[N]`` counts as OpenAI does. Not checked: reasoning blocks (Chat has no
field for them). Texts and sources: ``docs/evidence.md`` (Rules).
"""

from __future__ import annotations

from dataclasses import dataclass

from helpers.messages import Image, Message, Reasoning, Tool, ToolCall, ToolResult
from helpers.rules.core import blocks
from helpers.rules.violation import Answer, Finding

MISSING = (
    "An assistant message with 'tool_calls' must be followed by tool messages responding to "
    "each 'tool_call_id'. The following tool_call_ids did not have response messages: {ids}"
)
ORPHAN = (
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
    "with 'tool_calls'."  # sic: OpenAI's spelling
)
NOT_FOUND = (
    "Invalid parameter: 'tool_call_id' of '{id}' not found in 'tool_calls' of previous message."
)
DUPLICATE = (
    "Invalid parameter: Duplicate value for 'tool_call_id' of '{id}', in messages[{first}] and "
    "messages[{k}]."
)
EMPTY_LIST = (
    "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty "
    "array instead."
)


@dataclass
class ChatMessage:
    """One message of the rendered chat list, and where it came from in the neutral list."""

    role: str
    neutral_index: int
    block_index: int | None = None
    call_ids: tuple[str, ...] = ()  # an assistant message's tool_calls
    tool_call_id: str | None = None  # a tool message's answer


def chat_numbering(messages: list[Message]) -> list[ChatMessage]:
    """The chat list the renderer sends (``formats.openai_chat_render``): one entry per message,
    one per result of a tool message. A message with nothing Chat can carry (only reasoning) is
    left out; one empty from the start keeps its place, as in a body written by hand."""
    chat: list[ChatMessage] = []
    for i, message in enumerate(messages):
        found = list(blocks(message))
        if message.role == "tool":
            chat += [
                ChatMessage("tool", i, j, tool_call_id=b.call_id)
                for j, b in found
                if isinstance(b, ToolResult)
            ]
            continue
        sent = [b for _, b in found if _sent(b, message.role)]
        if sent or not message.content:
            ids = tuple(b.id for b in sent if isinstance(b, ToolCall))
            chat.append(ChatMessage(message.role, i, call_ids=ids))
    return chat


def _sent(block: object, role: str) -> bool:
    """Chat carries text, tool calls, and images in user messages; reasoning has no field."""
    if isinstance(block, Image):
        return role == "user"
    return not isinstance(block, Reasoning)


def check(
    messages: list[Message], tools: list[Tool], core: list[Finding]
) -> list[tuple[Finding, Answer | None]]:
    """The core findings with OpenAI's answers, plus ``results-not-adjacent``."""
    chat = chat_numbering(messages)
    missing = _missing_results(chat)
    out: list[tuple[Finding, Answer | None]] = []
    for f in core:
        answer = None
        if f.rule == "call-not-answered" and f.message_index in missing:
            _, answer, _ = missing[f.message_index]
        elif f.rule == "no-messages" and not messages:
            answer = Answer(EMPTY_LIST, "messages", "empty_array")
        elif f.rule == "duplicate-result" or f.rule.startswith("result-"):
            answer = _answer_tool_message(f, chat)
        out.append((f, answer))
    return out + _not_adjacent(messages, chat, missing, core)


def _missing_results(chat: list[ChatMessage]) -> dict[int, tuple[list[str], Answer, int]]:
    """For each assistant message with calls: the ids its run of tool messages leaves unanswered,
    OpenAI's answer, and the chat index where the run ends."""
    missing = {}
    for k, entry in enumerate(chat):
        if entry.role != "assistant" or not entry.call_ids:
            continue
        end = k + 1
        while end < len(chat) and chat[end].role == "tool":
            end += 1
        answered = {e.tool_call_id for e in chat[k + 1 : end]}
        ids = [cid for cid in entry.call_ids if cid not in answered]
        if ids:
            param_at = end if end < len(chat) else k
            answer = Answer(MISSING.format(ids=", ".join(ids)), f"messages.[{param_at}].role")
            missing[entry.neutral_index] = (ids, answer, end)
    return missing


def _not_adjacent(
    messages: list[Message],
    chat: list[ChatMessage],
    missing: dict[int, tuple[list[str], Answer, int]],
    core: list[Finding],
) -> list[tuple[Finding, Answer]]:
    """Calls answered in time for the core rules, but not by the tool messages right after."""
    unanswered = {(f.message_index, f.call_id) for f in core if f.rule == "call-not-answered"}
    out = []
    for a, (ids, answer, end) in missing.items():
        if end >= len(chat):
            continue
        between = chat[end].neutral_index
        for cid in [cid for cid in ids if (a, cid) not in unanswered]:
            what = (
                f"this {messages[between].role} message comes between the tool calls of "
                f"messages[{a}] and the result for {cid!r}; on Chat Completions the tool "
                "messages must come right after the assistant message that made the calls"
            )
            f = Finding("results-not-adjacent", what, between, None, cid)
            out.append((f, answer))
    return out


def _answer_tool_message(f: Finding, chat: list[ChatMessage]) -> Answer | None:
    """What OpenAI answers for the tool message made from the result ``f`` points at: a second
    answer to one call (naming both), an orphan, or an id the calls before it do not have."""
    at = (f.message_index, f.block_index)
    k = next((k for k, e in enumerate(chat) if (e.neutral_index, e.block_index) == at), None)
    if k is None:  # the result is not in a tool message: the renderer's problem, not OpenAI's
        return None
    cid = chat[k].tool_call_id
    if f.rule == "duplicate-result":
        first = next(n for n, e in enumerate(chat) if e.tool_call_id == cid)
        text = DUPLICATE.format(id=cid, first=first, k=k)
        return Answer(text, f"messages.[{k}].tool_call_id")
    # the message whose calls this run of tool messages answers: the last one before the run
    owner = next((e for e in reversed(chat[:k]) if e.role != "tool"), None)
    if owner is None or owner.role != "assistant" or not owner.call_ids:
        return Answer(ORPHAN, f"messages.[{k}].role")
    if cid not in owner.call_ids:
        return Answer(NOT_FOUND.format(id=cid))
    return None
