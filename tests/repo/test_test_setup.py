"""The test command really fails when a lesson breaks.

Runs the suite's own nbval configuration (strict mode, sanitize file, network guard) in a
subprocess over two small probe notebooks stored with real outputs (one intact, one whose cells
each break differently: one kernel start per notebook is most of the cost), and checks that:

- an intact notebook passes (so the harness can pass at all);
- a cell that raises fails;
- a stored printed number that no longer matches fails;
- a cell that opens a socket to a public address fails, blocked by the network guard.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.support.background import Background

ROOT = Path(__file__).resolve().parents[2]


def _notebook(*cells: tuple[str, list[dict]]) -> dict:
    return {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": i,
                "metadata": {},
                "outputs": outputs,
                "source": src,
            }
            for i, (src, outputs) in enumerate(cells, start=1)
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _stdout(text: str) -> list[dict]:
    return [{"output_type": "stream", "name": "stdout", "text": text}]


SUM = ("print(sum(range(10)))", _stdout("45\n"))
#: Two notebooks, so two kernels start: one that must pass, and one whose every cell but the
#: first breaks in its own way (nbval runs and reports each cell, whatever the one before did).
PROBES = {
    "intact": _notebook(("x = 2 + 2", []), SUM),
    "broken": _notebook(
        ("x = 2 + 2", []),
        ("print(undefined_name)", _stdout("45\n")),  # a cell that raises
        ("print(sum(range(10)))", _stdout("46\n")),  # a stored number that changed
        (
            "import socket\nsocket.create_connection(('93.184.216.34', 80), timeout=5)\n"
            "print('connected')",
            [],
        ),  # a public address: the network guard blocks it
    ),
}


def _run_probes(directory: Path, environ: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    for name, nb in PROBES.items():
        (directory / f"{name}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    report = directory / "report.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", str(directory), f"--junitxml={report}", "-q"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
    )
    results: dict[str, list[tuple[str, str]]] = {name: [] for name in PROBES}
    for case in ET.parse(report).iter("testcase"):
        # classname looks like "test-artifacts.probe-1a2b3c4d.broken_cell.ipynb"
        name = case.get("classname", "").removesuffix(".ipynb").rsplit(".", 1)[-1]
        failure = case.find("failure")
        outcome = "failed" if failure is not None else "passed"
        detail = (failure.get("message", "") + (failure.text or "")) if failure is not None else ""
        results[name].append((outcome, detail))
    return results


def probe(environ: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """The probes run by the test command in a folder of their own under the repository (its
    conftest applies), removed afterwards; the subprocess gets ``environ``."""
    directory = ROOT / "test-artifacts" / f"probe-{uuid.uuid4().hex[:8]}"
    directory.mkdir(parents=True)
    try:
        return _run_probes(directory, environ)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


PROBED = Background("probes")


@pytest.fixture(scope="module")
def results() -> dict[str, list[tuple[str, str]]]:
    """Usually already under way: the root conftest starts ``probe`` in a background thread,
    with the session's environment as it started, as soon as it knows this test will run."""
    return PROBED.result() if PROBED.started else probe(dict(os.environ))


def test_the_test_command_fails_on_broken_lessons(results):
    assert [o for o, _ in results["intact"]] == ["passed", "passed"]
    broken = results["broken"]
    assert [o for o, _ in broken] == ["passed", "failed", "failed", "failed"], broken

    outcome, detail = broken[1]
    assert outcome == "failed" and "NameError" in detail

    outcome, detail = broken[2]
    assert outcome == "failed" and "46" in detail and "45" in detail

    outcome, detail = broken[3]
    assert outcome == "failed" and "network blocked" in detail
