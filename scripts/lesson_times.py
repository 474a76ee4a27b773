"""How long each lesson takes a learner, estimated from what is in it.

Usage: python scripts/lesson_times.py            (prints a Markdown table and the calibration)
       python scripts/lesson_times.py --write    (puts the table into the instructor guide and
                                                  the times into notebooks/README.md)

The estimate is arithmetic on the stored notebook, so it is reproducible and stays true as
lessons change. A learner

- reads the prose at 200 words a minute;
- reads, runs and looks at each code cell: one minute;
- reads the output the cells print (tables, JSON, dumps): OUTPUT_CHARS_PER_MINUTE characters
  of text a minute, slower than prose because it is dense; an output the lesson stores
  collapsed (``jupyter.outputs_hidden``) is optional reading and not counted;
- studies each figure or widget: one minute;
- does each exercise (try, check, fix): four minutes.

Calibration. The output reading rate is the one free constant. It is set so that the model's
stated times for lessons 00-06 *as the learner read them* add up to within 10% of 245
minutes: the time a learner who worked through 00-06 carefully reported (235-260 minutes,
issue 15 of this project; 245 is the middle). What the model needs of those seven lessons
(words, code cells, exercises, output characters, figures) is kept in
``lesson_times_calibration.json``, so the check stays valid after the lessons change;
``calibration()`` recomputes it and the tests keep it within 10%.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from course.exercises.solutions import exercise_cells  # noqa: E402

WORDS_PER_MINUTE = 200
MINUTES_PER_CODE_CELL = 1
MINUTES_PER_EXERCISE = 4
MINUTES_PER_FIGURE = 1  # a figure or a widget to study
OUTPUT_CHARS_PER_MINUTE = 800  # calibrated: see the module docstring
MEASURED_00_06 = 245  # minutes, a careful learner's reading of lessons 00-06 (issue 15)
LESSON_LIMIT = 30  # minutes: no lesson may be stated longer
WIDGET = "application/vnd.jupyter.widget-view+json"


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else (value or "")


def output_load(cell: dict) -> tuple[int, int]:
    """(characters of text to read, figures and widgets to study) in one cell's outputs."""
    if cell.get("metadata", {}).get("jupyter", {}).get("outputs_hidden"):
        return 0, 0
    chars = pictures = 0
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if "image/png" in data or WIDGET in data:
            pictures += 1
        elif out.get("output_type") == "stream":
            chars += len(_text(out.get("text")))
        elif "text/html" in data:
            chars += len(re.sub(r"<[^>]+>|&\w+;", "", _text(data["text/html"])))
        elif "text/markdown" in data:
            chars += len(_text(data["text/markdown"]))
        elif "text/plain" in data:
            chars += len(_text(data["text/plain"]))
    return chars, pictures


def estimate(words: int, code_cells: int, exercises: int, output_chars: int, figures: int) -> float:
    """The model: minutes for a careful learner, before rounding."""
    return (
        words / WORDS_PER_MINUTE
        + (code_cells - exercises) * MINUTES_PER_CODE_CELL
        + exercises * MINUTES_PER_EXERCISE
        + output_chars / OUTPUT_CHARS_PER_MINUTE
        + figures * MINUTES_PER_FIGURE
    )


def stated(minutes: float) -> int:
    return 5 * math.ceil(minutes / 5)  # rounded up to 5 minutes


def lesson_stats(path: Path) -> dict:
    nb = json.loads(path.read_text(encoding="utf-8"))
    markdown = [_source(c) for c in nb["cells"] if c["cell_type"] == "markdown"]
    # The "## Sources" list and the "## Under the hood" links are reference, not reading: they
    # do not count toward the time.
    markdown = [t for t in markdown if not t.startswith(("## Sources", "## Under the hood"))]
    code = [
        c
        for c in nb["cells"]
        if c["cell_type"] == "code"
        and "colab-setup" not in c.get("metadata", {}).get("tags", [])  # not lesson content
    ]
    exercises = exercise_cells(nb)
    words = sum(len(re.findall(r"[A-Za-z0-9$'’-]+", text)) for text in markdown)
    chars = pictures = 0
    for cell in code:
        if any(cell is e for e in exercises):
            continue  # a learner's exercise output is part of the exercise's minutes
        c, p = output_load(cell)
        chars, pictures = chars + c, pictures + p
    minutes = estimate(words, len(code), len(exercises), chars, pictures)
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
        "exercises": len(exercises),
        "output_chars": chars,
        "figures": pictures,
        "exact_minutes": minutes,
        "minutes": stated(minutes),
    }


def all_stats() -> list[dict]:
    return [lesson_stats(p) for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))]


CALIBRATION = Path(__file__).with_name("lesson_times_calibration.json")


def calibration() -> tuple[int, float]:
    """(stated minutes for 00-06 as measured, relative difference from the measured 245)."""
    measured = json.loads(CALIBRATION.read_text(encoding="utf-8"))
    total = sum(
        stated(
            estimate(r["words"], r["code_cells"], r["exercises"], r["output_chars"], r["figures"])
        )
        for r in measured["lessons"]
    )
    return total, (total - measured["measured_minutes"]) / measured["measured_minutes"]


def table(rows: list[dict] | None = None) -> str:
    rows = rows if rows is not None else all_stats()
    lines = [
        "| lesson | prose words | code cells | output to read (characters) | figures and "
        "widgets | exercises | estimated time |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        link = f"[{r['title']}](../notebooks/{r['file']})"
        lines.append(
            f"| {link} | {r['words']} | {r['code_cells']} | {r['output_chars']:,} | "
            f"{r['figures']} | {r['exercises']} | {r['minutes']} min |"
        )
    total = sum(r["minutes"] for r in rows)
    lines.append(f"| **whole series** | | | | | | **{total} min** |")
    then, off = calibration()
    now = sum(r["minutes"] for r in rows if r["file"][:2] <= "06")
    lines.append("")
    lines.append(
        f"Calibration: lessons 00-06 as the learner of issue 15 read them add up to {then} "
        f"minutes in this model, against {MEASURED_00_06} measured ({off:+.0%}); today they add "
        f"up to {now}."
    )
    return "\n".join(lines)


GUIDE = ROOT / "docs" / "instructor_guide.md"
LESSONS_README = ROOT / "notebooks" / "README.md"
START, END = "<!-- lesson-times:start -->\n", "\n<!-- lesson-times:end -->"


def write_guide(rows: list[dict]) -> None:
    """Replace the table between the guide's markers with the current one."""
    text = GUIDE.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    GUIDE.write_text(head + START + table(rows) + END + tail, encoding="utf-8")


def write_readme(rows: list[dict]) -> None:
    """Put each lesson's time into the last column of notebooks/README.md's table."""
    minutes = {r["file"]: r["minutes"] for r in rows}
    lines = LESSONS_README.read_text(encoding="utf-8").splitlines(keepends=True)
    for i, line in enumerate(lines):
        match = re.search(r"\]\((\d\d_[^)]+\.ipynb)\).*\| (\d+) min \|\s*$", line)
        if match and match.group(1) in minutes:
            lines[i] = line[: match.start(2)] + f"{minutes[match.group(1)]}" + line[match.end(2) :]
    LESSONS_README.write_text("".join(lines), encoding="utf-8")


if __name__ == "__main__":
    rows = all_stats()
    if "--write" in sys.argv[1:]:
        write_guide(rows)
        write_readme(rows)
    else:
        print(table(rows))
    sys.exit(0)
