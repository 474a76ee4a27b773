"""Test-wide setup: no network, no API keys, a clean IPython profile for notebook kernels.

This file sits at the repository root so it applies to both ``tests/`` and the nbval run over
``notebooks/``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from helpers.netguard import block_network, write_offline_ipython_profile

# 1. Never talk to a real provider: drop every key, and opt out of live mode explicitly.
for _name in list(os.environ):
    if _name.endswith("_API_KEY") or _name in {"ON_THE_WIRE_LIVE"}:
        del os.environ[_name]

# 2. No network in this process, nor in any Python subprocess that imports helpers.
os.environ["ON_THE_WIRE_OFFLINE"] = "1"
block_network()

# 3. Notebook kernels: a fresh IPython profile whose startup file blocks the network before the
#    first cell runs (whether or not the notebook imports helpers), and no user config leaking in.
_ipython_dir = write_offline_ipython_profile(Path(tempfile.mkdtemp(prefix="on-the-wire-ipython-")))
os.environ["IPYTHONDIR"] = str(_ipython_dir)


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_ipython_dir, ignore_errors=True)
