"""Build a static website of the whole series, for reading without running anything.

Usage: python scripts/build_site.py [OUTPUT_DIR]      (default: site/)

Each lesson becomes one HTML page with its stored outputs and figures, a navigation bar (index,
previous, next) at the top and bottom, and links between lessons rewritten from ``.ipynb`` to
``.html``. ``index.html`` lists the lessons with their goals. ``data/`` and ``helpers/`` are
copied next to the pages so links to fixtures and to the helper files work. Interactive
widgets cannot run in a static page; every lesson prints or plots the same numbers beside
them, so nothing is lost for a reader. Every figure gets the text alternative
``helpers.plots.show`` stored with it, as its ``alt`` attribute.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
LINK = re.compile(r'href="(?!https?:|mailto:|#)([^"#]+?)\.ipynb(#[^"]*)?"')
STYLE = (
    "<style>.otw-nav{font:14px system-ui,sans-serif;padding:8px 16px;background:#f4f4f4;"
    "display:flex;gap:24px}.otw-nav a{color:#0072B2}</style>"
)


@cache
def title(path: Path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            for line in src.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return path.stem


def figure_alts(path: Path) -> list[str]:
    """The text alternative of every figure, in order (``helpers.plots.show`` stores it)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [
        out.get("metadata", {})
        .get("image/png", {})
        .get("alt", "Figure (described in the text beside it).")
        for cell in nb["cells"]
        for out in cell.get("outputs", [])
        if "image/png" in out.get("data", {})
    ]


def with_alt_text(body: str, alts: list[str]) -> str:
    """Give each inline PNG, in order, its alt text (nbconvert's template has no place for it)."""
    pieces = body.split('<img src="data:image/png;base64,')
    out = pieces[0]
    for k, piece in enumerate(pieces[1:]):
        alt = alts[k] if k < len(alts) else "Figure (described in the text beside it)."
        out += f'<img alt="{html.escape(alt)}" src="data:image/png;base64,' + piece
    return out


def nav(i: int) -> str:
    parts = ['<a href="index.html">On the Wire: all lessons</a>']
    if i > 0:
        prev = LESSONS[i - 1]
        parts.append(f'<a href="{prev.stem}.html">← {html.escape(title(prev))}</a>')
    if i + 1 < len(LESSONS):
        nxt = LESSONS[i + 1]
        parts.append(f'<a href="{nxt.stem}.html">{html.escape(title(nxt))} →</a>')
    return f'<nav class="otw-nav">{"".join(parts)}</nav>'


def build(out: Path) -> list[Path]:
    from nbconvert import HTMLExporter

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(ROOT / "data", out / "data")
    # each lesson's "Under the hood" cell links the helper files its code came from
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "data")
    shutil.copytree(ROOT / "helpers", out / "helpers", ignore=skip)
    exporter = HTMLExporter(template_name="lab")
    pages = []
    for i, path in enumerate(LESSONS):
        body, _ = exporter.from_filename(str(path))
        body = with_alt_text(body, figure_alts(path))
        body = LINK.sub(lambda m: f'href="{m.group(1)}.html{m.group(2) or ""}"', body)
        body = body.replace("../data/", "data/").replace("../helpers/", "helpers/")
        body = body.replace("<body", STYLE + "<body", 1)
        body = re.sub(r"(<body[^>]*>)", r"\1" + nav(i), body, count=1)
        body = body.replace("</body>", nav(i) + "</body>", 1)
        page = out / f"{path.stem}.html"
        page.write_text(body, encoding="utf-8")
        pages.append(page)
    items = "".join(
        f'<li><a href="{p.stem}.html">{html.escape(title(p))}</a></li>' for p in LESSONS
    )
    index = out / "index.html"
    index.write_text(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>On the Wire</title>"
        f"{STYLE}</head><body style='font-family:system-ui,sans-serif;max-width:760px;"
        "margin:2em auto'><h1>On the Wire</h1><p>How an LLM agent talks to a model, byte by "
        "byte. These pages show each lesson with the outputs of a clean run; to run and change "
        f"them, clone the repository and use <code>make lab</code>.</p><ol start='0'>{items}</ol>"
        "</body></html>",
        encoding="utf-8",
    )
    return [index, *pages]


def main(args: list[str]) -> int:
    out = Path(args[0]) if args else ROOT / "site"
    pages = build(out)
    print(f"wrote {len(pages)} pages to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
