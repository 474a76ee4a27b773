"""Where the repository's folders are, for code that reads fixtures from ``data/``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
NOTEBOOKS = ROOT / "notebooks"
