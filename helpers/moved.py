"""Used in lessons: none directly (imported by cost, cost.tickets, formats.common, loop, ...).

Old import paths kept for one release (issue 37): a name that moved is still found at its old
place, with a ``DeprecationWarning`` naming its new one, so a kept copy of a lesson still runs.
A door that lost names ends with one marked block, ``__getattr__ = moved(__name__, {...})``:
PEP 562's module ``__getattr__``, the one kind ``docs/design.md`` allows.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any


def moved(old: str, names: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that serves only ``names`` (name -> the module it moved to)."""

    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        new = names[name]
        message = f"{old}.{name} has moved: import it from {new} (the old path goes next release)"
        warnings.warn(message, DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(new), name)

    return __getattr__
