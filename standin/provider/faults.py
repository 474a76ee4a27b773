"""Used in lessons: 01, 03, 04, 05, 06, 07, 08, 09, 10, 11.

Faults the stand-in can inject, for lessons on retries, timeouts and broken streams.

Each fault is a small dataclass; :class:`FaultQueue` hands them out to the next requests in order
(``times`` requests each). The server asks the queue once per request to a real endpoint (never
for a 404), so "the next call gets a 429, the one after succeeds" is exactly what happens.

======================  ========================================================================
fault                   what the client sees
======================  ========================================================================
``RateLimited``         429 in the provider's error envelope, with ``retry-after`` (seconds)
                        and, if set, ``retry-after-ms`` (both SDKs honour them)
``ServerError``         500 (or another 5xx, e.g. 529 "overloaded" for Anthropic), provider style
``Slow``                the normal response, ``seconds`` late (test your timeouts)
``CutStream``           the response starts, then the connection closes after ``after`` SSE
                        events (or half the body when not streaming): no ``[DONE]``, no stop
======================  ========================================================================

Faults can be named by string too: ``p.inject("rate_limit", times=2)``.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

__all__ = ["CutStream", "Fault", "FaultQueue", "RateLimited", "ServerError", "Slow", "make"]


@dataclass(frozen=True)
class RateLimited:
    retry_after: float = 1.0
    retry_after_ms: int | None = None
    name = "rate_limit"


@dataclass(frozen=True)
class ServerError:
    status: int = 500
    name = "server_error"


@dataclass(frozen=True)
class Slow:
    seconds: float = 2.0
    name = "slow"


@dataclass(frozen=True)
class CutStream:
    after: int = 3
    name = "cut_stream"


Fault = RateLimited | ServerError | Slow | CutStream
_BY_NAME: dict[str, type] = {
    "rate_limit": RateLimited,
    "server_error": ServerError,
    "overloaded": ServerError,
    "slow": Slow,
    "cut_stream": CutStream,
}


def make(fault: Fault | str) -> Fault:
    """A fault from an instance or a name (``"rate_limit"``, ``"server_error"``, ...)."""
    if not isinstance(fault, str):
        return fault
    if fault not in _BY_NAME:
        raise ValueError(f"unknown fault {fault!r} (known: {', '.join(_BY_NAME)})")
    if fault == "overloaded":
        return ServerError(529)
    return _BY_NAME[fault]()


class FaultQueue:
    """Faults waiting for the next requests, first in, first out. Thread-safe."""

    def __init__(self) -> None:
        self._queue: deque[list] = deque()  # [fault, remaining times]
        self._lock = threading.Lock()

    def add(self, fault: Fault | str, times: int = 1) -> Fault:
        if times < 1:
            raise ValueError("times must be at least 1")
        made = make(fault)
        with self._lock:
            self._queue.append([made, times])
        return made

    def take(self) -> Fault | None:
        """The fault for this request, if any (each use counts down its ``times``)."""
        with self._lock:
            if not self._queue:
                return None
            entry = self._queue[0]
            entry[1] -= 1
            if entry[1] == 0:
                self._queue.popleft()
            return entry[0]

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()

    @property
    def pending(self) -> list[tuple[Fault, int]]:
        with self._lock:
            return [(f, n) for f, n in self._queue]

    def __len__(self) -> int:
        return len(self._queue)
