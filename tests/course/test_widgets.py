"""Widgets build from real data, and each has a plain-text twin."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from course import widgets as w  # noqa: E402
from helpers.examples import sundry  # noqa: E402
from helpers.formats import render_for  # noqa: E402
from helpers.models import default_model  # noqa: E402


def test_format_tabs_has_one_tab_per_wire_format_with_the_body():
    tabs = w.format_tabs(sundry.ticket())
    titles = [tabs.get_title(i) for i in range(len(tabs.children))]
    assert titles == ["openai-chat", "openai-responses", "anthropic", "gemini"]
    assert "/v1/messages" in tabs.children[2].value and "tool_result" in tabs.children[2].value


def test_render_for_uses_each_providers_default_model():
    assert render_for(sundry.ticket("x"), "anthropic").body["model"] == default_model("anthropic")
    assert default_model("gemini") in render_for(sundry.ticket("x"), "gemini").path


def test_the_text_twin_lists_every_format():
    summary = w.format_summary(sundry.ticket())
    for name in ("openai-chat", "openai-responses", "anthropic", "gemini"):
        assert name in summary


def test_trace_viewer_steps_through_every_request():
    from helpers.loop import run
    from standin import LocalProvider

    with LocalProvider("sundry") as p:
        trace = run(
            sundry.opening(default_model("openai")),
            sundry.run_tool,
            format="openai-chat",
            base_url=p.url,
        )
    viewer = w.trace_viewer(trace)
    slider, view = viewer.children
    assert slider.max == len(trace.steps)
    slider.value = len(trace.steps)
    assert f"request {len(trace.steps)} of {len(trace.steps)}" in view.value
    assert f"input: {trace.steps[-1].count_label}</small>" in view.value  # an estimate, marked
    trace.steps[0].headers = {}  # as from a real API: its usage is the bill
    slider.value = 1
    assert "input: " not in view.value


def test_the_lab_widget_builds_its_controls():
    from course.lab import LabScenario

    lab = w.lab_sliders(LabScenario(default_model("openai")))
    controls, _output = lab.children
    assert len(controls.children[0].children) + len(controls.children[1].children) == 8
