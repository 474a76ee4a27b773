"""Used in lessons: 11.

Exercises of notebooks/11_the_agent_loop.ipynb."""

from __future__ import annotations

from functools import cache
from typing import Any

from course.exercises import Exercise, Result, check_value, not_answered, not_yet
from helpers.loop import Trace

EX1 = Exercise(
    "11.1",
    idea="the loop stops when a reply has no tool calls, or when it runs out of turns; give it "
    "fewer turns than the ticket needs and look at how the trace ends.",
    look="run(...) takes max_turns; call it as the batch cell did for Jon's ticket, with a "
    "smaller budget, and pass the trace to the check.",
)
EX2 = Exercise(
    "11.2",
    idea="a run that ends in prose leaves the program guessing; the loop can stop on the "
    "finishing tool's call instead, and that call's arguments say how each group ended.",
    look="run(...) takes finish= (the crash-triage batch cell passes it), and the trace "
    "keeps that call in trace.finish: its .arguments hold the groups, each with a status.",
)

JON_ORDER = "SO-51877"  # the order in Jon's ticket (lesson 11, 'A batch of tickets')


def _first_user_text(trace: Trace) -> str:
    return next((m.text for m in trace.messages if m.role == "user"), "")


def check_capped(answer: Any) -> Result:
    """``answer``: the trace of Jon's ticket run with ``max_turns=2``."""
    if not_answered(answer):
        return check_value(answer, None, EX1, success="")
    if not isinstance(answer, Trace):
        return not_yet(EX1, f"{type(answer).__name__} is not a trace; pass what run(...) returned")
    if JON_ORDER not in _first_user_text(answer):
        return not_yet(EX1, "this trace is not Jon's ticket (the espresso machine)")
    steps = answer.steps
    if len(steps) != 2:
        sent = f"{len(steps)} request{'s' if len(steps) != 1 else ''}"
        return not_yet(EX1, f"this trace has {sent}, not the 2 the cap allows")
    waiting = steps[-1].tool_names
    if not waiting:
        return not_yet(EX1, "this trace ends with a final answer, not with a call left waiting")
    return Result(
        True,
        f"Right: the loop stopped after 2 requests. The model's last call "
        f"({', '.join(waiting)}) was run, but its result was never sent back, and nobody "
        "answered the buyer. A budget needs an exit: tell the user, or hand over to a human.",
        EX1,
        expected="Jon's trace of 2 requests that ends waiting for tools",
    )


def _filed(exchanges: list) -> list[str]:
    """The issue ids the tracker gave the agent ("filed ST-501"), as its last request shows."""
    import json
    import re

    if not exchanges:
        return []
    return re.findall(r"filed (ST-\d+)", json.dumps(exchanges[-1].request_json))


@cache
def _reference() -> dict[str, tuple[list[str], int, list[str]]]:
    """Each crash report's statuses, request count and filed issues, run to its structured
    finish with a workspace of its own."""
    from helpers.examples import crash_triage
    from helpers.loop import run
    from helpers.models import default_model
    from standin import LocalProvider

    found = {}
    with LocalProvider(scenario="crash-triage") as provider:
        for name, report in crash_triage.CRASH_REPORTS.items():
            workspace = crash_triage.Workspace()
            trace = run(
                crash_triage.opening(default_model("openai"), report),
                lambda call, ws=workspace: crash_triage.run_tool(call, ws),
                format="openai-chat",
                base_url=provider.url,
                finish=crash_triage.FINISH,
            )
            found[name] = (
                [g["status"] for g in trace.finish.arguments["groups"]],
                len(trace.steps),
                _filed(provider.recorder.exchanges),
            )
    return found


def _finish_refused(provider: Any) -> bool:
    """Did the last request carry the tool's refusal of a ``submit_diagnosis`` call?"""
    import json

    from helpers.examples.crash_triage import NEVER_FILED

    exchanges = provider.recorder.exchanges
    return bool(exchanges) and NEVER_FILED in json.dumps(exchanges[-1].request_json)


def _workspace_from_outside(fn: Any) -> str:
    """The name of a crash-triage Workspace that ``fn`` reads from outside its body (a global,
    a closure variable or a default argument), '' if none: one Workspace for every report."""
    import types

    from helpers.examples.crash_triage import Workspace

    def names(code: types.CodeType) -> set[str]:
        inner = (c for c in code.co_consts if isinstance(c, types.CodeType))
        return set(code.co_names).union(*(names(c) for c in inner))

    code = getattr(fn, "__code__", None)
    if code is None:
        return ""
    for name in sorted(names(code)):
        if isinstance(getattr(fn, "__globals__", {}).get(name), Workspace):
            return f"the global {name!r}"
    cells = getattr(fn, "__closure__", None) or ()
    for name, cell in zip(code.co_freevars, cells, strict=False):
        try:
            held = cell.cell_contents
        except ValueError:  # a variable not assigned yet
            continue
        if isinstance(held, Workspace):
            return f"{name!r} (from the code around it)"
    if any(isinstance(d, Workspace) for d in getattr(fn, "__defaults__", None) or ()):
        return "a default argument"
    return ""


def check_structured_finish(diagnose: Any, provider: Any) -> Result:
    """``diagnose(report)``: runs one crash report against ``provider`` and returns the status
    of each group (a list of str), read from the finishing call, not from the prose."""
    from helpers.examples import crash_triage

    expected = _reference()
    info = {"expected": [(r, expected[n][0]) for n, r in crash_triage.CRASH_REPORTS.items()]}
    info["kind"] = "function"
    if not_answered(diagnose):
        return check_value(diagnose, None, EX2, success="")
    if not callable(diagnose):
        return not_yet(EX2, f"{type(diagnose).__name__} is not a function", **info)
    outside = _workspace_from_outside(diagnose)
    for name, report in crash_triage.CRASH_REPORTS.items():
        want, requests, filed = expected[name]
        before = len(provider.recorder)
        try:
            got = diagnose(report)
        except Exception as err:  # the learner's code: report it, don't crash the notebook
            return not_yet(EX2, f"diagnose raised {type(err).__name__}: {err} on {name!r}", **info)
        sent = len(provider.recorder) - before
        if not_answered(got):
            return check_value(got, None, EX2, success="")
        if sent > requests and _finish_refused(provider):
            return not_yet(
                EX2,
                f"on {name!r} the tool refused the agent's submit_diagnosis (an issue 'was never "
                "filed'): the finishing call did not see the issues filed earlier in that run",
                **info,
            )
        if sent > requests:
            return not_yet(
                EX2,
                f"on {name!r} the loop sent {sent} requests: it went on after the agent had "
                "submitted its diagnosis",
                **info,
            )
        if sent < requests:
            return not_yet(EX2, f"on {name!r} the run stopped early ({sent} requests)", **info)
        issues = _filed(provider.recorder.exchanges)
        if issues != filed and outside:
            return not_yet(
                EX2,
                f"on {name!r} the issue tracker answered {', '.join(issues) or 'nothing'} where "
                f"a fresh one answers {', '.join(filed)}: diagnose uses {outside}, a Workspace "
                "made outside it, so this run saw the issues (and file changes) of an earlier "
                "run. Each report needs a workspace of its own, made inside diagnose (its "
                "issue tracker may be shared, issues=..., as the batch cell's is)",
                **info,
            )
        if isinstance(got, tuple):  # "each group's status": a tuple of them is as good
            got = list(got)
        if got != want:
            shown = repr(got) if len(repr(got)) <= 60 else repr(got)[:57] + "..."
            return not_yet(EX2, f"for {name!r} diagnose returned {shown}", **info)
    return Result(
        True,
        "Right: each run ends on the agent's submit_diagnosis call, and the statuses come from "
        "its arguments, checked by the tool against its schema. No prose was searched; the "
        "program can branch on them (merge the fix, page a human).",
        EX2,
        **info,
    )
