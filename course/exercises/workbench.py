"""Used in lessons: 14.

The capstone's workbench (notebooks/14_repair_an_agent.ipynb): ``rerun(...)`` runs your agent
file once against a stand-in and gives back the meter and the cards; ``check_repaired_agent``
runs it on tickets you have not seen, in the four wire formats. Loading the file is
``course/exercises/agent_file.py``. How the check judges lives in
``course/exercises/repair_an_agent.py``, best left unread until your check passes: it holds the
hidden tickets.

What it does not do: change your file, or reach any network but loopback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from course.exercises import Result
from course.exercises.agent_file import (
    SHIPPED,
    BrokenAgent,
    limit_at,
    load_agent,
    scenario,
    shipped,
)
from course.exercises.repair_an_agent import check_repaired_agent as _check

__all__ = ["SHIPPED", "BrokenAgent", "check_repaired_agent", "load_agent", "rerun", "shipped"]


def rerun(
    format: str = "anthropic",
    text: str = "",
    *,
    narrated: bool = True,
    rate_limit_at: int = 0,
    agent: Any = None,
    path: str | Path = "sundry_agent.py",
) -> tuple[Any, Any]:
    """Your agent (the file, read afresh) run once under capture: ``(trace, seen)``, the meter
    and every request as cards. ``text``: the buyer's message (default: Maya's ticket);
    ``narrated=False``: a model that calls tools without a word beside them;
    ``rate_limit_at=N``: the provider answers request N with a 429 (once). When ``run_ticket``
    raises, the error is printed and the trace is empty: ``seen`` still shows the wire."""
    from helpers.examples import sundry
    from helpers.meter import Trace
    from standin import capture

    agent = agent if agent is not None else load_agent(path)
    trace = Trace(format, "(no trace: run_ticket raised)")
    with capture(scenario(narrated)) as seen:
        limit_at(seen.provider, rate_limit_at)
        try:
            trace = agent.run_ticket(
                text or sundry.TICKET_TEXT, format=format, base_url=seen.provider.url
            )
        except Exception as err:  # your code: shown, not raised, so the wire can be read
            print(f"run_ticket raised {type(err).__name__}: {err}")
    return trace, seen


def check_repaired_agent(agent: Any) -> Result:
    """``agent``: your agent module (``load_agent("sundry_agent.py")``), run on hidden tickets
    in the four wire formats; right when none of them shows a problem."""
    return _check(agent)
