"""The one-page cheat sheet (issue 36, item 4): built by scripts/cheat_sheet.py, printed to one
A4 page by Chromium, every number on it the series' own code's."""

from __future__ import annotations

import html
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import cheat_sheet  # noqa: E402

from helpers.examples import sundry  # noqa: E402
from helpers.formats import FORMATS, family  # noqa: E402
from helpers.models import default_model, rates  # noqa: E402
from helpers.tokens import count  # noqa: E402
from standin.rules.table import ROWS  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def sheet() -> str:
    return html.unescape(cheat_sheet.page())


def test_the_numbers_on_the_sheet_are_the_series_own(sheet):
    for provider in dict.fromkeys(family(f) for f in FORMATS):
        model = default_model(provider)
        total = count(sundry.ticket(model), model).total
        row = next(r for r in cheat_sheet.cost_rows() if r[0] == model)
        assert row[3].startswith(f"{total:,} ") and f"{total:,} (" in sheet
        r = rates(model)
        assert row[1].startswith(cheat_sheet._rate(r["input"]) + " / ")
        assert row[1].endswith(" / " + cheat_sheet._rate(r["output"]))


def test_each_providers_answer_is_the_rules_table_text(sheet):
    texts = {(row.rule, row.profile): " ".join(row.error.split()) for row in reversed(ROWS)}
    for rule, *cells in cheat_sheet.rules_table():
        for f, cell in zip(FORMATS, cells, strict=True):
            if cell.startswith("400: "):
                assert texts[rule, f].startswith(cell.removeprefix("400: ").rstrip("…"))


def test_the_spellings_are_found_in_the_rendered_bodies():
    formats, rows, bodies = cheat_sheet.roles_table()
    by_role = {row[0]: dict(zip(formats, row[1:], strict=True)) for row in rows}
    assert by_role["system"]["anthropic"] == "top-level system"
    assert by_role["system"]["openai-responses"] == "top-level instructions"
    assert by_role["system"]["gemini"] == "top-level systemInstruction"
    assert by_role["assistant"]["gemini"].startswith('role "model"')
    assert by_role["tool"]["anthropic"] == 'role "user", + tool_result block'
    assert "(not sent)" not in str(rows)
    assert set(bodies) == set(FORMATS)


def test_the_sheet_prints_on_one_page_and_renders_offline(tmp_path):
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (make browser)")
    sync_api = pytest.importorskip("playwright.sync_api")
    assert cheat_sheet.main([str(tmp_path)]) == 0
    pdf = tmp_path / cheat_sheet.PDF_NAME
    assert pdf.read_bytes().startswith(b"%PDF") and cheat_sheet.pages(pdf) == 1
    refused = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 794, "height": 1123})  # A4 at 96 dpi

            def local_only(route):
                if route.request.url.startswith(("file:", "data:")):
                    return route.continue_()
                refused.append(route.request.url)
                return route.abort()

            page.route("**/*", local_only)
            page.goto((tmp_path / cheat_sheet.HTML_NAME).as_uri())
            headings = page.locator("h2").all_inner_texts()
            rows = page.locator("table tr").count()
        finally:
            browser.close()
    assert refused == []
    assert [h.split(":")[0].split(",")[0] for h in headings] == [
        "The four roles",
        "One request in the four formats",
        "The rules of the list",
        "Cost",
        "Commands",
    ]
    assert rows > 20
    assert re.search(r"make student RESET=\d\d", (tmp_path / cheat_sheet.HTML_NAME).read_text())
