"""Test-wide setup: no network, no API keys, a clean IPython profile for notebook kernels.

This file sits at the repository root so it applies to both ``tests/`` and the nbval run over
``notebooks/``.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from helpers.machinery.netguard import block_network, offline_test_environment

# Never talk to a real provider, nor to anything but this machine: in this process, in any
# Python subprocess that imports helpers, and in every notebook kernel (an IPython profile whose
# startup file blocks the network before the first cell, whatever the notebook imports).
_ipython_dir = Path(tempfile.mkdtemp(prefix="on-the-wire-ipython-"))
offline_test_environment(_ipython_dir)
block_network()


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_ipython_dir, ignore_errors=True)
