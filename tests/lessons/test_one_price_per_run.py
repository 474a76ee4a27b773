"""One run, one price: the crash-triage runs the lessons share are priced once here, and every
lesson that prints or cites one of those prices shows this figure (issue 27).

Lessons 04, 06, 09 and 10 run the same crash-triage ticket on gpt-4o-mini (OpenAI Chat); 06 and
11 price it on Claude. Every reply is billed, the last one too, so a price that leaves out the
last reply's output is a second price for the same run and must appear nowhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.cost import project_ticket
from helpers.examples import crash_triage
from helpers.formats import parse
from helpers.loop import run
from helpers.models import default_model
from standin import LocalProvider

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def _text(lesson: str) -> str:
    """Everything a lesson shows: its markdown and its stored outputs."""
    nb = json.loads(next(NOTEBOOKS.glob(f"{lesson}_*.ipynb")).read_text(encoding="utf-8"))
    shown = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            shown.append("".join(cell["source"]))
        for out in cell.get("outputs", []):
            text = out.get("text") or out.get("data", {}).get("text/plain", "")
            shown.append("".join(text))
    return "\n".join(shown)


@pytest.fixture(scope="module")
def prices():
    model = default_model("openai")
    with LocalProvider(scenario="crash-triage") as p:
        workspace = crash_triage.Workspace()
        triage = run(
            crash_triage.opening(model),
            lambda call: crash_triage.run_tool(call, workspace),
            format="openai-chat",
            base_url=p.url,
            finish=crash_triage.FINISH,
        )
    requests = [parse(step.request_body, "openai-chat") for step in triage.steps]
    last = triage.steps[-1].reply.message
    uncached = project_ticket(requests, model, final_reply=last, caching=False)
    return {
        "meter": f"${triage.cost_usd:.6f}",
        "no cache": f"${uncached.total_usd:.6f}",
        "automatic cache": f"${project_ticket(requests, model, final_reply=last).total_usd:.6f}",
        "without the last reply": f"${project_ticket(requests, model).total_usd:.6f}",
    }


def test_the_meter_and_the_projection_agree(prices):
    assert prices["meter"] == prices["no cache"]
    assert prices["automatic cache"] != prices["without the last reply"]


@pytest.mark.parametrize("lesson", ["04", "06", "09"])
def test_every_lesson_prints_the_runs_uncached_price(prices, lesson):
    assert prices["meter"] in _text(lesson)


@pytest.mark.parametrize("lesson", ["06", "09", "10"])
def test_every_lesson_shows_the_one_automatic_cache_price(prices, lesson):
    assert prices["automatic cache"] in _text(lesson)


@pytest.mark.parametrize("lesson", ["04", "06", "09", "10", "11", "12"])
def test_no_lesson_prints_a_second_price_for_the_same_run(prices, lesson):
    assert prices["without the last reply"] not in _text(lesson)
