"""Write (or check) the "Used in lessons: NN, NN." first line of every module in helpers/.

Usage: python scripts/used_in_lessons.py --write | --check

A lesson uses a module when one of its code cells imports it (``import helpers.a.b``,
``from helpers.a.b import x``, ``from helpers.a import b``: the module named, and the packages
above it, whose ``__init__`` runs first), or imports a name that the module defines through a
door (``from helpers.cost import price`` also uses ``helpers.cost.tickets``, where ``price`` is
defined). Nothing transitive: a module only other modules import says ``Used in lessons: none
directly (imported by ...).``, naming as many as fit the line (``make paths`` shows all that
a lesson's code reaches at run time).
Any other "Used in lessons" line in a docstring is removed: one line, at the top.
``--check`` exits 1 naming each stale module; ``tests/repo/test_architecture.py`` runs it.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from under_the_hood import _defined_in  # noqa: E402  (the file that defines an imported name)

LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PACKAGE = "helpers"
WIDTH = 100 - len('"""')
LINE = re.compile(r"^Used in lessons: .*\.$")


def module_name(path: Path) -> str:
    parts = list(path.resolve().relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def helper_modules() -> dict[str, Path]:
    """Every module of helpers/ that carries the line (not the package's own ``__init__`` and
    ``__main__``)."""
    paths = sorted((ROOT / PACKAGE).rglob("*.py"))
    found = {module_name(p): p for p in paths}
    return {n: p for n, p in found.items() if n not in (PACKAGE, f"{PACKAGE}.__main__")}


def code_cells(notebook: Path) -> list[ast.Module]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    return [ast.parse(s) for s in sources]


def _with_packages(dotted: str) -> set[str]:
    """``helpers.a.b`` -> {``helpers.a.b``, ``helpers.a``} (not the top package)."""
    parts = dotted.split(".")
    return {".".join(parts[:i]) for i in range(2, len(parts) + 1)}


def used_by(notebook: Path) -> set[str]:
    """The helpers modules this lesson uses, by the definition above."""
    found: set[str] = set()
    for tree in code_cells(notebook):
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.split(".")[0] == PACKAGE]
                for name in names:
                    found |= _with_packages(name)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == PACKAGE:
                found |= _with_packages(node.module)
                for alias in node.names:
                    found |= _with_packages(module_name(_defined_in(node.module, alias.name)))
    return found


def imports_of(path: Path, here: str, known: set[str]) -> set[str]:
    """The helpers modules this file imports, wherever the import statement sits."""
    found: set[str] = set()

    def add(dotted: str) -> None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        if dotted:
            found.add(dotted)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = here.split(".") if path.name == "__init__.py" else here.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, base] if base else package)
            for alias in node.names:
                add(f"{base}.{alias.name}")
    found.discard(here)
    return found


def lessons_of() -> dict[str, list[str]]:
    """Module -> the lesson numbers that use it, for every helpers module."""
    modules = helper_modules()
    out: dict[str, list[str]] = {name: [] for name in modules}
    for notebook in LESSONS:
        for name in used_by(notebook) & set(modules):
            out[name].append(notebook.name[:2])
    return out


def importers() -> dict[str, list[str]]:
    """Module -> the helpers modules that import it (at any level, inside functions too)."""
    modules = helper_modules()
    known = set(modules) | {PACKAGE}
    out: dict[str, list[str]] = {name: [] for name in modules}
    for name, path in modules.items():
        for target in imports_of(path, name, known) & set(modules):
            out[target].append(name)
    return out


def line_for(lessons: list[str], imported_by: list[str]) -> str:
    if lessons:
        return f"Used in lessons: {', '.join(sorted(lessons))}."
    names = sorted(n.removeprefix(PACKAGE + ".") for n in imported_by)
    if not names:
        return "Used in lessons: none directly."
    line = f"Used in lessons: none directly (imported by {', '.join(names)})."
    for shown in range(len(names) - 1, 0, -1):  # fit the 100-column line, quotes included
        if len(line) <= WIDTH:
            break
        line = f"Used in lessons: none directly (imported by {', '.join(names[:shown])}, ...)."
    return line


def rewritten(text: str, line: str) -> str:
    """The module source with ``line`` as its docstring's first line, and no other such line."""
    tree = ast.parse(text)
    first = tree.body[0] if tree.body else None
    is_doc = isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant)
    if not (is_doc and isinstance(first.value.value, str)):
        return f'"""{line}"""\n\n{text}'
    lines = text.splitlines(keepends=True)
    start, end = first.lineno - 1, first.end_lineno  # the docstring's lines
    body = lines[start:end]
    quote = re.match(r'^[rR]?("""|\'\'\')', body[0])
    if quote is None:
        raise SystemExit("a docstring that does not open with triple quotes")
    opening, rest = body[0][: quote.end()], body[0][quote.end() :]
    if LINE.match(rest.rstrip("\n").removesuffix(quote.group(1))):
        rest = "\n" if not rest.rstrip("\n").endswith(quote.group(1)) else quote.group(1) + "\n"
        head = [opening + line + rest]
    else:
        head = [opening + line + "\n", "\n", rest]
    kept: list[str] = []
    skip_blank = False
    for row in body[1:]:
        if LINE.match(row.strip()):
            skip_blank = True  # and the blank line after it
            continue
        if not (skip_blank and not row.strip()):
            kept.append(row)
        skip_blank = False
    return "".join(lines[:start] + head + kept + lines[end:])


def stale() -> dict[Path, str]:
    """Each helpers file whose text differs from what ``--write`` makes -> that text."""
    out = {}
    modules, by = helper_modules(), importers()
    for name, lessons in lessons_of().items():
        path = modules[name]
        text = path.read_text(encoding="utf-8")
        new = rewritten(text, line_for(lessons, by[name]))
        if new != text:
            out[path] = new
    return out


def main(argv: list[str]) -> int:
    if argv not in (["--write"], ["--check"]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    changes = stale()
    for path, text in changes.items():
        relative = path.relative_to(ROOT).as_posix()
        if argv == ["--write"]:
            path.write_text(text, encoding="utf-8")
            print(f"{relative}: updated")
        else:
            print(f"{relative}: 'Used in lessons' line out of date", file=sys.stderr)
    if argv == ["--check"] and changes:
        print("run: python scripts/used_in_lessons.py --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
