"""Used in lessons: none directly (imported by harmony, tokens, tokens.encodings, tokens.estimate).

The result of counting: the total, where the tokens go, and how sure we are.

A counting rule turns a request into ``Piece``\\ s: runs of tokens, each owned by one *part*
named by its path (``tools[3]``, ``messages[2]`` for that message's framing,
``messages[2].content[1]`` for one block, ``priming``). ``Count`` groups them into two levels of
rows, a top row per tool list or message and one row per block or tool under it (plus
``framing``), so inner rows add up to their top row and top rows to the total.

What it deliberately does not do: render anything itself (``openai_chat``, ``estimate`` do).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from helpers.html import no_math

__all__ = ["Count", "Piece", "Row"]


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
    """How many input tokens a request costs on one model, and where they go."""

    model: str
    total: int
    rows: list[Row]
    estimate: bool  # True unless counted with the model's own tokenizer and a verified rendering
    method: str  # how the number was obtained, in words
    notes: list[str] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list, repr=False)
    #: part -> (tokens it can be off, None if unknown; why): what makes this an estimate
    uncertain: dict[str, tuple[int | None, str]] = field(default_factory=dict)
    #: for a proxy estimate (Claude, Gemini): how far recorded bills were from such counts
    spread: str = ""

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

    def explained(self) -> str:
        """The label with its unit and the parts that make it an estimate, e.g. "estimate ±8
        tokens: tools[4] issue_refund ±4, tools[5] escalate_to_human ±4 (property without
        description)". Just the label when no part is uncertain. Per request: the bound is
        the sum of the parts' bounds."""
        if not self.uncertain:
            return self.label
        names = {r.part: r.label for r in self.rows if r.part.startswith("tools[")}
        reasons: dict[str, list[str]] = {}
        for part in sorted(self.uncertain, key=_natural):
            bound, why = self.uncertain[part]
            named = f"{part} {names[part]}" if part in names else part
            reasons.setdefault(why, []).append(named if bound is None else f"{named} ±{bound}")
        unit = " tokens" if self.error else ""
        parts = "; ".join(f"{_few(where)} ({why})" for why, where in reasons.items())
        return f"{self.label}{unit}: {parts}"

    def __int__(self) -> int:
        return self.total

    def top(self) -> dict[str, int]:
        """Top-level parts and their tokens: ``{"tools": 612, "messages[0]": 300, ...}``."""
        return {r.part: r.tokens for r in self.rows if r.level == 0}

    def part(self, path: str) -> int:
        """Tokens of one part and everything inside it, e.g. ``count.part("tools")``."""
        return sum(p.n for p in self.pieces if _top_or_self(p.part, path))

    def table(self) -> str:
        """The breakdown as plain text (the CLI prints this)."""
        width = max([len(r.part) + 2 * r.level for r in self.rows] + [4])
        lines = [f"{'part':<{width}}  {'what':<32} {'tokens':>7} {'share':>6}"]
        for r in self.rows:
            share = f"{100 * r.tokens / self.total:5.1f}%" if self.total else ""
            name = "  " * r.level + r.part
            lines.append(f"{name:<{width}}  {r.label[:32]:<32} {r.tokens:>7} {share:>6}")
        kind = self.label
        lines.append(f"{'total':<{width}}  {kind + ', ' + self.model:<32} {self.total:>7}")
        lines.append(f"method: {self.method}")
        lines += [f"estimated: {p} {_bound(b)} ({why})" for p, (b, why) in self.uncertain.items()]
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        kind = self.label
        body = []
        for r in self.rows:
            style = "" if r.level == 0 else ' style="color:#666"'
            pad = "&nbsp;" * 4 * r.level
            share = f"{100 * r.tokens / self.total:.1f}%" if self.total else ""
            body.append(
                f"<tr{style}><td><code>{pad}{html.escape(r.part)}</code></td>"
                f"<td>{html.escape(r.label)}</td><td style='text-align:right'>{r.tokens}</td>"
                f"<td style='text-align:right'>{share}</td></tr>"
            )
        estimated = [
            f"estimated: {p} {_bound(b)} ({why})" for p, (b, why) in self.uncertain.items()
        ]
        notes = "".join(f"<li>{html.escape(n)}</li>" for n in estimated + self.notes)
        return no_math(
            f"<div><b>{self.total} input tokens</b> on <code>{html.escape(self.model)}</code> "
            f"({kind})<table><tr><th>part</th><th>what</th><th>tokens</th><th>share</th></tr>"
            f"{''.join(body)}</table><small>{html.escape(self.method)}</small>"
            f"{f'<ul>{notes}</ul>' if notes else ''}</div>"
        )


def _bound(bound: int | None) -> str:
    return "±?" if bound is None else f"±{bound}"


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


def _natural(part: str) -> list[object]:
    """``tools[10]`` after ``tools[9]``: numbers in a part's path sort as numbers."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", part)]


def _few(parts: list[str]) -> str:
    """Up to three parts by name; more are counted: "tools[0] a, tools[1] b, tools[2] c and
    6 more"."""
    shown = ", ".join(parts[:3])
    return shown if len(parts) <= 3 else f"{shown} and {len(parts) - 3} more"
