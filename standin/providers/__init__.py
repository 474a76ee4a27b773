"""What the stand-in does differently for each provider: one module per wire format.

``standin/providers/NAME.py`` holds the data the stand-in's concern modules (the rules, the
verdict, the routes) would otherwise key by a provider's name: its required fields, its content
types, its texts. They ask ``of(format).REQUIRED`` instead of branching on the name, so a fifth
provider adds its module here beside its row in ``helpers/formats/providers.py``. What a
provider *is* (host, key header, format modules) stays on that row.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from helpers.formats.providers import PROVIDERS

__all__ = ["FORMATS", "of", "of_family"]


#: The formats with a module here: every provider's, and the neutral request's (no provider's).
FORMATS = (*PROVIDERS, "neutral")


def of(format: str) -> ModuleType:
    """The stand-in's module for ``format`` (``standin/providers/NAME.py``); ValueError if none."""
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r} (known: {', '.join(FORMATS)})")
    return import_module(f"{__name__}.{format.replace('-', '_')}")


def of_family(family: str) -> ModuleType:
    """The module of ``family``'s first format: what a company does alike in all its APIs."""
    return of(next(f for f, row in PROVIDERS.items() if row.family == family))
