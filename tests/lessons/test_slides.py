"""`make slides` (issue 36, item 3): one reveal.js deck per lesson, from the lesson itself, with
no solution, opening offline in a real browser.

Every lesson's deck notebook is checked structurally (cheap); one deck is built with nbconvert
and opened in Chromium with every request that is not a local file refused.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import build_slides  # noqa: E402

from course.exercises.solutions import SOLUTION, cell_source, exercise_cells, solution_code  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _solution_lines(lesson: Path) -> set[str]:
    """The lines only a solution has (not also elsewhere in the lesson's code)."""
    nb = json.loads(lesson.read_text(encoding="utf-8"))
    lines = set()
    for cell in exercise_cells(nb):
        lines |= {
            line.strip() for line in solution_code(cell).splitlines() if len(line.strip()) > 8
        }
    rest = "".join(
        SOLUTION.sub("", cell_source(c)) for c in nb["cells"] if c["cell_type"] == "code"
    )
    return {line for line in lines if line not in rest}


@pytest.mark.parametrize("lesson", build_slides.LESSONS, ids=lambda p: p.name[:2])
def test_every_lessons_deck_has_slides_and_no_solution(lesson):
    reference = json.loads(lesson.read_text(encoding="utf-8"))
    deck = build_slides.slide_notebook(reference)
    kinds = [c["metadata"]["slideshow"]["slide_type"] for c in deck["cells"]]
    assert kinds[0] == "slide" and kinds.count("slide") >= 3
    code = "\n".join(cell_source(c) for c in deck["cells"] if c["cell_type"] == "code")
    assert not SOLUTION.search(code)
    leaked = [line for line in _solution_lines(lesson) if line in code]
    assert leaked == []
    for cell, ref in zip(
        [c for c in deck["cells"] if c["cell_type"] == "code"],
        [c for c in reference["cells"] if c["cell_type"] == "code" and c["id"] != "colab-setup"],
        strict=True,
    ):
        if SOLUTION.search(cell_source(ref)):
            assert cell["outputs"] == []  # an exercise's check output shows no answer
    assert "colab-setup" not in json.dumps([c.get("id") for c in deck["cells"]])


def test_a_deck_opens_offline_in_a_real_browser_and_moves(tmp_path):
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (make browser)")
    if not (build_slides.REVEAL / "package.json").is_file():
        pytest.skip("reveal.js is not installed (make slides-setup: npm ci in slides/)")
    sync_api = pytest.importorskip("playwright.sync_api")
    lesson = next(p for p in build_slides.LESSONS if p.name.startswith("05_"))
    decks = build_slides.build(tmp_path / "slides", [lesson])
    assert [d.name for d in decks] == ["05_tools_are_context.slides.html"]
    html = decks[0].read_text(encoding="utf-8")
    assert "unpkg.com" not in html and "cdnjs" not in html and "cdn.jsdelivr" not in html
    wanted = sum(
        c["metadata"]["slideshow"]["slide_type"] == "slide"
        for c in build_slides.slide_notebook(json.loads(lesson.read_text(encoding="utf-8")))[
            "cells"
        ]
    )
    refused = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})

            def local_only(route):
                if route.request.url.startswith(("file:", "data:")):
                    return route.continue_()
                refused.append(route.request.url)
                return route.abort()

            page.route("**/*", local_only)
            page.goto(decks[0].as_uri())
            page.wait_for_selector(".reveal.ready", timeout=15_000)
            assert page.evaluate("Reveal.getHorizontalSlides().length") == wanted
            assert page.locator(".reveal .slides section.present h1").first.is_visible()
            page.keyboard.press("ArrowRight")
            page.wait_for_function("Reveal.getIndices().h === 1", timeout=5_000)
            shown = page.evaluate("document.body.innerText")
        finally:
            browser.close()
    assert refused == []  # nothing left the machine: reveal.js came from the deck's folder
    assert "05 · Tools are context".lower() in shown.lower()
    assert not any(line in shown for line in _solution_lines(lesson))


def test_bad_lesson_is_a_clear_error(capsys):
    assert build_slides.main(["--lesson", "99"]) == 2
    assert "is not a lesson" in capsys.readouterr().err
