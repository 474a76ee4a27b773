"""The pytest plugin (entry point ``on_the_wire``): your own agent's tests, offline, checked.

A test that takes the ``on_the_wire`` fixture runs inside :func:`standin.capturing.capture`: a
stand-in on 127.0.0.1 that speaks the four wire formats, every request this process sends to a
provider's host routed to it (a client built at import time, or with the provider's real base
URL, included), every SDK's base-URL variable pointed at it, and any other connection off this
machine refused, naming the host. The fixture is the
:class:`~standin.capturing.Captured` list: each request your code sent, counted and checked as
the provider would check it::

    def test_my_agent(on_the_wire):
        run_my_agent("What's the weather in Paris?")
        on_the_wire.assert_all_accepted()
        assert on_the_wire[0].body["tools"][0]["function"]["name"] == "get_weather"

A test that sends nothing fails at ``assert_all_accepted()``. It adds nothing else to a pytest
run and imports nothing heavy until a test asks for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def on_the_wire() -> Iterator[Any]:
    """A stand-in every SDK talks to during the test; yields what it saw (``Captured``)."""
    from standin.capturing import capture

    with capture() as seen:
        yield seen
