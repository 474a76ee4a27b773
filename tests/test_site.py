"""The static site builds, and no internal link in it is broken."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
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


def test_site_builds_with_every_lesson_and_no_broken_links(tmp_path):
    pages = build_site.build(tmp_path / "site")
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
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "00 · Start here" in index


def test_every_figure_in_the_site_has_alt_text(tmp_path):
    pages = build_site.build(tmp_path / "site")
    missing, figures = [], 0
    for page in pages:
        for tag in re.findall(r"<img[^>]*>", page.read_text(encoding="utf-8")):
            if "data:image/png" not in tag:
                continue
            figures += 1
            alt = re.search(r'alt="([^"]*)"', tag)
            if not alt or len(alt.group(1)) < 20:
                missing.append(page.name)
    assert figures >= len(build_site.LESSONS) - 3  # most lessons have a figure
    assert missing == []
