"""One import path per public name of ``helpers``, and the old paths a kept lesson uses.

Each door (a package of ``helpers``, or a module the lessons import from) lists its names in
``__all__``; no name is listed by two doors, and the lessons take every name through the door
that lists it. A learner's copy of a lesson written before issue 37 still imports: each import
line of every lesson at dc39636 (``fixtures/lesson_imports/dc39636.txt``) runs, and a name
that moved warns with a ``DeprecationWarning`` naming its new door (``helpers/moved.py``).
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import re
import warnings
from pathlib import Path
from types import ModuleType

import pytest

import helpers

ROOT = Path(__file__).resolve().parents[2]
KEPT = ROOT / "tests" / "helpers" / "fixtures" / "lesson_imports" / "dc39636.txt"
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def helpers_modules() -> dict[str, ModuleType]:
    """Every module of ``helpers`` but ``__main__`` (which runs the command line), imported."""
    names = ["helpers"] + [
        m.name
        for m in pkgutil.walk_packages(helpers.__path__, "helpers.")
        if not m.name.endswith("__main__")
    ]
    return {name: importlib.import_module(name) for name in names}


def doors(mods: dict[str, ModuleType]) -> dict[str, list[str]]:
    """Door -> its ``__all__``, for every module that has one."""
    return {name: list(m.__all__) for name, m in mods.items() if hasattr(m, "__all__")}


def twice(listed: dict[str, list[str]], mods: dict[str, ModuleType]) -> list[str]:
    """Each object listed by two doors or more, as ``name: door, door``."""
    where: dict[int, list[str]] = {}
    for door, names in listed.items():
        for name in names:
            obj = getattr(mods[door], name)
            if isinstance(obj, ModuleType | str | int | float | bool | type(None)):
                key = hash((door, name))  # a plain value is one name's own, not shared by identity
            else:
                key = id(obj)
            where.setdefault(key, []).append(f"{door}.{name}")
    return sorted(", ".join(found) for found in where.values() if len(found) > 1)


def lesson_imports(source: str) -> list[tuple[str, str]]:
    """(module, name) for every ``from helpers... import name`` in the source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("helpers"):
            found += [(node.module, alias.name) for alias in node.names]
    return found


def _code(notebook: Path) -> str:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    lines = [
        line
        for cell in cells
        if cell["cell_type"] == "code"
        for line in "".join(cell["source"]).splitlines()
        if not line.lstrip().startswith(("!", "%"))
    ]
    return "\n".join(lines)


def test_every_package_of_helpers_and_every_door_of_a_lesson_has_all():
    mods = helpers_modules()
    packages = {name for name, m in mods.items() if hasattr(m, "__path__")}
    used = {module for nb in LESSONS for module, _ in lesson_imports(_code(nb))}
    missing = sorted(name for name in packages | used if not hasattr(mods[name], "__all__"))
    assert not missing, f"doors without __all__: {missing}"
    for door, names in doors(mods).items():
        absent = [n for n in names if not hasattr(mods[door], n)]
        assert not absent, f"{door}.__all__ lists names it lacks: {absent}"


def test_no_public_name_is_listed_by_two_doors():
    mods = helpers_modules()
    doubled = twice(doors(mods), mods)
    assert not doubled, "names with two import paths (keep one door's __all__):\n" + "\n".join(
        doubled
    )


def test_a_name_listed_by_two_doors_is_found():
    mods = helpers_modules()
    listed = doors(mods)
    planted = {**listed, "helpers.formats": [*listed["helpers.formats"], "Request"]}
    assert twice(planted, mods) == ["helpers.formats.Request, helpers.messages.Request"]


@pytest.mark.parametrize("notebook", LESSONS, ids=lambda p: p.name[:2])
def test_a_lesson_takes_each_name_through_the_door_that_lists_it(notebook):
    mods = helpers_modules()
    wrong = [
        f"from {module} import {name}"
        for module, name in lesson_imports(_code(notebook))
        if not isinstance(getattr(mods[module], name, None), ModuleType)
        and name not in getattr(mods[module], "__all__", ())
    ]
    assert not wrong, f"{notebook.name}: not the name's door: {wrong}"


def _kept_lines() -> list[str]:
    lines = KEPT.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def test_the_kept_lessons_import_lines_are_all_there():
    lines = _kept_lines()
    assert len(lines) > 150 and all(
        re.match(r"(from|import) (helpers|standin|course)", x) for x in lines
    )
    assert "from helpers.cost import Usage, price" in lines  # lesson 09's, before Usage moved


def _door(mods: dict[str, ModuleType], door_of: dict[int, str], module: str, name: str) -> str:
    return door_of[id(getattr(mods[module], name))]


def test_every_import_line_of_a_kept_lesson_runs_and_a_moved_name_says_where_it_went():
    mods = helpers_modules()
    listed = doors(mods)
    door_of = {id(getattr(mods[d], n)): d for d, names in listed.items() for n in names}
    moved = []
    for line in _kept_lines():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            exec(line, {})  # a fixed line of a lesson
            said = {str(w.message) for w in caught if " has moved: " in str(w.message)}
            expected = {
                f"{module}.{name} has moved: import it from {_door(mods, door_of, module, name)}"
                for module, name in lesson_imports(line)
                if module in listed
                and name not in listed[module]
                and not isinstance(getattr(mods[module], name), ModuleType)
            }
        assert {m.split(" (")[0] for m in said} == expected, f"{line}: warned {said}"
        moved += sorted(expected)
    assert moved == ["helpers.cost.Usage has moved: import it from helpers.messages"]
