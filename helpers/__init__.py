"""On the Wire helpers: the small package the lessons import.

Each module has one job (``docs/design.md``'s parts table names them). Importing ``helpers`` is
instant: nothing heavy (tokenizers, HTTP clients, plotting) loads until a function needs it.
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
