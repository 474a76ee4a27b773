"""What hosting a class needs from the repository, checked here (Binder, repo2docker, JupyterHub).

repo2docker reads its configuration from ``binder/`` (``runtime.txt``, ``requirements.txt``,
which installs the ``helpers`` package editable, and ``postBuild``); tests/test_binder.py checks
that it resolves against the base image. The last tests simulate a plain copy of ``helpers``
(no data inside) run from the repository, and one run from elsewhere.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _requirements(name: str) -> list[str]:
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_runtime_asks_for_python_311_or_newer():
    match = re.fullmatch(r"python-3\.(\d+)", (ROOT / "binder" / "runtime.txt").read_text().strip())
    assert match and int(match.group(1)) >= 11


def test_post_build_is_an_executable_script_that_writes_the_lab_settings():
    post_build = ROOT / "binder" / "postBuild"
    assert os.access(post_build, os.X_OK)
    text = post_build.read_text()
    assert text.startswith("#!/") and "scripts/lab_settings.py" in text


def test_every_requirement_is_pinned_and_the_package_installs_itself():
    lines = _requirements("requirements.txt")
    assert "-e ." in lines and "-c constraints.txt" in lines
    packages = [line for line in lines if not line.startswith("-")]
    assert packages and all(re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[\w.]+", p) for p in packages)
    assert all("==" in p for p in _requirements("constraints.txt"))


def test_lab_settings_start_the_kernel_without_asking(tmp_path):
    subprocess.run([sys.executable, "scripts/lab_settings.py", str(tmp_path)], cwd=ROOT, check=True)
    text = (tmp_path / "share/jupyter/lab/settings/overrides.json").read_text()
    assert '"autoStartDefaultKernel": true' in text and '"fetchNews": "false"' in text


def test_a_non_editable_install_still_finds_the_data_from_the_notebooks_folder(tmp_path):
    site = tmp_path / "site-packages"
    shutil.copytree(
        ROOT / "helpers", site / "helpers", ignore=shutil.ignore_patterns("__pycache__")
    )
    script = (
        "import helpers.paths as p, helpers.examples.sundry as s;"
        "print(p.DATA.parent == p.Path.cwd().parent, len(s.TOOLS))"
    )
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("ON_THE_WIRE_ROOT", None)
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT / "notebooks",
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["True", "9"]


def test_outside_the_repository_the_error_says_what_to_do(tmp_path):
    site = tmp_path / "site-packages"
    shutil.copytree(
        ROOT / "helpers", site / "helpers", ignore=shutil.ignore_patterns("__pycache__")
    )
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("ON_THE_WIRE_ROOT", None)
    out = subprocess.run(
        [sys.executable, "-c", "import helpers.paths"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0 and "set ON_THE_WIRE_ROOT" in out.stderr
    assert "Traceback" in out.stderr  # an import error; the last line says what to do


def test_a_wrong_on_the_wire_root_is_named_not_ignored(tmp_path):
    env = dict(os.environ, ON_THE_WIRE_ROOT=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", "import helpers.paths"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0
    assert f"ON_THE_WIRE_ROOT={tmp_path} is not a checkout" in out.stderr.splitlines()[-1]
