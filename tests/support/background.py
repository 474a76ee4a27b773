"""Start a fixture's slow, self-contained preparation when the session starts, in a thread.

For work that runs in subprocesses of its own (a virtual environment and its ``pip install``s):
the root conftest starts it as soon as collection shows the module will run, so it uses the
second core while the other tests run; the module's fixture then waits for its result (an
error in the preparation is raised there). Not for anything that shares state with other tests.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any


class Background:
    """One preparation run in a thread of its own, or nothing if never started."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.future: Future | None = None

    @property
    def started(self) -> bool:
        return self.future is not None

    def start(self, prepare: Callable[..., Any], *args: Any) -> None:
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name)
        self.future = pool.submit(prepare, *args)
        pool.shutdown(wait=False)

    def result(self) -> Any:
        assert self.future is not None, f"{self.name}: never started"
        return self.future.result()
