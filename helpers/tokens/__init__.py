"""Used in lessons: 02, 04, 05, 06, 08, 09, 12.

Counting input tokens: text, one message, or a whole request with a breakdown by part.

>>> c = count(request)          # the request's model, or pass model=...
>>> c.total, c.label, c.part("tools")   # 1342, "exact", 612; c.rows: the breakdown by part

The model's counting rule comes from ``data/models.json`` (``RULES``). What it deliberately
does not do: load a tokenizer at import time (the first count loads one, about half a second),
or touch the network.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from helpers.messages import Message, Reasoning, Request, Text, Tool, ToolCall
from helpers.models import ModelInfo, info_for
from helpers.tokens import estimate, exactness, harmony, openai_chat
from helpers.tokens.encodings import Piece, count_sections, encode, encoding_name, split_at
from helpers.tokens.harmony import render_harmony
from helpers.tokens.openai_chat import render_namespace

__all__ = [
    "Count",
    "Piece",
    "Row",
    "rows_from_pieces",
    "count",
    "counted",
    "count_output",
    "count_sections",
    "count_text",
    "render_harmony",
    "render_namespace",
    "token_keys",
    "ToolParts",
    "tool_parts",
]


class Row(NamedTuple):
    """One line of the breakdown."""

    part: str  # "messages[2]" or "messages[2].content[1]"
    label: str  # "assistant", "text", "tool_call search_orders", "framing", ...
    tokens: int
    level: int  # 0: a top part; 1: inside the row above


@dataclass
class Count:
    """How many input tokens a request costs on one model, and where they go.

    How sure the number is (``estimate``, ``uncertain``, ``method``, ``spread``) is worked out
    from the request when first read (``helpers.tokens.exactness``), not by every count.
    """

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
        found = self.request is not None and self.info is not None
        return exactness.uncertain(self.request, self.info) if found else {}

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
        if self.spread and not self.uncertain:
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


#: Each counting rule of ``data/models.json``: the module whose ``pieces`` renders a request as
#: pieces (and notes), and whose ``labels`` names its parts.
RULES = {
    "openai-chat-2024": openai_chat,
    "anthropic-estimate": estimate,
    "gemini-estimate": estimate,
    "harmony": harmony,
}


def count(request: Request, model: str | ModelInfo | None = None) -> Count:
    """Input tokens of a whole request on ``model`` (default: the request's own model).

    It renders the request as pieces with the model's counting rule and tokenizes them. It
    never touches the network.
    """
    info = info_for(model, request)
    if info.counting not in RULES:
        raise ValueError(f"data/models.json: unknown counting rule {info.counting!r}")
    found, notes = RULES[info.counting].pieces(request, info)
    return counted(request, info, found, notes)


def counted(request: Request, info: ModelInfo, pieces: list[Piece], notes: list[str]) -> Count:
    """The ``Count`` of a request's pieces (the fast twin in the stand-in makes one too)."""
    notes = [info.note, *notes] if info.note else notes
    return Count(info.id, sum(p.n for p in pieces), notes, pieces, request, info)


def count_text(text: str, model: str | ModelInfo | None = None) -> int:
    """Tokens of plain text, no framing (a proxy tokenizer's count for Claude and Gemini)."""
    return len(encode(encoding_name(info_for(model)), text))


def count_output(message: Message, model: str | ModelInfo | None = None) -> int:
    """Output tokens of a reply, as the local provider bills it and the cost model prices it.

    A tool call is its name followed by its arguments as JSON: *our* rule (real providers add a
    few unpublished tokens per call), so against a real bill the output count is an estimate.
    """
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


@dataclass
class ToolParts:
    name: str
    description: int
    signature: int  # the "type name = (_: {" line: the name plus TypeScript syntax
    parameters: int  # parameter descriptions, names, types, optional marks, closing
    estimate: bool = False

    @property
    def total(self) -> int:
        return self.description + self.signature + self.parameters


def tool_parts(tools: list[Tool], model: str | ModelInfo) -> tuple[list[ToolParts], int]:
    """Per tool, its tokens by part; and the tokens of the namespace framing around them.

    The namespace is encoded once and each token given to the part it starts in
    (``split_at``), so the parts add up to the namespace's tokens. Exact only for a model
    whose tokenizer is public; otherwise the ``PROXY``, and ``estimate`` is True.
    """
    info = info_for(model)
    text, starts = render_namespace([(t.name, t.description, t.parameters) for t in tools])
    cuts = []  # for each tool: where its description, its name line and its parameters start
    for tool, start in zip(tools, starts, strict=True):
        signature = start + (len(f"// {tool.description}\n") if tool.description else 0)
        cuts += [start, signature, text.index("\n", signature) + 1]
    groups = split_at(encoding_name(info), text, [*cuts, text.rindex("} // ")])
    parts = [
        ToolParts(t.name, *(len(g) for g in groups[1 + 3 * i : 4 + 3 * i]), info.encoding is None)
        for i, t in enumerate(tools)
    ]
    return parts, len(groups[0]) + len(groups[-1])
