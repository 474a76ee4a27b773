"""The stand-in: an offline provider any client can talk to, and the tools around it.

It plays a scripted model behind the real endpoints of the four wire formats, on 127.0.0.1 only,
and judges each request as the real provider would (``verdict``). The command line
(``python -m standin``, also ``python -m helpers``) counts, checks, renders and serves. Unlike
``helpers/`` (the learner's package, kept plain), this package may be clever and fast; its
README says what is where. ``ROWS`` (``standin.rules``) is every rule per provider with its
source, the table ``docs/rules.md`` is made from. It imports ``helpers``; ``helpers`` never
imports it.
"""

from __future__ import annotations

import os as _os

from standin.capturing import capture
from standin.provider.faults import CutStream, RateLimited, ServerError, Slow
from standin.rules import ROWS
from standin.server import LOCAL_KEY, LocalProvider

__all__ = [
    "LOCAL_KEY",
    "ROWS",
    "CutStream",
    "LocalProvider",
    "RateLimited",
    "ServerError",
    "Slow",
    "capture",
]

# Tests (and anything else that sets this variable) run with the network blocked.
if _os.environ.get("ON_THE_WIRE_OFFLINE") == "1":
    from standin.netguard import block_network

    block_network()
