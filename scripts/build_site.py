"""Build a static website of the whole series, for reading without running anything.

Usage: python scripts/build_site.py [OUTPUT_DIR]      (default: site/)

Each lesson becomes one HTML page with its stored outputs and figures, a navigation bar (index,
previous, next) at the top and bottom, and links between lessons rewritten from ``.ipynb`` to
``.html``. ``index.html`` lists the lessons with their goals. ``data/`` and ``helpers/`` are
copied next to the pages so links to fixtures and to the helper files work. Interactive
widgets cannot run in a static page; every lesson prints or plots the same numbers beside
them, so nothing is lost for a reader.

Every figure gets, as its ``alt`` attribute, the text alternative ``course.plots.show`` stored
with it in the notebook (matched by the image itself, so order does not matter); a figure
without one stops the build with the lesson and cell named, so nbconvert's placeholder ("No
description has been provided for this image") never reaches a page.

``answers.html`` is the answer key an instructor projects or prints: for every lesson, each
exercise's cell from the reference notebook, its reference solution between the ``### BEGIN
SOLUTION`` / ``### END SOLUTION`` lines and the check's stored output, under the text that asks
for it, with a link to the lesson's page. It is made from the same notebooks in the same build.

It never deletes what it did not write: the output folder gets a manifest of the files the
build wrote (with their sha256). A rebuild replaces exactly those files, leaves any other file
alone, and refuses (exit 2) to use a non-empty folder without a manifest, or to overwrite a
page that was edited since it was written.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
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


PLACEHOLDER_ALT = "No description has been provided for this image"
IMG_PNG = re.compile(r'<img\b[^>]*?src="data:image/png;base64,([^"]+)"[^>]*>')
MANIFEST = ".on-the-wire-site.json"


class SiteError(Exception):
    """The site cannot be built as asked; the message says what to do."""


#: The packages a lesson's links may point into: the learner's package, the stand-in, the course.
CODE = ("helpers", "standin", "course")
#: The maintainers' pages a lesson may link (lesson 10 cites the rules table, docs/rules.md).
DOCS = "docs"


def figure_alts(path: Path) -> dict[str, str]:
    """{the figure's PNG as base64: its text alternative}, for every figure of a lesson."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    alts = {}
    for index, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs", []):
            png = out.get("data", {}).get("image/png")
            if png is None:
                continue
            alt = out.get("metadata", {}).get("image/png", {}).get("alt", "").strip()
            if not alt:
                raise SiteError(
                    f"{path.name} cell {index}: a figure without a text alternative; "
                    "show it with course.plots.show(fig) and re-run the notebook"
                )
            alts[re.sub(r"\s", "", "".join(png))] = alt
    return alts


def with_alt_text(body: str, alts: dict[str, str], lesson: str) -> str:
    """Set every inline PNG's ``alt`` to its figure's own text alternative."""

    def replace(match: re.Match) -> str:
        alt = alts.get(re.sub(r"\s", "", match.group(1)))
        if alt is None:
            raise SiteError(f"{lesson}: an image on the page matches no figure of the notebook")
        tag = re.sub(r'\salt="[^"]*"', "", match.group(0))
        return tag.replace("<img", f'<img alt="{html.escape(alt)}"', 1)

    body = IMG_PNG.sub(replace, body)
    if PLACEHOLDER_ALT in body:
        raise SiteError(f"{lesson}: an image kept nbconvert's placeholder alt text")
    return body


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Output:
    """The output folder: writes files, and removes only files an earlier build wrote."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.written: dict[str, str] = {}
        manifest = folder / MANIFEST
        if manifest.is_file():
            self.previous = json.loads(manifest.read_text(encoding="utf-8"))
        elif folder.exists() and any(folder.iterdir()):
            raise SiteError(
                f"{folder} is not empty and was not made by build_site.py (no {MANIFEST}); "
                "choose a new or empty folder"
            )
        else:
            self.previous = {}
        edited = [
            name
            for name, digest in self.previous.items()
            if (folder / name).is_file() and _sha256(folder / name) != digest
        ]
        if edited:
            raise SiteError(
                f"{folder}: {', '.join(sorted(edited))} changed since the last build; "
                "move them out of the folder first (the build would overwrite them)"
            )

    def clear_previous(self) -> None:
        for name in self.previous:
            (self.folder / name).unlink(missing_ok=True)
        for directory in sorted({(self.folder / n).parent for n in self.previous}, reverse=True):
            while directory != self.folder and directory.is_dir() and not any(directory.iterdir()):
                directory.rmdir()
                directory = directory.parent

    def write(self, name: str, data: bytes) -> Path:
        target = self.folder / name
        if target.exists():
            raise SiteError(f"{target} exists and is not from an earlier build; move it away")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        self.written[name] = hashlib.sha256(data).hexdigest()
        return target

    def finish(self) -> None:
        manifest = json.dumps(self.written, indent=1, sort_keys=True) + "\n"
        (self.folder / MANIFEST).write_text(manifest, encoding="utf-8")


def nav(i: int) -> str:
    parts = ['<a href="index.html">On the Wire: all lessons</a>']
    if i > 0:
        prev = LESSONS[i - 1]
        parts.append(f'<a href="{prev.stem}.html">← {html.escape(title(prev))}</a>')
    if i + 1 < len(LESSONS):
        nxt = LESSONS[i + 1]
        parts.append(f'<a href="{nxt.stem}.html">{html.escape(title(nxt))} →</a>')
    return f'<nav class="otw-nav">{"".join(parts)}</nav>'


ANSWERS = "answers.html"


def answer_key(lessons: list[Path]) -> dict:
    """One notebook of every exercise, lesson by lesson: the text asking for it (the markdown
    cell above), then the exercise cell with its solution and stored output. Reads only."""
    import sys

    sys.path.insert(0, str(ROOT))
    from course.exercises.solutions import SOLUTION, cell_source

    def markdown(text: str) -> dict:
        return {"cell_type": "markdown", "metadata": {}, "source": text}

    cells = [
        markdown(
            "# On the Wire: answer key\n\nEvery exercise with its reference solution (between "
            "the `### BEGIN SOLUTION` and `### END SOLUTION` lines) and what its check printed "
            "in the reference run. Other answers can be just as right: the check decides. "
            'A learner sees one with `show_solution("05.2")`.'
        )
    ]
    for path in lessons:
        nb = json.loads(path.read_text(encoding="utf-8"))
        cells.append(markdown(f"## [{title(path)}]({path.stem}.html)"))
        asked, number = None, 0
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                asked = cell
            elif cell["cell_type"] == "code" and SOLUTION.search(cell_source(cell)):
                number += 1
                cells.append(markdown(f"### Exercise {path.name[:2]}.{number}"))
                if asked is not None:
                    text = re.sub(r"^#{1,4} ", "#### ", cell_source(asked), flags=re.M)
                    cells.append(markdown(text))  # its headings under the exercise's
                    asked = None
                cells.append(dict(cell, metadata={}))
        if number == 0:
            cells.append(markdown("No exercises in this lesson."))
    for number, cell in enumerate(cells):
        cell["id"] = f"answer-key-{number}"
    return {
        "cells": cells,
        "metadata": json.loads(lessons[0].read_text(encoding="utf-8"))["metadata"],
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def build(out: Path) -> list[Path]:
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import TagRemovePreprocessor

    folder = Output(out)
    exporter = HTMLExporter(template_name="lab")
    # The Colab set-up cell does nothing for a reader of the site.
    hide = TagRemovePreprocessor(remove_cell_tags={"colab-setup"})
    exporter.register_preprocessor(hide, enabled=True)
    rendered = {}
    for i, path in enumerate(LESSONS):  # render everything before touching the folder
        body, _ = exporter.from_filename(str(path))
        body = with_alt_text(body, figure_alts(path), path.name)
        body = LINK.sub(lambda m: f'href="{m.group(1)}.html{m.group(2) or ""}"', body)
        for index in ("README.md", "../notebooks/README.md"):  # the lesson index
            body = body.replace(f'href="{index}"', 'href="index.html"')
        for folder_name in ("data", *CODE, DOCS):
            body = body.replace(f"../{folder_name}/", f"{folder_name}/")
        body = body.replace("<body", STYLE + "<body", 1)
        body = re.sub(r"(<body[^>]*>)", r"\1" + nav(i), body, count=1)
        body = body.replace("</body>", nav(i) + "</body>", 1)
        rendered[f"{path.stem}.html"] = body
    import nbformat

    key = nbformat.reads(json.dumps(answer_key(LESSONS)), as_version=4)
    body, _ = exporter.from_notebook_node(key, resources={"metadata": {"name": "Answer key"}})
    alts = {}
    for path in LESSONS:
        alts.update(figure_alts(path))
    body = with_alt_text(body, alts, ANSWERS)
    body = body.replace("<body", STYLE + "<body", 1)
    top = '<nav class="otw-nav"><a href="index.html">On the Wire: all lessons</a></nav>'
    body = re.sub(r"(<body[^>]*>)", r"\1" + top, body, count=1)
    rendered[ANSWERS] = body
    items = "".join(
        f'<li><a href="{p.stem}.html">{html.escape(title(p))}</a></li>' for p in LESSONS
    )
    index = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>On the Wire</title>"
        f"{STYLE}</head><body style='font-family:system-ui,sans-serif;max-width:760px;"
        "margin:2em auto'><h1>On the Wire</h1><p>How an LLM agent talks to a model, byte by "
        "byte. These pages show each lesson with the outputs of a clean run; to run and change "
        f"them, clone the repository and use <code>make lab</code>.</p><ol start='0'>{items}</ol>"
        f"<p>For instructors: <a href='{ANSWERS}'>the answer key</a> (every exercise with its "
        "reference solution, to project or print).</p>"
        "</body></html>"
    )
    folder.clear_previous()
    pages = [folder.write("index.html", index.encode())]
    pages += [folder.write(name, body.encode()) for name, body in rendered.items()]
    for source in sorted((ROOT / "data").rglob("*")):
        if source.is_file() and "__pycache__" not in source.parts:
            name = source.relative_to(ROOT / "data").as_posix()
            folder.write(f"data/{name}", source.read_bytes())
    # a file a lesson asks the learner to open (lesson 14's agent) sits beside its page
    for source in sorted((ROOT / "notebooks").glob("*.py")):
        folder.write(source.name, source.read_bytes())
    # each lesson's "Under the hood" cell links the code files its cells came from
    for package in CODE:
        for source in sorted((ROOT / package).rglob("*")):
            skip = "__pycache__" in source.parts or source.suffix == ".pyc"
            if source.is_file() and not skip and "data" not in source.relative_to(ROOT).parts:
                folder.write(source.relative_to(ROOT).as_posix(), source.read_bytes())
    for source in sorted((ROOT / DOCS).glob("*.md")):  # as they are: a reader opens the file
        folder.write(f"{DOCS}/{source.name}", source.read_bytes())
    folder.finish()
    return pages


def main(args: list[str]) -> int:
    out = Path(args[0]) if args else ROOT / "site"
    try:
        pages = build(out)
    except SiteError as err:
        print(f"build_site: {err}", file=sys.stderr)
        return 2
    print(f"wrote {len(pages)} pages to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
