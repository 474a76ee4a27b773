"""Used in lessons: 02, 04, 05, 06, 08, 09, 10, 12, 13.

Counting input tokens: text, one message, or a whole request with a breakdown by part.

>>> c = count(request)          # the request's model, or pass model=...
>>> c.total, c.label, c.part("tools")   # 1342, "exact", 612; c.rows: the breakdown by part

The model's counting rule (``RULES``, named in ``data/models.json``) says what the model is
shown (``helpers.tokens.seen``); ``tokenize`` encodes the text between two boundaries once and
gives each token to the piece it starts in, so the parts add up to the total. What it
deliberately does not do: load a tokenizer at import time (the first count loads one, about half
a second), read special tokens inside user text, or touch the network.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate
from typing import NamedTuple

from helpers.messages import Message, Reasoning, Request, Text, ToolCall
from helpers.models import ModelInfo, info_for
from helpers.tokens import estimate, exactness, gemini, harmony, openai_chat
from helpers.tokens.harmony import render_harmony
from helpers.tokens.namespace import render_namespace
from helpers.tokens.parts import ToolParts, count_sections, tool_parts
from helpers.tokens.seen import CUT, Seen, Sized, Special, Tokens
from helpers.tokens.tokenizers import encode, encoding_name, special_id, split_at

__all__ = [
    "RULES", "Count", "Piece", "Row", "ToolParts", "count", "count_output", "count_sections",
    "count_text", "counted", "render_harmony", "render_namespace", "rows_from_pieces",
    "token_keys", "tokenize", "tool_parts",
]  # fmt: skip


class Piece(NamedTuple):
    """A run of tokens owned by one part of the request (a named tuple: cheap to make)."""

    part: str  # "tools[3]", "messages[2]", "messages[2].content[1]", "priming", ...
    ids: tuple[int, ...] | None  # token ids, or None where only a count exists (images, overhead)
    n: int  # number of tokens
    key: object = None  # what identifies the content when ``ids`` is None (for cache prefixes)

    @staticmethod
    def of(part: str, ids: tuple[int, ...]) -> Piece:
        return Piece(part, ids, len(ids))


class Row(NamedTuple):
    """One line of the breakdown."""

    part: str  # "messages[2]" or "messages[2].content[1]"
    label: str  # "assistant", "text", "tool_call search_orders", "framing", ...
    tokens: int
    level: int  # 0: a top part; 1: inside the row above


@dataclass
class Count:
    """How many input tokens a request costs on one model, and where they go. How sure the
    number is (``estimate``, ``uncertain``, ``method``, ``spread``) is worked out from the request
    when first read (``helpers.tokens.exactness``), not by every count."""

    model: str
    total: int
    notes: list[str] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list, repr=False)
    request: Request | None = field(default=None, repr=False)  # what was counted
    info: ModelInfo | None = field(default=None, repr=False)  # the model row it was counted with

    @cached_property
    def rows(self) -> list[Row]:
        """The breakdown by part, grouped from the pieces when first read."""
        return rows_from_pieces(self.pieces, self.labels)

    @cached_property
    def labels(self) -> dict[str, str]:
        """Part -> readable name (the rows' second column), from the rule when first read."""
        if self.request is None or self.info is None:
            return {}
        return RULES[self.info.counting].labels(self.request, self.info)

    @cached_property
    def uncertain(self) -> dict[str, tuple[int | None, str]]:
        """Part -> (tokens it can be off, None if unknown; why): what makes this an estimate."""
        if self.request is None or self.info is None:
            return {}
        rule = RULES[self.info.counting]  # a rule with its own ``uncertain`` (gemini) says it
        return getattr(rule, "uncertain", exactness.uncertain)(self.request, self.info)

    @cached_property
    def estimate(self) -> bool:
        """True unless counted with the model's own tokenizer and a verified rendering."""
        return self.info is not None and (self.info.encoding is None or bool(self.uncertain))

    @cached_property
    def method(self) -> str:
        """How the number was obtained, in words."""
        return exactness.method(self.info) if self.info else ""

    @cached_property
    def spread(self) -> str:
        """For a proxy estimate (Claude, Gemini): how far recorded bills were from such counts."""
        return estimate.sentence(self.info.counting, self.info.id) if self.info else ""

    @property
    def error(self) -> int | None:
        """How many tokens the total can be off (None: unknown, 0: exact)."""
        bounds = [bound for bound, _ in self.uncertain.values()]
        return None if None in bounds else sum(bounds)

    @property
    def label(self) -> str:
        """``exact``, ``estimate ±N``, ``estimate, error unknown``, or for Claude and Gemini the
        measured spread: ``estimate; on 75 recorded requests (10-1,491 tokens) the bill was
        0.69-1.50x this count (median 1.15)`` (``estimate.sentence``)."""
        if not self.estimate:
            return "exact"
        own = getattr(RULES[self.info.counting], "uncertain", None) if self.info else None
        measured = own is not None and self.uncertain == own(self.request, self.info)  # Gemini's
        calls = all(why.startswith(("function", "thought")) for _, why in self.uncertain.values())
        if self.spread and (not self.uncertain or measured and calls):
            return f"estimate; {self.spread}"
        error = self.error
        return "estimate" + (f" ±{error}" if error else ", error unknown" if error is None else "")

    def systems(self) -> list[str]:
        """The top parts that are system messages: ``["messages[0]"]``, or none."""
        messages = self.request.messages if self.request is not None else []
        return [f"messages[{i}]" for i, m in enumerate(messages) if m.role == "system"]

    def part(self, path: str) -> int:
        """Tokens of one part and everything inside it, e.g. ``count.part("tools")``."""
        return sum(p.n for p in self.pieces if _top_or_self(p.part, path))


def _top_or_self(part: str, path: str) -> bool:
    return part == path or part.startswith(path + ".") or _top(part) == path


def _top(part: str) -> str:
    head = part.split(".", 1)[0]
    return "tools" if head.startswith("tools[") else head


def rows_from_pieces(pieces: list[Piece], labels: dict[str, str]) -> list[Row]:
    """Group pieces into top rows (``tools``, ``messages[2]``...) and rows inside them."""
    inner: dict[str, dict[str, int]] = {}
    for piece in pieces:
        parts = inner.setdefault(_top(piece.part), {})
        parts[piece.part] = parts.get(piece.part, 0) + piece.n
    rows = []
    for top, parts in inner.items():
        rows.append(Row(top, labels.get(top, top), sum(parts.values()), 0))
        if list(parts) == [top]:
            continue  # nothing inside worth a row of its own
        for path, n in parts.items():
            rows.append(Row(path, "framing" if path == top else labels.get(path, path), n, 1))
    return rows


#: Each counting rule of ``data/models.json``: the module whose ``seen`` says what the model is
#: shown (and notes), and whose ``labels`` names the parts.
RULES = {
    "openai-chat-2024": openai_chat,
    "anthropic-estimate": estimate,
    "gemini-estimate": estimate,
    "gemini-gemma3": gemini,
    "harmony": harmony,
}


def count(request: Request, model: str | ModelInfo | None = None) -> Count:
    """Input tokens of a whole request on ``model`` (default: the request's own model): what
    the model's counting rule says the model is shown, tokenized. It never touches the network."""
    info = info_for(model, request)
    if info.counting not in RULES:
        raise ValueError(f"data/models.json: unknown counting rule {info.counting!r}")
    seen, notes = RULES[info.counting].seen(request, info)
    return counted(request, info, tokenize(seen, encoding_name(info)), notes)


def tokenize(seen: list[Seen], name: str) -> list[Piece]:
    """What the model is shown, as pieces of tokens of encoding ``name``: each run of text
    between two boundaries encoded once, its tokens cut back into their parts."""
    pieces: list[Piece] = []
    run: list[tuple[str, str]] = []  # the texts since the last boundary
    for part, content in [*seen, ("", CUT)]:  # a last boundary ends the last run
        if not isinstance(content, Special | Sized | Tokens):
            run += [(part, content)] if content else []
            continue
        pieces += _run_pieces(run, name)
        run = []
        if isinstance(content, Sized):
            pieces.append(Piece(part, None, content.tokens, content.key))
        elif isinstance(content, Tokens):
            pieces.append(Piece.of(part, tuple(content)))
        elif content:
            pieces.append(Piece.of(part, (special_id(name, content),)))
    return pieces


def _run_pieces(run: list[tuple[str, str]], name: str) -> list[Piece]:
    """One run of texts encoded as one string, its tokens cut back into their parts."""
    if not run:
        return []
    cuts = list(accumulate(len(text) for _, text in run[:-1]))
    groups = split_at(name, "".join(text for _, text in run), cuts)
    return [Piece.of(part, ids) for (part, _), ids in zip(run, groups, strict=True) if ids]


def counted(request: Request, info: ModelInfo, pieces: list[Piece], notes: list[str]) -> Count:
    """The ``Count`` of a request's pieces."""
    notes = [info.note, *notes] if info.note else notes
    return Count(info.id, sum(p.n for p in pieces), notes, pieces, request, info)


def count_text(text: str, model: str | ModelInfo | None = None) -> int:
    """Tokens of plain text, no framing (a proxy tokenizer's count for Claude and Gemini)."""
    return len(encode(encoding_name(info_for(model)), text))


def count_output(message: Message, model: str | ModelInfo | None = None) -> int:
    """Output tokens of a reply, as the stand-in bills it and the cost model prices it. A tool
    call is its name followed by its arguments as JSON: *our* rule (real providers add a few
    unpublished tokens per call), so against a real bill the output count is an estimate."""
    total = 0
    for block in message.content:
        if isinstance(block, Text | Reasoning):
            total += count_text(block.text, model) if block.text else 0
        elif isinstance(block, ToolCall):
            total += count_text(block.name + json.dumps(block.arguments), model)
    return total


def token_keys(counted: Count) -> tuple[list[object], list[str]]:
    """The request as a flat token sequence (real ids; for content only counted, such as an
    image, one key per token from what identifies it), with the part each token belongs to:
    two requests share a cache prefix exactly as far as these agree (``helpers.cost.caching``)."""
    keys: list[object] = []
    parts: list[str] = []
    for piece in counted.pieces:
        if piece.ids is not None:
            keys.extend(piece.ids)
        else:
            keys.extend((piece.key, k) for k in range(piece.n))
        parts.extend([piece.part] * piece.n)
    return keys, parts
