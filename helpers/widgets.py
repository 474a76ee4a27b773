"""Interactive views for the lessons (ipywidgets), each with a plain-text twin.

nbval cannot see widgets, and a notebook read on GitHub cannot run them, so every widget here
comes with a function that prints the same information as text: lessons show both.
What this module does not do: compute anything. Numbers come from ``helpers.tokens``,
``helpers.cost`` and friends; the widgets only arrange them.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from helpers.messages import Request

__all__ = ["format_summary", "format_tabs", "render_for"]


def render_for(request: Request, fmt: str) -> Any:
    """Render ``request`` as ``fmt``, with that provider's default model instead of the request's.

    One conversation shown in four formats should name a model each provider actually has.
    """
    from dataclasses import replace

    from helpers.formats import render
    from helpers.models import default_model

    family = "openai" if fmt.startswith("openai") else fmt
    return render(replace(request, model=default_model(family)), fmt)


def format_tabs(request: Request, formats: tuple[str, ...] | None = None) -> Any:
    """One conversation as each provider's request body, one tab per wire format."""
    import ipywidgets as widgets

    from helpers.formats import FORMATS

    names = formats or FORMATS
    pages = []
    for name in names:
        rendered = render_for(request, name)
        notes = "".join(f"<li>{escape(str(n))}</li>" for n in rendered.notes)
        html = (
            f"<div><b>POST</b> <code>{escape(rendered.path)}</code></div>"
            f'<pre style="max-height:28em;overflow:auto;font-size:11px">'
            f"{escape(rendered.json())}</pre>"
            + (
                f"<div><b>What this format could not hold</b><ul>{notes}</ul></div>"
                if notes
                else ""
            )
        )
        pages.append(widgets.HTML(html))
    tabs = widgets.Tab(children=pages)
    for i, name in enumerate(names):
        tabs.set_title(i, name)
    return tabs


def format_summary(request: Request) -> str:
    """The text twin of ``format_tabs``: where each format puts the parts of one conversation."""
    from helpers.formats import FORMATS

    rows = [("format", "path", "top-level keys", "list length", "notes")]
    for name in FORMATS:
        rendered = render_for(request, name)
        body = rendered.body
        items = body.get("messages") or body.get("input") or body.get("contents") or []
        keys = ", ".join(k for k in body if k not in ("tools",)) + (
            ", tools" if "tools" in body else ""
        )
        rows.append((name, rendered.path, keys, str(len(items)), str(len(rendered.notes))))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)
