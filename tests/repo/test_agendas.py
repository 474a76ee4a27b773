"""The instructor guide's agendas fit: recomputed from the lessons' timing table, each slot
covers its lessons' stated core time x the room factor, each agenda sums to its length, and
the guide shows what scripts/agendas.py writes (cheap: arithmetic on the stored notebooks)."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import agendas  # noqa: E402
import lesson_times  # noqa: E402

RUN = "run: python scripts/agendas.py --write (or lesson_times.py --write, or make outputs)"


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return lesson_times.all_stats()


def test_the_guide_shows_the_agendas_the_script_writes(rows):
    assert agendas.stored() == agendas.agendas(rows), RUN


def _guide_tables() -> list[list[tuple[int, str]]]:
    """Each agenda table in the guide as (minutes, what) rows, read back from the text."""
    tables, current = [], None
    for line in agendas.stored().splitlines():
        if line.startswith("| start |"):
            current = []
            tables.append(current)
        elif current is not None and (m := re.match(r"\| [\d:]+ \| (\d+) \| (.*) \|$", line)):
            current.append((int(m.group(1)), m.group(2)))
        elif not line.startswith("|"):
            current = None
    return tables


def test_every_agenda_in_the_guide_fits_the_timing_table(rows):
    """Read back from the guide's text, not from the script's own arithmetic."""
    core = {r["file"]: r["minutes"] for r in rows}
    tables = _guide_tables()
    assert len(tables) == len(agendas.PLANS), RUN
    for plan, table in zip(agendas.PLANS, tables, strict=True):
        assert sum(minutes for minutes, _ in table) == plan.length, (plan.name, RUN)
        for minutes, what in table:
            assert minutes >= 0 and minutes % agendas.SLOT == 0, (plan.name, what)
            lessons = re.findall(r"\(\.\./notebooks/(\d\d_\w+\.ipynb)\)", what)
            needed = sum(core[f] for f in lessons) * agendas.ROOM_FACTOR
            if any(f.startswith("00") for f in lessons):
                needed += plan.setup
            assert minutes >= needed, f"{plan.name}: {what} gets {minutes} < {float(needed)}; {RUN}"
        scheduled = [f[:2] for _, w in table for f in re.findall(r"notebooks/(\d\d)_", w)]
        assert scheduled == [i for i in plan.items if isinstance(i, str)], plan.name


def test_slots_are_sized_from_the_table_and_rounded_up_to_five(rows):
    for plan in agendas.PLANS:
        slots = agendas.build(plan, rows)
        assert sum(s.minutes for s in slots) == plan.length
        assert slots[-1].kind == "wrap-up" and slots[-1].minutes >= 0
        for s in slots:
            if s.lesson:
                expected = s.lesson["minutes"] * agendas.ROOM_FACTOR
                expected += plan.setup if s.kind == "setup" else 0
                assert s.needed == expected
                assert 0 <= s.minutes - expected < agendas.SLOT, (plan.name, s.lesson["file"])


def test_a_plan_that_does_not_fit_is_refused_never_squeezed(rows):
    three_hours = next(p for p in agendas.PLANS if p.length == 180)
    crowded = replace(three_hours, items=(*three_hours.items, "05", "03"))
    with pytest.raises(agendas.AgendaError, match="more than its 180"):
        agendas.build(crowded, rows)
    with pytest.raises(agendas.AgendaError, match="no lesson 99"):
        agendas.build(replace(three_hours, items=("00", "99")), rows)


def test_the_late_room_cuts_free_what_they_say(rows):
    for plan in agendas.PLANS:
        slots = agendas.build(plan, rows)
        steps = agendas.cut_steps(plan, slots)
        (cut,) = [s for s in slots if s.lesson and s.lesson["file"][:2] == plan.cut]
        assert all(minutes > 0 for _, minutes in steps), plan.name
        if plan.drop:  # dropping the lesson frees its slot, exercise included
            assert sum(m for _, m in steps) == slots[-1].minutes + cut.minutes
        assert f"frees {steps[-1][1]} min" in agendas.render(plan, rows)


def test_writing_the_times_rebuilds_the_agendas_too(rows, tmp_path, monkeypatch):
    """`lesson_times.py --write` (which `make outputs` runs) leaves no agenda stale."""
    guide, readme = tmp_path / "guide.md", tmp_path / "README.md"
    stale = agendas.START + "an agenda written by hand" + agendas.END
    guide.write_text(
        lesson_times.START + "old table" + lesson_times.END + "\n\n" + stale + "\n",
        encoding="utf-8",
    )
    readme.write_text("", encoding="utf-8")
    monkeypatch.setattr(lesson_times, "GUIDE", guide)
    monkeypatch.setattr(lesson_times, "LESSONS_README", readme)
    monkeypatch.setattr(agendas, "GUIDE", guide)
    lesson_times.write_all(rows)
    assert agendas.stored() == agendas.agendas(rows)
    assert "old table" not in guide.read_text(encoding="utf-8")


def test_a_guide_without_the_markers_gets_a_clear_error(tmp_path, monkeypatch):
    guide = tmp_path / "guide.md"
    guide.write_text("# Instructor guide\n", encoding="utf-8")
    monkeypatch.setattr(agendas, "GUIDE", guide)
    with pytest.raises(agendas.AgendaError, match="agendas:start"):
        agendas.write_guide([])
