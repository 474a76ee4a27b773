"""Build one reveal.js deck per lesson from the notebooks themselves: prose and key outputs, no
solutions, opening offline.

Usage: python scripts/build_slides.py [OUTPUT_DIR] [--lesson NN ...]   (``make slides``;
default: build/slides/)

Each deck is nbconvert's ``SlidesExporter`` (the well-kept reveal.js exporter of Jupyter) run on
a copy of the reference lesson made for the front of the room (``slide_notebook``):

- a ``#`` or ``##`` heading starts a slide, a ``###`` heading or a code cell with an output
  a sub-slide (below it);
- every exercise cell keeps its question and loses its solution, exactly as in the learner
  copy (``scripts/make_student.py``), and its output; a cell that reveals a predicted value
  loses its output too (the room predicts first); other outputs are kept, a long one cut to
  its first lines with a note;
- the Colab set-up cell is left out.

nbconvert's template loads reveal.js, jQuery, RequireJS and MathJax from CDNs; ours
(``scripts/slides_template/``) loads only reveal.js and its speaker-notes plugin, copied from the
npm package pinned in ``slides/package-lock.json`` (``make slides-setup`` runs ``npm ci``) into
the deck folder, so the decks open from the disk with no network. ``index.html`` lists them.

Like ``build_site.py`` it never deletes what it did not write (a manifest of the files it wrote;
a non-empty folder without one is refused). Not for: the answer key (``make site``).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from build_site import Output, SiteError, title  # noqa: E402
from make_student import reveals, strip_solutions  # noqa: E402

from course.exercises.solutions import SOLUTION, cell_source  # noqa: E402

LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
REVEAL = ROOT / "slides" / "node_modules" / "reveal.js"
PINNED = ROOT / "slides" / "package.json"
TEMPLATE = ROOT / "scripts" / "slides_template"
PREFIX = "reveal.js"  # the folder beside the decks that holds reveal.js
#: what of reveal.js a deck loads: the script, its styles and themes (with their fonts), notes
REVEAL_PARTS = ("dist", "plugin/notes")
LESSON_LINK = re.compile(r'href="(\d\d_[\w]+)\.ipynb(#[^"]*)?"')
LONGEST = 18  # lines of one output shown on a slide; the lesson has the rest


def _slide_type(source: str) -> str:
    first = source.lstrip().splitlines()[0] if source.strip() else ""
    if re.match(r"#{1,2} ", first):
        return "slide"
    if first.startswith("### "):
        return "subslide"
    return "-"


def _shorten(output: dict) -> dict:
    """An output cut to its first ``LONGEST`` lines (text), with a line saying how many more."""

    def cut(text: str | list) -> str:
        text = "".join(text) if isinstance(text, list) else text
        lines = text.splitlines(keepends=True)
        if len(lines) <= LONGEST:
            return text
        return "".join(lines[:LONGEST]) + f"... ({len(lines) - LONGEST} more lines in the lesson)\n"

    if output.get("output_type") == "stream":
        output["text"] = cut(output["text"])
    elif "data" in output and "text/plain" in output["data"] and len(output["data"]) == 1:
        output["data"]["text/plain"] = cut(output["data"]["text/plain"])
    return output


def slide_notebook(reference: dict) -> dict:
    """The lesson as a deck: slide metadata from the headings, no solution and no output of an
    exercise or of a prediction's reveal, long outputs cut, no Colab set-up cell. Reads only."""
    nb = json.loads(json.dumps(reference))
    cells = []
    for cell in nb["cells"]:
        if "colab-setup" in cell.get("metadata", {}).get("tags", []):
            continue
        source = cell_source(cell)
        kind = _slide_type(source) if cell["cell_type"] == "markdown" else "-"
        if cell["cell_type"] == "code":
            if SOLUTION.search(source) or reveals(source):
                cell["outputs"] = []
                cell["execution_count"] = None
            cell["source"] = strip_solutions(source)
            cell["outputs"] = [_shorten(o) for o in cell.get("outputs", [])]
            kind = "subslide" if cell["outputs"] else "-"  # a key output: a slide below
        cell["metadata"] = {"slideshow": {"slide_type": kind}}
        cells.append(cell)
    if cells and cells[0]["metadata"]["slideshow"]["slide_type"] == "-":
        cells[0]["metadata"]["slideshow"]["slide_type"] = "slide"
    nb["cells"] = cells
    return nb


def pinned_version() -> str:
    return json.loads(PINNED.read_text(encoding="utf-8"))["dependencies"]["reveal.js"]


def installed_reveal() -> Path:
    """The installed reveal.js, checked against the pin; a clear error if it is missing."""
    found = REVEAL / "package.json"
    if not found.is_file():
        raise SiteError(
            f"reveal.js is not installed in {REVEAL.parent.relative_to(ROOT)}/: run make "
            "slides-setup (npm ci, pinned by slides/package-lock.json; needs Node.js and npm)"
        )
    version = json.loads(found.read_text(encoding="utf-8"))["version"]
    if version != pinned_version():
        raise SiteError(
            f"slides/node_modules has reveal.js {version}, the pin is {pinned_version()}: "
            "run make slides-setup"
        )
    return REVEAL


def build(out: Path, lessons: list[Path] = LESSONS) -> list[Path]:
    """Write one deck per lesson, reveal.js beside them, and an index; returns the decks."""
    import nbformat
    from nbconvert import SlidesExporter

    reveal = installed_reveal()
    folder = Output(out)
    exporter = SlidesExporter(
        extra_template_paths=[str(TEMPLATE)],
        template_file="otw_offline.html.j2",
        reveal_url_prefix=PREFIX,
        reveal_theme="white",
        reveal_transition="none",
    )
    rendered = {}
    up = Path(os.path.relpath(ROOT, out.resolve())).as_posix()  # the checkout, from the decks
    for path in lessons:  # render everything before touching the folder
        deck = slide_notebook(json.loads(path.read_text(encoding="utf-8")))
        node = nbformat.reads(json.dumps(deck), as_version=4)
        body, _ = exporter.from_notebook_node(node, resources={"metadata": {"name": title(path)}})
        # links to another lesson open its deck; links into the checkout still reach it
        body = LESSON_LINK.sub(lambda m: f'href="{m.group(1)}.slides.html{m.group(2) or ""}"', body)
        body = body.replace('href="../', f'href="{up}/')
        rendered[f"{path.stem}.slides.html"] = body
    items = "".join(f'<li><a href="{p.stem}.slides.html">{title(p)}</a></li>' for p in lessons)
    index = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>On the Wire: slides"
        "</title></head><body style='font-family:system-ui,sans-serif;max-width:760px;"
        "margin:2em auto'><h1>On the Wire: slides</h1><p>One deck per lesson, from the lesson "
        "itself: its text and key outputs, no solutions. Arrow keys move; <kbd>s</kbd> opens "
        f"the speaker view. Works offline.</p><ol start='0'>{items}</ol></body></html>"
    )
    folder.clear_previous()
    decks = [folder.write(name, body.encode()) for name, body in rendered.items()]
    folder.write("index.html", index.encode())
    for part in REVEAL_PARTS:
        for source in sorted((reveal / part).rglob("*")):
            if source.is_file() and not source.name.endswith(".map"):
                name = f"{PREFIX}/{source.relative_to(reveal).as_posix()}"
                folder.write(name, source.read_bytes())
    folder.write(f"{PREFIX}/LICENSE", (reveal / "LICENSE").read_bytes())
    folder.finish()
    return decks


def main(args: list[str]) -> int:
    numbers = {p.name[:2]: p for p in LESSONS}
    chosen, out = [], ROOT / "build" / "slides"
    rest = iter(args)
    for arg in rest:
        if arg == "--lesson":
            lesson = next(rest, "")
            number = f"{int(lesson):02d}" if lesson.isdigit() else lesson
            if number not in numbers:
                print(
                    f"build_slides: --lesson {lesson!r} is not a lesson; one of "
                    f"{', '.join(numbers)}",
                    file=sys.stderr,
                )
                return 2
            chosen.append(numbers[number])
        else:
            out = Path(arg)
    try:
        decks = build(out, chosen or LESSONS)
    except SiteError as err:
        print(f"build_slides: {err}", file=sys.stderr)
        return 2
    print(f"wrote {len(decks)} deck(s) to {out} (open {out / 'index.html'})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
