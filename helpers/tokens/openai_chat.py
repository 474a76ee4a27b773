"""Used in lessons: 02, 04, 05, 06, 09, 12.

Counting rule ``openai-chat-2024``: a model of what an OpenAI chat model is shown.

The request is rendered as the token sequence we believe the model sees, and counted with the
model's real tiktoken encoding. The rendering (each line checked against published
API-reported ``prompt_tokens``, see ``tests/published_counts.py``):

- every message: ``<|start|>{role}<|message|>{content}<|end|>`` (3 framing tokens + the role;
  a ``name`` adds ``:{name}``, i.e. its tokens + 1), content blocks tokenized one by one;
- tools: ``\\n\\n# Tools\\n\\n## functions\\n\\n`` + the TypeScript-like namespace
  (``tool_namespace``) appended to the first system message, or to a system message of
  their own when there is none;
- a tool call: ``<|start|>assistant to=functions.{name}<|message|>{arguments}<|end|>``;
  several calls in one turn: one ``to=multi_tool_use.parallel`` message (community model);
- a tool result: ``<|start|>{function name}<|message|>{text}<|end|>``;
- the reply is primed with ``<|start|>assistant<|message|>``; with tools, only
  ``<|start|>assistant`` (the model may still write `` to=functions...``), back to the full
  three with ``tool_choice="none"``; a forced tool adds `` to=functions.{name} <|constrain|>json``.

What it deliberately does not do: claim to be OpenAI's renderer. It is a model that matches
the published figures it is tested against and documents the ones it misses.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from helpers.messages import Image, Message, Reasoning, Request, Text, ToolCall, ToolResult
from helpers.models import ModelInfo
from helpers.tokens.breakdown import Piece
from helpers.tokens.encodings import encode, encoding, special_id, split_at
from helpers.tokens.images import image_tokens
from helpers.tokens.tool_namespace import HEADER, render_namespace

__all__ = ["arguments_text", "head_total", "message_spec", "message_total", "render"]

Spec = tuple  # a hashable description of one message, enough to render it


def arguments_text(arguments: dict[str, Any]) -> str:
    """Arguments as JSON text when the provider's own text was not kept (``raw_arguments``).

    The same text ``helpers.formats`` puts on the wire (compact JSON, UTF-8 kept), so the count
    is of the body we would send.
    """
    from helpers.formats.common import dump_arguments

    return dump_arguments(arguments)


def _text_of(result: ToolResult) -> str:
    return result.text


def _block_spec(block: Any, names: dict[str, str]) -> tuple:
    if isinstance(block, Text):
        return ("text", block.text)
    if isinstance(block, ToolCall):
        raw = block.raw_arguments
        return (
            "tool_call",
            block.name,
            raw if raw is not None else arguments_text(block.arguments),
        )
    if isinstance(block, ToolResult):
        has_image = any(isinstance(b, Image) for b in block.content)
        name = names.get(block.call_id, "")
        return ("tool_result", name, _text_of(block), has_image, block.is_error)
    if isinstance(block, Image):
        return ("image", block.media_type, block.data, block.url, block.detail)
    if isinstance(block, Reasoning):
        return ("reasoning",)
    raise TypeError(f"unknown block {block!r}")


def message_spec(message: Message, names: dict[str, str]) -> Spec:
    return (message.role, message.name, tuple(_block_spec(b, names) for b in message.content))


class _Out:
    """Collects pieces with part paths relative to one message ("" or ".content[j]")."""

    def __init__(self, enc: str):
        self.enc = enc
        self.pieces: list[tuple[str, tuple[int, ...] | None, int, object]] = []

    def special(self, suffix: str, *names: str) -> None:
        self.ids(suffix, tuple(special_id(self.enc, n) for n in names))

    def text(self, suffix: str, text: str) -> None:
        self.ids(suffix, encode(self.enc, text))

    def ids(self, suffix: str, ids: tuple[int, ...]) -> None:
        if ids:
            self.pieces.append((suffix, ids, len(ids), None))

    def opaque(self, suffix: str, n: int, key: object) -> None:
        self.pieces.append((suffix, None, n, key))

    def header(self, role: str, name: str | None = None) -> None:
        self.special("", "<|start|>")
        self.text("", role)
        if name:
            self.text("", ":")
            self.text("", name)
        self.special("", "<|message|>")


@lru_cache(maxsize=1 << 14)
def _render_message(model_id: str, enc: str, spec: Spec, image_rule: str) -> tuple:
    """Pieces of one non-system message (memoised by content: the incremental counter)."""
    role, name, blocks = spec
    rule = json.loads(image_rule) if image_rule else None
    out = _Out(enc)
    notes: list[str] = []
    if role == "tool":
        for j, (_, fn_name, text, has_image, is_error) in enumerate(blocks):
            out.header(fn_name or "tool")
            out.text(f".content[{j}]", text)
            out.special("", "<|end|>")
            if not fn_name:
                notes.append("a tool result answers no call in this request: rendered as 'tool'")
            if has_image:
                notes.append("Chat Completions tool messages carry text only: image not counted")
            if is_error:
                notes.append("Chat Completions has no is_error flag: only the text is counted")
        return tuple(out.pieces), tuple(notes)
    calls = [(j, b) for j, b in enumerate(blocks) if b[0] == "tool_call"]
    content = [(j, b) for j, b in enumerate(blocks) if b[0] != "tool_call"]
    if content or not calls:
        out.header(role, name)
        for j, block in content:
            kind = block[0]
            if kind == "text":
                out.text(f".content[{j}]", block[1])
            elif kind == "image":
                cost = image_tokens(Image(block[1], block[2], block[3], block[4]), rule)
                out.opaque(f".content[{j}]", cost.tokens, ("image", block[2] or block[3]))
                if not cost.exact:
                    notes.append(f"image content[{j}]: {cost.how}")
            elif kind == "reasoning":
                notes.append("reasoning blocks are not sent to Chat Completions: 0 tokens")
            else:
                notes.append(f"content[{j}] ({kind}) cannot be sent in a {role} message")
        out.special("", "<|end|>")
    if len(calls) == 1:
        j, (_, fn, args) = calls[0]
        out.special("", "<|start|>")
        out.text("", "assistant")
        out.text(f".content[{j}]", f" to=functions.{fn}")
        out.special(f".content[{j}]", "<|message|>")
        out.text(f".content[{j}]", args)
        out.special("", "<|end|>")
    elif calls:
        _parallel(out, calls)
    return tuple(out.pieces), tuple(notes)


def _parallel(out: _Out, calls: list[tuple[int, tuple]]) -> None:
    """Several calls in one turn: one ``multi_tool_use.parallel`` call (a community model)."""
    out.special("", "<|start|>")
    out.text("", "assistant")
    out.text("", " to=multi_tool_use.parallel")
    out.special("", "<|message|>")
    text, starts = _parallel_text([call for _, call in calls])
    _split(out, text, starts, [f".content[{j}]" for j, _ in calls], head="")
    out.special("", "<|end|>")


def _parallel_text(calls: list[tuple]) -> tuple[str, list[int]]:
    """The one JSON argument of a parallel call, and where each call's part of it starts."""
    text, starts = '{"tool_uses":[', []
    for k, (_, fn, args) in enumerate(calls):
        starts.append(len(text))
        text += (
            "" if k == 0 else ", "
        ) + f'{{"recipient_name":"functions.{fn}","parameters":{args}}}'
    return text + "]}", starts


def _split(out: _Out, text: str, starts: list[int], owners: list[str], head: str) -> None:
    """Encode ``text`` once; give each token to the owner whose span it starts in."""
    groups = split_at(out.enc, text, starts)
    runs: list[tuple[str, tuple[int, ...]]] = []
    for owner, ids in zip([head, *owners], groups, strict=True):
        if runs and runs[-1][0] == owner:  # the head and the first owner may be one part
            runs[-1] = (owner, runs[-1][1] + ids)
        elif ids:
            runs.append((owner, ids))
    for owner, ids in runs or [(head, ())]:
        out.ids(owner, ids)


@lru_cache(maxsize=256)
def _render_system(enc: str, spec: Spec, tools: tuple) -> tuple:
    """The system message with the tool namespace appended (or a system message of its own)."""
    out = _Out(enc)
    if spec is None:
        out.special("tools", "<|start|>")
        out.text("tools", "system")
        out.special("tools", "<|message|>")
        texts: list[tuple[int, str]] = []
        name = None
    else:
        _, name, blocks = spec
        out.header("system", name)
        texts = [(j, b[1]) for j, b in enumerate(blocks) if b[0] == "text"]
    for j, text in texts[:-1]:
        out.text(f".content[{j}]", text)
    namespace, tool_starts = render_namespace([(n, d, json.loads(p)) for n, d, p in tools])
    lead = f"{texts[-1][1]}\n\n" if texts else ""
    text = lead + HEADER + namespace
    starts = [len(lead)] + [len(lead) + len(HEADER) + s for s in tool_starts]
    owners = ["tools"] + [f"tools[{k}]" for k in range(len(tools))]
    head = f".content[{texts[-1][0]}]" if texts else "tools"
    _split(out, text, starts, owners, head)
    out.special("tools" if spec is None else "", "<|end|>")
    return tuple(out.pieces)


def _priming(out: _Out, request: Request, notes: list[str]) -> None:
    out.special("priming", "<|start|>")
    out.text("priming", "assistant")
    choice = request.tool_choice
    forced = _forced_name(choice)
    if not request.tools or choice == "none":
        out.special("priming", "<|message|>")
    elif forced:
        out.text("priming", f" to=functions.{forced}")
        out.text("priming", " ")
        out.special("priming", "<|constrain|>")
        out.text("priming", "json")
        out.special("priming", "<|message|>")
    elif choice == "required":
        notes.append("no published figure for tool_choice='required': primed as for 'auto'")


def _forced_name(choice: Any) -> str | None:
    if isinstance(choice, dict):
        inner = choice.get("function") if isinstance(choice.get("function"), dict) else choice
        return inner.get("name")
    return None


def render(request: Request, info: ModelInfo) -> tuple[list[Piece], dict[str, str], list[str]]:
    """Pieces, labels for the breakdown rows, and notes, for one request on one model."""
    enc = info.encoding or "o200k_base"
    image_rule = json.dumps(info.image) if info.image else ""
    names = {c.id: c.name for m in request.messages for c in m.tool_calls}
    system_at = next((i for i, m in enumerate(request.messages) if m.role == "system"), None)
    tools = tuple(
        (t.name, t.description, json.dumps(t.parameters, ensure_ascii=False)) for t in request.tools
    )
    pieces: list[Piece] = []
    labels: dict[str, str] = {"priming": "reply priming"}
    notes: list[str] = []

    def add(prefix: str, raw: tuple) -> None:
        for suffix, ids, n, key in raw:
            part = (
                suffix
                if suffix in ("tools", "priming") or suffix.startswith("tools[")
                else (prefix + suffix)
            )
            pieces.append(Piece(part, ids, n, key))

    if tools:
        labels["tools"] = f"{len(tools)} tool definitions"
        labels.update({f"tools[{k}]": t[0] for k, t in enumerate(tools)})
        if system_at is None:
            add("", _render_system(enc, None, tools))
    for i, message in enumerate(request.messages):
        prefix = f"messages[{i}]"
        labels[prefix] = message.role + (f" ({message.name})" if message.name else "")
        spec = message_spec(message, names)
        for j, block in enumerate(message.content):
            labels[f"{prefix}.content[{j}]"] = _block_label(block, names)
        if i == system_at and tools:
            add(prefix, _render_system(enc, spec, tools))
            continue
        raw, message_notes = _render_message(info.id, enc, spec, image_rule)
        add(prefix, raw)
        notes += [f"{prefix}: {n}" for n in message_notes]
    out = _Out(enc)
    _priming(out, request, notes)
    add("", tuple(out.pieces))
    return pieces, labels, notes


def _block_label(block: Any, names: dict[str, str]) -> str:
    if isinstance(block, ToolCall):
        return f"tool_call {block.name}"
    if isinstance(block, ToolResult):
        return f"tool_result {names.get(block.call_id, '?')}" + (
            " (error)" if block.is_error else ""
        )
    if isinstance(block, Reasoning):
        return "reasoning (not sent)"
    return block.type


# --- totals only: the fast path for the incremental counter -------------------------------------


@lru_cache(maxsize=1 << 10)
def _short(enc: str, text: str) -> int:
    """Tokens of a short, often repeated string (a role, a function name)."""
    return len(encode(enc, text))


@lru_cache(maxsize=1 << 15)
def message_total(model_id: str, enc: str, spec: Spec, image_rule: str) -> int:
    """Tokens of one non-system message (same rendering as ``render``, counted directly)."""
    role, name, blocks = spec
    size = encoding(enc).encode_ordinary  # no memo: this whole function is memoised
    if role == "tool":
        return sum(3 + _short(enc, b[1] or "tool") + len(size(b[2])) for b in blocks)
    calls = [b for b in blocks if b[0] == "tool_call"]
    if any(b[0] == "image" for b in blocks):
        return sum(p[2] for p in _render_message(model_id, enc, spec, image_rule)[0])
    total = 0
    if len(calls) < len(blocks) or not calls:
        total = 3 + _short(enc, role) + (1 + _short(enc, name) if name else 0)
        total += sum(len(size(b[1])) for b in blocks if b[0] == "text")
    if len(calls) == 1:
        _, fn, args = calls[0]
        total += 3 + _short(enc, "assistant") + _short(enc, f" to=functions.{fn}") + len(size(args))
    elif calls:  # as _parallel renders it: one multi_tool_use.parallel call
        text, _ = _parallel_text(calls)
        total += 3 + _short(enc, "assistant") + _short(enc, " to=multi_tool_use.parallel")
        total += len(size(text))
    return total


def tools_key(request: Request) -> tuple:
    return tuple(
        (t.name, t.description, json.dumps(t.parameters, ensure_ascii=False)) for t in request.tools
    )


@lru_cache(maxsize=256)
def _system_total(enc: str, system: Spec | None, tools: tuple) -> int:
    """``_render_system`` counted without splitting the text by part."""
    namespace, _ = render_namespace([(n, d, json.loads(p)) for n, d, p in tools])
    if system is None:
        return 3 + _short(enc, "system") + len(encode(enc, HEADER + namespace))
    _, name, blocks = system
    texts = [b[1] for b in blocks if b[0] == "text"]
    total = 3 + _short(enc, "system") + (1 + _short(enc, name) if name else 0)
    total += sum(len(encode(enc, text)) for text in texts[:-1])
    lead = f"{texts[-1]}\n\n" if texts else ""
    return total + len(encode(enc, lead + HEADER + namespace))


def head_total(enc: str, system: Spec | None, tools: tuple, request: Request) -> int:
    """The system message carrying the tools (or one of their own) plus the reply priming."""
    total = _system_total(enc, system, tools) if tools else 0
    out = _Out(enc)
    _priming(out, request, [])
    return total + sum(p[2] for p in out.pieces)
