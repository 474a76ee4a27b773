"""Live mode across the notebooks: which cells send, to where, and that nothing else does.

Every kernel here blocks the network (conftest's IPython profile); the "real API" is a stand-in
on 127.0.0.1 reached through the base-URL overrides (``tests/support/live_support.py``).

1. The whole notebook suite, under nbval in one pytest subprocess, with fake keys and
   ``ON_THE_WIRE_LIVE=1``: every stored output still matches (the cells tagged ``live`` are
   exempt from the comparison, nothing else), and the stand-in saw exactly the requests of the
   LIVE cell, keys redacted.
2. Lesson 11 cell by cell against a working stand-in: only the LIVE cell sends, and what.
3. Lesson 11 with no stand-in (the real host, blocked) and with no key: its live cells print
   one clear line each.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from helpers.examples import sundry
from standin import LocalProvider, live
from tests.support.background import Background
from tests.support.live_support import FAKE_KEYS, RejectingAPI, live_env

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
LIVE_LESSON = ROOT / "notebooks" / "11_the_agent_loop.ipynb"


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def _text(cell) -> str:
    """Everything a code cell shows: streams, values, errors."""
    parts = []
    for out in cell.get("outputs", []):
        parts.append(out.get("text", ""))
        parts += [str(v) for v in out.get("data", {}).values()]
        parts += out.get("traceback", [])
    return "".join(parts)


def _no_key_in(text: str) -> None:
    for name, key in FAKE_KEYS.items():
        assert key not in text, f"{name} leaked"


def _live_lessons() -> list[Path]:
    return [p for p in LESSONS if "run_live(" in p.read_text(encoding="utf-8")]


# --- how the live cells are written ----------------------------------------------------------


def test_only_lesson_11_can_go_live_and_it_says_so_in_its_first_output():
    assert _live_lessons() == [LIVE_LESSON]
    for path in LESSONS:
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        for cell in code:
            calls_live = re.search(r"\b(run_live|show_switch)\(|live=True", cell.source)
            tagged = "live" in _tags(cell)
            assert bool(calls_live) == tagged, f"{path.name}: {cell.source[:60]!r}"
            if tagged:  # its output depends on the switch, so nbval must not compare it
                assert "nbval-ignore-output" in _tags(cell)
            if path != LIVE_LESSON:  # lessons that cannot go live say nothing about it
                assert "live mode" not in _text(cell).lower(), path.name
        if path == LIVE_LESSON:  # the first after the Colab set-up cell (silent off Colab)
            lesson_code = [c for c in code if "colab-setup" not in _tags(c)]
            assert "show_switch(" in lesson_code[0].source, "the switch line is the first output"


def test_the_stored_live_outputs_are_the_offline_lines():
    nb = nbformat.read(LIVE_LESSON, as_version=4)
    live_cells = [c for c in nb.cells if "live" in _tags(c)]
    wire = re.search(r'wire_format = "([a-z-]+)"', live_cells[0].source).group(1)
    off = live.switch_line(wire, env={})
    assert _text(live_cells[0]) == off + "\n"
    assert [_text(c) for c in live_cells[1:]] == [
        f"live mode off: {live.family(wire)} uses the stand-in (live needs "
        f"{live.KEYS[live.family(wire)]} and ON_THE_WIRE_LIVE=1)\n"
    ]


# --- 1. the whole suite, fake keys, live mode on ------------------------------------------------


def _live_run(folder: Path):
    """nbval over every lesson in two pytest subprocesses side by side (two cores), with fake
    keys and live mode on against a ``RejectingAPI``. The root conftest would drop the keys, so
    it is left out: the kernels still block the network, through the ``IPYTHONDIR`` profile this
    session's conftest made. ``tests/lessons/live_nbval_plugin.py`` logs every cell's new
    outputs, compared by nbval or not. Returns the runs' exit codes and reports, the logged
    cells, the stand-in's URL and what it recorded."""
    halves = [[str(p.relative_to(ROOT)) for p in LESSONS[i::2]] for i in (0, 1)]
    logs = [folder / f"outputs-{i}.jsonl" for i in (0, 1)]
    with RejectingAPI() as remote:
        env = {**os.environ, **live_env(remote.url)}
        runs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "pytest",
                    "--noconftest",
                    "-p",
                    "tests.lessons.live_nbval_plugin",
                ]
                + ["-q", *half],
                cwd=ROOT,
                env={**env, "ON_THE_WIRE_OUTPUTS_LOG": str(log)},
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for half, log in zip(halves, logs, strict=True)
        ]
        outputs = [run.communicate(timeout=1200)[0] for run in runs]
    cells = [json.loads(line) for log in logs for line in log.read_text().splitlines()]
    return [run.returncode for run in runs], outputs, cells, remote.url, remote.records


# Usually already under way: the root conftest starts ``_live_run`` in a background thread as
# soon as the session knows this test will run (its two subprocesses overlap the other tests).
LIVE_RUN = Background("live-notebooks")


def test_every_notebook_passes_unchanged_with_fake_keys_and_live_mode_on(tmp_path):
    """Every stored output still matches with fake keys and live mode on (the cells tagged
    ``live`` are exempt, nothing else); the stand-in saw only the LIVE cell's request."""
    assert os.environ.get("IPYTHONDIR") and os.environ.get("ON_THE_WIRE_OFFLINE") == "1"
    run = LIVE_RUN.result() if LIVE_RUN.started else _live_run(tmp_path)
    returncodes, outputs, cells, url, records = run
    for returncode, report in zip(returncodes, outputs, strict=True):
        assert returncode == 0, report[-4000:]
        assert re.search(r"\b\d+ passed\b", report) and " failed" not in report
        _no_key_in(report)
    # What every cell printed: no key anywhere; the live cells one clear line each.
    code_cells = sum(
        1 for p in LESSONS for c in nbformat.read(p, as_version=4).cells if c.cell_type == "code"
    )
    assert len(cells) == code_cells
    _no_key_in(json.dumps(cells))
    shown = [_text({"outputs": c["outputs"]}) for c in cells if "live" in c["tags"]]
    assert shown == [
        f"live mode ON: anthropic → LIVE {url} (ANTHROPIC_API_KEY=<redacted>); only the "
        "cells marked LIVE send there\n",
        f"LIVE anthropic {url}/v1/messages failed: HTTP 401 (the key was refused: check "
        'ANTHROPIC_API_KEY) {"type": "error", "error": {"type": "authentication_error", '
        '"message": "invalid x-api-key"}, "request_id": "req_local_error"}\n',
    ]
    # The stand-in saw the LIVE cell's first request (rejected: a fake key), and nothing else.
    assert [(r["method"], r["path"]) for r in records] == [("POST", "/v1/messages")]
    sent = records[0]
    assert sent["headers"]["x-api-key"] == "<redacted>"
    assert json.loads(sent["body"])["messages"][-1]["content"][0]["text"] == sundry.TICKET_TEXT
    _no_key_in(json.dumps(records))


# --- 2. and 3. lesson 11, cell by cell: run once each, in the background -----------------------


def _execute(path: Path, environ: dict[str, str], until_tag_count: int | None = None):
    """Run a lesson cell by cell in a kernel whose environment is ``environ``; yield (index,
    cell) after each code cell."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    seen_live = 0
    with client.setup_kernel(env=dict(environ)):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            client.execute_cell(cell, index)
            yield index, cell
            seen_live += "live" in _tags(cell)
            if until_tag_count is not None and seen_live >= until_tag_count:
                return


# Section 3's cases: live mode asked for where it cannot work.
CANNOT = {
    "network-blocked": {**FAKE_KEYS, "ON_THE_WIRE_LIVE": "1"},  # no stand-in: the real host
    "no-key": {"ON_THE_WIRE_LIVE": "1"},  # asked for, but no key
}


def _lesson_11_runs(environ: dict[str, str]) -> dict:
    """Lesson 11's runs for sections 2 and 3, each in a fresh kernel with ``environ`` (the
    session's as it started) plus its case's variables, never what a test has set since.

    ``"stand-in"``: (the stand-in's URL, [(index, cell, requests it had seen after that cell)],
    its exchanges), the whole lesson against a working stand-in playing the real API; each
    case of ``CANNOT``: [(index, cell)] up to its second live cell.
    """
    runs: dict = {}
    with LocalProvider() as remote:  # a second loopback server, playing the real API
        env = {**environ, **live_env(remote.url)}
        steps = [(i, c, len(remote.exchanges)) for i, c in _execute(LIVE_LESSON, env)]
        runs["stand-in"] = (remote.url, steps, list(remote.exchanges))
    for case, variables in CANNOT.items():
        runs[case] = list(_execute(LIVE_LESSON, {**environ, **variables}, until_tag_count=2))
    return runs


LESSON_11_RUNS = Background("lesson-11-live")


@pytest.fixture(scope="module")
def lesson_11_runs() -> dict:
    """Usually already under way: the root conftest starts ``_lesson_11_runs`` in a background
    thread as soon as the session knows a test here needs it (each assertion as before, on
    what the run recorded)."""
    if LESSON_11_RUNS.started:
        return LESSON_11_RUNS.result()
    return _lesson_11_runs(dict(os.environ))


def test_lesson_11_only_its_live_cell_sends_and_only_to_the_stand_in(lesson_11_runs):
    url, steps, exchanges = lesson_11_runs["stand-in"]
    senders = {}
    before = 0
    for index, cell, seen in steps:
        _no_key_in(_text(cell))
        assert not [o for o in cell.outputs if o.output_type == "error"], cell.source
        if seen > before:
            senders[index] = seen - before
        before = seen
        if "show_switch(" in cell.source:
            assert _text(cell) == (
                f"live mode ON: anthropic → LIVE {url} (ANTHROPIC_API_KEY=<redacted>)"
                "; only the cells marked LIVE send there\n"
            )
        if "run_live(" in cell.source:
            assert _text(cell).startswith(f"LIVE anthropic: 4 requests to {url}\n")
    nb = nbformat.read(LIVE_LESSON, as_version=4)
    assert {i: "run_live(" in nb.cells[i].source for i in senders} == {i: True for i in senders}
    assert list(senders.values()) == [4]
    for exchange in exchanges:
        headers = {k.lower(): v for k, v in exchange.request_headers}
        assert exchange.path == "/v1/messages" and headers["x-api-key"] == "<redacted>"
        _no_key_in(str(exchange))


# --- 3. lesson 11's live cells when live mode cannot work ---------------------------------------


@pytest.mark.parametrize(
    "case, switch, cell",
    [
        (
            "network-blocked",
            "live mode ON: anthropic → LIVE https://api.anthropic.com (ANTHROPIC_API_KEY="
            "<redacted>); only the cells marked LIVE send there",
            "LIVE anthropic https://api.anthropic.com/v1/messages failed: ConnectError: "
            "network blocked: name lookup of api.anthropic.com:443 is not on this machine.",
        ),
        (
            "no-key",
            "warning: ON_THE_WIRE_LIVE=1 but ANTHROPIC_API_KEY is not set: anthropic stays on "
            "the stand-in",
            "warning: ON_THE_WIRE_LIVE=1 but ANTHROPIC_API_KEY is not set: anthropic stays on "
            "the stand-in",
        ),
    ],
    ids=["network-blocked", "no-key"],
)
def test_lesson_11_live_cells_print_one_clear_line(lesson_11_runs, case, switch, cell):
    shown = [_text(c) for _, c in lesson_11_runs[case] if "live" in _tags(c)]
    assert len(shown) == 2 and all(text.count("\n") == 1 for text in shown), shown
    assert shown[0] == switch + "\n"
    assert shown[1].startswith(cell)
    _no_key_in("".join(shown))
