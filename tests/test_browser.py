"""Every lesson in the real JupyterLab, in a real browser: what nbval cannot see.

One JupyterLab server (on 127.0.0.1, random port and token, fresh settings, serving a temporary
copy of ``notebooks/`` so the stored outputs are never touched) and one headless Debian
Chromium driven by Playwright. For each notebook: open it, Run All Cells through the menu, wait
until every cell has run, then assert

- no error output and no "Error displaying widget";
- every figure the stored notebook has is rendered as an image;
- every slider responds: pressing → on its handle changes the text of its output area;
- every tab bar responds: clicking another tab shows different content;
- every exercise check confirms its reference solution (one ✅ per exercise, no ❌).

Then learner copies (``student/``, what ``make lab`` opens): Run All shows no ✅ anywhere and
one helpful ❌ per exercise ("not answered yet" and the idea), and no error.

Screenshots of failures land in ``test-artifacts/browser/``. Skipped (with the reason) when
Playwright or Debian's Chromium is missing; ``make test`` installs Chromium where it can.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# Three learner copies in the browser (the environment check, a function to write, the bug
# hunt); tests/test_student.py runs every learner copy in a kernel with the same assertions.
LEARNER_COPIES = [
    ROOT / "student" / name
    for name in (
        "00_start_here.ipynb",
        "03_content_is_a_list.ipynb",
        "08_reading_a_real_request.ipynb",
    )
]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (sudo apt-get install chromium)"
)

KERNEL_IDLE = """() => { const sb = document.querySelector('#jp-main-statusbar');
  return !!sb && /\\(ipykernel\\) \\| Idle/.test(sb.innerText); }"""
ALL_CELLS_RAN = """() => { const ps = [...document.querySelectorAll(
  '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')];
  return ps.length > 0 && ps.every(p => /\\[\\d+\\]/.test(p.textContent)); }"""
LAB_SETTINGS = {
    # render every cell (no virtual scrolling), so every output is in the page to be checked
    "@jupyterlab/notebook-extension:tracker": {
        "autoStartDefaultKernel": True,
        "windowingMode": "none",
    },
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
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
    shutil.copytree(ROOT / "student", root / "student")
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


def _stored_figures(path: Path) -> int:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return sum(
        1
        for cell in nb["cells"]
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
    page.goto(f"{base}/lab/workspaces/{workspace}/tree/{folder}/{name}?token={token}")
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell", timeout=60_000)
    page.wait_for_function(KERNEL_IDLE, timeout=90_000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(ALL_CELLS_RAN, timeout=120_000)
    page.wait_for_function(KERNEL_IDLE, timeout=60_000)


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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_lesson_runs_and_its_widgets_respond_in_the_browser(lab, page, path):
    base, token = lab
    try:
        _run_all(page, base, token, path.name)
        _check(page, path)
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{path.stem}.png"), full_page=True)
        raise
    finally:
        _shut_down_kernels(base, token)


def _check(page, path: Path) -> None:
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    problems = []
    errors = panel.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    tracebacks = panel.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']")
    for label, locator in (("stderr output", errors), ("error output", tracebacks)):
        if locator.count():
            problems.append(f"{locator.count()} {label}(s): {locator.first.inner_text()[:300]}")
    if panel.get_by_text("Error displaying widget").count():
        problems.append("a widget failed to display")
    figures = panel.locator(".jp-OutputArea .jp-RenderedImage img").count()
    if figures < _stored_figures(path):
        problems.append(
            f"{figures} figures rendered, the stored notebook has {_stored_figures(path)}"
        )
    sliders = _stored_widgets(path, "IntSliderModel", "FloatSliderModel", "SelectionSliderModel")
    problems += _check_sliders(panel, sliders)
    problems += _check_tabs(panel, _stored_widgets(path, "TabModel"))
    ticks, crosses = _verdicts(panel)
    exercises = _exercise_count(path)
    if len(ticks) != exercises or crosses:
        problems.append(f"{len(ticks)} ✅ and {len(crosses)} ❌ for {exercises} exercises")
    assert problems == [], f"{path.name}: " + "; ".join(problems)


def _exercise_count(path: Path) -> int:
    from helpers.exercises.solutions import exercise_cells

    return len(exercise_cells(json.loads(path.read_text(encoding="utf-8"))))


def _verdicts(panel) -> tuple[list[str], list[str]]:
    """The ✅ and ❌ anywhere in the notebook's outputs, as the learner sees them."""
    texts = panel.locator(".jp-OutputArea-output").all_inner_texts()
    ticks = [t for t in texts for _ in range(t.count("✅"))]
    crosses = [t for t in texts for _ in range(t.count("❌"))]
    return ticks, crosses


@pytest.mark.parametrize("path", LEARNER_COPIES, ids=lambda p: p.name)
def test_run_all_on_a_learner_copy_shows_no_tick_and_a_hint_per_exercise(lab, page, path):
    base, token = lab
    try:
        _run_all(page, base, token, path.name, folder="student")
        panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
        errors = panel.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']")
        assert errors.count() == 0, errors.first.inner_text()[:300]
        ticks, crosses = _verdicts(panel)
        assert ticks == [], f"Run All on the learner copy shows ✅: {ticks[0][:200]}"
        exercises = _exercise_count(ROOT / "notebooks" / path.name)
        assert len(crosses) == exercises, crosses
        for text in crosses:
            assert "not answered yet" in text and "The idea:" in text, text
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"student-{path.stem}.png"), full_page=True)
        raise
    finally:
        _shut_down_kernels(base, token)
