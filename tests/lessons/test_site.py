"""The static site builds, every figure carries its own text alternative, no internal link is
broken, and a build never deletes or overwrites what it did not write."""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import build_site  # noqa: E402

HREF = re.compile(r'(?:href|src)="([^"]+)"')


def internal_links(page: Path) -> list[str]:
    links = []
    for target in HREF.findall(page.read_text(encoding="utf-8")):
        if target.startswith(("http:", "https:", "mailto:", "data:", "#", "javascript:")):
            continue
        links.append(target)
    return links


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The whole site, built once for the tests that only read it: (folder, pages)."""
    folder = tmp_path_factory.mktemp("built") / "site"
    return folder, build_site.build(folder)


@pytest.fixture
def one_lesson(monkeypatch):
    """Builds of a single lesson, for the tests about the output folder (fast)."""
    monkeypatch.setattr(build_site, "LESSONS", build_site.LESSONS[:2])


def test_site_builds_with_every_lesson_and_no_broken_links(built):
    folder, pages = built
    names = {p.name for p in pages}
    assert "index.html" in names
    assert {f"{p.stem}.html" for p in build_site.LESSONS} <= names
    broken = []
    for page in pages:
        for link in internal_links(page):
            path = unquote(link.split("#")[0].split("?")[0])
            if path and not (page.parent / path).exists():
                broken.append(f"{page.name} -> {link}")
    assert broken == []
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert "00 · Start here" in index


def test_every_img_alt_is_its_own_figures_description(built):
    folder, pages = built
    checked = 0
    for lesson in build_site.LESSONS:
        alts = build_site.figure_alts(lesson)
        page = (folder / f"{lesson.stem}.html").read_text(encoding="utf-8")
        tags = re.findall(r"<img\b[^>]*>", page)
        assert len(tags) == len(alts), lesson.name
        for tag in tags:
            png = re.search(r'src="data:image/png;base64,([^"]+)"', tag).group(1)
            alt = re.search(r'\salt="([^"]*)"', tag).group(1)
            assert html.unescape(alt) == alts[re.sub(r"\s", "", png)], lesson.name
            assert alt.startswith("Figure. ") and len(alt) > 40
            checked += 1
    assert checked > 0  # figures exist (not every lesson has one), so the loop checked something
    everything = "".join(p.read_text(encoding="utf-8") for p in pages)
    assert build_site.PLACEHOLDER_ALT not in everything


def test_a_figure_without_a_text_alternative_stops_the_build_naming_it(tmp_path):
    lesson = build_site.LESSONS[4]
    nb = json.loads(lesson.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            out.get("metadata", {}).pop("image/png", None)
    copy = tmp_path / lesson.name
    copy.write_text(json.dumps(nb), encoding="utf-8")
    with pytest.raises(build_site.SiteError, match=rf"{lesson.name} cell \d+: a figure without"):
        build_site.figure_alts(copy)


def test_a_rebuild_keeps_files_it_did_not_write(tmp_path, one_lesson):
    site = tmp_path / "site"
    build_site.build(site)
    (site / "my_notes.txt").write_text("mine")
    (site / "data" / "extra.json").write_text("{}")
    build_site.build(site)
    assert (site / "my_notes.txt").read_text() == "mine"
    assert (site / "data" / "extra.json").read_text() == "{}"
    assert (site / "index.html").exists()


def test_a_folder_it_did_not_make_is_refused_and_left_alone(tmp_path, capsys):
    folder = tmp_path / "thesis"
    folder.mkdir()
    (folder / "chapter1.md").write_text("years of work")
    assert build_site.main([str(folder)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("build_site: ") and "was not made by build_site.py" in err
    assert "\n" not in err and [p.name for p in folder.iterdir()] == ["chapter1.md"]


def test_an_edited_page_is_not_overwritten(tmp_path, one_lesson):
    site = tmp_path / "site"
    build_site.build(site)
    (site / "index.html").write_text("my annotated index")
    with pytest.raises(build_site.SiteError, match="index.html changed since the last build"):
        build_site.build(site)
    assert (site / "index.html").read_text() == "my annotated index"


def test_the_answer_key_page_has_every_exercise_with_its_solution_and_check(built):
    from course.exercises.solutions import exercise_cells

    folder, pages = built
    assert folder / build_site.ANSWERS in pages
    key = (folder / build_site.ANSWERS).read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]+>", "", key))  # highlighted code, as a reader sees it
    total = 0
    for lesson in build_site.LESSONS:
        cells = exercise_cells(json.loads(lesson.read_text(encoding="utf-8")))
        assert f'href="{lesson.stem}.html"' in key, lesson.name
        for number, cell in enumerate(cells, 1):
            assert f"Exercise {lesson.name[:2]}.{number}" in text
            code = build_site_solution_lines(cell)
            assert all(line in text for line in code), (lesson.name, number)
            total += 1
    assert total >= len(build_site.LESSONS)  # every lesson has at least one exercise
    assert text.count("BEGIN SOLUTION") >= total
    assert text.count("✓") >= total  # every check's stored confirmation is on the page
    assert f"href='{build_site.ANSWERS}'" in (folder / "index.html").read_text(encoding="utf-8")


def build_site_solution_lines(cell: dict) -> list[str]:
    from course.exercises.solutions import solution_code

    return [line.strip() for line in solution_code(cell).splitlines() if line.strip()]
