"""helpers.html: every HTML repr keeps JupyterLab's MathJax away from its `$` signs."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers.html import no_math

HELPERS = Path(__file__).resolve().parents[2] / "helpers"


def test_no_math_wraps_in_the_classes_both_mathjax_versions_skip():
    html = no_math("<b>$150</b> or less, $289 above")
    assert html.startswith('<div class="tex2jax_ignore mathjax_ignore">')
    assert "<b>$150</b> or less, $289 above" in html  # the text itself is untouched


def _html_reprs():
    for path in sorted(HELPERS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "_repr_html_":
                yield path.relative_to(HELPERS.parent), node


def test_every_html_repr_goes_through_no_math():
    found = list(_html_reprs())
    assert len(found) >= 4  # the walk finds them (messages, loop, harmony...)
    bare = []
    for path, function in found:
        for ret in (n for n in ast.walk(function) if isinstance(n, ast.Return)):
            value = ret.value
            if isinstance(value, ast.Constant) and value.value is None:
                continue
            called = getattr(value, "func", None)
            wrapped = isinstance(value, ast.Call) and (
                getattr(called, "id", "") == "no_math"  # wrapped here
                or getattr(called, "attr", "") == "_repr_html_"  # or by the repr it returns
            )
            if not wrapped:
                bare.append(f"{path}:{ret.lineno}")
    assert bare == [], "HTML reprs that MathJax may typeset: " + ", ".join(bare)


def test_a_real_repr_carries_the_wrapper():
    from helpers.messages import assistant

    html = assistant("Refunds of $150 or less; $289 needs a human.")._repr_html_()
    assert html.startswith(no_math("")[: -len("</div>")])
    assert "$150 or less; $289" in html
