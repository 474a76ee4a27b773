"""Used in lessons: 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 12.

Figures for the lessons (matplotlib), in the series' colour-blind-safe palette.

Each function takes plain numbers (computed elsewhere), draws one figure, shows it, and returns
it; the lesson prints the same numbers beside it, because nbval compares text, never images.
Every figure has a title and axis labels that say what is drawn, and no information is carried
by colour alone (bars are also labelled or hatched, lines also marked).

``show(fig)`` displays a figure with a text alternative in its output metadata (written from
the figure's own title, axis labels and legend unless you pass ``alt``). JupyterLab does not
read it, so lessons print the plotted numbers as text; the static site (``make site``) puts it
in each image's ``alt`` attribute for screen readers.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PALETTE", "describe", "growth", "show", "stacked_parts"]

#: Okabe-Ito: distinguishable with every common form of colour blindness.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"]


def describe(fig: Any) -> str:
    """A text alternative for a figure, from what it says about itself."""
    parts = []
    for ax in fig.axes:
        bits = [ax.get_title()] if ax.get_title() else []
        if ax.get_xlabel():
            bits.append(f"horizontal axis: {ax.get_xlabel()}")
        if ax.get_ylabel():
            bits.append(f"vertical axis: {ax.get_ylabel()}")
        legend = ax.get_legend()
        if legend is not None:
            labels = [t.get_text() for t in legend.get_texts()]
            bits.append("series: " + ", ".join(labels))
        if bits:
            parts.append("; ".join(bits))
    return "Figure. " + ". ".join(parts) + ". The numbers are printed beside it."


def show(fig: Any, alt: str | None = None) -> None:
    """Display ``fig`` once, with its text alternative, and close it."""
    import matplotlib.pyplot as plt
    from IPython.display import display

    display(fig, metadata={"image/png": {"alt": alt or describe(fig)}})
    plt.close(fig)


def growth(sent: list[int], title: str, *, label: str = "input tokens sent") -> Any:
    """Tokens sent per turn (bars) and their running total, what is billed (line, right axis)."""
    from itertools import accumulate

    import matplotlib.pyplot as plt

    turns = list(range(1, len(sent) + 1))
    cumulative = list(accumulate(sent))
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.bar(turns, sent, color=PALETTE[0], label=f"{label} (bars, left)")
    ax.set_xlabel("turn")
    ax.set_ylabel("tokens sent this turn")
    right = ax.twinx()
    right.plot(turns, cumulative, color=PALETTE[5], marker="o", label="billed so far (line, right)")
    right.set_ylabel("cumulative tokens billed")
    right.set_ylim(bottom=0)
    handles = ax.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
    ax.legend(handles, [h.get_label() for h in handles], loc="upper left", fontsize=8)
    ax.set_title(title)
    fig.tight_layout()
    show(fig)
    return fig


def stacked_parts(labels: list[str], parts: dict[str, list[int]], title: str, ylabel: str) -> Any:
    """One stacked bar per label; ``parts`` maps a part name to its value for each label."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3))
    bottom = [0] * len(labels)
    hatches = ["", "//", "..", "xx", "\\\\", "oo", "++", "--"]
    for i, (name, values) in enumerate(parts.items()):
        ax.bar(
            labels,
            values,
            bottom=bottom,
            label=name,
            color=PALETTE[i % len(PALETTE)],
            hatch=hatches[i % len(hatches)],
            edgecolor="white",
        )
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    for x, top in enumerate(bottom):
        ax.text(x, top, f"{top}", ha="center", va="bottom", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    show(fig)
    return fig
