"""Used in lessons: 12.

Exercises of notebooks/12_token_arithmetic_lab.ipynb: a design fitted to a budget, written by
the learner and run on hidden tickets (12.1). The optional 12.2 (the time in a request without
breaking the cache, lesson 06's 06.2 again) went in issue 33's raise round. The break-even
count of requests (``check_break_even_requests``) is a prediction in the lesson since the fix
round of issue 33, kept here with its tests."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from course.exercises import (
    Exercise,
    Result,
    as_number,
    check_number,
    not_yet,
    with_fitting_example,
)
from course.lab import LabScenario, build_requests, cost_scenario

EX_SHARE = Exercise(  # not in the lesson since issue 33 (a prediction there); kept with its tests
    "12.0",
    idea="the share is the tools part of the first request divided by all of its tokens.",
    look="build_requests(baseline) gives the scenario's requests; count(request).part('tools')"
    " and count(request).total count them.",
)
EX_BREAK_EVEN = Exercise(  # not in the lesson since the fix round of issue 33 (a prediction)
    "12.9",
    look="the scenario you priced: its tools, its cache (the question says caching=False), and "
    "the number of requests at which your search stopped.",
    idea="cost grows with every extra request, because each re-sends the others: the answer is "
    "the first number of requests whose ticket crosses the line, not the last one under it.",
    example="if tickets of 5, 6 and 7 requests cost $0.0040, $0.0049 and $0.0058, the first to "
    "cost more than $0.005 is the one of 7 requests.",
)


def check_tools_share(answer: float, baseline: LabScenario) -> Result:
    from helpers.tokens import count

    requests = build_requests(baseline)
    first = count(requests[0])
    expected = first.part("tools") / first.total
    counts = [count(r) for r in requests]
    whole = sum(c.part("tools") for c in counts) / sum(c.total for c in counts)
    value = as_number(answer)
    near_whole = value is not None and abs(value - Decimal(f"{whole:.2f}")) <= Decimal("0.005")
    if near_whole and abs(whole - expected) > 0.01:
        return not_yet(
            EX_SHARE,
            f"{answer!r} is the tools' share of the whole ticket: the question asks about the "
            "first request only",
            expected=round(expected, 2),
            tolerance=Decimal("0.005"),
            kind="number",
        )
    if value is not None and value > 1:
        return not_yet(
            EX_SHARE,
            f"you gave {answer!r}: give a fraction between 0 and 1 (0.5, not 50)",
            expected=round(expected, 2),
            tolerance=Decimal("0.005"),
            kind="number",
        )
    return check_number(
        answer,
        round(expected, 2),
        EX_SHARE,
        tolerance="0.005",
        success=f"Right: {expected:.0%} of the first request is tool definitions.",
    )


def _first_over(baseline: LabScenario, **knobs: Any) -> int:
    """The fewest requests per ticket at which a ticket costs more than $0.005."""
    return next(
        n
        for n in range(1, 200)
        if cost_scenario(replace(baseline, requests=n, **knobs)).per_ticket > Decimal("0.005")
    )


def check_break_even_requests(answer: int, baseline: LabScenario) -> Result:
    expected = _first_over(baseline, tools=14, caching=False)
    mix_ups = {  # the likeliest slips, each answered in words
        _first_over(baseline, caching=False): "the baseline's tools: the question asks for "
        "every tool of the catalogue",
        _first_over(baseline, tools=14): "the prompt cache on: the question says without it",
    }
    value = as_number(answer)
    why = mix_ups.get(int(value)) if value is not None and value == int(value) else None
    if why and int(value) != expected:
        what = f"{answer!r} requests is the answer with {why}"
        return not_yet(EX_BREAK_EVEN, what, expected=expected, kind="number")
    if value is not None and value == expected - 1:
        price = cost_scenario(replace(baseline, tools=14, requests=expected - 1, caching=False))
        what = f"at {answer!r} requests a ticket costs ${price.per_ticket:.6f}: still under"
        return not_yet(EX_BREAK_EVEN, what, expected=expected, kind="number")
    return check_number(
        answer,
        expected,
        EX_BREAK_EVEN,
        success=f"Right: {expected} requests. Each one re-sends all the earlier ones.",
    )


# ---- 12.1: a design that meets a budget, written by the learner -------------------------------

EX_BUDGET = Exercise(
    "12.1",
    look="the ticket the check names, and your design for it: what it costs a ticket, which "
    "knobs it changed, and whether a design that changes less would also have fitted.",
    idea="what a design loses decides, not what it costs: of the designs that fit, the one to "
    "ship loses least by the brief's three knobs (a cheaper design that loses more is not "
    "better). Two compactions lose different amounts of the history.",
    example="a ticket of 4 requests that cannot fit even with nine tools and the cache on: "
    "compacted at requests[1] it keeps 1 turn before the summary, at requests[3] it keeps 3, "
    "and if both fit its budget the second is the one to ship. A ticket of 5 tools has no "
    "extras to drop.",
)


class NothingReturned:
    """What the learner's (written) function did when it returned None: a check turns it into
    this, so the judge can say what the case wanted (a design, or a ValueError)."""

    def __repr__(self) -> str:
        return "None"


class NoDesign:
    """What the learner's function did when it raised ValueError: no design fits (a check
    turns the raise into this, so the judge can tell it from a design)."""

    def __init__(self, why: str) -> None:
        self.why = why

    def __repr__(self) -> str:
        return f"ValueError({self.why!r})"


KEPT_LAST = 4  # messages kept verbatim when the design compacts
NINE = 9  # Sundry's own tools: the five extras of the catalogue go together, these cannot
WRITES_COST = "claude-sonnet-5-5"  # a model whose cache writes cost more than plain input
FIXED = ("model", "requests", "result_tokens", "tickets_per_day", "warm_prefix")


def _cost(s: LabScenario, _seen: dict = {}) -> Decimal:  # noqa: B006 (a cache on purpose)
    """One design's cost per ticket (memoised: the reference and the judge price the same
    designs)."""
    key = s.to_json()
    if key not in _seen:
        _seen[key] = cost_scenario(s).per_ticket
    return _seen[key]


def fitted(s: LabScenario, budget: Decimal) -> LabScenario:
    """The reference: the design that loses least and costs at most ``budget`` a ticket."""
    cached = replace(s, caching=True)
    trimmed = replace(cached, tools=min(s.tools, NINE))
    for design in (s, cached, trimmed):
        if _cost(design) <= budget:
            return design
    for at in range(s.requests - 1, 0, -1):
        design = replace(trimmed, compact_at=at, keep_last=KEPT_LAST)
        if _cost(design) <= budget:
            return design
    return replace(trimmed, compact_at=1, keep_last=KEPT_LAST)


def _fits_at_all(s: LabScenario, budget: Decimal) -> bool:
    """Whether any design of the brief costs at most ``budget`` (the cheapest compacts at 1,
    or is the trimmed design without compaction)."""
    trimmed = replace(s, caching=True, tools=min(s.tools, NINE))
    designs = [s, replace(s, caching=True), trimmed]
    designs += [replace(trimmed, compact_at=at, keep_last=KEPT_LAST) for at in range(1, s.requests)]
    return any(_cost(d) <= budget for d in designs)


def _budget_between(low: Decimal, high: Decimal) -> Decimal:
    return (low + high) / 2


def budget_tickets(baseline: LabScenario) -> list[tuple[str, LabScenario, Decimal]]:
    """The hidden tickets of 12.1: (what the ticket is, the ticket, its budget). Each budget
    lies between two designs' costs, computed now from the series' cost model."""
    base = replace(baseline, compact_at=None, warm_prefix=False)
    long_ticket = replace(base, requests=14, tools=14, caching=False)
    few_tools = replace(base, requests=12, tools=5, result_tokens=300, caching=False)
    big_results = replace(base, requests=8, result_tokens=2000, caching=False)
    off = replace(base, caching=False)
    tickets = [("a ticket that already fits", base, _cost(base) * Decimal("1.05"))]
    tickets.append(  # the fifth walk: a design that turns the cache on where nothing is needed
        ("the cache off, a ticket that already fits", off, _cost(off) * Decimal("1.05"))
    )
    tickets.append(  # the fifth walk: a design that turns the cache off where nothing is needed
        ("a ticket that fits with room to spare", base, _cost(off) * Decimal("1.05"))
    )
    cached_off = replace(off, caching=True)
    tickets.append(
        (
            "the cache off",
            off,
            _budget_between(_cost(replace(off, caching=True)), _cost(off)),
        )
    )
    every_tool_off = replace(base, tools=14, caching=False)
    tickets.append(
        (
            "fourteen tools, the cache off",
            every_tool_off,
            _budget_between(_cost(replace(every_tool_off, caching=True)), _cost(every_tool_off)),
        )
    )
    tickets.append(  # "at most": a budget equal to the cached design's cost is met by it
        ("the cache off, a budget of exactly the cached ticket's cost", off, _cost(cached_off))
    )
    fourteen = replace(base, tools=14)
    tickets.append(
        (
            "fourteen tools, the cache on",
            fourteen,
            _budget_between(_cost(replace(fourteen, tools=NINE)), _cost(fourteen)),
        )
    )
    for name, s in (
        ("a long ticket with every tool, the cache off", long_ticket),
        ("a long ticket with five tools and bigger results", few_tools),
        ("a ticket of eight requests with very big results", big_results),
    ):
        trimmed = replace(s, caching=True, tools=min(s.tools, NINE))
        costs = sorted(
            {
                _cost(replace(trimmed, compact_at=at, keep_last=KEPT_LAST))
                for at in range(1, s.requests)
            }
        )
        fits = [c for c in costs if c < _cost(trimmed)]
        middle = len(fits) // 2  # some compactions fit, some do not; no cost equals the budget
        tickets.append(
            (name, s, _budget_between(fits[middle], costs[costs.index(fits[middle]) + 1]))
        )
    latest = replace(long_ticket, caching=True, tools=NINE, compact_at=long_ticket.requests - 1)
    tickets.append(  # the fourth walk: a search that starts at requests - 2 never tries this one
        (
            "a long ticket whose latest compaction fits",
            long_ticket,
            _budget_between(
                _cost(replace(latest, keep_last=KEPT_LAST)),
                _cost(replace(latest, compact_at=None)),
            ),
        )
    )
    every_tool_big = replace(big_results, tools=14)
    on = replace(every_tool_big, caching=True)
    for at in range(every_tool_big.requests - 1, 0, -1):  # the fourth walk's self-walk: the
        # extras kept while compacting, where the same compaction without them fits and no
        # later one does
        kept = _cost(replace(on, compact_at=at, keep_last=KEPT_LAST))
        later = [
            _cost(replace(on, tools=NINE, compact_at=j, keep_last=KEPT_LAST))
            for j in range(at + 1, every_tool_big.requests)
        ]
        ceiling = min([*later, _cost(replace(on, tools=NINE))])
        if kept < ceiling:
            tickets.append(
                (
                    "a ticket of eight requests with every tool and very big results",
                    every_tool_big,
                    _budget_between(kept, ceiling),
                )
            )
            break
    one_call = replace(base, model=WRITES_COST, requests=1, tools=14)  # cache writes at 1.25x
    if _cost(replace(one_call, caching=False)) < _cost(one_call):
        tickets.append(  # the fifth walk: the cache off would keep every tool; the brief says on
            (
                f"one request to {WRITES_COST} with every tool, where cache writes cost more",
                one_call,
                _budget_between(
                    max(
                        _cost(replace(one_call, tools=NINE)),
                        _cost(replace(one_call, caching=False)),
                    ),
                    _cost(one_call),
                ),
            )
        )
    cheapest = min(
        _cost(replace(long_ticket, caching=True, tools=NINE, compact_at=at, keep_last=KEPT_LAST))
        for at in range(1, long_ticket.requests)
    )
    tickets.append(("a budget no design can meet", long_ticket, cheapest * Decimal("0.5")))
    return tickets


def _same(a: LabScenario, b: LabScenario) -> bool:
    """The same design (``keep_last`` matters only when the design compacts)."""
    if a.compact_at is None and b.compact_at is None:
        return replace(a, keep_last=b.keep_last) == b
    return a == b


def _loss(design: LabScenario, ticket: LabScenario) -> tuple[int, int, bool]:
    """What ``design`` loses of ``ticket``, worst first: turns of history compacted away (an
    earlier compaction loses more), tools dropped, and whether it changes the ticket at all (the
    cache loses nothing the agent needs, but a ticket that fits ships as it is)."""
    compacted = 0 if design.compact_at is None else ticket.requests - design.compact_at
    return compacted, ticket.tools - design.tools, not _same(design, ticket)


def _kind(design: LabScenario, ticket: LabScenario) -> str:
    """The kind of design that fits, in words (never its code): its tools, cache, compaction."""
    parts = [f"{design.tools} tools"] if design.tools != ticket.tools else []
    if design.compact_at is not None:
        parts.append(f"compacted at requests[{design.compact_at}]")
    elif design.caching != ticket.caching:
        parts.append("the cache on")
    return ", ".join(parts) or "the ticket as it is"


def _judge_design(ticket: LabScenario, budget: Decimal) -> Any:
    possible = _fits_at_all(ticket, budget)
    want = fitted(ticket, budget)
    kind = _kind(want, ticket)

    def no_design(what: str) -> str:
        """Why giving no design (``what``: returned None, raised ...) is wrong, if one fits."""
        if ticket.tools < NINE and not _fits_at_all(replace(ticket, tools=NINE), budget):
            return (
                f"your function {what}, and a design within ${budget:.6f} exists: "
                f"this ticket sends {ticket.tools} tools, fewer than nine, and keeps its own "
                f"{ticket.tools} (trimming to nine only ever removes tools)"
            )
        if _cost(want) == budget:
            return (
                f"your function {what}, and a design costs exactly the budget, "
                f"${budget:.6f}: the brief says at most"
            )
        return f"your function {what}, and a design within ${budget:.6f} exists ({kind})"

    def judge(got: Any) -> str | None:
        if isinstance(got, NothingReturned):
            if possible:
                return no_design("returned None")
            return (
                f"your function returned None, and no design of the brief costs ${budget:.6f} "
                "or less: the brief asks for a ValueError then (raised, not returned), so the "
                "caller cannot mistake it for a design"
            )
        if isinstance(got, NoDesign):
            if possible:
                return no_design(f"raised {got!r}")
            return None
        if not possible and isinstance(got, LabScenario):
            return (
                f"no design of the brief costs ${budget:.6f} or less, and your function returned "
                f"one costing ${_cost(got):.6f}: the brief says what to do when none fits"
            )
        if not isinstance(got, LabScenario):
            return f"your function gave a {type(got).__name__}: a LabScenario is expected"
        changed = [f for f in FIXED if getattr(got, f) != getattr(ticket, f)]
        if changed:
            what = ", ".join(changed)
            return f"your design changes the ticket's {what}: those are not yours to change"
        if got.tools > ticket.tools:
            return (
                f"your design sends {got.tools} tools where the ticket sent {ticket.tools}: a "
                "ticket with fewer than nine keeps its own (trimming only ever removes tools)"
            )
        if got.tools < min(ticket.tools, NINE):
            return f"your design sends {got.tools} tools: Sundry's agent needs its nine"
        if NINE < got.tools < ticket.tools:  # the sixth walk: some extras dropped, not all
            return (
                f"your design sends {got.tools} tools, dropping {ticket.tools - got.tools} of the "
                f"{ticket.tools - NINE} extras: the brief drops the extras together (tools=9) "
                "or keeps them all, never some of them"
            )
        try:
            cost = _cost(got)
        except ValueError as err:  # an impossible design: say why, never a traceback
            return f"your design cannot be priced: {err}"
        if cost > budget:
            over = f"your design costs ${cost:.6f} a ticket, over the budget of ${budget:.6f}"
            if got.compact_at is not None and got.tools > min(ticket.tools, NINE):
                return f"{over}; a design of {kind} fits"  # the extras kept while compacting
            return over
        if _same(got, want):
            return None
        if ticket.caching and not got.caching:  # the brief: the cache's one knob is "on"
            if _same(want, ticket):
                return (
                    "the ticket already fits its budget as it is, and your design turns its "
                    "cache off: a ticket that fits ships as it is"
                )
            return (
                f"your design turns the cache off (${cost:.6f}): the brief's only cache knob is "
                f"on, and a design with it on fits (${_cost(want):.6f})"
            )
        kept = got.compact_at is None or got.keep_last == KEPT_LAST
        if kept and _loss(got, ticket) == _loss(want, ticket):
            return None  # as little lost another way: the cache off where it would lose nothing
        if _cost(want) == budget:
            return (
                f"a design that loses less costs exactly the budget, ${budget:.6f}, and the "
                "brief says at most"
            )
        if _same(want, ticket):
            return "the ticket already fits its budget, and your design changes it"
        if got.compact_at is not None and want.compact_at is None:
            return "your design compacts, and a design that keeps the whole history fits too"
        if got.tools < ticket.tools and want.tools == ticket.tools:
            return (
                f"your design drops tools, and with the cache on alone it fits (${_cost(want):.6f})"
            )
        if got.compact_at is not None and got.tools > min(ticket.tools, NINE):
            return (
                f"your design compacts the history and still sends {got.tools} tools: the "
                "catalogue's extras go before any of the history does"
            )
        if got.compact_at is not None and got.keep_last != KEPT_LAST:
            kept = got.keep_last
            return f"your design keeps the last {kept} messages, and the brief says {KEPT_LAST}"
        if got.compact_at is not None and want.compact_at is not None:
            if got.compact_at < want.compact_at:
                return (
                    f"your design compacts at requests[{got.compact_at}], and a later compaction "
                    f"fits too (${_cost(want):.6f}): each earlier one loses more of the history"
                )
            return (
                f"your design compacts at requests[{got.compact_at}]: check it against its losses"
            )
        return "your design fits, and another one that loses less fits too"

    return judge


def check_fit_budget(fit_budget: Any, baseline: LabScenario) -> Result:
    """``fit_budget(scenario, budget)``: the design that loses least and meets the budget."""
    import functools

    from course.exercises import Case, check_cases, is_stub

    cases = [
        Case(name, (ticket, budget), _judge_design(ticket, budget))
        for name, ticket, budget in budget_tickets(baseline)
    ]
    learner = fit_budget
    if callable(fit_budget) and not is_stub(fit_budget):

        @functools.wraps(fit_budget)
        def learner(*args: Any) -> Any:  # a ValueError is the brief's answer when none fits
            try:
                got = fit_budget(*args)
            except ValueError as err:
                return NoDesign(str(err))
            return NothingReturned() if got is None else got

    result = check_cases(
        learner,
        cases,
        EX_BUDGET,
        success="Right: every ticket gets the design that loses least within its budget. "
        "Priced before it is built; keep the function, and run it again when prices change",
    )
    # the third hint: a smaller example of the mistake the failing case shows, where one fits
    return with_fitting_example(result, EX_BUDGET, _BUDGET_EXAMPLES)


#: Smaller examples for 12.1's third hint, by what the failing case's reason says (the first
#: that matches; otherwise the exercise's own example, two compactions).
_BUDGET_EXAMPLES = [
    (
        "no design of the brief costs",
        "a ticket whose cheapest design, compacted at requests[1], costs $0.002 cannot meet a "
        "budget of $0.001: the caller gets a ValueError saying so, not None and not that design.",
    ),
    (
        "a design within",
        "a ticket of 3 requests that fits $0.002 only compacted at requests[1] still has a "
        "design to ship: that one, not an error.",
    ),
    (
        "turns its cache off",
        "a ticket with the cache on that costs $0.0010 under a budget of $0.0012 ships as it "
        "is, even if the cache off would fit too: the same scenario, the cache as it was.",
    ),
    (
        "turns the cache off",
        "a ticket with the cache on that fits only without its five extras, or with the cache "
        "off, drops the extras: on is the only cache knob, and off is no design.",
    ),
    (
        "already fits its budget",
        "a ticket that costs $0.0010 under a budget of $0.0012 ships unchanged: the same "
        "scenario, the cache as it was.",
    ),
    (
        "exactly the budget",
        "a design costing $0.002000 meets a budget of $0.002000: at most includes equal.",
    ),
    (
        "drops tools",
        "a ticket of 14 tools with the cache off that fits once the cache is on keeps its 14; "
        "one of 5 tools keeps its 5.",
    ),
    (
        "never some of them",
        "a ticket of 14 tools has two tool counts in the brief, 14 and 9: a design of 12 or "
        "10 is none of its designs, even where it costs less than the one of 9.",
    ),
    (
        "where the ticket sent",
        "a ticket of 5 tools has no extras to drop: a design of it sends its own 5, never 9.",
    ),
]
