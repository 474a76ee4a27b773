"""On the Wire helpers: the small package the lessons import.

Each module has one job (see the table in README.md). Importing ``helpers`` is instant: nothing
heavy (tokenizers, HTTP clients, plotting) loads until a function that needs it is called.
"""

from __future__ import annotations

import os as _os

__version__ = "0.1.0"

# Tests (and anything else that sets this variable) run with the network blocked.
if _os.environ.get("ON_THE_WIRE_OFFLINE") == "1":
    from helpers.machinery.netguard import block_network as _block

    _block()
