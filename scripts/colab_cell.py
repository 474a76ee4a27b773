"""The Colab set-up cell: the first code cell of every lesson, a no-op anywhere but Colab.

Usage: python scripts/colab_cell.py [--check] [NOTEBOOK ...]   (default: notebooks/*.ipynb)

On Colab a lesson opens alone, without the repository around it. This cell, only when the
kernel is Colab's (``google.colab`` is imported there before any cell runs), clones the
repository at ``main`` into ``/content/on-the-wire``, installs the package editable with the
pinned versions except Colab's own pins (``scripts/colab_install.py``), puts it on the import
path, and changes to its ``notebooks/`` folder, so
``import helpers`` and the lessons' ``../data/...`` paths work as in a checkout. Anywhere else
it does nothing and prints nothing, so stored outputs and nbval are unaffected.

A learner reads one line of it: its first line is a Colab form title (``# @title ...
{ display-mode: "form" }``), and the cell is stored as a form (``cellView: form``), so Colab
shows that title and hides the code; JupyterLab and Notebook hide its code too
(``jupyter.source_hidden``), showing a collapsed input a click opens. The code stays in the
cell, whole, for whoever wants to read what it runs (nothing is fetched and executed blind).

This script writes the cell (tagged ``colab-setup``) as the first code cell of each lesson, or
refreshes it (its source and those display settings); ``--check`` only reports lessons whose
cell is missing or differs (exit 1).
Forks: change ``REPOSITORY`` and run it (the README badges name the repository too).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPOSITORY = "https://github.com/on-the-wire/on-the-wire"
TAG = "colab-setup"

TITLE = "# @title Colab only: set up the series (does nothing elsewhere)"
#: How the cell is shown: a form in Colab (the title, code hidden), input collapsed in Jupyter.
METADATA = {"cellView": "form", "jupyter": {"source_hidden": True}, "tags": [TAG]}

SOURCE = f'''\
{TITLE} {{ display-mode: "form" }}
# On Colab: clone the series, install it, and work in learner/ (the blank copies).
import sys

if "google.colab" in sys.modules:
    import os
    import subprocess

    REPOSITORY, HOME = "{REPOSITORY}", "/content/on-the-wire"
    if not os.path.isdir(HOME):
        print("Setting up On the Wire (about a minute)...")
        clone = ["git", "clone", "--quiet", "--depth=1", "--branch=main", REPOSITORY, HOME]
        subprocess.run(clone, check=True)
        # the package and the SDKs, pinned, leaving Colab's own pinned packages where they are
        subprocess.run([sys.executable, "scripts/colab_install.py"], cwd=HOME, check=True)
    sys.path.insert(0, HOME)
    os.chdir(os.path.join(HOME, "learner"))'''


def cell() -> dict:
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": TAG,
        "metadata": json.loads(json.dumps(METADATA)),
        "outputs": [],
        "source": SOURCE.splitlines(keepends=True),
    }


def _source(c: dict) -> str:
    return "".join(c["source"]) if isinstance(c["source"], list) else c["source"]


def first_code_cell(nb: dict) -> tuple[int, dict | None]:
    for index, c in enumerate(nb["cells"]):
        if c["cell_type"] == "code":
            return index, c
    return len(nb["cells"]), None


def _shown_as_form(c: dict) -> bool:
    metadata = c.get("metadata", {})
    return all(metadata.get(key) == value for key, value in METADATA.items() if key != "tags")


def is_current(nb: dict) -> bool:
    _, c = first_code_cell(nb)
    return (
        c is not None
        and TAG in c.get("metadata", {}).get("tags", [])
        and _source(c) == SOURCE
        and _shown_as_form(c)
    )


def add(nb: dict) -> dict:
    """The notebook with the set-up cell first among its code cells (refreshed if present)."""
    index, c = first_code_cell(nb)
    if c is not None and TAG in c.get("metadata", {}).get("tags", []):
        c["source"] = SOURCE.splitlines(keepends=True)
        c["metadata"].update({k: v for k, v in METADATA.items() if k != "tags"})
    else:
        nb["cells"].insert(index, cell())
    return nb


def main(args: list[str]) -> int:
    check = "--check" in args
    paths = [Path(a) for a in args if a != "--check"]
    paths = paths or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    stale = []
    for path in paths:
        nb = json.loads(path.read_text(encoding="utf-8"))
        if is_current(nb):
            continue
        stale.append(path.name)
        if not check:
            import nbformat

            nbformat.write(nbformat.from_dict(add(nb)), str(path))
    if check and stale:
        print(f"colab_cell: missing or out of date in {', '.join(stale)}", file=sys.stderr)
        return 1
    print(f"colab_cell: {len(stale)} of {len(paths)} lessons updated" if not check else "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
