"""A count's label with the parts that make it an estimate, in one line (for headers and logs).

``explained(count)`` is what the stand-in's count header, ``/count`` and the capture
notes print. The learner's ``Count.label`` says how sure a count is; this adds where.
``table(count)`` is the breakdown as the command line prints it.
"""

from __future__ import annotations

import re

from helpers.tokens import Count

__all__ = ["explained", "table"]


def explained(counted: Count) -> str:
    """The label with its unit and the parts that make it an estimate, e.g. "estimate ±8
    tokens: tools[4] issue_refund ±4, tools[5] escalate_to_human ±4 (property without
    description)". Just the label when no part is uncertain. Per request: the bound is
    the sum of the parts' bounds."""
    if not counted.uncertain:
        return counted.label
    names = {r.part: r.label for r in counted.rows if r.part.startswith("tools[")}
    reasons: dict[str, list[str]] = {}
    for part in sorted(counted.uncertain, key=_natural):
        bound, why = counted.uncertain[part]
        named = f"{part} {names[part]}" if part in names else part
        reasons.setdefault(why, []).append(named if bound is None else f"{named} ±{bound}")
    unit = " tokens" if counted.error else ""
    parts = "; ".join(f"{_few(where)} ({why})" for why, where in reasons.items())
    return f"{counted.label}{unit}: {parts}"


def _natural(part: str) -> list[object]:
    """``tools[10]`` after ``tools[9]``: numbers in a part's path sort as numbers."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", part)]


def _few(parts: list[str]) -> str:
    """Up to three parts by name; more are counted: "tools[0] a, tools[1] b, tools[2] c and
    6 more"."""
    shown = ", ".join(parts[:3])
    return shown if len(parts) <= 3 else f"{shown} and {len(parts) - 3} more"


def table(counted: Count) -> str:
    """The breakdown as plain text: the CLI's ``count`` and the capture notes print it."""
    rows, total = counted.rows, counted.total
    width = max([len(r.part) + 2 * r.level for r in rows] + [4])
    lines = [f"{'part':<{width}}  {'what':<32} {'tokens':>7} {'share':>6}"]
    for r in rows:
        share = f"{100 * r.tokens / total:5.1f}%" if total else ""
        name = "  " * r.level + r.part
        lines.append(f"{name:<{width}}  {r.label[:32]:<32} {r.tokens:>7} {share:>6}")
    kind = counted.label
    lines.append(f"{'total':<{width}}  {kind + ', ' + counted.model:<32} {total:>7}")
    lines.append(f"method: {counted.method}")
    found = counted.uncertain.items()  # one line per estimated part: "tools[4] ±4 (anyOf)"
    lines += [f"estimated: {p} ±{'?' if b is None else b} ({why})" for p, (b, why) in found]
    lines += [f"note: {n}" for n in counted.notes]
    return "\n".join(lines)
