"""Figures: drawn from plain numbers, each with a text alternative written from itself."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from course import plots  # noqa: E402


def test_growth_draws_bars_and_the_running_total(monkeypatch):
    shown = []
    monkeypatch.setattr(plots, "show", lambda fig, alt=None: shown.append(fig))
    fig = plots.growth([100, 150, 200], "Three turns")
    bars, line = fig.axes
    assert [p.get_height() for p in bars.patches] == [100, 150, 200]
    assert list(line.lines[0].get_ydata()) == [100, 250, 450]
    assert shown == [fig]


def test_the_text_alternative_names_title_axes_and_series():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.bar(["a", "b"], [1, 2], label="cached")
    ax.set_title("Cache hits")
    ax.set_xlabel("request")
    ax.set_ylabel("tokens")
    ax.legend()
    text = plots.describe(fig)
    assert "Cache hits" in text and "horizontal axis: request" in text
    assert "vertical axis: tokens" in text and "series: cached" in text
    plt.close(fig)


def test_show_displays_once_with_the_alt_text_and_closes(monkeypatch):
    import IPython.display
    import matplotlib.pyplot as plt

    calls = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, metadata: calls.append(metadata))
    fig, ax = plt.subplots()
    ax.set_title("T")
    plots.show(fig, alt="a figure about T")
    assert calls == [{"image/png": {"alt": "a figure about T"}}]
    assert not plt.fignum_exists(fig.number)


def test_stacked_parts_labels_every_bar_total(monkeypatch):
    monkeypatch.setattr(plots, "show", lambda fig, alt=None: None)
    fig = plots.stacked_parts(["x", "y"], {"a": [1, 2], "b": [3, 4]}, "Parts", "tokens")
    (ax,) = fig.axes
    assert sorted(t.get_text().strip() for t in ax.texts) == ["4", "6"]


def _no_show(monkeypatch):
    monkeypatch.setattr(plots, "show", lambda fig, alt=None: None)


def _extent(artist):
    return artist.get_window_extent(artist.figure.canvas.get_renderer())


def test_legends_sit_below_the_axes_and_hide_nothing(monkeypatch):
    _no_show(monkeypatch)
    figures = [
        plots.stacked_parts(["search_orders", "get_order"], {"a": [5, 2], "b": [1, 1]}, "P", "t"),
        plots.cache_turns([(1, 1300, 0, 0), (2, 2400, 1320, 1280)], "Cache"),
        plots.request_parts({"tools": 3700, "tool result": 300}, {"tools"}, "Bytes", "bytes"),
    ]
    for fig in figures:
        fig.canvas.draw()
        (ax,) = fig.axes
        (legend,) = [ax.get_legend()] if ax.get_legend() else fig.legends
        assert _extent(legend).y1 <= _extent(ax).y0  # wholly under the plot area


# lesson 08's turn-two request: two large parts, then three narrow ones side by side
TURN_TWO = {"tools (9 definitions)": 604, "system prompt": 330, "buyer's ticket": 33}
TURN_TWO |= {"assistant: narration + call": 25, "tool result": 85}


def test_request_parts_legend_covers_neither_the_axis_label_nor_the_ticks(monkeypatch):
    _no_show(monkeypatch)
    fig = plots.request_parts(TURN_TWO, {"tools (9 definitions)"}, "Parts", "tokens of the request")
    fig.canvas.draw()
    ax = fig.axes[0]
    legend = _extent(fig.legends[0])
    assert legend.y1 <= _extent(ax.xaxis.label).y0
    assert not any(legend.overlaps(_extent(t)) for t in ax.get_xticklabels() if t.get_text())


def test_request_parts_writes_every_size_even_on_narrow_parts(monkeypatch):
    _no_show(monkeypatch)
    fig = plots.request_parts(TURN_TWO, {"tools (9 definitions)"}, "Parts", "tokens")
    fig.canvas.draw()
    texts = fig.axes[0].texts
    assert [t.get_text() for t in texts] == ["604", "330", "33", "25", "85"]
    boxes = [_extent(t) for t in texts]
    for i, box in enumerate(boxes):  # no number sits on another
        assert not any(box.overlaps(other) for other in boxes[i + 1 :])
    bar_top = _extent(fig.axes[0].patches[0]).y1
    assert sum(box.y0 >= bar_top for box in boxes) >= 2  # the narrow parts' numbers go above


def test_long_tool_names_do_not_overlap(monkeypatch):
    _no_show(monkeypatch)
    names = ["check_refund_eligibility", "issue_refund", "escalate_to_human", "search_help_center"]
    fig = plots.stacked_parts(names, {"a": [70, 100, 78, 43]}, "Tokens per tool", "tokens")
    fig.canvas.draw()
    boxes = [_extent(t) for t in fig.axes[0].get_yticklabels()]
    for upper, lower in zip(boxes, boxes[1:], strict=False):
        assert not upper.overlaps(lower)


def test_priced_ways_gives_each_model_its_own_scale(monkeypatch):
    _no_show(monkeypatch)
    costs = {("cheap", "no cache"): 0.0044, ("cheap", "cache"): 0.0030}
    costs |= {("dear", "no cache"): 0.1119, ("dear", "cache"): 0.0471}
    fig = plots.priced_ways(costs, "One run, four prices")
    cheap, dear = fig.axes
    assert cheap.get_title() == "cheap" and dear.get_title() == "dear"
    assert cheap.get_ylim()[1] < 0.01 < dear.get_ylim()[1]
    assert [t.get_text() for t in cheap.texts] == ["$0.0044", "$0.0030"]


def test_request_parts_tells_what_repeats_from_what_grows(monkeypatch):
    _no_show(monkeypatch)
    fig = plots.request_parts({"tools": 10, "result": 5}, {"tools"}, "Parts", "bytes")
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == ["tools (repeats)", "result (grows)"]
    assert "series: tools (repeats), result (grows)" in plots.describe(fig)


def test_labelled_bars_and_stream_growth(monkeypatch):
    _no_show(monkeypatch)
    fig = plots.labelled_bars(["a", "b"], [3, 5], "T", "tokens")
    assert [t.get_text() for t in fig.axes[0].texts] == [" 3", " 5"]
    timeline = [(1, 0, 4), (2, 1, 3), (3, 0, 9)]
    fig = plots.stream_growth(timeline, {0: "text", 1: "tool_call"}, "Stream")
    assert len(fig.axes[0].lines) == 2


def test_compaction_cache_marks_the_cut_and_describes_its_three_lines(monkeypatch):
    _no_show(monkeypatch)
    fig = plots.compaction_cache([0, 10, 20, 30], [0, 10, 0, 5], [40, 50, 20, 25], 3, "Cut")
    ax = fig.axes[0]
    assert [line.get_ydata().tolist() for line in ax.lines[:3]] == [
        [0, 10, 20, 30],
        [0, 10, 0, 5],
        [40, 50, 20, 25],
    ]
    assert ax.lines[3].get_xdata()[0] == 3  # the compaction line, at request 3
    assert {m for m in (line.get_marker() for line in ax.lines[:3])} == {"o", "s", "^"}
    alt = plots.describe(fig)
    assert "Cut" in alt and "horizontal axis: request" in alt
    assert "cached, as is, cached, compacted, sent, compacted" in alt
    both = plots.compaction_cache([0, 9], [0, 0], [40, 20], 2, "Cut", sent_as_is=[40, 60])
    assert both.axes[0].lines[-1].get_ydata().tolist() == [40, 60]
    assert "sent, compacted, sent, as is" in plots.describe(both)
