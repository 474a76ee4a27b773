"""Used in lessons: 00.

Check that this machine can run the series: Python, offline tokenizers, widgets, plots.

``check_environment()`` runs each check and returns a small report that prints as a table in a
notebook (and as text in a terminal). Nothing here touches the network.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from helpers.html import no_math

__all__ = ["Check", "Report", "check_environment"]


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def __str__(self) -> str:
        width = max(len(c.name) for c in self.checks)
        lines = [f"{'ok ' if c.ok else 'FAIL'} {c.name:<{width}}  {c.detail}" for c in self.checks]
        verdict = "All checks passed." if self.ok else "Some checks failed: see FAIL lines."
        return "\n".join([*lines, verdict])

    __repr__ = __str__

    def _repr_html_(self) -> str:
        from html import escape

        rows = "".join(
            f"<tr><td>{'✓' if c.ok else '✗ FAIL'}</td><td>{escape(c.name)}</td>"
            f"<td>{escape(c.detail)}</td></tr>"
            for c in self.checks
        )
        verdict = "All checks passed." if self.ok else "<b>Some checks failed.</b>"
        return no_math(
            f"<table><tr><th></th><th>check</th><th>result</th></tr>{rows}</table>{verdict}"
        )


def _python() -> Check:
    ok = sys.version_info >= (3, 11)
    return Check("Python 3.11 or newer", ok, "yes" if ok else f"found {sys.version.split()[0]}")


def _tokenizer(name: str, text: str = "Hello, world!") -> Check:
    try:
        import tiktoken

        ids = tiktoken.get_encoding(name).encode(text)
        return Check(f"tokenizer {name}, offline", True, f"{text!r} -> {len(ids)} tokens {ids}")
    except Exception as err:  # report, don't crash: this is a diagnostic
        return Check(f"tokenizer {name}, offline", False, f"{type(err).__name__}: {err}")


def _importable(module: str, why: str) -> Check:
    try:
        __import__(module)
        return Check(f"{module} importable", True, why)
    except Exception as err:
        return Check(f"{module} importable", False, f"{type(err).__name__}: {err}")


def check_environment() -> Report:
    """Run every check; never raises."""
    return Report(
        [
            _python(),
            _tokenizer("o200k_base"),
            _tokenizer("cl100k_base"),
            _tokenizer("o200k_harmony"),
            _importable("ipywidgets", "sliders and tabs in the lessons"),
            _importable("matplotlib", "the plots"),
            _importable("helpers", "the lessons' helper package"),
        ]
    )
