"""Used in lessons: 14.

The capstone's workbench (notebooks/14_repair_an_agent.ipynb): load the agent file afresh, run
it once under capture, and hand it to the check.

``load_agent(path)`` reads an agent file from disk (your latest edits, no kernel restart);
``rerun(...)`` runs its ``run_ticket`` once against a stand-in and gives back the meter and the
cards; ``SHIPPED`` is the agent as Sundry's team shipped it (kept unchanged: your copy is the
one beside your notebook). ``check_repaired_agent`` runs your agent on tickets you have not
seen; how it judges lives in ``course/exercises/repair_an_agent.py``, which is best left
unread until your check passes (it holds the hidden tickets).

What it does not do: change your file, or reach any network but loopback.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from helpers.examples import ROOT  # the checkout, found as the lessons find their data

SHIPPED = ROOT / "notebooks" / "sundry_agent.py"  # what learners get, bugs and all
REPAIRED = Path(__file__).with_name("repaired_agent.py")  # the reference run's agent


@dataclass(frozen=True)
class BrokenAgent:
    """An agent file that did not load: which file, and why (its error and line)."""

    path: Path
    error: str

    def run_ticket(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(repr(self))

    def __repr__(self) -> str:
        return f"{self.path.name} does not load: {self.error}"


def load_agent(path: str | Path = "sundry_agent.py") -> ModuleType | BrokenAgent:
    """The agent file read afresh from disk (your latest edits, no restart needed). A file that
    does not load (a typo, an import error) gives a ``BrokenAgent`` that says why and where."""
    import traceback

    path = Path(path).resolve()
    if not path.is_file():
        return BrokenAgent(path, f"there is no file {path} (run make student to get it back)")
    name = f"_agent_{hashlib.sha256(str(path).encode()).hexdigest()[:8]}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    except Exception as err:  # the learner's file: say what and where, no traceback
        frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename == str(path)]
        line = getattr(err, "lineno", None) or (frames[-1].lineno if frames else None)
        where = f" (line {line})" if line and not isinstance(err, SyntaxError) else ""
        return BrokenAgent(path, f"{type(err).__name__}: {err}{where}")
    sys.modules[name] = module
    return module


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
    from helpers.loop import Trace
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


def scenario(narrated: bool = True, parallel: bool = False):
    """The sundry story as the scripted model: ``narrated=False`` calls tools without a word
    beside them; ``parallel`` asks for the order's details in the same reply as the
    eligibility check (two calls, one reply)."""
    from helpers.messages import Text, ToolCall
    from standin.provider.scenarios import sundry

    if narrated and not parallel:
        return sundry

    def sundry_variant(turn):
        blocks = sundry(turn)
        calls = [b for b in blocks if isinstance(b, ToolCall)]
        if not narrated and calls:
            blocks = [b for b in blocks if not isinstance(b, Text)]
        if parallel and calls and calls[-1].name == "check_refund_eligibility":
            order = {"order_id": calls[-1].arguments.get("order_id", "")}
            at = blocks.index(calls[-1])  # the story reads the last call: it stays last
            blocks = [*blocks[:at], turn.call("get_order", order), *blocks[at:]]
        return blocks

    return sundry_variant


def limit_at(provider: Any, number: int) -> None:
    """Have ``provider`` answer request ``number`` (1, 2, ...) with a 429, once; 0: never. The
    fault is queued when the request before it is recorded (before its answer is sent), so it
    is the next request's and no other fault shows on the cards."""
    from standin.provider.faults import RateLimited

    if number < 1:
        return
    if number == 1:
        provider.inject(RateLimited(retry_after=0))
        return

    def queue(exchange: Any) -> None:
        if len(provider.recorder) == number - 1:
            provider.inject(RateLimited(retry_after=0))

    provider.on_exchange = queue


def check_repaired_agent(agent: Any) -> Any:
    """``agent``: your agent module (``load_agent("sundry_agent.py")``), run on hidden tickets
    in the four wire formats; right when none of them shows a problem."""
    from course.exercises import repair_an_agent

    return repair_an_agent.check_repaired_agent(agent)
