"""Write the "Under the hood" cell of every lesson: links to the files its code came from.

Usage: python scripts/under_the_hood.py [NOTEBOOK ...]   (default: every notebooks/NN_*.ipynb)

The cell sits right after the lesson's "## Recap" cell (after its "## Sources" cell, if any).
It lists each file that defines a name the lesson imports from ``helpers`` or ``course`` (a
name re-exported by a package, such as ``course.display.show``, links to the module that
defines it, here ``course/plots.py``), as relative links that open in JupyterLab. A name taken
from the stand-in links to the module the lesson imported it from (``LocalProvider`` ->
``standin/__init__.py``), so no link leads a learner into the stand-in's internals.
``tests/repo/test_architecture.py`` checks the cells are current; run this after changing a
lesson's imports, then ``make student``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HEADING = "## Under the hood"
PACKAGES = ("helpers", "standin", "course")
CELL_ID = "under-the-hood"


def _defined_in(module_name: str, name: str | None) -> Path:
    """The file that defines ``name`` as imported from ``module_name`` (the module if None)."""
    module = importlib.import_module(module_name)
    if name is None:
        return Path(module.__file__)
    try:
        return Path(importlib.import_module(f"{module_name}.{name}").__file__)
    except ImportError:
        pass
    value = getattr(module, name)
    if inspect.ismodule(value):
        return Path(value.__file__)
    if inspect.isclass(value) or inspect.isfunction(value):
        return Path(inspect.getsourcefile(value))
    # a constant: follow the module's own ``from helpers... import name`` if it re-exports it
    for node in ast.parse(Path(module.__file__).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGES):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    return _defined_in(node.module, alias.name)
    return Path(module.__file__)


def _without_solutions(lines: list[str]) -> list[str]:
    """The lines with each ``### BEGIN SOLUTION`` ... ``### END SOLUTION`` region replaced by
    ``...`` at its indentation, as the learner copy has it: an import only the reference
    solution makes is not a file the lesson's code came from."""
    out: list[str] = []
    inside = False
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith("### BEGIN SOLUTION"):
            inside = True
            out.append(line[: len(line) - len(stripped)] + "...")
        elif stripped.startswith("### END SOLUTION"):
            inside = False
        elif not inside:
            out.append(line)
    return out


def used_files(notebook: dict) -> dict[Path, list[str]]:
    """Each file a lesson's code imports from -> the names it takes from it."""
    files: dict[Path, list[str]] = {}
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        lines = _without_solutions("".join(cell["source"]).splitlines())
        code = "\n".join("" if ln.lstrip().startswith(("%", "!")) else ln for ln in lines)
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGES):
                for alias in node.names:
                    if node.module.startswith("standin"):  # link the door the lesson used
                        path = _defined_in(node.module, None).resolve()
                    else:
                        path = _defined_in(node.module, alias.name).resolve()
                    files.setdefault(path, []).append(alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith(PACKAGES):
                        path = _defined_in(alias.name, None).resolve()
                        files.setdefault(path, []).append(alias.name)
    return files


def cell_text(files: dict[Path, list[str]]) -> str:
    def order(item: tuple[Path, list[str]]) -> tuple:
        relative = item[0].relative_to(ROOT).as_posix()
        part = ("helpers/", "course/", "standin/").index(relative.split("/")[0] + "/")
        return (relative.startswith("course/exercises/"), "/examples/" in relative, part, relative)

    lines = [
        HEADING,
        "",
        "The files this lesson's code came from, to read next: each link opens the file in",
        "JupyterLab, and each file's first line names the lessons that use it.",
        "",
    ]
    for path, names in sorted(files.items(), key=order):
        relative = path.relative_to(ROOT).as_posix()
        taken = ", ".join(f"`{n}`" for n in sorted(dict.fromkeys(names), key=str.lower))
        lines.append(f"- [`{relative}`](../{relative}): {taken}")
    return "\n".join(lines)


def is_under_the_hood(cell: dict) -> bool:
    return cell["cell_type"] == "markdown" and "".join(cell["source"]).startswith(HEADING)


def write(path: Path) -> bool:
    """Insert or refresh the cell; True if the notebook changed."""
    text = path.read_text(encoding="utf-8")
    notebook = json.loads(text)
    cells = [c for c in notebook["cells"] if not is_under_the_hood(c)]
    recaps = [
        i
        for i, c in enumerate(cells)
        if c["cell_type"] == "markdown" and "".join(c["source"]).startswith("## Recap")
    ]
    if not recaps:
        raise SystemExit(f"{path.name}: no '## Recap' cell to put the links after")
    cell = {
        "cell_type": "markdown",
        "id": CELL_ID,
        "metadata": {},
        "source": cell_text(used_files(notebook)).splitlines(keepends=True),
    }
    anchor = recaps[-1]
    sources = [
        i
        for i, c in enumerate(cells)
        if i > anchor
        and c["cell_type"] == "markdown"
        and "".join(c["source"]).startswith("## Sources")
    ]
    if sources:
        anchor = sources[0]  # the lesson's sources come first, then the files to read
    cells.insert(anchor + 1, cell)
    notebook["cells"] = cells
    new = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
    if new != text:
        path.write_text(new, encoding="utf-8")
        return True
    return False


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    for path in paths:
        print(f"{path.name}: {'updated' if write(path) else 'unchanged'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
