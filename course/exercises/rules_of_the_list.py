"""Used in lessons: 10.

Exercises of notebooks/10_rules_of_the_list.ipynb."""

from __future__ import annotations

from typing import Any

from course.exercises import Exercise, Result, check_one_of, check_text
from helpers.messages import Request

EX1 = Exercise(
    "10.1",
    idea="the same broken order reaches another provider, which refuses it with an error of "
    "its own shape and wording; the message is inside the JSON it answers with.",
    look="render(...) in the 'anthropic' format gives .path and .body; post them to the "
    "provider with the headers, as the loop cell does; the error_text helper (from 'What each "
    "provider answers') reads the message out of the JSON.",
)
EX2 = Exercise(
    "10.2",
    idea="compacting early shrinks every later request, but each compaction also throws away "
    "the cached prefix; price each choice of `at` rather than guessing.",
    look="compact_ticket(...) with the arguments of the cell under '...and what it does to "
    "the cache' makes the shortened run, except for at; project_ticket(..., model, "
    "final_reply=last_reply).total_usd prices it; a loop over the values of at finds the "
    "cheapest.",
)


def check_order_error(answer: Any, broken: Request, provider: Any) -> Result:
    """The error text Anthropic's format gets for a history with results before the reply.
    The answer may be the message, or the error JSON holding it (a dict, its raw text, or the
    ``httpx.Response`` itself)."""
    import httpx

    from helpers.formats import render
    from standin import LOCAL_KEY

    rendered = render(broken, "anthropic")
    response = httpx.post(
        provider.url + rendered.path,
        headers={"authorization": f"Bearer {LOCAL_KEY}"},
        json=rendered.body,
        timeout=30,
    )
    error = response.json().get("error", {}) if response.status_code >= 400 else {}
    expected = error.get("message", "(accepted)") if isinstance(error, dict) else str(error)
    if isinstance(answer, httpx.Response):  # the response itself: its JSON holds the text
        answer = answer.json() if answer.content else answer.text
    if isinstance(answer, str) and answer.lstrip().startswith("{"):  # the raw JSON text
        import contextlib
        import json

        with contextlib.suppress(ValueError):  # not JSON after all: compared as a text
            answer = json.loads(answer)
    if isinstance(answer, dict):  # the whole response, or its "error" object
        inner = answer.get("error", answer)
        answer = inner.get("message", answer) if isinstance(inner, dict) else inner
    return check_text(
        answer,
        expected,
        EX1,
        success=(
            f"Right: HTTP {response.status_code}, {expected[:60]}... Anthropic names the "
            "message by its index and insists each result follow its call in the previous "
            "message; OpenAI said the same in other words. One rule, a spelling per provider."
        ),
    )


def check_cheapest_compaction(
    answer: Any,
    requests: list[Request],
    summary: str,
    model: str,
    final_reply: Any = None,
    ask: Any = None,
) -> Result:
    """The ``at`` (0-based request index) whose compacted run costs least. ``final_reply``: the
    run's last reply, billed too (as lessons 06 and 10 price the run); it is priced the same
    whatever ``at``, as if the model made the same calls after the compaction. The summary call
    is left out, as the exercise says; with ``ask`` (the instruction of the lesson's summary
    call) the success message also says which ``at`` is cheapest once that call is priced."""
    from helpers.cost import compact_ticket, project_ticket

    def price(run: list[Request]):
        return project_ticket(run, model, final_reply=final_reply).total_usd

    costs = {
        at: price(compact_ticket(requests, at=at, summary=summary, keep_last=2))
        for at in range(1, len(requests))
    }
    cheapest = min(costs.values())
    best = [at for at, cost in costs.items() if cost == cheapest]
    as_is = price(requests)
    return check_one_of(
        answer,
        best,
        EX2,
        success=(
            f"Right: at={best[0]}, ${cheapest:.6f} against ${as_is:.6f} sent as is (if the "
            "model makes the same calls after the cut). Earlier, and every later request is "
            "shorter, but the early cut also drops most of what was cached; the cheapest point "
            "is not the best one if the summary loses what the agent needs."
            + (_with_summary_call(costs, requests, summary, model, ask, as_is) if ask else "")
        ),
    )


def _with_summary_call(
    costs: dict, requests: list[Request], summary: str, model: str, ask: Any, as_is
) -> str:
    """One sentence: the cheapest ``at`` once the summary call is priced, as the lesson prices
    it (the history up to the cut and ``ask`` in, the summary out)."""
    from helpers.cost import project_ticket
    from helpers.messages import assistant

    def summary_call(at: int):
        call = Request(model, [*requests[at].messages, ask], list(requests[at].tools))
        asked = project_ticket([*requests[:at], call], model, final_reply=assistant(summary))
        return asked.turns[-1].cost_usd

    total = {at: cost + summary_call(at) for at, cost in costs.items()}
    at = min(total, key=total.get)
    dearer = [str(k) for k, cost in total.items() if cost > as_is]
    named = " and ".join([", ".join(dearer[:-1]), dearer[-1]] if len(dearer) > 1 else dearer)
    more = f"; at={named}, compacting costs more than not compacting" if dearer else ""
    return f" With the summary call priced too, the cheapest is at={at}, ${total[at]:.6f}{more}."
