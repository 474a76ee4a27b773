"""Used in lessons: none directly (imported by rules, rules.anthropic, rules.gemini, ...).

The rules every provider shares, checked on the neutral model: the ``portable`` profile.
System first and only first; content a non-empty list of known blocks with no empty text; calls
in assistant messages, results in tool messages; arguments JSON objects naming a defined tool.
Pairing is ``pairing.py``; what one provider alone demands is in the provider modules.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from helpers.messages import (
    BLOCK_TYPES,
    ROLES,
    Image,
    Message,
    Reasoning,
    Text,
    Tool,
    ToolCall,
    ToolResult,
)
from helpers.rules.violation import Finding

_BLOCK_CLASSES = (Text, ToolCall, ToolResult, Reasoning, Image)
#: Which block types each role may hold (tool results and calls have their own, named rules).
_ALLOWED = {
    "system": {"text"},
    "user": {"text", "image"},
    "assistant": {"text", "reasoning", "tool_call", "image"},
    "tool": {"tool_result"},
}


def blocks(message: Message) -> Iterator[tuple[int, Any]]:
    """``(index, block)`` for every *known* block of a message; malformed content yields nothing
    (so a hand-built mistake is reported once, by the core rules, and never crashes the rest)."""
    content = message.content if isinstance(message.content, list) else []
    for j, block in enumerate(content):
        if isinstance(block, _BLOCK_CLASSES) and getattr(block, "type", None) in BLOCK_TYPES:
            yield j, block


def check_core(messages: list[Message], tools: list[Tool] | None = None) -> list[Finding]:
    """Findings of rules 1-4, message by message (``pairing.check_pairing`` does the pairing)."""
    out: list[Finding] = []
    if not any(getattr(m, "role", None) != "system" for m in messages):
        what = (
            "the request has no user, assistant or tool message: there is no conversation"
            " for the model to answer"
        )
        out.append(Finding("no-messages", what))
    names = [tool.name for tool in tools or []]
    for name in [n for k, n in enumerate(names) if n in names[:k]]:
        what = (
            f"two tool definitions are named {name!r}; the model calls tools by name, so "
            "names must be unique"
        )
        out.append(Finding("duplicate-tool", what))
    for i, message in enumerate(messages):
        out += _message_shape(i, message, tools)
    return out


def _message_shape(i: int, message: Message, tools: list[Tool] | None) -> list[Finding]:
    """Rules 1-4 for one message: role, position, content, blocks, arguments, tool names."""
    out: list[Finding] = []
    role = getattr(message, "role", None)
    content = getattr(message, "content", None)
    if role not in ROLES:
        out.append(Finding("unknown-role", f"role {role!r} is not one of {', '.join(ROLES)}", i))
    if role == "system" and i != 0:
        what = (
            f"a system message at message {i}, not messages[0]: accepted, but an instruction "
            "outside messages[0] is easy to lose or to send twice"
        )
        out.append(Finding("system-not-first", what, i))
    if not isinstance(content, list):
        what = (
            f"content is a {type(content).__name__}, but content is always a list of blocks: "
            'write [Text("...")] (or use the builders: user("..."))'
        )
        out.append(Finding("content-not-list", what, i))
        return out
    if not content:
        out.append(Finding("empty-content", f"this {role} message has no content blocks", i))
    for j, block in enumerate(content):
        out += _block_shape(i, j, role, block, tools)
    return out


def _block_shape(i: int, j: int, role: str, block: Any, tools: list[Tool] | None) -> list:
    kind = getattr(block, "type", None)
    if not isinstance(block, _BLOCK_CLASSES) or kind not in BLOCK_TYPES:
        hint = " (a dict? read JSON with block_from_json)" if isinstance(block, dict) else ""
        what = (
            f"{type(block).__name__} with type {kind!r} is not a block{hint}; known block "
            f"types: {', '.join(BLOCK_TYPES)}"
        )
        return [Finding("unknown-block", what, i, j)]
    out = []
    if kind == "text" and not block.text.strip():
        what = "empty" if not block.text else "only whitespace"
        out.append(Finding("empty-content", f"this text block is {what}", i, j))
    if role == "tool" and kind != "tool_result":
        what = (
            f"a tool message holds only tool_result blocks, but this block is {kind}; put "
            "text for the model in a user message after it"
        )
        out.append(Finding("tool-message-content", what, i, j))
    elif kind == "tool_result" and role != "tool":
        what = f"a tool_result belongs in a tool message, not in a {role} message"
        out.append(Finding("result-outside-tool-message", what, i, j, block.call_id))
    elif kind == "tool_call" and role != "assistant":
        what = (
            "only the model makes tool calls: a tool_call belongs in an assistant message, "
            f"not in a {role} message"
        )
        out.append(Finding("call-outside-assistant", what, i, j, block.id))
    elif kind not in _ALLOWED.get(role, BLOCK_TYPES):
        what = f"a {role} message holds {', '.join(sorted(_ALLOWED[role]))} blocks, not {kind}"
        out.append(Finding("block-not-allowed", what, i, j))
    if kind == "tool_call":
        out += _call_shape(i, j, block, tools)
    return out


def _call_shape(i: int, j: int, call: ToolCall, tools: list[Tool] | None) -> list[Finding]:
    out = []
    if not isinstance(call.arguments, dict):
        what = (
            f"arguments must be a JSON object (a dict), but this call's are a "
            f"{type(call.arguments).__name__}; a JSON *string* is OpenAI's wire spelling, "
            "parse it first"
        )
        out.append(Finding("arguments-not-object", what, i, j, call.id))
    if tools and call.name not in {t.name for t in tools}:
        what = (
            f"calls tool {call.name!r}, which the request's tools do not define (defined: "
            f"{', '.join(t.name for t in tools)})"
        )
        out.append(Finding("unknown-tool", what, i, j, call.id))
    return out
