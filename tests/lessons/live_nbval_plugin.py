"""A pytest plugin for the live-mode nbval run (``tests/lessons/test_live_notebooks.py``).

nbval compares each cell's new outputs with the stored ones, but skips cells tagged
``nbval-ignore-output`` and keeps what it saw to itself. This plugin writes every code cell's
new outputs, with its tags, as one JSON line to the file named by ``ON_THE_WIRE_OUTPUTS_LOG``,
so the test can check what the live cells printed and that no output anywhere holds a key.
"""

from __future__ import annotations

import json
import os


def pytest_runtest_makereport(item, call):
    outputs = getattr(item, "test_outputs", None)
    if call.when != "call" or outputs is None or "ON_THE_WIRE_OUTPUTS_LOG" not in os.environ:
        return
    record = {
        "nodeid": item.nodeid,
        "tags": list(item.cell.metadata.get("tags", [])),
        "source": item.cell.source,
        "outputs": outputs,
    }
    with open(os.environ["ON_THE_WIRE_OUTPUTS_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps(record) + "\n")
