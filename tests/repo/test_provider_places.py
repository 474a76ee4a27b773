"""Where the code names a provider: what a fifth provider touches, measured, pinned and listed.

What a provider *is* lives in one row (``helpers/formats/providers.py``). Everything else that
names a provider is found here by walking the source with ``ast`` over ``helpers/``,
``standin/`` and ``course/``:

- a *branch*: a comparison (``==``, ``!=``, ``in``, ``not in``), ``startswith``/``endswith`` or
  ``case`` on one of the four formats' names or the ``openai``/``google`` families;
- a *keyed table*: a dict literal keyed by two or more of those names, or (in ``helpers/`` and
  ``standin/``) a list of rows naming two or more providers, or a function returning two or
  more providers' names (an exercise's list of cases in ``course/`` is not a place: a fifth
  provider need not join a lesson's cases).

A provider's own modules (``helpers/rules/gemini.py``: files named after it) may name
themselves. Both lists below must equal what is measured, so a file that stops branching leaves
its list and none joins unnoticed: the count can only fall. ``docs/design.md``'s "A fifth
provider" names exactly these files, its own modules and the table.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from helpers.formats.providers import FAMILIES, PROVIDERS

ROOT = Path(__file__).resolve().parents[2]
FORMATS = tuple(PROVIDERS)
#: The names measured: every format's and family's (a fifth provider's too), and Google's.
NAMES = {*PROVIDERS, *FAMILIES, "google"}
TABLE = "helpers/formats/providers.py"

#: Files that still compare a provider's name, and why (each a place a fifth provider visits).
#: The tests below hold this list equal to the code: an entry leaves when its file stops
#: branching, and one added is a reviewed line here, so the count only falls.
BRANCHING = {
    "helpers/loop.py": "the official SDK's client and method for each format",
    "course/exercises/content_is_a_list.py": "the lesson's count of another provider's reasoning",
    "course/lab.py": "Anthropic's unpublished tool-use prompt",
}

#: Files that hold a dict keyed by providers' names (a fifth provider adds a line to each).
KEYED = {
    "helpers/formats/providers.py": "the table itself",
    "helpers/rules/__init__.py": "each format's profile",
    "helpers/sse/accumulators.py": "each format's stream reader",
    "course/exercises/one_request.py": "the exercise's made-up keys",
}


def _strings(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return {
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        }
    return set()


def _own(path: str) -> set[str]:
    """The names a provider's own module may compare: its format's, and its family's."""
    stem = Path(path).stem
    own = {
        f
        for f in FORMATS
        if stem == f.replace("-", "_") or stem.startswith(f.replace("-", "_") + "_")
    }
    return own | {f.split("-")[0] for f in own}


def branches(tree: ast.AST) -> set[str]:
    """The provider names ``tree`` compares against (see the module docstring)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            ops = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, ops):
                    found |= _strings(node.left) | _strings(right)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("startswith", "endswith"):
                found |= set().union(*(_strings(a) for a in node.args))
        elif isinstance(node, ast.MatchValue):
            found |= _strings(node.value)
    return found & NAMES


def keyed(tree: ast.AST, rows: bool = True) -> bool:
    """Whether ``tree`` holds a dict literal keyed by two or more providers' names, or (with
    ``rows``) a list of rows or a function's returns naming two or more."""
    return any(len(_keys(node, rows) & NAMES) >= 2 for node in ast.walk(tree))


def _keys(node: ast.AST, rows: bool) -> set[str]:
    """The strings that key ``node`` as a table: a dict's keys, rows' items, returned names."""
    if isinstance(node, ast.Dict):
        return {k.value for k in node.keys if isinstance(k, ast.Constant)}
    table = isinstance(node, ast.List | ast.Tuple) and len(node.elts) >= 2
    if rows and table and all(isinstance(e, ast.Tuple | ast.List) for e in node.elts):
        return set().union(*(_strings(e) for e in node.elts))
    if rows and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        returned = [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value]
        return set().union(set(), *(_strings(v) for v in returned if isinstance(v, ast.Constant)))
    return set()


@cache
def measured() -> tuple[dict[str, set[str]], set[str]]:
    """(file -> the names it branches on, files with a keyed table), over the three parts."""
    branching, tables = {}, set()
    for part in ("helpers", "standin", "course"):
        for path in sorted((ROOT / part).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            text = path.read_text(encoding="utf-8")
            if not any(f'"{name}"' in text or f"'{name}'" in text for name in NAMES):
                continue  # names no provider in quotes: nothing to parse
            tree = ast.parse(text)
            names = branches(tree) - _own(relative)
            if names:
                branching[relative] = names
            if keyed(tree, rows=part != "course"):
                tables.add(relative)
    return branching, tables


def test_the_measure_finds_each_kind_of_branch():
    source = """
if fmt == "gemini": pass
if p in ("openai-chat", "x"): pass
if name.startswith("openai"): pass
match f:
    case "anthropic": pass
if fmt == "neutral" or "google" != other: pass
"""
    assert branches(ast.parse(source)) == {"gemini", "openai-chat", "openai", "anthropic", "google"}
    assert branches(ast.parse("x = {'gemini': 1}; y = PROVIDERS[f].family")) == set()
    assert keyed(ast.parse("x = {'gemini': 1, 'anthropic': 2}"))
    assert not keyed(ast.parse("x = {'gemini': 1, 'other': 2}"))
    routes = "R = [('/a', 'gemini', 'x'), ('/b', 'anthropic', 'y')]"
    assert keyed(ast.parse(routes)) and not keyed(ast.parse(routes), rows=False)
    chooser = "def f(p):\n    if p: return 'gemini'\n    return 'anthropic'"
    assert keyed(ast.parse(chooser)) and not keyed(ast.parse("def f(): return 'gemini'"))
    assert _own("helpers/rules/openai_chat.py") == {"openai-chat", "openai"}


def test_only_the_listed_files_branch_on_a_providers_name():
    branching, _ = measured()
    new = {f: sorted(n) for f, n in branching.items() if f not in BRANCHING}
    assert not new, f"these files now compare a provider's name (use its row instead): {new}"
    gone = sorted(set(BRANCHING) - set(branching))
    assert not gone, f"these files no longer branch on a name; take them off BRANCHING: {gone}"
    assert all(BRANCHING.values()), "each listed file says why it still branches"


def test_only_the_listed_files_key_a_table_by_provider():
    _, tables = measured()
    assert tables - set(KEYED) == set(), "new tables keyed by provider name (read the row instead)"
    assert set(KEYED) - tables == set(), "files on KEYED hold no such table any more"
    assert all(KEYED.values()), "each listed file says what its table is"


def _fifth_provider() -> list[str]:
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    section = re.search(r"^## A fifth provider\n(.*?)(?=^## )", text, re.S | re.M)
    assert section, "docs/design.md has no '## A fifth provider' section"
    return re.findall(r"`([\w/.-]+\.(?:py|json))`", section.group(1))


def test_the_design_doc_lists_exactly_the_places_a_fifth_provider_touches():
    listed = _fifth_provider()
    for entry in listed:
        found = [entry.replace("NAME", f.replace("-", "_")) for f in FORMATS]
        assert any((ROOT / p).exists() for p in found), (
            f"docs/design.md names {entry}: no such file"
        )
    own = {p for p in listed if "NAME" in p}
    assert {"helpers/formats/NAME_render.py", "helpers/formats/NAME_parse.py"} <= own
    everyones = {
        path.relative_to(ROOT).as_posix().replace(FORMATS[-1], "NAME")
        for part in ("helpers", "standin", "course")
        for path in (ROOT / part).rglob(f"*{FORMATS[-1]}*.py")
        if all(Path(str(path).replace(FORMATS[-1], f.replace("-", "_"))).exists() for f in FORMATS)
    }
    assert everyones <= own, f"docs/design.md does not name these own modules: {everyones - own}"
    parts = ("helpers/", "standin/", "course/")
    code = {p for p in listed if "NAME" not in p and p.startswith(parts)}
    places = {TABLE} | set(BRANCHING) | set(KEYED)
    assert code == places, (
        f"docs/design.md's 'A fifth provider' differs from the code: it lacks "
        f"{sorted(places - code)} and names {sorted(code - places)}"
    )
