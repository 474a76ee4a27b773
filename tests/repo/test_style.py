"""ruff lint and format checks over the code learners read: helpers, tests and the lessons."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CANDIDATES = [
    "helpers",
    "tests",
    "notebooks",
    "tiktoken_ext",
    "scripts",
    "benchmarks",
    "conftest.py",
]
TARGETS = [name for name in CANDIDATES if (ROOT / name).exists()]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, *TARGETS],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_ruff_lint():
    result = _ruff("check", "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format():
    result = _ruff("format", "--check", "--no-cache")
    assert result.returncode == 0, "run: ruff format\n" + result.stdout + result.stderr
