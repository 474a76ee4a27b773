"""Test-wide setup: no network, no API keys, a clean IPython profile for notebook kernels.

This file sits at the repository root so it applies to both ``tests/`` and the nbval run over
``notebooks/``.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from standin.netguard import block_network, offline_test_environment

# Never talk to a real provider, nor to anything but this machine: in this process, in any
# Python subprocess that imports helpers, and in every notebook kernel (an IPython profile whose
# startup file blocks the network before the first cell, whatever the notebook imports).
_ipython_dir = Path(tempfile.mkdtemp(prefix="on-the-wire-ipython-"))
offline_test_environment(_ipython_dir)
block_network()


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_ipython_dir, ignore_errors=True)


def pytest_collection_finish(session):
    """Start building and installing the wheel (tests/repo/test_package.py) while other tests
    run."""
    if any(item.path.name == "test_package.py" for item in session.items):
        from tests.repo import test_package

        folder = Path(tempfile.mkdtemp(prefix="on-the-wire-package-"))
        session.config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
        test_package.PREPARED.start(folder)
