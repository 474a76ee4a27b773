"""Test-wide setup: no network, no API keys, a clean IPython profile for notebook kernels.

This file sits at the repository root so it applies to both ``tests/`` and the nbval run over
``notebooks/``.
"""

from __future__ import annotations

import os
import shutil
import sys
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
    """Start the slow, self-contained preparations while other tests run, each in a thread of
    its own: building and installing the wheel (tests/repo/test_package.py), Colab's
    environment and its two lessons (tests/repo/test_colab_install.py), the live-mode nbval run
    over every lesson (tests/lessons/test_live_notebooks.py), the learner copies' runs
    (tests/lessons/test_student.py; only those the browser test will not run first, as it
    shares its runs); then the smaller ones, one after another in a shared thread
    (``_queue_the_smaller_ones``). Each is isolated: a folder of its own for what it writes, its
    own subprocesses, the environment as the session started. Nothing for ``--collect-only``."""
    if session.config.option.collectonly:
        return
    if any(item.path.name == "test_package.py" for item in session.items):
        from tests.repo import test_package

        folder = Path(tempfile.mkdtemp(prefix="on-the-wire-package-"))
        session.config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
        test_package.PREPARED.start(folder)
    if any(item.path.name == "test_colab_install.py" for item in session.items):
        from tests.repo import test_colab_install

        if test_colab_install.PYTHON313 is not None:  # else the module is skipped
            colab = Path(tempfile.mkdtemp(prefix="on-the-wire-colab-"))
            session.config.add_cleanup(lambda: shutil.rmtree(colab, ignore_errors=True))
            test_colab_install.PREPARED.start(test_colab_install.prepare, colab)
    live = "test_every_notebook_passes_unchanged_with_fake_keys_and_live_mode_on"
    if any(item.name == live for item in session.items):
        from tests.lessons import test_live_notebooks

        logs = Path(tempfile.mkdtemp(prefix="on-the-wire-live-"))
        session.config.add_cleanup(lambda: shutil.rmtree(logs, ignore_errors=True))
        test_live_notebooks.LIVE_RUN.start(test_live_notebooks._live_run, logs)
    runs = "test_checks_pass_on_the_reference_and_help_on_the_learner_copy"
    students = [i for i, item in enumerate(session.items) if _named(item, runs)]
    if students:
        from tests.lessons import test_student

        names = {session.items[i].callspec.params["path"].name for i in students}
        names -= _browser_runs_first(session.items, students[0])
        if names:
            course = Path(tempfile.mkdtemp(prefix="on-the-wire-student-"))
            session.config.add_cleanup(lambda: shutil.rmtree(course, ignore_errors=True))
            test_student.STUDENT_RUNS.start(
                test_student.prepare, course, dict(os.environ), sorted(names)
            )
    _queue_the_smaller_ones(session)


def _queue_the_smaller_ones(session) -> None:
    """Queue the smaller preparations in one shared thread, in the order their tests come:
    ``scripts/build_data.py --check`` (tests/helpers/test_examples.py), lesson 11 in each wire
    format its switch offers (tests/lessons/test_lesson_switches.py), lesson 11's three runs
    cell by cell (tests/lessons/test_live_notebooks.py), the JupyterHub class
    (tests/repo/test_hub.py), the JupyterLab server ``make lab`` starts
    (tests/repo/test_make_lab.py; it then waits, idle, for its tests), the test command over its
    probe notebooks (tests/repo/test_test_setup.py)."""
    items = session.items
    environ = dict(os.environ)  # the session's as it starts, not a monkeypatched one
    if any(_named(item, "test_data_fixtures_are_built_from_their_parts") for item in items):
        from tests.helpers import test_examples

        test_examples.CHECKED.queue(test_examples.check_data, environ)
    if any(_named(item, "test_lesson_11_runs_in_every_wire_format_it_offers") for item in items):
        from tests.lessons import test_lesson_switches

        test_lesson_switches.RUNS.queue(test_lesson_switches.prepare, environ)
    if any("lesson_11_runs" in getattr(item, "fixturenames", ()) for item in items):
        from tests.lessons import test_live_notebooks

        runs = test_live_notebooks.LESSON_11_RUNS
        runs.queue(test_live_notebooks._lesson_11_runs, environ)
    if any(_uses(item, "test_hub.py", "result") for item in items):
        from tests.repo import test_hub

        if test_hub.hub_class.PROXY.exists():  # else the fixture skips or fails, as alone
            test_hub.PREPARED.queue(test_hub.run_class)
    if any(_uses(item, "test_make_lab.py", "printed") for item in items):
        from tests.repo import test_make_lab

        if test_make_lab.CHROMIUM is not None:  # else the module is skipped
            lab = Path(tempfile.mkdtemp(prefix="on-the-wire-make-lab-"))
            session.config.add_cleanup(lambda: shutil.rmtree(lab, ignore_errors=True))
            session.config.add_cleanup(test_make_lab.stop_started)
            test_make_lab.STARTED.queue(test_make_lab.start_lab, lab, environ)
    if any(_named(item, "test_the_test_command_fails_on_broken_lessons") for item in items):
        from tests.repo import test_test_setup

        test_test_setup.PROBED.queue(test_test_setup.probe, environ)
    if "tests.support.background" in sys.modules:  # not in a copy without tests/ (Colab's)
        from tests.support.background import cancel_queued

        session.config.add_cleanup(cancel_queued)  # runs first: nothing new starts after the end


def _named(item, name: str) -> bool:
    return getattr(item, "originalname", None) == name


def _uses(item, module: str, fixture: str) -> bool:
    """Whether ``item`` is a test of ``module`` (a file name) that needs ``fixture``."""
    return item.path.name == module and fixture in getattr(item, "fixturenames", ())


def _browser_runs_first(items: list, before: int) -> set[str]:
    """The lessons whose learner copy the browser test runs (and saves, probes included) before
    the item at index ``before``: tests/lessons/test_student.py reads those runs, no kernel of
    its own. None when Chromium is missing (the browser tests are skipped)."""
    browser = "test_a_lesson_as_a_learner_runs_it_in_the_browser"
    found = [item for item in items[:before] if _named(item, browser)]
    if not found:
        return set()
    from tests.lessons import test_browser

    if test_browser.CHROMIUM is None:
        return set()
    return {item.callspec.params["path"].name for item in found}
