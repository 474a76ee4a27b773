"""Rules every stored lesson notebook must follow, as plain functions the tests (and authors) call.

Each function returns a list of problems, one readable line each, so a failing test says exactly
which notebook and cell to fix.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

# Shapes of real provider keys. The stand-in accepts any key; lessons use obvious fakes.
API_KEY = re.compile(
    r"sk-ant-[A-Za-z0-9_-]{20,}|sk-(?:proj-)?[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{30,}"
)
NBVAL_COMMENT = re.compile(r"^\s*#+\s*NBVAL_", re.M)
# A lesson runs Python only: no shell escapes (``!pip``, ``!curl``), no ``%pip``/``%conda``, no
# shell cell magics, no subprocesses. They would reach past the network guard (a shell command
# is not Python) and hide work from the reader. A Colab set-up cell (tag ``colab-setup``) may.
SHELL_ESCAPE = re.compile(
    r"^\s*(?:!|%(?:pip|conda|mamba|system|sx|sc)\b|%%(?:bash|sh|script|system)\b)"
    r"|^\s*\w[\w.,\s]*=\s*!"  # files = !ls
    r"|\bget_ipython\(\)\.(?:system|getoutput|run_cell_magic)\b"
    r"|^\s*(?:import|from)\s+(?:subprocess|pty|multiprocessing)\b"
    r"|\b(?:subprocess\.\w+|os\.(?:system|popen|exec\w*|spawn\w*|fork)|pty\.spawn)\s*\(",
    re.M,
)
# "live": the cell's output depends on the live-mode switch (tests/lessons/test_live_notebooks.py)
KNOWN_TAGS = {
    "live",
    "nbval-ignore-output",
    "nbval-skip",
    "raises-exception",
    "solution",
    "hide-input",
    "colab-setup",  # scripts/colab_cell.py: the first code cell, a no-op outside Colab
}


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def problems(path: Path) -> list[str]:
    """Everything wrong with one notebook's stored form."""
    nb = load(path)
    found: list[str] = []
    name = path.name
    if nb.get("metadata", {}).get("kernelspec", {}).get("name") != "python3":
        found.append(f"{name}: kernelspec name must be 'python3'")
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    expected = 1
    for i, cell in enumerate(code):
        where = f"{name} code cell {i}"
        if not source(cell).strip():
            found.append(f"{where}: empty code cell")
            continue
        count = cell.get("execution_count")
        if count != expected:
            found.append(
                f"{where}: execution_count {count}, expected {expected} "
                "(store the outputs of one clean top-to-bottom run)"
            )
        expected = (count or expected) + 1
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error" and "raises-exception" not in _tags(cell):
                found.append(f"{where}: holds an error output ({out.get('ename')})")
        escape = SHELL_ESCAPE.search(source(cell))
        if escape and "colab-setup" not in _tags(cell):
            found.append(
                f"{where}: runs a shell or a subprocess ({escape.group().strip()!r}); lessons run "
                "Python only (a set-up cell for Colab is tagged colab-setup)"
            )
        if NBVAL_COMMENT.search(source(cell)):
            found.append(f"{where}: uses an NBVAL_ comment; use a cell tag learners don't see")
        unknown = set(_tags(cell)) - KNOWN_TAGS
        if unknown:
            found.append(f"{where}: unknown tag(s) {sorted(unknown)}")
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "markdown" and unescaped_dollars(source(cell)):
            found.append(
                f"{name} cell {i}: a $ in markdown not written \\\\$ (JupyterLab's MathJax reads "
                "a pair as LaTeX and swallows the text between; a single backslash does not stop "
                "it in JupyterLab 4, two do: see tests/lessons/test_browser.py)"
            )
    text = path.read_text(encoding="utf-8")
    for match in API_KEY.finditer(text):
        found.append(f"{name}: something that looks like an API key: {match.group()[:8]}…")
    return found


CODE_SPANS = re.compile(r"```.*?```|`[^`]*`", re.S)


def unescaped_dollars(markdown: str) -> int:
    """How many ``$`` signs in markdown prose are not written ``\\\\$`` (code spans excepted).

    Why two backslashes: JupyterLab 4's markdown renderer turns ``\\$`` into a bare ``$``
    before MathJax reads the page, so a pair of them is still typeset; ``\\\\$`` leaves ``\\$``
    in the page, which MathJax (``processEscapes``) shows as ``$``. The browser test checks it.
    """
    return CODE_SPANS.sub("", markdown).replace("\\\\$", "").count("$")


def _tags(cell: dict) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))
