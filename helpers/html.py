"""Used in lessons: none directly (imported by messages.conversation, meter, tokens.harmony).

HTML for notebook output: the role-coloured cards a ``Message`` or ``Request`` shows as
(Okabe-Ito colours, safe for colour-blind readers; each card also names its role and block
types in text), and :func:`no_math`, which keeps MathJax from reading a pair of ``$`` as a
formula. It reads the fields by name, importing nothing from ``helpers.messages``.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

ROLE_COLOURS = {
    "system": "#E69F00",  # orange
    "user": "#0072B2",  # blue
    "assistant": "#009E73",  # bluish green
    "tool": "#CC79A7",  # reddish purple
}


def no_math(html: str) -> str:
    """``html`` in a block that MathJax leaves alone, so ``$`` stays a dollar sign."""
    return f'<div class="tex2jax_ignore mathjax_ignore">{html}</div>'


_BOX = (
    "border-left:6px solid {colour};margin:4px 0;padding:4px 10px;"
    "background:rgba(127,127,127,0.06);font-family:var(--jp-code-font-family,monospace);"
    "font-size:12px"
)


def _pre(text: str) -> str:
    return f'<div style="white-space:pre-wrap">{escape(text)}</div>'


def block_html(block: Any) -> str:
    """One content block (``Text``, ``ToolCall``, ``ToolResult``, ``Reasoning``, ``Image``)."""
    kind = block.type
    label = f"<b>{kind}</b>"
    if kind == "text":
        return f"<div>{label}{_pre(block.text)}</div>"
    if kind == "tool_call":
        args_html = _pre(json.dumps(block.arguments, ensure_ascii=False))
        call_html = f"<code>{escape(block.id)}</code> → {escape(block.name)}"
        return f"<div>{label} {call_html}{args_html}</div>"
    if kind == "tool_result":
        flag = " <b>is_error</b>" if block.is_error else ""
        call_html = f"<code>{escape(block.call_id)}</code>"
        return f"<div>{label} for {call_html}{flag}{_pre(block.text)}</div>"
    if kind == "reasoning":
        extra = " (redacted)" if block.redacted else ""
        sig = " + signature" if block.signature else ""
        text_html = f"<div style='font-style:italic'>{_pre(block.text)}</div>"
        return f"<div>{label}{extra}{sig}{text_html}</div>"
    if kind == "image":
        return f"<div>{label} {escape(repr(block))}</div>"
    return f"<div>{escape(repr(block))}</div>"


def message_html(message: Any, index: int | None = None) -> str:
    """One ``Message`` as a card in its role's colour, numbered when ``index`` is given."""
    colour = ROLE_COLOURS.get(message.role, "#999999")
    number = f"[{index}] " if index is not None else ""
    body = "".join(block_html(b) for b in message.content) or "<i>(no content)</i>"
    head = f'<div style="color:{colour};font-weight:bold">{number}{escape(message.role)}</div>'
    return f'<div style="{_BOX.format(colour=colour)}">{head}{body}</div>'


def request_html(request: Any) -> str:
    """A ``Request``: its model and tool names, then every message as a card."""
    tools = ", ".join(escape(t.name) for t in request.tools) or "none"
    head = (
        f"<div><b>model</b> {escape(request.model or '(unset)')} · <b>tools</b> "
        f"({len(request.tools)}): {tools}</div>"
    )
    return head + "".join(message_html(m, i) for i, m in enumerate(request.messages))
