"""Used in lessons: 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 12.

Interactive views for the lessons (ipywidgets), each with a plain-text twin.

nbval cannot see widgets, and a notebook read on GitHub cannot run them, so every widget here
comes with a function that prints the same information as text: lessons show both.
What this module does not do: compute anything. Numbers come from ``helpers.tokens``,
``helpers.cost`` and friends; the widgets only arrange them.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from helpers.html import no_math

if TYPE_CHECKING:
    from helpers.messages import Request

__all__ = ["format_summary", "format_tabs", "lab_sliders", "trace_viewer"]


def format_tabs(request: Request, formats: tuple[str, ...] | None = None) -> Any:
    """One conversation as each provider's request body, one tab per wire format."""
    import ipywidgets as widgets

    from helpers.formats import FORMATS, render_for

    names = formats or FORMATS
    pages = []
    for name in names:
        rendered = render_for(request, name)
        notes = "".join(f"<li>{escape(str(n))}</li>" for n in rendered.notes)
        html = (
            f"<div><b>POST</b> <code>{escape(rendered.path)}</code></div>"
            f'<pre style="max-height:28em;overflow:auto;font-size:11px">'
            f"{escape(rendered.json())}</pre>"
            + (
                f"<div><b>What this format could not hold</b><ul>{notes}</ul></div>"
                if notes
                else ""
            )
        )
        pages.append(widgets.HTML(no_math(html)))
    tabs = widgets.Tab(children=pages)
    for i, name in enumerate(names):
        tabs.set_title(i, name)
    return tabs


def format_summary(request: Request) -> str:
    """The text twin of ``format_tabs``: where each format puts the parts of one conversation."""
    from helpers.formats import FORMATS, render_for

    rows = [("format", "path", "top-level keys", "list length", "notes")]
    for name in FORMATS:
        rendered = render_for(request, name)
        body = rendered.body
        items = body.get("messages") or body.get("input") or body.get("contents") or []
        rows.append(
            (name, rendered.path, ", ".join(body), str(len(items)), str(len(rendered.notes)))
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)


def trace_viewer(trace: Any, max_chars: int = 6000) -> Any:
    """Step through an agent run: one slider position per request, with its response and meter.

    The text twin is ``print(trace)`` (the meter table) plus ``trace.steps[i].request_body``.
    """
    import json

    import ipywidgets as widgets

    steps = trace.steps
    slider = widgets.IntSlider(value=1, min=1, max=len(steps), description="request")
    view = widgets.HTML()

    def show(change: Any = None) -> None:
        step = steps[slider.value - 1]
        usage = step.reply.usage
        request = json.dumps(step.request_body, indent=1, ensure_ascii=False)[:max_chars]
        response = step.response_body
        if not isinstance(response, str):
            response = json.dumps(response, indent=1, ensure_ascii=False)
        cost = f"${step.cost_usd:.6f}" if step.cost_usd is not None else "n/a"
        meter = (
            f"<b>request {step.number} of {len(steps)}</b> · input {usage.input_tokens} "
            f"(cached {usage.cache_read_tokens}) · output {usage.output_tokens} · {cost} · "
            f"stop: {escape(step.reply.stop_reason)} · calls: {escape(', '.join(step.tool_names))}"
        )
        if step.count_label != "exact":  # the stand-in's estimate, and how far off
            meter += f"<br><small>input: {escape(step.count_label)}</small>"
        box = "max-height:24em;overflow:auto;font-size:11px;margin:0"
        view.value = no_math(
            f"<div>{meter}</div><table style='width:100%'><tr><th>request body</th>"
            f"<th>response body</th></tr><tr><td style='vertical-align:top;width:50%'>"
            f'<pre style="{box}">{escape(request)}</pre></td>'
            f"<td style='vertical-align:top'><pre style=\"{box}\">{escape(response[:max_chars])}"
            "</pre></td></tr></table>"
        )

    slider.observe(show, names="value")
    show()
    return widgets.VBox([slider, view])


def lab_sliders(baseline: Any) -> Any:
    """The token arithmetic lab: every ``course.lab.LabScenario`` knob as a control.

    The text twin is ``print(cost_scenario(scenario))`` and ``.ticket.table()``.
    """
    from dataclasses import replace

    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    from course.lab import LabScenario, cost_scenario
    from course.plots import PALETTE
    from helpers.models import models

    controls = {
        "model": widgets.Dropdown(options=models(), value=baseline.model, description="model"),
        "requests": widgets.IntSlider(
            value=baseline.requests, min=1, max=40, description="requests"
        ),
        "tools": widgets.IntSlider(value=baseline.tools, min=0, max=14, description="tools"),
        "result_tokens": widgets.IntSlider(
            value=baseline.result_tokens, min=10, max=3000, step=10, description="result size"
        ),
        "caching": widgets.Checkbox(value=baseline.caching, description="prompt cache"),
        "compact_at": widgets.IntSlider(value=0, min=0, max=39, description="compact at"),
        "keep_last": widgets.IntSlider(
            value=baseline.keep_last, min=0, max=10, description="keep last"
        ),
        "tickets_per_day": widgets.BoundedIntText(
            value=baseline.tickets_per_day, min=1, max=10**9, description="tickets/day"
        ),
    }

    def show(**knobs: Any) -> None:
        scenario = LabScenario(**knobs)
        if not 1 <= (scenario.compact_at or 0) < scenario.requests:
            scenario = replace(scenario, compact_at=None)  # 0 (or past the end): never
        result = cost_scenario(scenario)
        print(result)
        turns = result.ticket.turns
        fig, ax = plt.subplots(figsize=(6, 2.4))
        numbers = [t.turn - 1 for t in turns]  # requests[k], as compact_at counts
        ax.bar(numbers, [t.input_tokens for t in turns], color=PALETTE[0], label="sent")
        ax.bar(
            numbers, [t.cached_tokens for t in turns], color=PALETTE[2], hatch="//", label="cached"
        )
        ax.set_xlabel("request k (requests[k])")
        ax.set_ylabel("input tokens")
        ax.legend(fontsize=8)
        fig.tight_layout()
        plt.show()

    output = widgets.interactive_output(show, controls)
    columns = list(controls.values())
    return widgets.VBox(
        [widgets.HBox([widgets.VBox(columns[:4]), widgets.VBox(columns[4:])]), output]
    )
