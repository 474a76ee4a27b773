"""Workshop agendas built from the lessons' stated times, so they fit by construction.

Usage: python scripts/agendas.py            (prints the agendas as Markdown)
       python scripts/agendas.py --write    (puts them between the instructor guide's markers)

Each agenda is a short declarative plan (``PLANS``): its length, the lessons in order, the
breaks, and what to cut when the room runs late. Nothing else is typed by hand: each lesson
slot lasts the lesson's stated core time (``lesson_times.all_stats()``, re-measured by timed
walks) times ``ROOM_FACTOR``, rounded up to 5 minutes; lesson 00's slot adds the plan's set-up
(``SETUP_MINUTES`` on laptops, ``HUB_SETUP_MINUTES`` on the hub); a closing slot
("questions and wrap-up") takes what is left, and a plan whose slots do not fit its length
is refused (``AgendaError``), never squeezed. Optional sections are never scheduled: the
agenda lists them, with the lessons it leaves out, for self-study. ``lesson_times.py
--write`` (and so ``make outputs``) refreshes the agendas too; ``tests/repo/test_agendas.py``
recomputes them and compares them with the guide.

This script does not decide what a lesson teaches or how long it takes: it only adds up.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import lesson_times  # noqa: E402

#: The guide's "in a room, add about a third": a learner alone takes the stated time; a room
#: adds questions, a neighbour to help, the instructor's demonstration and the wait for the
#: slowest third. Applied to every lesson slot, once, here.
ROOM_FACTOR = Fraction(4, 3)
#: Minutes before lesson 00 can start: logging in to the hub (or opening `make lab` on a laptop
#: prepared from the set-up instructions sent ahead) and helping the few whose set-up failed.
#: A room that installs from scratch needs longer: send the instructions ahead.
SETUP_MINUTES = 15
#: On the hub with the link sent ahead there is nothing to install: logging in and opening lesson
#: 00. A class of 25 logging in at once had every server ready within a minute (median 53 s, p90
#: 56 s: docs/hosting.md, "Sizing"), so the short agendas, which need the hub, give it 5 minutes.
HUB_SETUP_MINUTES = 5
SLOT = 5  # minutes: every slot is a multiple of this
WRAP_UP = "questions and wrap-up"


class AgendaError(ValueError):
    """A plan that does not fit its length, or names a lesson that does not exist."""


@dataclass(frozen=True)
class Plan:
    """One agenda as declared: items are lesson numbers ("01"), ("break", minutes) or
    ("lunch", minutes); ``cut`` is the lesson to shorten first when the room runs late (its
    exercises sent home) and, if ``drop``, to drop next."""

    name: str
    title: str
    length: int  # minutes, start to end
    start: tuple[int, int]  # clock time of the first slot (hours, minutes); (0, 0) = elapsed
    items: tuple
    cut: str
    drop: bool = True
    note: str = ""
    setup: int = SETUP_MINUTES  # minutes added to lesson 00's slot
    setup_how: str = "hub login or `make lab`"


PLANS = (
    Plan(
        "90 minutes",
        "the first request",
        90,
        (0, 0),
        ("00", "01"),
        cut="01",
        drop=False,
        note="A taster: one request on the wire, read byte by byte. On the hub, the link sent "
        "ahead (a 90-minute class has no time to install).",
        setup=HUB_SETUP_MINUTES,
        setup_how="hub login, the link sent ahead",
    ),
    Plan(
        "3 hours",
        "what is on the wire",
        180,
        (0, 0),
        ("00", "01", "04", ("break", 10), "11"),
        cut="04",
        note="The series' idea end to end: one request (01), the whole array sent again on "
        "every turn (04), and the agent loop that does it (11). On the hub, the link sent ahead.",
        setup=HUB_SETUP_MINUTES,
        setup_how="hub login, the link sent ahead",
    ),
    Plan(
        "full day",
        "the wire, the array and the loop",
        480,
        (9, 0),
        (
            "00",
            "01",
            "02",
            ("break", 15),
            "03",
            "04",
            ("lunch", 60),
            "05",
            "06",
            "07",
            ("break", 15),
            "11",
        ),
        cut="07",
        note="Formats, roles, growth, tools, caching, the SDK and the loop; the cost lab (12) "
        "is the homework.",
    ),
)


def round_up(minutes: float | Fraction) -> int:
    """Minutes rounded up to the next multiple of ``SLOT``."""
    return SLOT * math.ceil(minutes / SLOT)


@dataclass(frozen=True)
class Slot:
    kind: str  # "setup", "lesson", "break", "lunch", "wrap-up"
    minutes: int
    lesson: dict | None = None  # the lesson's row from lesson_times.all_stats()
    needed: Fraction = Fraction(0)  # what the slot must cover (stated core x factor [+ set-up])


def lesson_slot(row: dict, *, setup: int = 0) -> Slot:
    """A lesson's slot: its stated core time x the room factor (+ ``setup`` minutes), rounded
    up."""
    needed = row["minutes"] * ROOM_FACTOR + setup
    return Slot("setup" if setup else "lesson", round_up(needed), row, needed)


def build(plan: Plan, rows: list[dict]) -> list[Slot]:
    """The plan's slots, the last one the wrap-up that makes the total exactly its length."""
    by_number = {r["file"][:2]: r for r in rows}
    slots = []
    for item in plan.items:
        if isinstance(item, tuple):
            kind, minutes = item
            slots.append(Slot(kind, minutes))
            continue
        if item not in by_number:
            raise AgendaError(f"plan {plan.name!r}: no lesson {item} in notebooks/")
        slots.append(lesson_slot(by_number[item], setup=plan.setup if item == "00" else 0))
    left = plan.length - sum(s.minutes for s in slots)
    if left < 0:
        raise AgendaError(
            f"plan {plan.name!r} needs {plan.length - left} minutes, {-left} more than its "
            f"{plan.length}: take a lesson out of PLANS in scripts/agendas.py"
        )
    return [*slots, Slot("wrap-up", left)]


def _clock(plan: Plan, elapsed: int) -> str:
    hours, minutes = divmod(plan.start[0] * 60 + plan.start[1] + elapsed, 60)
    return f"{hours}:{minutes:02d}"


def _what(slot: Slot, plan: Plan) -> str:
    if slot.lesson is None:
        return {"wrap-up": WRAP_UP}.get(slot.kind, slot.kind)
    r = slot.lesson
    link = f"[{r['title']}](../notebooks/{r['file']})"
    sized = f"{r['minutes']} min stated × {ROOM_FACTOR.numerator}/{ROOM_FACTOR.denominator}"
    if slot.kind == "setup":
        return f"set-up ({plan.setup_how}, {plan.setup} min), then {link} ({sized})"
    return f"{link} ({sized}; optional part skipped)"


def exercise_minutes(row: dict) -> int:
    """Minutes a room spends on a lesson's core exercises (the timing model's exercise minutes
    x the room factor), rounded *down* to 5: what sending them home frees, never overstated."""
    alone = sum(lesson_times.EXERCISE_MINUTES[kind] for kind in row["exercises"])
    return SLOT * math.floor(alone * ROOM_FACTOR / SLOT)


def cut_steps(plan: Plan, slots: list[Slot]) -> list[tuple[str, int]]:
    """What to cut when the room runs late, in order: (what, minutes it frees)."""
    found = [s for s in slots if s.lesson and s.lesson["file"][:2] == plan.cut]
    if not found:
        raise AgendaError(f"plan {plan.name!r}: its cut, lesson {plan.cut}, is not in the plan")
    row, steps = found[0].lesson, []
    if slots[-1].minutes:
        steps.append(("the wrap-up", slots[-1].minutes))
    if exercise_minutes(row):  # a short exercise frees nothing worth a cut
        steps.append((f"{row['title']}: its exercise, done at home", exercise_minutes(row)))
    if plan.drop:
        rest = found[0].minutes - exercise_minutes(row)
        steps.append((f"the rest of {row['title']}, to self-study", rest))
    return steps


def cut_advice(plan: Plan, slots: list[Slot]) -> str:
    """What to cut when the room runs late, and the minutes each step frees."""
    steps = [f"{what} (frees {minutes} min)" for what, minutes in cut_steps(plan, slots)]
    return "**If the room runs late**, cut in this order: " + "; then ".join(steps) + "."


def self_study(plan: Plan, rows: list[dict]) -> str:
    """The lessons the plan leaves out, and the optional parts of the ones it keeps."""
    kept = {i for i in plan.items if isinstance(i, str)}
    out = [r for r in rows if r["file"][:2] not in kept]
    optional = [r for r in rows if r["file"][:2] in kept and r["optional_minutes"]]
    parts = []
    if out:
        listed = ", ".join(f"{r['file'][:2]} ({r['minutes']} min)" for r in out)
        parts.append(f"lessons {listed}")
    if optional:
        listed = ", ".join(f"{r['file'][:2]} (+{r['optional_minutes']})" for r in optional)
        parts.append(f"the optional parts of {listed}")
    return "**Left for self-study:** " + " and ".join(parts) + "."


def render(plan: Plan, rows: list[dict]) -> str:
    """One agenda as Markdown: heading, table, the late-room cut and the self-study list."""
    slots = build(plan, rows)
    lines = [
        f'**{plan.name.capitalize()}: "{plan.title.capitalize()}"** ({plan.note.rstrip(".")}.)',
        "",
        "| start | minutes | what |",
        "|---|---:|---|",
    ]
    elapsed = 0
    for slot in slots:
        lines.append(f"| {_clock(plan, elapsed)} | {slot.minutes} | {_what(slot, plan)} |")
        elapsed += slot.minutes
    lines.append(f"| {_clock(plan, elapsed)} | | end ({plan.length} minutes) |")
    lines += ["", cut_advice(plan, slots), "", self_study(plan, rows)]
    return "\n".join(lines)


def agendas(rows: list[dict] | None = None) -> str:
    """Every agenda in ``PLANS``, as the guide shows them between its markers."""
    rows = rows if rows is not None else lesson_times.all_stats()
    head = (
        f"Built by `python scripts/agendas.py --write` from the table above: each lesson slot "
        f"is the lesson's stated core time × {ROOM_FACTOR.numerator}/{ROOM_FACTOR.denominator} "
        f"(the room factor), rounded up to {SLOT} minutes; the first slot adds set-up to lesson "
        f"00: {HUB_SETUP_MINUTES} minutes on the hub with the link sent ahead (the short "
        f"agendas assume it), {SETUP_MINUTES} for `make lab` on laptops installed beforehand "
        f"from the README (a room that installs from scratch needs longer, so send the set-up "
        f"instructions ahead); the wrap-up takes what is left. "
        f"Optional parts are never scheduled."
    )
    return "\n\n".join([head, *(render(p, rows) for p in PLANS)])


GUIDE = ROOT / "docs" / "instructor_guide.md"
START, END = "<!-- agendas:start -->\n", "\n<!-- agendas:end -->"


def _split(text: str) -> tuple[str, str, str]:
    """(before, between, after) the guide's agenda markers; an error names what is missing."""
    if text.count(START) != 1 or text.count(END) != 1 or text.index(START) > text.index(END):
        where = GUIDE.relative_to(ROOT) if GUIDE.is_relative_to(ROOT) else GUIDE
        raise AgendaError(
            f"{where} needs one {START.strip()!r} line, then one "
            f"{END.strip()!r} line, where the agendas go"
        )
    head, rest = text.split(START, 1)
    between, tail = rest.split(END, 1)
    return head, between, tail


def stored() -> str:
    """The agendas as the guide holds them now (between its markers)."""
    return _split(GUIDE.read_text(encoding="utf-8"))[1]


def write_guide(rows: list[dict] | None = None) -> None:
    """Replace the agendas between the guide's markers with freshly computed ones."""
    head, _, tail = _split(GUIDE.read_text(encoding="utf-8"))
    GUIDE.write_text(head + START + agendas(rows) + END + tail, encoding="utf-8")


if __name__ == "__main__":
    try:
        if "--write" in sys.argv[1:]:
            write_guide()
        else:
            print(agendas())
    except AgendaError as error:
        sys.exit(f"agendas.py: {error}")
