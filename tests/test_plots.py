"""Figures: drawn from plain numbers, each with a text alternative written from itself."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from helpers import plots  # noqa: E402


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
    assert sorted(t.get_text() for t in ax.texts) == ["4", "6"]
