"""Every lesson ends with a dated list of the public sources behind its provider and SDK claims."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
LINK = re.compile(r"\[[^\]]+\]\(([^)\s]+)\)")
CHECKED = re.compile(r"checked (\d{4})-(\d{2})-(\d{2})\s*$")


def _markdown(path: Path) -> list[tuple[int, str]]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [
        (i, "".join(c["source"]) if isinstance(c["source"], list) else c["source"])
        for i, c in enumerate(nb["cells"])
        if c["cell_type"] == "markdown"
    ]


def sources_problems(path: Path) -> list[str]:
    """What is wrong with one lesson's "## Sources" cell (empty list: nothing)."""
    cells = _markdown(path)
    recap = [i for i, text in cells if text.startswith("## Recap")]
    sources = [(i, text) for i, text in cells if text.startswith("## Sources")]
    if len(recap) != 1 or len(sources) != 1:
        return [
            f"{path.name}: {len(recap)} recap and {len(sources)} sources cell(s), want one each"
        ]
    found: list[str] = []
    at, text = sources[0]
    between = [t for i, t in cells if recap[0] < i < at]
    if at < recap[0] or between:
        found.append(
            f"{path.name}: the Sources cell must be the first markdown cell after the recap"
        )
    entries = [line for line in text.splitlines() if line.startswith("- ")]
    if not entries:
        found.append(f"{path.name}: the Sources cell lists nothing")
    for line in entries:
        links = LINK.findall(line)
        if not links:
            found.append(f"{path.name}: no link in {line[:70]!r}")
        for url in links:
            if not url.startswith(("https://", "http://")):
                found.append(f"{path.name}: {url!r} is not a public http(s) link")
        if not CHECKED.search(line):
            found.append(f"{path.name}: no 'checked YYYY-MM-DD' date at the end of {line[:70]!r}")
    if re.search("/" + "work/|sha" + r"red/|file:|localhost|127\.0\.0\.1", text):
        found.append(f"{path.name}: a Sources entry points at a local path")
    return found


def test_there_are_lessons():
    assert len(LESSONS) >= 13


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_every_lesson_lists_dated_public_sources_after_its_recap(path):
    assert sources_problems(path) == []


def _probe(tmp_path: Path, cells: list[str]) -> Path:
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": c} for c in cells]}
    path = tmp_path / "99_probe.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


GOOD = "- a claim: [a page](https://example.org/doc), checked 2026-11-30"


def test_the_check_accepts_a_good_list(tmp_path):
    assert sources_problems(_probe(tmp_path, ["## Recap\n- x", "## Sources\n\n" + GOOD])) == []


@pytest.mark.parametrize(
    "cells, complaint",
    [
        (["## Recap", "**Next:** 01"], "and 0 sources"),
        (["## Sources\n" + GOOD, "## Recap"], "first markdown cell after the recap"),
        (
            ["## Recap", "**Next:** 01", "## Sources\n" + GOOD],
            "first markdown cell after the recap",
        ),
        (["## Recap", "## Sources\n- a claim, checked 2026-11-30"], "no link"),
        (["## Recap", "## Sources\n- a: [p](../data/x.json), checked 2026-11-30"], "not a public"),
        (["## Recap", "## Sources\n- a: [p](https://example.org)"], "no 'checked"),
        (
            ["## Recap", "## Sources\n- a: [p](http://127.0.0.1/x), checked 2026-11-30"],
            "local path",
        ),
    ],
)
def test_the_check_refuses_each_problem(tmp_path, cells, complaint):
    problems = sources_problems(_probe(tmp_path, cells))
    assert any(complaint in p for p in problems), problems
