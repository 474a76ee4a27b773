"""Where the repository's folders are, for code that reads fixtures from ``data/``.

With the usual editable install (``-e .`` in requirements.txt) the package sits in the
repository, next to ``data/``. Some hosts (Binder/repo2docker) also run a plain ``pip install .``,
which copies ``helpers`` into site-packages, away from ``data/``. Then we look for the
repository from the working directory upwards (a notebook's kernel runs in ``notebooks/``), or
where ``ON_THE_WIRE_ROOT`` points.
"""

from __future__ import annotations

import os
from pathlib import Path


def _is_repository(path: Path) -> bool:
    return (path / "data" / "sundry").is_dir() and (path / "notebooks").is_dir()


def find_root() -> Path:
    candidates = []
    if os.environ.get("ON_THE_WIRE_ROOT"):
        candidates.append(Path(os.environ["ON_THE_WIRE_ROOT"]))
    candidates.append(Path(__file__).resolve().parents[2])
    here = Path.cwd().resolve()
    candidates += [here, *here.parents]
    for candidate in candidates:
        if _is_repository(candidate):
            return candidate
    raise FileNotFoundError(
        "cannot find the On the Wire repository (its data/ folder): run from inside the "
        "repository, or set ON_THE_WIRE_ROOT to its path"
    )


ROOT = find_root()
DATA = ROOT / "data"
NOTEBOOKS = ROOT / "notebooks"
