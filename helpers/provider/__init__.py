"""Used in lessons: 01, 03, 04, 05, 06, 07, 08, 09, 10, 11.

The local provider: a scripted model behind the real endpoints, on 127.0.0.1 only.

- :class:`LocalProvider` (``server``): start it, point ``httpx`` or an SDK at ``p.url`` /
  ``p.base_url(...)``, read ``p.recorder``, queue faults with ``p.inject(...)``.
- ``routes``: what each endpoint checks and answers; ``errors``: provider-style error bodies.
- ``scenarios`` and ``crash_story``: the scripted "model"; ``signatures``: fake reasoning state.
- ``faults``: 429s, 500s, slow answers and cut streams; ``recorder``: every exchange, redacted.

Importing this package is instant; the server starts only when you call ``start()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from helpers.machinery.provider_server import LOCAL_KEY, LocalProvider
    from helpers.provider.faults import CutStream, RateLimited, ServerError, Slow

__all__ = ["LOCAL_KEY", "CutStream", "LocalProvider", "RateLimited", "ServerError", "Slow"]


def __getattr__(name: str) -> Any:
    if name in ("LocalProvider", "LOCAL_KEY"):
        from helpers.machinery import provider_server as server

        return getattr(server, name)
    if name in ("CutStream", "RateLimited", "ServerError", "Slow"):
        from helpers.provider import faults

        return getattr(faults, name)
    raise AttributeError(f"module 'helpers.provider' has no attribute {name!r}")
