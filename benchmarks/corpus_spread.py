"""Our counts against the bill: every recorded real request in ``tests/corpus/`` with its usage.

For each accepted body whose billed usage was recorded (OpenAI Chat, Anthropic, Gemini), count
it offline with ``helpers.tokens.count_body`` and compare with the billed input tokens
(``usage_from``: input including cached). Counts labelled exact must equal the bill; for the
estimates the table gives the measured spread (count / billed: median, 10th and 90th
percentile, extremes), which is how far an estimate can be trusted.

``python -m benchmarks.corpus_spread`` prints the table (``make bench`` prints it too).
Bodies for models the table does not know are skipped and counted as such.
"""

from __future__ import annotations

import json
import statistics
import sys
from dataclasses import dataclass

from helpers.machinery.paths import ROOT

CORPUS = ROOT / "tests" / "corpus"
FORMATS = ("openai-chat", "anthropic", "gemini")


@dataclass
class Measured:
    id: str
    format: str
    model: str
    counted: int
    billed: int
    estimate: bool


def measure() -> tuple[list[Measured], int]:
    """Every countable corpus body, counted and billed; and how many were skipped."""
    from helpers.cost import usage_from
    from helpers.models import UnknownModelError, model_info
    from helpers.tokens import count_body

    out, skipped = [], 0
    for entry in json.loads((CORPUS / "index.json").read_text(encoding="utf-8")):
        if entry["status"] != 200 or not entry.get("usage") or entry["format"] not in FORMATS:
            continue
        try:
            info = model_info(entry["model"])
        except UnknownModelError:
            skipped += 1
            continue
        path = CORPUS / "bodies" / entry["format"] / f"{entry['id']}.json"
        body = json.loads(path.read_text(encoding="utf-8"))
        counted = count_body(body, entry["format"], info, live=False)
        billed = usage_from(entry["usage"], entry["format"]).input_tokens
        if billed:
            out.append(
                Measured(
                    entry["id"], entry["format"], info.id, counted.total, billed, counted.estimate
                )
            )
    return out, skipped


def table(rows: list[Measured], skipped: int) -> str:
    lines = [
        "| format | label | requests | equal to the bill | count / billed: median "
        "| p10 - p90 | min - max |",
        "|---|---|---:|---:|---:|---|---|",
    ]
    for fmt in FORMATS:
        for estimate in (False, True):
            group = [r for r in rows if r.format == fmt and r.estimate == estimate]
            if not group:
                continue
            ratios = sorted(r.counted / r.billed for r in group)
            p10, p90 = ratios[int(0.1 * (len(ratios) - 1))], ratios[int(0.9 * (len(ratios) - 1))]
            equal = sum(r.counted == r.billed for r in group)
            lines.append(
                f"| {fmt} | {'estimate' if estimate else 'exact'} | {len(group)} | {equal} | "
                f"{statistics.median(ratios):.3f} | {p10:.3f} - {p90:.3f} | "
                f"{ratios[0]:.3f} - {ratios[-1]:.3f} |"
            )
    lines.append(f"\n{skipped} bodies skipped: model not in data/models.json")
    return "\n".join(lines)


def main() -> int:
    print(table(*measure()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
