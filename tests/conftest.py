"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest

from standin import LocalProvider


@pytest.fixture(scope="module")
def p():
    """The local provider playing the Sundry scenario on 127.0.0.1, one per test module.

    A module's tests share it (starting a server per test is slow); a module that injects
    faults or needs a fresh recorder per test defines its own ``p``, which wins.
    """
    with LocalProvider("sundry") as provider:
        yield provider
