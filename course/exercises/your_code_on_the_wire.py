"""Used in lessons: 13.

Exercises of notebooks/13_your_code_on_the_wire.ipynb: read what a tool runner sent, find the
mistakes of a set-up on the wire, and fix it. Every expected value is read from the requests
the checks capture themselves (``standin.capturing``), never typed in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from course.exercises import (
    Exercise,
    Result,
    _blank,
    check_text,
    check_value,
    not_answered,
    not_yet,
)

QUESTION = "Hi, my order SO-48213 arrived cracked."

EX1 = Exercise(
    "13.1",
    nudge="a tool runner is an agent loop: one request per model turn, and each request carries "
    "the whole history rebuilt so far (the question, each reply, each tool result).",
    pointer="len(seen) is the number of requests; seen[-1].body['messages'] is the list the last "
    "one carried; answer as (requests, messages).",
)
EX2 = Exercise(
    "13.2",
    nudge="a tool's description is what the model reads to choose it; on the wire it is a field "
    "of each entry of the body's tools list, and an empty one tells the model nothing.",
    pointer="for each t in broken[0].body['tools'], look at t['name'] and t['description'].",
)
EX3 = Exercise(
    "13.3",
    nudge="the system prompt belongs in one place, the request's system field; and only a "
    "docstring (not a comment above the function) becomes a tool's description.",
    pointer="copy support_run and change two things: the history's first message holds the "
    "question alone (the system field already carries the prompt), and get_order gets its "
    "comment as a docstring, inside the function.",
)


def _as_pair(answer: Any) -> Any:
    if isinstance(answer, list | tuple) and len(answer) == 2:
        return tuple(answer)
    if isinstance(answer, dict) and set(answer) == {"requests", "messages"}:
        return (answer["requests"], answer["messages"])
    return answer


def check_rebuilt(answer: Any, seen: Any) -> Result:
    """(requests sent, messages in the last request), read from the learner's capture."""
    expected = (len(seen), len(seen[-1].body["messages"]))
    explain = ""
    got = _as_pair(answer)
    if isinstance(got, tuple) and got[0] == expected[0]:
        explain = "the number of requests is right; count the messages of the last one again"
    return check_value(
        got,
        expected,
        EX1,
        explain=explain,
        success="Right: the runner sent one request per model turn, and the last one carried "
        "everything: the question, the reply that called the tool, and the tool's result.",
    )


def lost_descriptions(body: dict) -> list[str]:
    """The names of the tools a request body declares with no description."""
    return [t.get("name", "") for t in body.get("tools") or [] if not t.get("description")]


def check_lost_description(answer: Any, broken: Any) -> Result:
    """The name of the tool that reached the wire without a description."""
    names = lost_descriptions(broken[0].body)
    declared = {t.get("name") for t in broken[0].body.get("tools") or []}
    named = answer.strip() if isinstance(answer, str) else None
    if named in declared and named not in names:
        return not_yet(
            EX2,
            f"{named!r} arrived with a description; another tool did not",
            kind="text",
            expected=names[0],
            accepted=(names[0],),
        )
    return check_text(
        answer,
        names[0],
        EX2,
        success="Right: its comment never left your machine. Only the docstring becomes the "
        "description, and the model chooses tools by their descriptions.",
    )


def wire_problems(seen: Any, system_text: str) -> list[str]:
    """What is wrong on the wire: a system prompt sent twice, a tool without a description,
    a request the provider would refuse, or no tool round trip at all."""
    found = []
    for s in seen:
        body = s.body or {}
        where = [
            f"messages[{i}]"
            for i, m in enumerate(body.get("messages") or [])
            if system_text in str(m)
        ]
        if where:
            found.append(f"request {s.number}: the system prompt is in {', '.join(where)} too")
        for name in lost_descriptions(body):
            found.append(f"request {s.number}: tool {name!r} has no description")
        if s.accepted is False or s.status >= 400:
            found.append(f"request {s.number}: refused ({s.verdict_text()})")
    if len(seen) < 2:
        found.append(f"{len(seen)} request(s): the run never made a tool round trip")
    return found


def check_fixed_run(fixed_run: Callable[[str, Any], Any], system_text: str) -> Result:
    """Run the learner's set-up under a fresh capture and read what it sent."""
    import anthropic

    from standin.capturing import capture

    info = {"kind": "function", "expected": "no problems on the wire"}
    if not_answered(fixed_run):
        return _blank(EX3, **info)
    if not callable(fixed_run):
        return not_yet(EX3, f"{fixed_run!r} is not a function", **info)
    with capture() as seen:
        try:
            got = fixed_run(QUESTION, anthropic.Anthropic(max_retries=0))
        except Exception as err:  # the learner's code: report it, never crash the notebook
            return not_yet(EX3, f"your function raised {type(err).__name__}: {err}", **info)
        if got is None and not len(seen):  # the body is still `...`
            return _blank(EX3, **info)
        problems = wire_problems(seen, system_text)
    if problems:
        return not_yet(EX3, "on the wire: " + "; ".join(problems), **info)
    return Result(
        True,
        f"Right: {len(seen)} requests, each with the system prompt once and every tool "
        "described, all accepted. Read the wire after every change to a set-up: the code "
        "looked right before too.",
        EX3,
        **info,
    )
