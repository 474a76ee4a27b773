"""A switch a lesson offers must work: lesson 11 names four wire formats, and each one runs the
whole lesson, exercises included (their reference solutions), without an error or a failed
check. The stored outputs (nbval) cover the default; this covers the other three."""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import pytest

from tests.support.background import Background

LESSON_11 = Path(__file__).resolve().parents[2] / "notebooks" / "11_the_agent_loop.ipynb"
SWITCH = 'wire_format = "anthropic"'


def test_lesson_11_names_the_formats_its_switch_takes():
    switch = next(c.source for c in nbformat.read(LESSON_11, 4).cells if SWITCH in c.source)
    offered = re.search(r"# also: (.*)", switch).group(1)
    assert re.findall(r'"([a-z-]+)"', offered) == FORMATS


FORMATS = ["openai-chat", "openai-responses", "gemini"]


def _run_lesson_11(wire_format: str, environ: dict[str, str]) -> nbformat.NotebookNode:
    """Lesson 11 with its switch set to ``wire_format``, run top to bottom in a fresh kernel
    whose environment is ``environ``."""
    from nbclient import NotebookClient

    nb = nbformat.read(LESSON_11, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and SWITCH in cell.source:
            cell.source = cell.source.replace(SWITCH, f'wire_format = "{wire_format}"')
    NotebookClient(
        nb,
        timeout=300,
        startup_timeout=180,  # two kernels start at once on a busy two-core machine
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(LESSON_11.parent)}},
    ).execute(env=dict(environ))
    return nb


def prepare(environ: dict[str, str]) -> dict[str, nbformat.NotebookNode]:
    """The lesson in each format, each in its own fresh kernel, two at a time (two cores); the
    kernels get ``environ`` (the session's as it started), never what a test has set since."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as pool:
        done = pool.map(_run_lesson_11, FORMATS, [environ] * len(FORMATS))
        return dict(zip(FORMATS, done, strict=True))


RUNS = Background("switches")


@pytest.fixture(scope="module")
def runs() -> dict[str, nbformat.NotebookNode]:
    """The three runs. Usually already under way: the root conftest starts ``prepare`` in a
    background thread as soon as the session knows this module's runs will be needed."""
    return RUNS.result() if RUNS.started else prepare(dict(os.environ))


@pytest.mark.parametrize("wire_format", FORMATS)
def test_lesson_11_runs_in_every_wire_format_it_offers(wire_format, runs):
    nb = runs[wire_format]
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"{cell.id}: {out.ename}: {out.evalue}"
            text = out.get("text", "") + str(out.get("data", {}).get("text/plain", ""))
            assert "Not yet" not in text and "not answered" not in text, f"{cell.id}: {text}"
    switch_cell = next(c for c in nb.cells if "show_switch(" in c.source)
    family = wire_format.split("-")[0]  # the two OpenAI formats share a key and a host
    assert switch_cell.outputs[0]["text"].startswith(f"live mode off: {family} → stand-in")
