"""Colab as it is today (issue 26, item 5): Python 3.13 with Colab's own pins.

A virtual environment on Python 3.13 gets the versions Colab preinstalls and pins (its
``google-colab`` package requires ``requests==2.32.*``, ``ipykernel==6.17.1``,
``ipywidgets==7.7.1``; openai 2 is preinstalled), then the set-up cell's install step
(``scripts/colab_install.py``) runs in a copy of the repository. pip must print no ERROR, leave
every pinned package at its version, ``pip check`` must pass, and the package must count tokens
offline. ``google-colab`` itself is not on PyPI: a distribution with its name and those
requirements stands in for it (metadata only, which is all pip reads). Needs Python 3.13 and
PyPI (or a warm pip cache); about a minute.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COLAB_PINS = {"requests": "2.32.5", "ipykernel": "6.17.1", "ipywidgets": "7.7.1"}
PREINSTALLED = {**COLAB_PINS, "openai": "2.54.0"}
HOST_REQUIRES = ["requests==2.32.*", "ipykernel==6.17.1", "ipywidgets==7.7.1"]


def python313() -> str | None:
    candidates = [shutil.which("python3.13") or ""]
    pyenv = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates += sorted(glob.glob(f"{pyenv}/versions/3.13*/bin/python3.13"))
    for path in candidates:
        if path and subprocess.run([path, "-c", "pass"], capture_output=True).returncode == 0:
            return path
    return None


PYTHON313 = python313()


def _run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{command[:4]}...:\n{done.stdout}\n{done.stderr}"
    return done


def _stand_in_for_google_colab(site: Path) -> None:
    info = site / "google_colab-1.0.0.dist-info"
    info.mkdir()
    requires = "".join(f"Requires-Dist: {r}\n" for r in HOST_REQUIRES)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: google-colab\nVersion: 1.0.0\n{requires}"
    )
    (info / "INSTALLER").write_text("test\n")
    (info / "RECORD").write_text("")


@pytest.mark.skipif(PYTHON313 is None, reason="no Python 3.13 installed here")
def test_the_colab_install_keeps_colabs_pins_on_python_313(tmp_path):
    venv = tmp_path / "colab"
    _run([PYTHON313, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
    _run([*pip, "install", "--quiet", *(f"{n}=={v}" for n, v in PREINSTALLED.items())])
    site = Path(
        _run([str(python), "-c", "import site; print(site.getsitepackages()[0])"]).stdout.strip()
    )
    _stand_in_for_google_colab(site)
    _run([*pip, "check"])  # Colab as it starts: consistent

    home = tmp_path / "content" / "on-the-wire"  # what the cell's clone holds
    home.mkdir(parents=True)
    names = ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "constraints.txt"]
    names += ["scripts", "data", "tiktoken_ext", "helpers", "course", "standin"]
    for name in names:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, home / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif (ROOT / name).exists():
            shutil.copy2(ROOT / name, home / name)
    done = subprocess.run(
        [str(python), "scripts/colab_install.py"], cwd=home, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ERROR" not in done.stdout + done.stderr, done.stderr
    _run([*pip, "check"])
    versions = json.loads(
        _run(
            [
                str(python),
                "-c",
                "import json, importlib.metadata as m; print(json.dumps("
                f"{{n: m.version(n) for n in {sorted(COLAB_PINS)!r}}}))",
            ]
        ).stdout
    )
    assert versions == COLAB_PINS
    count = (
        "import helpers, tiktoken; print(tiktoken.get_encoding('o200k_base').encode('hello world'))"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    out = _run(
        [str(python), "-c", count],
        cwd=home / "notebooks" if (home / "notebooks").exists() else home,
        env=env,
    )
    assert out.stdout.strip() == "[24912, 2375]"
