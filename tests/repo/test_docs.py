"""The documents learners and instructors read stay true to the repository."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import lesson_times  # noqa: E402

LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
DOCS = [ROOT / "README.md", ROOT / "notebooks" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_instructor_guide_timing_table_matches_the_lessons():
    guide = (ROOT / "docs" / "instructor_guide.md").read_text(encoding="utf-8")
    stored = guide.split("<!-- lesson-times:start -->\n")[1].split("\n<!-- lesson-times:end -->")[0]
    assert stored == lesson_times.table(), (
        "run: python scripts/lesson_times.py, paste into the guide"
    )


def test_every_lesson_is_listed_in_the_readme_and_the_index():
    for doc in (ROOT / "README.md", ROOT / "notebooks" / "README.md"):
        text = doc.read_text(encoding="utf-8")
        missing = [p.name for p in LESSONS if p.name not in text]
        assert missing == [], f"{doc.relative_to(ROOT)} does not list {missing}"


def test_relative_links_in_the_documents_point_at_files_that_exist():
    broken = []
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text(encoding="utf-8")):
            if target.startswith(("http:", "https:", "mailto:")):
                continue
            if not (doc.parent / target).exists():
                broken.append(f"{doc.relative_to(ROOT)} -> {target}")
    assert broken == []


def test_the_readme_names_exactly_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make lab" in readme and "make test" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert [line for line in ci.splitlines() if line and not line.startswith("#")][
        -1
    ] == "exec make test"


def test_the_index_times_are_the_computed_estimates():
    index = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    for path in LESSONS:
        row = next(line for line in index.splitlines() if f"({path.name})" in line)
        stated = lesson_times.README_TIME.search(row).group(2)
        assert stated == lesson_times._time(lesson_times.lesson_stats(path)), path.name


def test_the_timing_model_is_within_five_minutes_of_every_timed_walk():
    found = lesson_times.calibration()
    far = [
        f"{lesson}: model {model:.1f}, walk {walk:g}"
        for lesson, model, walk in found["walks"]
        if abs(model - walk) > lesson_times.WALK_TOLERANCE
    ]
    assert len(found["walks"]) >= 4 and far == []
    total, measured = found["reading"]
    assert abs(total - measured) <= 0.10 * measured, f"00-06: {total} min against {measured}"


def test_a_lesson_stated_from_its_walk_is_one_the_model_misses_and_has_not_changed_since():
    drift = lesson_times.calibration()["drift"]
    walked = {(n, part) for n, (_, *m, _) in lesson_times.MEASURED.items() for part, x in
              zip(lesson_times.PARTS, m, strict=True) if x is not None}  # fmt: skip
    assert set(drift) == walked
    for (lesson, part), (then, now, minutes) in drift.items():
        assert abs(then - minutes) > lesson_times.WALK_TOLERANCE, f"{lesson} {part}: model will do"
        assert abs(now - then) <= lesson_times.MEASURED_DRIFT, (
            f"lesson {lesson}'s {part} changed since its walk (model {then:.1f} -> {now:.1f} "
            "min): walk it again, or drop it from MEASURED"
        )


def test_every_lesson_is_stated_at_30_minutes_or_less():
    over = {
        r["file"]: r["exact_minutes"]
        for r in lesson_times.all_stats()
        if r["minutes"] > lesson_times.limit(r["file"])
    }
    assert over == {}


def test_an_optional_section_is_counted_apart():
    heading = {"cell_type": "markdown", "metadata": {}, "source": "## Going further (optional)"}
    back = {"cell_type": "markdown", "metadata": {}, "source": "## Recap"}
    code = {"cell_type": "code", "metadata": {}, "source": "x = 1", "outputs": []}
    core, optional = lesson_times.split_optional([code, heading, code, code, back, code])
    assert (len(core), len(optional)) == (3, 3)
    inner = {"cell_type": "markdown", "metadata": {}, "source": "### A detail"}
    core, optional = lesson_times.split_optional([code, heading, code, inner, code, back])
    assert (len(core), len(optional)) == (2, 4)  # a subheading stays in the optional section
    assert round(lesson_times.estimate(lesson_times.features(optional, []))) == 2  # two cells


def test_an_exercise_that_asks_for_a_function_counts_longer_than_a_value():
    def cell(source):
        return {"cell_type": "code", "metadata": {}, "source": source, "outputs": []}

    assert lesson_times.exercise_kind(cell("def wants_tools(reply):\n    ...")) == "function"
    assert lesson_times.exercise_kind(cell("answer = ...")) == "value"
    assert lesson_times.exercise_kind(cell("x = 1\n" * 21)) == "long value"


def test_reading_output_counts_and_a_collapsed_output_does_not():
    printed = {
        "cell_type": "code",
        "metadata": {},
        "outputs": [
            {"output_type": "stream", "name": "stdout", "text": "x" * 1600},
            {"output_type": "display_data", "data": {"image/png": "", "text/plain": "<Figure>"}},
        ],
    }
    assert lesson_times.output_load(printed) == (1600, 1, 0)
    printed["metadata"] = {"jupyter": {"outputs_hidden": True}}
    assert lesson_times.output_load(printed) == (0, 0, 0)


def test_the_source_map_names_sections_that_exist():
    """docs/source_map.md: every (lesson, section) it names is a heading in that lesson."""
    table = (ROOT / "docs" / "source_map.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([AB]) \| (.+?) \| (\d\d) \| (.+?) \|$", table, re.M)
    assert len(rows) >= 30
    for _, point, lesson, section in rows:
        (path,) = (ROOT / "notebooks").glob(f"{lesson}_*.ipynb")
        nb = json.loads(path.read_text(encoding="utf-8"))
        headings = {
            line.lstrip("#").strip()
            for cell in nb["cells"]
            if cell["cell_type"] == "markdown"
            for line in "".join(cell["source"]).splitlines()
            if line.startswith("#")
        }
        assert section in headings, f"{point!r}: {path.name} has no section {section!r}"
