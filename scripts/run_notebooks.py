"""Re-run lesson notebooks top to bottom in fresh kernels and store their outputs.

Usage: python scripts/run_notebooks.py [NOTEBOOK ...]   (default: every notebooks/NN_*.ipynb)

Kernels run exactly as under the tests: network blocked, no API keys, a clean IPython profile.
The stored outputs are what nbval later compares, so run this after every edit to a lesson.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from standin.netguard import offline_test_environment  # noqa: E402


@cache
def _sanitizer() -> list[tuple[re.Pattern, str]]:
    """The same normalisation nbval applies (ports, addresses...), plus widget model ids."""
    text = (ROOT / "tests" / "lessons" / "nbval_sanitize.cfg").read_text(encoding="utf-8")
    pairs = re.findall(r"^regex: (.*)$\n^replace: (.*)$", text, re.M)
    widget_id = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")
    return [(re.compile(a), b) for a, b in pairs] + [(widget_id, "ID")]


def _normalised(text: str) -> str:
    """The notebook as nbval compares it: saved widget state left out, ports and ids masked."""
    import json

    nb = json.loads(text)
    saved = nb.get("metadata", {}).pop("widgets", {})
    states = saved.get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    # widget ids are random and order the saved state: compare the states as a sorted list
    nb["metadata"]["widget states"] = sorted(
        _masked(json.dumps(v, sort_keys=True)) for v in states.values()
    )
    return _masked(json.dumps(nb, sort_keys=True, indent=0))


def _masked(text: str) -> str:
    for pattern, replacement in _sanitizer():
        text = pattern.sub(replacement, text)
    return text


def run(path: Path) -> tuple[float, bool]:
    """Execute one notebook; write it back only if its outputs really changed."""
    import nbformat
    from nbclient import NotebookClient

    before = path.read_text(encoding="utf-8")
    nb = nbformat.reads(before, as_version=4)
    started = time.perf_counter()
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    for cell in nb.cells:  # per-cell timestamps would make every re-run a diff
        cell.metadata.pop("execution", None)
    after = nbformat.writes(nb) + "\n"
    changed = _normalised(after) != _normalised(before)
    if changed:  # a new port or widget id alone is not a change worth a diff
        path.write_text(after, encoding="utf-8")
    return time.perf_counter() - started, changed


def main(args: list[str]) -> int:
    paths = [Path(a) for a in args] or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    with tempfile.TemporaryDirectory(prefix="on-the-wire-ipython-") as ipython_dir:
        offline_test_environment(Path(ipython_dir))
        for i, path in enumerate(paths, start=1):
            print(f"[{i}/{len(paths)}] {path.name} ...", end=" ", flush=True)
            seconds, changed = run(path)
            print(f"{seconds:.1f} s, {'updated' if changed else 'unchanged'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
