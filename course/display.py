"""Used in lessons: 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 12.

Everything a lesson *shows*, in one place: figures, message cards, tabbed views and sliders.

Nothing here computes a number (``helpers.tokens``, ``helpers.cost`` and friends do); these
only arrange numbers computed elsewhere. Each name is defined in a small module of its own, so
open that one to read how it is drawn:

- ``course/plots.py``: ``show`` (a figure with a text alternative), ``growth``,
  ``stacked_parts``, ``labelled_bars``, ``cache_turns``, ``priced_ways``, ``request_parts``,
  ``stream_growth``, ``compaction_cache``, ``PALETTE`` (the colour-blind-safe colours);
- ``helpers/html.py``: ``ROLE_COLOURS``, the cards a ``Message`` or ``Request`` shows as;
- ``course/widgets.py``: ``format_tabs``, ``format_summary``, ``trace_viewer``, ``lab_sliders``
  (ipywidgets views, each with a plain-text twin).
"""

from __future__ import annotations

from course.plots import (
    PALETTE,
    cache_turns,
    compaction_cache,
    growth,
    labelled_bars,
    priced_ways,
    request_parts,
    show,
    stacked_parts,
    stream_growth,
)
from course.widgets import format_summary, format_tabs, lab_sliders, trace_viewer
from helpers.html import ROLE_COLOURS

__all__ = [
    "PALETTE",
    "ROLE_COLOURS",
    "cache_turns",
    "compaction_cache",
    "labelled_bars",
    "priced_ways",
    "request_parts",
    "stream_growth",
    "format_summary",
    "format_tabs",
    "growth",
    "lab_sliders",
    "show",
    "stacked_parts",
    "trace_viewer",
]
