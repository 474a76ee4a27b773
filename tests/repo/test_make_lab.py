"""`make lab` as a newcomer meets it: the URL it prints opens lesson 00, with the repository in
the file browser, in a real browser.

The JupyterLab command is the one the Makefile runs (read with ``make -n lab``, so the test and
the Makefile cannot drift apart), over a copy of the repository's folders and learner copies
made as ``make lab`` makes them. The URL is the one the server prints (what a remote machine,
WSL or a container gives a newcomer), not one built here. Then, in headless Chromium: the
lesson is the open document, no Launcher and no dialog (no kernel picker), and the file browser
lists ``helpers/``, ``data/`` and ``docs/``; the server's log has no "not trusted" warning.
Skipped, with the reason, without Playwright or Debian's Chromium (as
tests/lessons/test_browser.py).
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from tests.support.background import Background

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (sudo apt-get install chromium)"
)
PRINTED_URL = re.compile(r"http://127\.0\.0\.1:\d+/lab/tree/\S+\?token=[0-9a-f]+")
MAKE_INPUTS = ("Makefile", "requirements.txt", "requirements-test.txt", "constraints.txt")


def _make_lab_lines(root: Path) -> tuple[str, str]:
    """The trust and JupyterLab command lines ``make lab`` runs, with this venv's tools."""
    for name in MAKE_INPUTS + ("pyproject.toml",):
        shutil.copy2(ROOT / name, root / name)
    bin_dir = Path(sys.executable).parent
    shown = subprocess.run(
        ["make", "-n", "-s", "lab", f"BIN={bin_dir}"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    trust = next(line for line in shown if " trust " in line)
    lab = next(line for line in shown if "jupyter lab" in line)
    return trust, lab


@dataclass
class Lab:
    """The server ``make lab`` starts, over a copy of the repository, and what it printed."""

    url: str
    log_path: Path
    root: Path
    server: subprocess.Popen
    log: IO[str]

    def stop(self) -> None:
        self.server.terminate()
        try:
            self.server.wait(15)
        except subprocess.TimeoutExpired:
            self.server.kill()
        self.log.close()


def start_lab(tmp: Path, environ: dict[str, str]) -> Lab:
    """Copy the repository's folders to ``tmp``, make the learner copies, run ``make lab``'s
    trust and JupyterLab command lines (with ``environ``) and wait for the URL it prints."""
    root = tmp / "repo"
    for folder in ("helpers", "data", "docs", "notebooks"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    sys.path.insert(0, str(ROOT / "scripts"))
    import make_student

    make_student.write(root / "student", root / "notebooks", quiet=True)
    trust, lab = _make_lab_lines(root)
    env = dict(
        environ,
        JUPYTER_DATA_DIR=str(tmp / "data"),  # the trust database: this test's own
        JUPYTER_RUNTIME_DIR=str(tmp / "rt"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "ws"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
    )
    subprocess.run(trust, shell=True, cwd=root, env=env, check=True)
    command = [*shlex.split(lab), "--no-browser", "--ServerApp.ip=127.0.0.1", "--ServerApp.port=0"]
    if "--allow-root" not in command:
        command.append("--allow-root")
    log_path = tmp / "lab.log"
    log = log_path.open("w")
    server = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    started = Lab("", log_path, root, server, log)
    try:
        deadline = time.monotonic() + 90
        while not PRINTED_URL.search(log_path.read_text()):
            if time.monotonic() > deadline or server.poll() is not None:
                pytest.fail(f"JupyterLab printed no URL:\n{log_path.read_text()[-2000:]}")
            time.sleep(0.5)
    except BaseException:
        started.stop()
        raise
    started.url = PRINTED_URL.search(log_path.read_text()).group(0)
    return started


STARTED = Background("make-lab")


def stop_started() -> None:
    """Stop the server the background started, if it did (the fixture may never have run)."""
    if STARTED.started:
        with contextlib.suppress(BaseException):
            STARTED.result().stop()


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """(the URL the server printed, its log text so far, the repository copy).

    Usually already started: the root conftest starts ``start_lab`` in a background thread, with
    the session's environment as it started, as soon as it knows this module will run (the
    server then waits, idle, for its tests)."""
    if STARTED.started:
        lab = STARTED.result()
    else:
        lab = start_lab(tmp_path_factory.mktemp("make-lab"), dict(os.environ))
    try:
        yield lab.url, lab.log_path, lab.root
    finally:
        lab.stop()


def test_the_printed_url_names_lesson_00_of_the_learner_copy(printed):
    url, _, _ = printed
    assert "/lab/tree/student/00_start_here.ipynb?token=" in url


def test_the_printed_url_opens_the_lesson_with_the_repository_in_the_file_browser(
    printed, tmp_path
):
    url, log_path, _ = printed
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            viewport={"width": 1280, "height": 900},
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
            ],
        )
        try:
            page = context.pages[0]
            page.goto(url, timeout=120_000)
            page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=90_000)
            current = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
            assert current.first.inner_text().strip() == "00_start_here.ipynb"
            assert page.locator(".jp-Launcher:visible").count() == 0, "a Launcher is open"
            time.sleep(2)  # a kernel picker would open once the session starts
            assert page.locator(".jp-Dialog").count() == 0, "a dialog asks the learner something"
            if not page.locator(".jp-FileBrowser:visible").count():
                page.locator('.jp-SideBar [data-id="filebrowser"]').first.click()
            page.locator(".jp-FileBrowser .jp-BreadCrumbs-home").first.click()  # the root
            listing = page.locator(".jp-FileBrowser .jp-DirListing-itemText")
            listing.first.wait_for(timeout=30_000)
            wanted = {"helpers", "data", "docs", "notebooks", "student"}
            deadline = time.monotonic() + 30  # student/'s listing may still show for a moment
            names = {item.strip() for item in listing.all_inner_texts()}
            while not wanted <= names and time.monotonic() < deadline:
                time.sleep(0.5)
                names = {item.strip() for item in listing.all_inner_texts()}
            assert wanted <= names, names
        finally:
            context.close()
    assert "not trusted" not in log_path.read_text()
