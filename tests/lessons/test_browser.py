"""Every lesson in the real JupyterLab, in a real browser, as a learner opens it: what nbval
cannot see.

One JupyterLab server (on 127.0.0.1, random port and token, fresh settings, serving a temporary
copy of ``student/`` and ``notebooks/`` so nothing stored is touched) and one headless Debian
Chromium driven by Playwright. For each lesson, its learner copy (``student/``, what ``make lab``
opens): open it, Run All Cells through the menu, wait until every cell has run, then assert

- no error output and no "Error displaying widget";
- no ✓ anywhere, and one helpful ✗ per exercise ("not answered yet"); how many
  exercises there are is read from the lesson, never written here;
- every figure the stored lesson has outside its exercise cells is rendered as an image;
- every slider responds: pressing → on its handle changes the text of its output area;
- every tab bar responds: clicking another tab shows different content;
- no text was typeset as LaTeX: JupyterLab's MathJax reads a pair of ``$`` signs in markdown or
  in an HTML output as a formula and swallows the text between them ("$150 or less ... $289"
  becomes "150orless...289"). A probe notebook with a bare pair and an escaped one proves the
  check sees MathJax at work.

The copy served has, after its last exercise cell, one probe cell per exercise
(``learner_runs.py``): once Run All is done the notebook is saved, and
``tests/lessons/test_student.py`` reads its assertions from that run (the copy's kept outputs
reproduced, a ✗ per exercise, the probes' verdicts) instead of running the copy again. The
probes print one plain line each; a failing one shows its error, which fails this test too.

One Run All per lesson is enough: a learner copy holds every cell of its lesson (markdown
unchanged, code unchanged outside the solution regions: ``tests/lessons/test_student.py`` checks
that),
so the learner's Run All renders everything the reference lesson renders except the exercise
answers. That the reference solutions print ✓ is checked where they run: nbval re-runs every
lesson and compares each stored ✓ line, and ``tests/lessons/test_student.py`` requires them.

Screenshots of failures land in ``test-artifacts/browser/``. Skipped (with the reason) when
Playwright or Debian's Chromium is missing; ``make test`` installs Chromium where it can.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest

from tests.lessons import learner_runs

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
ARTIFACTS = ROOT / "test-artifacts" / "browser"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (sudo apt-get install chromium)"
)

KERNEL_IDLE = """() => { const sb = document.querySelector('#jp-main-statusbar');
  return !!sb && /\\(ipykernel\\) \\| Idle/.test(sb.innerText); }"""
# (a cell whose input is collapsed, as the Colab set-up cell is, shows no prompt number)
ALL_CELLS_RAN = """() => { const ps = [...document.querySelectorAll(
  '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell '
  + '.jp-InputArea:not(.lm-mod-hidden) .jp-InputPrompt')];
  return ps.length > 0 && ps.every(p => /\\[\\d+\\]/.test(p.textContent)); }"""
LAB_SETTINGS = {
    # render every cell (no virtual scrolling), so every output is in the page to be checked
    "@jupyterlab/notebook-extension:tracker": {
        "autoStartDefaultKernel": True,
        "windowingMode": "none",
    },
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
}


# lesson file name -> its learner copy as make_student wrote it (before the probes went in)
STORED: dict[str, dict] = {}

PROBE = "zz_dollar_probe.ipynb"
BARE = "Refunds of $150 or less yourself, above that a human: $289 needs one."


def _dollar_probe() -> dict:
    """A notebook with a bare $ pair (MathJax must fire) and the same text escaped (it must not)."""
    from helpers.html import no_math

    def markdown(text: str) -> dict:
        return {"cell_type": "markdown", "metadata": {}, "source": text}

    html = {"text/html": no_math(BARE), "text/plain": BARE}
    return {
        "cells": [
            markdown(BARE),
            markdown(BARE.replace("$", "\\\\$")),  # two backslashes: see notebook_rules
            {
                "cell_type": "code",
                "execution_count": 1,
                "metadata": {},
                "outputs": [{"output_type": "display_data", "data": html, "metadata": {}}],
                "source": "from helpers.html import no_math",
            },
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server over a copy of the lessons; yields (base_url, token)."""
    tmp = tmp_path_factory.mktemp("lab")
    root = tmp / "root"
    shutil.copytree(ROOT / "notebooks", root / "notebooks")
    (root / "notebooks" / PROBE).write_text(json.dumps(_dollar_probe()))
    sys.path.insert(0, str(ROOT / "scripts"))
    import make_student  # the learner copies as make lab makes them (not tracked by git)

    make_student.write(root / "student", root / "notebooks", quiet=True)
    for path in NOTEBOOKS:  # one run serves test_student.py too: its probes ride along
        STORED[path.name], probed = learner_runs.with_probes(path, root / "student")
        (root / "student" / path.name).write_text(nbformat.writes(probed), encoding="utf-8")
    shutil.copytree(ROOT / "data", root / "data")
    (tmp / "app-settings").mkdir()
    (tmp / "app-settings" / "overrides.json").write_text(json.dumps(LAB_SETTINGS))
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(tmp / "cfg"),
        JUPYTER_RUNTIME_DIR=str(tmp / "rt"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "ws"),
    )
    log = (tmp / "lab.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}",
            f"--LabApp.app_settings_dir={tmp / 'app-settings'}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail(f"JupyterLab did not start; see its log at {tmp / 'lab.log'}")
                time.sleep(0.5)
        yield base, token
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=CHROMIUM,
            headless=True,
            viewport={"width": 1280, "height": 1000},
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            yield context.pages[0]
        finally:
            context.close()


def _stored_figures(path: Path, skip: list[int]) -> int:
    """Figures in the stored lesson's outputs, leaving out the cells at the ``skip`` indices."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return sum(
        1
        for index, cell in enumerate(nb["cells"])
        if index not in skip
        for out in cell.get("outputs", [])
        if "image/png" in out.get("data", {})
    )


def _stored_widgets(path: Path, *model_names: str) -> int:
    """How many widgets of these kinds the stored run displayed (from the saved widget state)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    state = nb["metadata"].get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    return sum(1 for m in state.get("state", {}).values() if m.get("model_name") in model_names)


def _shut_down_kernels(base: str, token: str) -> None:
    """Stop every kernel the last notebook left running, so the next one starts alone."""
    with urllib.request.urlopen(f"{base}/api/kernels?token={token}", timeout=10) as answer:
        kernels = json.load(answer)
    for kernel in kernels:
        url = f"{base}/api/kernels/{kernel['id']}?token={token}"
        urllib.request.urlopen(urllib.request.Request(url, method="DELETE"), timeout=10).close()


def _run_all(page, base: str, token: str, name: str, folder: str = "notebooks") -> None:
    # A workspace of its own for each notebook: only this notebook is open, so the status bar
    # can only be talking about its kernel.
    workspace = f"{folder}-" + name.removesuffix(".ipynb").replace("_", "-")
    url = f"{base}/lab/workspaces/{workspace}/tree/{folder}/{name}?token={token}"
    page.goto(url, timeout=120_000)  # a whole JupyterLab page load: slow on a busy machine
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell", timeout=60_000)
    page.wait_for_function(KERNEL_IDLE, timeout=90_000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(ALL_CELLS_RAN, timeout=120_000)
    page.wait_for_function(KERNEL_IDLE, timeout=60_000)


def _save(page, base: str, token: str, name: str) -> nbformat.NotebookNode:
    """Save the open notebook (Ctrl+S, as a learner would) and return it as saved, read back
    through the server's contents API once the save has landed."""
    url = f"{base}/api/contents/student/{name}?token={token}"

    def saved(content: int) -> dict | None:
        try:
            with urllib.request.urlopen(f"{url}&content={content}", timeout=10) as answer:
                return json.load(answer)
        except urllib.error.HTTPError:  # read while the server writes it: ask again
            return None

    before = saved(0)["last_modified"]
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 60
    while (model := saved(0)) is None or model["last_modified"] == before:
        if time.monotonic() > deadline:
            raise TimeoutError(f"student/{name} was not saved after Run All")
        time.sleep(0.25)
    while (model := saved(1)) is None and time.monotonic() < deadline:
        time.sleep(0.25)
    assert model is not None, f"student/{name}: the saved notebook could not be read"
    return nbformat.reads(json.dumps(model["content"]), as_version=4)


def _wait_for(locator, count: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while locator.count() < count and time.monotonic() < deadline:
        time.sleep(0.25)


def _check_sliders(panel, expected: int) -> list[str]:
    problems = []
    if expected:  # widgets render asynchronously, after the cell counts as done
        _wait_for(panel.locator(".widget-slider .noUi-handle"), expected)
    handles = panel.locator(".widget-slider .noUi-handle").all()
    if len(handles) < expected:
        problems.append(f"{len(handles)} sliders rendered, the stored run displayed {expected}")
    for i, handle in enumerate(handles):
        area = handle.locator("xpath=ancestor::div[contains(@class,'jp-OutputArea')][1]")
        before = area.inner_text()
        handle.focus()
        handle.press("ArrowRight")
        try:
            area.page.wait_for_function(
                "([el, old]) => el.innerText !== old",
                arg=[area.element_handle(), before],
                timeout=10_000,
            )
        except sync_api.TimeoutError:
            problems.append(f"slider {i}: its output did not change after pressing →")
    return problems


def _check_tabs(panel, expected: int) -> list[str]:
    problems = []
    if expected:
        _wait_for(panel.locator(".widget-tab .lm-TabBar"), expected)
    bars = panel.locator(".widget-tab .lm-TabBar").all()
    if len(bars) < expected:
        problems.append(f"{len(bars)} tab bars rendered, the stored run displayed {expected}")
    for i, bar in enumerate(bars):
        tabs = bar.locator(".lm-TabBar-tab").all()
        if len(tabs) < 2:
            continue
        tab_widget = bar.locator("xpath=..")
        before = tab_widget.inner_text()
        tabs[1].click()
        if tab_widget.inner_text() == before:
            problems.append(f"tab bar {i}: clicking the second tab changed nothing")
    return problems


def test_a_bare_dollar_pair_is_typeset_and_an_escaped_one_is_not(lab, page):
    """The LaTeX check below can fail: MathJax eats a bare pair, `\\$` and no_math() survive."""
    base, token = lab
    page.goto(f"{base}/lab/workspaces/probe/tree/notebooks/{PROBE}?token={token}", timeout=120_000)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    panel.locator("mjx-container").first.wait_for(timeout=120_000)  # a cold page, busy machine
    time.sleep(3)  # the other cells are typeset one by one, asynchronously
    cells = panel.locator(".jp-Cell")
    assert cells.nth(0).locator("mjx-container").count() >= 1  # the bare pair became a formula
    for i in (1, 2):  # the escaped markdown, and the HTML output wrapped in no_math()
        assert cells.nth(i).locator("mjx-container").count() == 0
        assert "$150 or less yourself" in cells.nth(i).inner_text()
    _shut_down_kernels(base, token)


def _latex_problems(panel) -> list[str]:
    time.sleep(1.5)  # MathJax typesets asynchronously, after the output is in the page
    formulas = panel.locator("mjx-container")
    if not formulas.count():
        return []
    near = formulas.first.locator("xpath=ancestor::div[contains(@class,'jp-Cell')][1]")
    return [
        f"{formulas.count()} piece(s) of text typeset as LaTeX (a bare $ pair); first in: "
        f"{near.inner_text()[:200]!r}"
    ]


def _output_problems(panel) -> list[str]:
    problems = []
    errors = panel.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    tracebacks = panel.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']")
    for label, locator in (("stderr output", errors), ("error output", tracebacks)):
        if locator.count():
            problems.append(f"{locator.count()} {label}(s): {locator.first.inner_text()[:300]}")
    if panel.get_by_text("Error displaying widget").count():
        problems.append("a widget failed to display")
    return problems


def _exercises(path: Path) -> list[int]:
    """The cell index of every exercise of the lesson at ``path`` (its solution regions)."""
    from course.exercises.solutions import exercise_cells

    nb = json.loads(path.read_text(encoding="utf-8"))
    ids = {id(cell) for cell in exercise_cells(nb)}
    return [i for i, cell in enumerate(nb["cells"]) if id(cell) in ids]


def _verdicts(panel) -> tuple[list[str], list[str]]:
    """The checks' ✓ and ✗ (a mark and a space opening a line) in the notebook's outputs, as
    the learner sees them (lesson 00's environment table marks its rows with a ✓ and a tab)."""
    texts = panel.locator(".jp-OutputArea-output").all_inner_texts()
    ticks = [t for t in texts for _ in re.findall(r"(?m)^✓ ", t)]
    crosses = [t for t in texts for _ in re.findall(r"(?m)^✗ ", t)]
    return ticks, crosses


def _learner_problems(panel, exercises: int) -> list[str]:
    """Run All on a learner copy: no ✓, and one helpful ✗ per exercise."""
    ticks, crosses = _verdicts(panel)
    problems = [f"Run All shows ✓ before any answer: {t[:200]!r}" for t in ticks[:1]]
    if len(crosses) != exercises:
        problems.append(f"{len(crosses)} ✗ for {exercises} exercises")
    problems += [
        f"unhelpful ✗: {text[:200]!r}" for text in crosses if "not answered yet" not in text
    ][:1]
    return problems


def _rendering_problems(panel, path: Path) -> list[str]:
    """What only a browser shows works: figures, sliders, tab bars, and no text as LaTeX."""
    problems = []
    figures = panel.locator(".jp-OutputArea .jp-RenderedImage img").count()
    expected = _stored_figures(path, skip=_exercises(path))
    if figures < expected:
        problems.append(f"{figures} figures rendered, the stored lesson has {expected}")
    sliders = _stored_widgets(path, "IntSliderModel", "FloatSliderModel", "SelectionSliderModel")
    problems += _check_sliders(panel, sliders)
    problems += _check_tabs(panel, _stored_widgets(path, "TabModel"))
    problems += _latex_problems(panel)
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_lesson_as_a_learner_runs_it_in_the_browser(lab, page, path):
    """Run All on the learner copy: no ✓, a helpful ✗ per exercise, everything renders."""
    base, token = lab
    try:
        _run_all(page, base, token, path.name, folder="student")
        learner_runs.SAVED[path.name] = (STORED[path.name], _save(page, base, token, path.name))
        panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
        problems = _output_problems(panel) + _learner_problems(panel, len(_exercises(path)))
        problems += _rendering_problems(panel, path)
        assert problems == [], f"student/{path.name} after Run All: " + "; ".join(problems)
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{path.stem}.png"), full_page=True)
        raise
    finally:
        _shut_down_kernels(base, token)
