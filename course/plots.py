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

__all__ = [
    "PALETTE",
    "cache_turns",
    "compaction_cache",
    "describe",
    "growth",
    "labelled_bars",
    "priced_ways",
    "request_parts",
    "show",
    "stacked_parts",
    "stream_growth",
]

HATCHES = ["", "//", "..", "xx", "\\\\", "oo", "++", "--"]

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
    for legend in fig.legends:  # a legend of the whole figure, under its axes
        series = "series: " + ", ".join(t.get_text() for t in legend.get_texts())
        parts[-1:] = ["; ".join(parts[-1:] + [series])]
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


def stacked_parts(labels: list[str], parts: dict[str, list[int]], title: str, xlabel: str) -> Any:
    """One stacked horizontal bar per label (long names stay readable); ``parts`` maps a part
    name to its value for each label. The total is written at the end of each bar."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.8 + 0.32 * len(labels)))
    left = [0] * len(labels)
    for i, (name, values) in enumerate(parts.items()):
        ax.barh(
            labels,
            values,
            left=left,
            label=name,
            color=PALETTE[i % len(PALETTE)],
            hatch=HATCHES[i % len(HATCHES)],
            edgecolor="white",
        )
        left = [b + v for b, v in zip(left, values, strict=True)]
    for y, total in enumerate(left):
        ax.text(total, y, f" {total}", va="center", fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.set_xlim(right=max(left) * 1.12)
    _legend_below(ax, len(parts))
    fig.tight_layout()
    show(fig)
    return fig


def _legend_below(ax: Any, entries: int) -> None:
    """The legend under the axes, where it cannot hide a bar or a label."""
    ax.legend(
        fontsize=8,
        ncols=min(entries, 3),
        loc="upper center",
        bbox_to_anchor=(0.5, -0.28),
        frameon=False,
    )


def labelled_bars(
    labels: list[str],
    values: list[float],
    title: str,
    xlabel: str,
    *,
    colours: list[str] | None = None,
    fmt: str = "{}",
) -> Any:
    """Horizontal bars, first label on top, each with its value written beside it."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.8 + 0.35 * len(labels)))
    ax.barh(labels, values, color=colours or PALETTE[0], edgecolor="white")
    for y, value in enumerate(values):
        ax.text(value, y, " " + fmt.format(value), va="center", fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.set_xlim(right=max(values) * 1.15 if values else 1)
    fig.tight_layout()
    show(fig)
    return fig


def cache_turns(rows: list[tuple[int, int, int, int]], title: str) -> Any:
    """Per turn: (turn, tokens sent, tokens shared with the previous request, tokens cached).

    Three stacked segments: served from the cache, shared but not a whole cache step, new."""
    import matplotlib.pyplot as plt

    turns = [str(r[0]) for r in rows]
    cached = [r[3] for r in rows]
    partial = [r[2] - r[3] for r in rows]
    new = [r[1] - r[2] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.3 * len(rows)))
    ax.barh(turns, cached, color=PALETTE[2], label="served from cache")
    ax.barh(turns, partial, left=cached, color=PALETTE[4], hatch="//", label="shared, not cached")
    left = [c + p for c, p in zip(cached, partial, strict=True)]
    ax.barh(turns, new, left=left, color=PALETTE[1], hatch="..", label="new this turn")
    ax.invert_yaxis()
    ax.set_xlabel("tokens of the request, from the start")
    ax.set_ylabel("turn")
    ax.set_title(title)
    _legend_below(ax, 3)
    fig.tight_layout()
    show(fig)
    return fig


def priced_ways(costs: dict[tuple[str, str], float], title: str) -> Any:
    """One panel per model (each with its own scale, so a cheap model is not a sliver next to
    an expensive one); one bar per way of pricing the same run, labelled with its cost."""
    import matplotlib.pyplot as plt

    models = list(dict.fromkeys(model for model, _ in costs))
    fig, axes = plt.subplots(1, len(models), figsize=(3.5 * len(models), 2.8), squeeze=False)
    for ax, model in zip(axes[0], models, strict=True):
        ways = [(way, usd) for (m, way), usd in costs.items() if m == model]
        names, values = [w for w, _ in ways], [v for _, v in ways]
        ax.bar(names, values, color=PALETTE[1 : 1 + len(ways)], hatch="/", edgecolor="white")
        for x, value in enumerate(values):
            ax.text(x, value, f"${value:.4f}", ha="center", va="bottom", fontsize=8)
        ax.set_title(model, fontsize=10)
        ax.set_ylabel("run cost (USD)")
        ax.set_ylim(top=max(values) * 1.2)
    fig.suptitle(title)
    fig.tight_layout()
    show(fig)
    return fig


def request_parts(sizes: dict[str, int], repeats: set[str], title: str, xlabel: str) -> Any:
    """One request as one bar, split into its parts; the parts that repeat unchanged every
    turn (what a prefix cache can pay for) are solid, the parts that grow are hatched. Each
    part's size is written on it, or above it when the part is too narrow for its number; the
    legend sits under the axis label, in the figure's own layout, so it covers nothing."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 2.9), layout="constrained")
    left = 0
    bars = []
    for i, (name, size) in enumerate(sizes.items()):
        again = name in repeats
        label = f"{name} ({'repeats' if again else 'grows'})"
        hatch = "" if again else "//"
        bar = ax.barh([0], [size], left=left, height=0.5, color=PALETTE[i], hatch=hatch)
        bars.append((bar.patches[0], label, size))
        left += size
    ax.set_yticks([0], ["request"])
    ax.set_ylim(-0.35, 0.9)  # room above the bar for the numbers of narrow parts
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    fig.legend(
        [patch for patch, _, _ in bars],
        [label for _, label, _ in bars],
        loc="outside lower center",
        ncols=2,
        fontsize=8,
        frameon=False,
    )
    _write_sizes(fig, ax, bars)
    show(fig)
    return fig


_LABEL = {"facecolor": "white", "edgecolor": "none", "pad": 1.5}  # legible over a hatch


def _write_sizes(fig: Any, ax: Any, bars: list[tuple[Any, str, int]]) -> None:
    """Each part's size on its segment; a narrow part's number goes above the bar, one row
    higher whenever it would touch the number before it."""
    fig.canvas.draw()  # lay the figure out first, so the widths measured are the final ones
    renderer = fig.canvas.get_renderer()
    above: list[Any] = []  # numbers written above the bar, left to right
    for patch, _, size in bars:
        middle = patch.get_x() + patch.get_width() / 2
        text = ax.text(middle, 0, f"{size:,}", ha="center", va="center", fontsize=8, bbox=_LABEL)
        text.set_in_layout(False)  # the layout is done; a number must not move the axes
        if text.get_window_extent(renderer).width < _extent_width(patch, renderer) - 6:
            continue
        text.set_va("bottom")
        for row in range(4):
            text.set_y(0.3 + 0.14 * row)
            box = text.get_window_extent(renderer).padded(6)  # air between numbers
            if not any(box.overlaps(t.get_window_extent(renderer)) for t in above):
                break
        above.append(text)


def _extent_width(artist: Any, renderer: Any) -> float:
    return artist.get_window_extent(renderer).width


def stream_growth(timeline: list[tuple[int, int, int]], kinds: dict[int, str], title: str) -> Any:
    """(event number, block index, characters so far) as one step line per block."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 2.8))
    for index, kind in kinds.items():
        points = [(n, size) for n, i, size in timeline if i == index]
        if not points:
            continue
        ax.step(
            [p[0] for p in points],
            [p[1] for p in points],
            where="post",
            marker="os^D"[index % 4],
            color=PALETTE[index % len(PALETTE)],
            label=f"block {index}: {kind}",
        )
    ax.set_xlabel("event number in the stream")
    ax.set_ylabel("characters received")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    show(fig)
    return fig


def compaction_cache(
    cached_as_is: list[int],
    cached_compacted: list[int],
    sent_compacted: list[int],
    at: int,
    title: str,
    sent_as_is: list[int] | None = None,
) -> Any:
    """Cached tokens per request with and without a compaction before request ``at`` (1-based),
    and what each run sends (``sent_as_is`` when given): the one-off cache miss, then smaller
    requests."""
    import matplotlib.pyplot as plt

    turns = list(range(1, len(cached_as_is) + 1))
    fig, ax = plt.subplots(figsize=(7, 2.8))
    ax.plot(turns, cached_as_is, marker="o", color=PALETTE[0], label="cached, as is")
    ax.plot(turns, cached_compacted, "s--", color=PALETTE[5], label="cached, compacted")
    ax.plot(turns, sent_compacted, "^:", color=PALETTE[2], label="sent, compacted")
    ax.axvline(at, color=PALETTE[7], linewidth=1)
    if sent_as_is is not None:
        ax.plot(turns, sent_as_is, "v-.", color=PALETTE[1], label="sent, as is")
    ax.text(at, 0, " compaction", fontsize=8, va="bottom")
    ax.set_xlabel("request")
    ax.set_ylabel("tokens")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    show(fig)
    return fig
