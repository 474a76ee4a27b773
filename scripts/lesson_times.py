"""How long each lesson takes a learner, estimated from what is in it.

Usage: python scripts/lesson_times.py            (prints a Markdown table)
       python scripts/lesson_times.py --write    (puts it into docs/instructor_guide.md)

The estimate is arithmetic on the notebook itself, so it is reproducible and stays true as
lessons change: prose read at 200 words a minute, one minute per code cell (read, run, look at
the output), four minutes per exercise (try, check, fix). It is an estimate of a focused
learner's time, not a measurement of a classroom; the instructor guide says how to adjust it.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS_PER_MINUTE = 200
MINUTES_PER_CODE_CELL = 1
MINUTES_PER_EXERCISE = 4
SOLUTION = re.compile(r"^\s*#+ BEGIN SOLUTION", re.M)


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def lesson_stats(path: Path) -> dict:
    nb = json.loads(path.read_text(encoding="utf-8"))
    markdown = [_source(c) for c in nb["cells"] if c["cell_type"] == "markdown"]
    # The "## Sources" list and the "## Under the hood" links are reference, not reading: they
    # do not count toward the time.
    markdown = [t for t in markdown if not t.startswith(("## Sources", "## Under the hood"))]
    code = [
        _source(c)
        for c in nb["cells"]
        if c["cell_type"] == "code"
        and "colab-setup" not in c.get("metadata", {}).get("tags", [])  # not lesson content
    ]
    words = sum(len(re.findall(r"[A-Za-z0-9$'’-]+", text)) for text in markdown)
    exercises = sum(1 for text in code if SOLUTION.search(text))
    minutes = (
        words / WORDS_PER_MINUTE
        + (len(code) - exercises) * MINUTES_PER_CODE_CELL
        + exercises * MINUTES_PER_EXERCISE
    )
    title = next(
        (
            line[2:].strip()
            for text in markdown
            for line in text.splitlines()
            if line.startswith("# ")
        ),
        path.stem,
    )
    return {
        "file": path.name,
        "title": title,
        "words": words,
        "code_cells": len(code),
        "exercises": exercises,
        "minutes": 5 * math.ceil(minutes / 5),  # rounded up to 5 minutes
    }


def table() -> str:
    rows = [lesson_stats(p) for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))]
    lines = [
        "| lesson | prose words | code cells | exercises | estimated time |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        link = f"[{r['title']}](../notebooks/{r['file']})"
        lines.append(
            f"| {link} | {r['words']} | {r['code_cells']} | {r['exercises']} | {r['minutes']} min |"
        )
    total = sum(r["minutes"] for r in rows)
    lines.append(f"| **whole series** | | | | **{total} min** |")
    return "\n".join(lines)


GUIDE = ROOT / "docs" / "instructor_guide.md"
START, END = "<!-- lesson-times:start -->\n", "\n<!-- lesson-times:end -->"


def write_guide() -> None:
    """Replace the table between the guide's markers with the current one."""
    text = GUIDE.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    GUIDE.write_text(head + START + table() + END + tail, encoding="utf-8")


if __name__ == "__main__":
    if "--write" in sys.argv[1:]:
        write_guide()
    else:
        print(table())
    sys.exit(0)
