"""Colab as it is today (issue 26): Python 3.13 with Colab's own pins, and lessons 00 and 05 there.

A virtual environment on Python 3.13 gets the versions Colab preinstalls (its pip freeze of
2026-08-19, "Upgrade to Python 3.13", in googlecolab/backend-info): the packages its
``google-colab`` package pins (``requests==2.32.*``, ``ipykernel==6.17.1``, ``ipython==7.34.0``,
``ipywidgets==7.7.1``), the kernel's stack (jupyter_client, traitlets, tornado, pyzmq), openai 2,
matplotlib, nbformat and pytest. Then the set-up cell's install step (``scripts/colab_install.py``)
runs in a copy of the repository: pip must print no ERROR, leave every pinned package at its
version, ``pip check`` must pass, and the package must count tokens offline. ``google-colab``
itself is not on PyPI: a distribution with its name and those requirements stands in for it
(metadata only, which is all pip reads). Then lessons 00 and 05 run top to bottom in a kernel
of that environment under nbval, as the suite runs them (nbval is the one package added, for
the test): the kernel starts with ``google.colab`` imported, as Colab's does, so the lessons'
set-up cell takes its Colab branch (the clone already there: it only puts it on the path and
changes to its ``notebooks/``). Needs Python 3.13 and PyPI (or a warm pip cache).
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.background import Background

ROOT = Path(__file__).resolve().parents[2]
COLAB_PINS = {
    "requests": "2.32.4",
    "ipykernel": "6.17.1",
    "ipython": "7.34.0",
    "ipywidgets": "7.7.1",
}
# The rest of what Colab preinstalls that the install or the two lessons touch, at its versions.
PREINSTALLED = {
    **COLAB_PINS,
    "openai": "2.54.0",
    "jupyter_client": "7.4.9",
    "traitlets": "5.7.1",
    "tornado": "6.5.7",
    "pyzmq": "26.2.1",
    "matplotlib": "3.10.0",
    "numpy": "2.1.3",
    "nbformat": "5.11.1",
    "pytest": "8.4.2",
}
HOST_REQUIRES = [
    "requests==2.32.*",
    "ipykernel==6.17.1",
    "ipython==7.34.0",
    "ipywidgets==7.7.1",
]
LESSONS = ["00_start_here.ipynb", "05_tools_are_context.ipynb"]
# Colab's kernel has imported google.colab before the first cell runs.
COLAB_KERNEL = """\
import os
from pathlib import Path

startup = Path(os.environ["IPYTHONDIR"], "profile_default", "startup")
startup.mkdir(parents=True, exist_ok=True)
(startup / "50-google-colab.py").write_text(
    "import os, sys, types\\nsys.modules['google.colab'] = types.ModuleType('google.colab')\\n"
    f"os.chdir({str(Path(__file__).resolve().parents[2])!r})\\n"  # Colab's kernel: in /content
)
"""


def python313() -> str | None:
    candidates = [shutil.which("python3.13") or ""]
    pyenv = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates += sorted(glob.glob(f"{pyenv}/versions/3.13*/bin/python3.13"))
    for path in candidates:
        if path and subprocess.run([path, "-c", "pass"], capture_output=True).returncode == 0:
            return path
    return None


PYTHON313 = python313()
pytestmark = pytest.mark.skipif(PYTHON313 is None, reason="no Python 3.13 installed here")


# The venv's Python sees only the venv (not this checkout on PYTHONPATH, nor another venv).
CLEAN_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def _run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, env=CLEAN_ENV, **kwargs)
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


def _versions(python: Path, names) -> dict[str, str]:
    script = (
        "import json, importlib.metadata as m; "
        f"print(json.dumps({{n: m.version(n) for n in {sorted(names)!r}}}))"
    )
    return json.loads(_run([str(python), "-c", script]).stdout)


@dataclass
class Colab:
    """Colab after the set-up cell, what the first test checks there, then the lessons' run."""

    python: Path
    home: Path  # the clone
    pip: list[str]
    output: str  # the install's
    versions: dict[str, str]  # of PREINSTALLED, after the install
    check: subprocess.CompletedProcess  # ``pip check`` after the install, before nbval
    pins: dict[str, str]  # COLAB_PINS' versions, likewise
    count: subprocess.CompletedProcess  # helpers and tiktoken counting offline, likewise
    nbval: subprocess.CompletedProcess  # installing nbval, the one package the test adds
    after_nbval: dict[str, str] | None  # PREINSTALLED's versions then (None if it failed)
    lessons: subprocess.CompletedProcess | None  # nbval over LESSONS (None if not reached)


@pytest.fixture(scope="module")
def colab(tmp_path_factory) -> Colab:
    """Colab after the set-up cell, checked, and lessons 00 and 05 run there under nbval.

    Usually already under way: the root conftest starts ``prepare`` in a background thread as
    soon as the session knows this module will run (pip's work and the two lessons' kernel
    overlap the other tests); the tests assert on what it recorded."""
    return PREPARED.result() if PREPARED.started else prepare(tmp_path_factory.mktemp("colab"))


PREPARED = Background("colab")
COUNT = "import helpers, tiktoken; print(tiktoken.get_encoding('o200k_base').encode('hello world'))"


def prepare(tmp: Path) -> Colab:
    """Colab as it starts (Python 3.13, its pins, google-colab's stand-in), then the set-up
    cell's install step in a copy of the repository, what the first test checks, then nbval
    added and the lessons run (the second test's checks, in that order)."""
    venv = tmp / "venv"
    _run([PYTHON313, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
    _run([*pip, "install", "--quiet", *(f"{n}=={v}" for n, v in PREINSTALLED.items())])
    site = Path(
        _run([str(python), "-c", "import site; print(site.getsitepackages()[0])"]).stdout.strip()
    )
    _stand_in_for_google_colab(site)
    _run([*pip, "check"])  # Colab as it starts: consistent

    home = tmp / "content" / "on-the-wire"  # what the cell's clone holds
    home.mkdir(parents=True)
    names = ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "constraints.txt"]
    names += ["conftest.py", "scripts", "data", "tiktoken_ext", "helpers", "course", "standin"]
    names += ["notebooks", "learner"]  # the set-up cell works in learner/
    for name in names:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, home / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif (ROOT / name).exists():
            shutil.copy2(ROOT / name, home / name)
    done = subprocess.run(
        [str(python), "scripts/colab_install.py"],
        cwd=home,
        env=CLEAN_ENV,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    versions = _versions(python, PREINSTALLED)
    check = _record([*pip, "check"])
    pins = _versions(python, COLAB_PINS)
    count = _record([str(python), "-c", COUNT], cwd=home / "notebooks")
    nbval, after_nbval, lessons = _run_lessons(python, home, pip)
    output = done.stdout + done.stderr
    return Colab(
        python, home, pip, output, versions, check, pins, count, nbval, after_nbval, lessons
    )


def _record(command: list, **kwargs) -> subprocess.CompletedProcess:
    """Run it in the clean environment; its result for a test to assert on."""
    return subprocess.run(command, capture_output=True, text=True, env=CLEAN_ENV, **kwargs)


def _succeeded(done: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    command = done.args
    assert done.returncode == 0, f"{command[:4]}...:\n{done.stdout}\n{done.stderr}"
    return done


def _run_lessons(python: Path, home: Path, pip: list[str]):
    """nbval added, then lessons 00 and 05 under it, strict as in the suite (same sanitizing),
    in a kernel of Colab's environment: (nbval's install, versions after it, nbval's run)."""
    nbval = _record([*pip, "install", "--quiet", "nbval==0.11.0"])  # the suite's
    if nbval.returncode != 0:
        return nbval, None, None
    after_nbval = _versions(python, PREINSTALLED)
    (home / "tests" / "lessons").mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "tests" / "lessons" / "nbval_sanitize.cfg", home / "tests" / "lessons")
    (home / "notebooks" / "conftest.py").write_text(COLAB_KERNEL)
    # An IPython profile of its own (the network guard's startup file, then Colab's), never the
    # session's: Colab's startup file would make every later kernel of the session take the
    # set-up cell's Colab branch.
    from standin.netguard import write_offline_ipython_profile

    ipython = write_offline_ipython_profile(home.parent / "ipython")
    for lesson in LESSONS:  # the cell's Colab path, with the clone where this test made it
        path = home / "notebooks" / lesson
        path.write_text(path.read_text().replace("/content/on-the-wire", str(home)))
    done = subprocess.run(
        [str(python), "-m", "pytest", "-q", *(f"notebooks/{lesson}" for lesson in LESSONS)],
        cwd=home,
        env={**CLEAN_ENV, "IPYTHONDIR": str(ipython)},
        capture_output=True,
        text=True,
    )
    return nbval, after_nbval, done


def test_the_colab_install_keeps_colabs_pins_on_python_313(colab):
    assert "ERROR" not in colab.output, colab.output
    _succeeded(colab.check)
    assert colab.pins == COLAB_PINS
    out = _succeeded(colab.count)
    assert out.stdout.strip() == "[24912, 2375]"


def test_lessons_00_and_05_run_on_colab_with_their_stored_outputs(colab):
    """nbval, strict as in the suite (same sanitizing), in a kernel of Colab's environment."""
    _succeeded(colab.nbval)  # the suite's; it needs nothing newer
    assert colab.after_nbval == colab.versions  # nbval moved nothing the lessons run on
    done = colab.lessons
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
