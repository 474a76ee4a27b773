"""Start a fixture's slow, self-contained preparation when the session starts, in a thread.

For work that runs in subprocesses of its own (a virtual environment and its ``pip install``s):
the root conftest starts it as soon as collection shows the module will run, so it uses the
second core while the other tests run; the module's fixture then waits for its result (an
error in the preparation is raised there). Not for anything that shares state with other tests.

``queue`` runs the smaller preparations one after another in one shared thread, in the order
they were queued (the order their tests come in), rather than all at once: fewer processes
compete with the tests for the two cores at the session's start.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

_QUEUE: ThreadPoolExecutor | None = None


class Background:
    """One preparation run in a thread of its own (or in the shared queue), or nothing if never
    started."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.future: Future | None = None

    @property
    def started(self) -> bool:
        return self.future is not None

    def start(self, prepare: Callable[..., Any], *args: Any) -> None:
        assert self.future is None, f"{self.name}: started twice"
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name)
        self.future = pool.submit(prepare, *args)
        pool.shutdown(wait=False)

    def queue(self, prepare: Callable[..., Any], *args: Any) -> None:
        """Like ``start``, but after every preparation queued before it, in one shared thread."""
        global _QUEUE
        assert self.future is None, f"{self.name}: started twice"
        if _QUEUE is None:
            _QUEUE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="queue")
        self.future = _QUEUE.submit(prepare, *args)

    def result(self) -> Any:
        assert self.future is not None, f"{self.name}: never started"
        return self.future.result()


def cancel_queued() -> None:
    """Drop the queued preparations that have not begun (the session is over without them)."""
    if _QUEUE is not None:
        _QUEUE.shutdown(wait=False, cancel_futures=True)
