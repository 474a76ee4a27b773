"""Used in lessons: 02.

What the model actually sees: a conversation in OpenAI's published gpt-oss "harmony" format.

Chat APIs hide the text a model is shown; gpt-oss publishes it: one token stream with role
markers, channels (``analysis`` for reasoning, ``commentary`` for tool calls and preambles,
``final`` for answers) and the tools as a ``namespace functions {...}``, rendered here with the
``openai-harmony`` package, offline. The system message is fixed: knowledge cutoff 2024-06,
reasoning medium, no date.

What it deliberately does not do: claim a *hosted* OpenAI chat model sees this, or render images.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from helpers.html import no_math
from helpers.messages import Image, Reasoning, Request, Text, ToolCall, ToolResult
from helpers.messages.blocks import dump_arguments
from helpers.models import ModelInfo
from helpers.tokens.estimate import message_labels
from helpers.tokens.seen import Seen, Tokens, call_names

KNOWLEDGE_CUTOFF = "2024-06"
ROLE_COLOURS = {
    "system": "#ede7f6",
    "developer": "#e3f2fd",
    "user": "#e8f5e9",
    "assistant": "#fff3e0",
    "tool": "#fce4ec",
    "priming": "#eeeeee",
}
MAX_CHIPS = 1500  # the HTML view stops here, so a notebook output stays small
_STYLE = (
    "<style>.otw-harmony s{text-decoration:none;border:1px solid #bbb;border-radius:3px;"
    "padding:0 1px;margin:1px;white-space:pre-wrap;font-family:monospace}</style>"
)


@dataclass
class HarmonyView:
    """One conversation in harmony format: text, tokens, decoded pieces, and who said what."""

    text: str
    tokens: list[int]
    pieces: list[str]
    #: (role, part path, start token, end token) for each rendered message, then the priming
    segments: list[tuple[str, str, int, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.tokens)

    def __repr__(self) -> str:  # the plain-text view (GitHub, nbconvert): short, not the text
        parts = ", ".join(f"{role} {end - start}" for role, _, start, end in self.segments)
        return f"HarmonyView({self.count} tokens: {parts}; .text, .pieces, .excerpt())"

    def excerpt(self, head: int = 12, tail: int = 6) -> str:
        """The text with every long message cut to its first and last tokens, so the role and
        channel markers of the whole conversation fit on a screen (the counts say what is cut)."""
        out = []
        for _, _, start, end in self.segments:
            pieces = self.pieces[start:end]
            if len(pieces) > 2 * (head + tail):
                cut = len(pieces) - head - tail
                pieces = [*pieces[:head], f" … [{cut} tokens] … ", *pieces[-tail:]]
            out.append("".join(pieces))
        return "".join(out)

    def _repr_html_(self) -> str:
        chips = []
        for role, part, start, end in self.segments:
            if start >= MAX_CHIPS:
                break
            colour = ROLE_COLOURS.get(role, "#eeeeee")
            tokens = "".join(
                f'<s title="{self.tokens[i]}">{html.escape(self.pieces[i])}</s>'
                for i in range(start, min(end, MAX_CHIPS))
            )
            chips.append(
                f'<div style="background:{colour};padding:2px;margin:2px 0">'
                f"<small><b>{html.escape(role)}</b> {html.escape(part)} · {end - start} tokens"
                f"</small><br>{tokens}</div>"
            )
        more = f"<p>... {self.count - MAX_CHIPS} more tokens</p>" if self.count > MAX_CHIPS else ""
        notes = "".join(f"<li>{html.escape(n)}</li>" for n in self.notes)
        return no_math(
            f'{_STYLE}<div class="otw-harmony"><b>{self.count} tokens</b> (gpt-oss harmony)'
            f"{''.join(chips)}{more}{f'<ul>{notes}</ul>' if notes else ''}</div>"
        )


@cache
def _encoding() -> Any:
    from tiktoken_ext.on_the_wire import install

    install()
    import openai_harmony as h

    return h.load_harmony_encoding(h.HarmonyEncodingName.HARMONY_GPT_OSS)


def _messages(request: Request) -> tuple[list[Any], list[tuple[str, str, str | None]], list[str]]:
    """Harmony messages, and for each (role, part path, channel); plus notes."""
    import openai_harmony as h

    system = h.SystemContent.new().with_knowledge_cutoff(KNOWLEDGE_CUTOFF)
    out = [h.Message.from_role_and_content(h.Role.SYSTEM, system)]
    where: list[tuple[str, str, str | None]] = [("system", "harmony system", None)]
    notes: list[str] = []
    instructions = "\n\n".join(m.text for m in request.messages if m.role == "system")
    if instructions or request.tools:
        developer = h.DeveloperContent.new()
        if instructions:
            developer = developer.with_instructions(instructions)
        if request.tools:
            described = [
                h.ToolDescription.new(t.name, t.description, parameters=t.parameters)
                for t in request.tools
            ]
            developer = developer.with_function_tools(described)
        out.append(h.Message.from_role_and_content(h.Role.DEVELOPER, developer))
        where.append(("developer", "system messages + tools", None))
    names = call_names(request)
    for i, message in enumerate(request.messages):
        if message.role == "system":
            continue
        has_call = bool(message.tool_calls)
        for j, block in enumerate(message.content):
            part = f"messages[{i}].content[{j}]"
            if isinstance(block, Text) and message.role == "user":
                out.append(h.Message.from_role_and_content(h.Role.USER, block.text))
                where.append(("user", part, None))
            elif isinstance(block, Text):
                channel = "commentary" if has_call else "final"
                msg = h.Message.from_role_and_content(h.Role.ASSISTANT, block.text)
                out.append(msg.with_channel(channel))
                where.append(("assistant", part, channel))
            elif isinstance(block, Reasoning):
                msg = h.Message.from_role_and_content(h.Role.ASSISTANT, block.text)
                out.append(msg.with_channel("analysis"))
                where.append(("assistant", part, "analysis"))
            elif isinstance(block, ToolCall):
                args = block.raw_arguments or dump_arguments(block.arguments)
                msg = h.Message.from_role_and_content(h.Role.ASSISTANT, args)
                msg = msg.with_channel("commentary").with_recipient(f"functions.{block.name}")
                out.append(msg.with_content_type("<|constrain|>json"))
                where.append(("assistant", part, "commentary"))
            elif isinstance(block, ToolResult):
                author = h.Author.new(h.Role.TOOL, f"functions.{names.get(block.call_id, 'tool')}")
                msg = h.Message.from_author_and_content(author, block.text)
                out.append(msg.with_channel("commentary").with_recipient("assistant"))
                where.append(("tool", part, "commentary"))
            elif isinstance(block, Image):
                notes.append(f"{part}: images are not part of the gpt-oss format; left out")
    return out, where, notes


def render_harmony(request: Request) -> HarmonyView:
    """Render ``request`` for gpt-oss: the exact prompt tokens, ending ``<|start|>assistant``."""
    import openai_harmony as h

    enc = _encoding()
    messages, where, notes = _messages(request)
    tokens = enc.render_conversation_for_completion(
        h.Conversation.from_messages(messages), h.Role.ASSISTANT
    )
    start = enc.encode("<|start|>", allowed_special={"<|start|>"})[0]
    starts = [i for i, t in enumerate(tokens) if t == start]
    # Harmony drops reasoning ("analysis") from turns that already have a final answer:
    # match the rendered messages to ours in order, skipping the dropped ones.
    segments: list[tuple[str, str, int, int]] = []
    k = 0
    for n, begin in enumerate(starts[:-1]):
        end = starts[n + 1]
        header = enc.decode(tokens[begin : min(end, begin + 8)])
        while k < len(where) and where[k][2] == "analysis" and "analysis" not in header:
            notes.append(f"{where[k][1]}: reasoning from an answered turn is dropped by harmony")
            k += 1
        role, part, _ = where[k] if k < len(where) else ("?", "?", None)
        segments.append((role, part, begin, end))
        k += 1
    segments.append(("priming", "priming", starts[-1], len(tokens)))
    decoded = [enc.decode([t]) for t in tokens]
    return HarmonyView(enc.decode(tokens), list(tokens), decoded, segments, notes)


def seen(request: Request, info: ModelInfo) -> tuple[list[Seen], list[str]]:
    """The ``harmony`` counting rule for ``helpers.tokens.count``: its tokens, by message."""
    view = render_harmony(request)
    out: list[Seen] = []
    for role, part, begin, end in view.segments:
        path = "system" if role in ("system", "developer") else part
        out.append((path, Tokens(view.tokens[begin:end])))
    return out, view.notes


def labels(request: Request, info: ModelInfo) -> dict[str, str]:
    """A readable label for every part (the breakdown's second column)."""
    out = {"priming": "reply priming", "system": "harmony system + developer"}
    return out | message_labels(request)
