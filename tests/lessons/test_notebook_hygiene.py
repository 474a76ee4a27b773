"""Stored notebooks: one clean run, no errors, no keys, test plumbing invisible to learners."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lessons.notebook_rules import problems

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_the_series_has_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no NN_topic.ipynb lessons"
    assert NOTEBOOKS[0].name == "00_start_here.ipynb"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_from_one_clean_run(path):
    assert problems(path) == []


def _cell(source, count, outputs=(), tags=()):
    return {
        "cell_type": "code",
        "execution_count": count,
        "metadata": {"tags": list(tags)},
        "outputs": list(outputs),
        "source": source,
    }


def _write(tmp_path, cells):
    nb = {
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / "99_probe.ipynb"
    path.write_text(json.dumps(nb))
    return path


def test_rules_catch_each_problem(tmp_path):
    fake_key = "sk-" + "proj-" + "A" * 30
    error = {"output_type": "error", "ename": "ValueError", "evalue": "x", "traceback": []}
    path = _write(
        tmp_path,
        [
            _cell("x = 1", 1),
            _cell("y = 2", 3),  # out of order
            _cell("raise ValueError", 4, [error]),  # error output, not tagged
            _cell("# NBVAL_IGNORE_OUTPUT\nprint(1)", 5),
            _cell(f"key = '{fake_key}'", 6, tags=["mystery"]),
            _cell("", None),
        ],
    )
    found = "\n".join(problems(path))
    assert "code cell 1: execution_count 3, expected 2" in found
    assert "code cell 2: holds an error output (ValueError)" in found
    assert "code cell 3: uses an NBVAL_ comment" in found
    assert "code cell 4: unknown tag(s) ['mystery']" in found
    assert "looks like an API key" in found
    assert "code cell 5: empty code cell" in found


def test_rules_catch_a_bare_dollar_in_markdown(tmp_path):
    def markdown(text):
        return {"cell_type": "markdown", "metadata": {}, "source": text}

    path = _write(
        tmp_path,
        [
            markdown("Refunds above $150 need a human; Jon wants $289."),
            markdown(r"Refunds above \$150 need a human; Jon wants \$289."),  # not enough
            markdown(r"Refunds above \\$150; `price = $5` and ```\n$x$\n``` are code."),
        ],
    )
    found = problems(path)
    assert len(found) == 2, found
    assert "cell 0: a $ in markdown not written" in found[0] and "cell 1:" in found[1]


def test_rules_accept_a_tagged_expected_error(tmp_path):
    error = {"output_type": "error", "ename": "ValueError", "evalue": "x", "traceback": []}
    path = _write(tmp_path, [_cell("raise ValueError('x')", 1, [error], ["raises-exception"])])
    assert problems(path) == []


def _code_sources(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb["cells"] if c["cell_type"] == "code"]  # fmt: skip


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_model_id_or_price_is_typed_in_a_lesson(path):
    """Model ids come from the model table (default_model), prices from genai-prices."""
    import re

    table = json.loads((ROOT / "data" / "models.json").read_text(encoding="utf-8"))
    ids = set(table["models"]) | {r["price"]["model_ref"] for r in table["models"].values()}
    found = []
    for i, code in enumerate(_code_sources(path)):
        for model_id in ids:
            if re.search(rf"[\"']{re.escape(model_id)}[\"']", code):
                found.append(f"code cell {i}: model id {model_id!r}")
        if re.search(r"(?i)per[_ ]?(million|mtok|1k)|price\s*=\s*[\d.]+", code):
            found.append(f"code cell {i}: a typed price")
    assert found == []


def test_the_model_id_check_can_fail(tmp_path):
    probe = {"cells": [{"cell_type": "code", "source": 'model = "gpt-4o-mini"'}]}
    path = tmp_path / "99_probe.ipynb"
    path.write_text(json.dumps(probe))
    with pytest.raises(AssertionError, match="gpt-4o-mini"):
        test_no_model_id_or_price_is_typed_in_a_lesson(path)


@pytest.mark.parametrize(
    "cell",
    [
        "!pip install openai",
        "x = 1\n  !curl https://example.com",
        "%pip install tiktoken",
        "%%bash\nls",
        "%%sh\nls",
        "%system ls",
        "files = !ls",
        "import subprocess",
        "from subprocess import run",
        "result = subprocess.run(['ls'])",
        "os.system('ls')",
        "get_ipython().system('ls')",
    ],
)
def test_rules_refuse_shell_escapes_and_subprocesses(tmp_path, cell):
    found = problems(_write(tmp_path, [_cell(cell, 1)]))
    assert len(found) == 1 and "runs a shell or a subprocess" in found[0], found


@pytest.mark.parametrize(
    "cell",
    [
        "x = a != b",
        "print('!pip is not run here')",
        "# a comment about %pip",
        "total = 3  # !",
        "from helpers import loop",
        "percent = 5 % 2",
    ],
)
def test_rules_let_python_that_only_looks_like_a_shell_through(tmp_path, cell):
    assert problems(_write(tmp_path, [_cell(cell, 1)])) == []


def test_a_colab_setup_cell_may_install(tmp_path):
    cell = _cell("!pip install -q on-the-wire", 1, tags=["colab-setup"])
    assert problems(_write(tmp_path, [cell])) == []
