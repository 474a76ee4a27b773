"""Re-run lesson notebooks top to bottom in fresh kernels and store their outputs.

Usage: python scripts/run_notebooks.py [NOTEBOOK ...]   (default: every notebooks/NN_*.ipynb)

Kernels run exactly as under the tests: network blocked, no API keys, a clean IPython profile.
The stored outputs are what nbval later compares, so run this after every edit to a lesson.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers.netguard import write_offline_ipython_profile  # noqa: E402


def run(path: Path) -> float:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    started = time.perf_counter()
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    for cell in nb.cells:  # per-cell timestamps would make every re-run a diff
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
    return time.perf_counter() - started


def main(args: list[str]) -> int:
    paths = [Path(a) for a in args] or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    for name in list(os.environ):
        if name.endswith("_API_KEY") or name == "ON_THE_WIRE_LIVE":
            del os.environ[name]
    os.environ["ON_THE_WIRE_OFFLINE"] = "1"
    with tempfile.TemporaryDirectory(prefix="on-the-wire-ipython-") as ipython_dir:
        os.environ["IPYTHONDIR"] = str(write_offline_ipython_profile(Path(ipython_dir)))
        for i, path in enumerate(paths, start=1):
            print(f"[{i}/{len(paths)}] {path.name} ...", end=" ", flush=True)
            print(f"{run(path):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
