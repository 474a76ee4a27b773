"""The learner image of hub/values.yaml, laid out on this machine (no Docker here).

What repo2docker builds for Zero to JupyterHub (``jupyter-repo2docker --target-repo-dir
/srv/on-the-wire ...``, docs/hosting.md) and what this module reproduces in a folder ROOT:

- the repository at ROOT/srv/on-the-wire (the checkout's files, as a clone holds them);
- one Python environment, ROOT/venv, in which ``pip install -r binder/requirements.txt`` ran
  from the repository folder (so ``-e .`` is an editable install pointing there) and then
  ``binder/postBuild`` (the lab settings, nbgitpuller);
- ``hub/start`` and ``jupyterhub-singleuser`` as ``singleuser.cmd`` names them.

A learner's home is a volume mounted over /home/jovyan, so nothing the course needs may live
there; the hub simulation gives each learner an empty home folder and this image.

One shortcut, so that building takes seconds and no download: the environment is a new venv
that reads the packages of the one running this script (a ``.pth`` line naming its
site-packages, whose own ``.pth`` files, among them its editable install of this checkout,
are therefore not run). pip sees those packages as installed, so the requirements resolve
to what is already there and only the package itself is installed, from the image's copy
(building it fetches the pinned setuptools, from PyPI or pip's cache, as tests/repo/test_package.py
does). With
``repo_dir`` set to a folder inside the home (repo2docker's default, ``${HOME}``), the same
build shows what goes wrong once a volume hides that folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGE_REPO = "/srv/on-the-wire"  # where hub/values.yaml's image holds the repository
IMAGE_HOME = "/home/jovyan"  # repo2docker's home for --user-name jovyan, the volume's mount


@dataclass(frozen=True)
class Image:
    root: Path  # stands for the image's "/"
    repo: Path  # the repository inside it
    venv: Path

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def path(self, inside: str) -> Path:
        """Where a path of the image (``/srv/on-the-wire/hub/start``) is in this folder."""
        return self.root / inside.lstrip("/")

    def learner_environment(self) -> dict[str, str]:
        """Variables a learner's server gets here and not in a real image (see the module doc).

        The image's programs come first on PATH (``python``, ``jupyterhub-singleuser``), and
        Jupyter also reads the configuration and data files of the environment the packages
        come from (server extensions such as nbgitpuller are enabled there).
        """
        prefix = Path(sys.prefix)
        return {
            "PATH": os.pathsep.join([str(self.venv / "bin"), os.environ.get("PATH", "")]),
            "JUPYTER_CONFIG_PATH": str(prefix / "etc" / "jupyter"),
            "JUPYTER_PATH": str(prefix / "share" / "jupyter"),
        }


def checkout_files(root: Path = ROOT) -> list[str]:
    """The checkout's files as a clone would hold them: tracked or new, never ignored ones."""
    listing = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return sorted(name for name in listing.split("\0") if name and (root / name).is_file())


def copy_checkout(target: Path, root: Path = ROOT) -> Path:
    """A copy of the checkout's files (committed or not) in ``target``, modes kept."""
    for name in checkout_files(root):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, target / name)
    return target


def build(root: Path, repo_dir: str = IMAGE_REPO) -> Image:
    """Lay the image out in ``root`` with the repository at ``repo_dir`` (a path of the image)."""
    image = Image(root, root / repo_dir.lstrip("/"), root / "venv")
    copy_checkout(image.repo)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(image.venv)], check=True)
    purelib = sysconfig.get_path("purelib", vars={"base": str(image.venv)})
    Path(purelib, "_packages_of_the_test_environment.pth").write_text(
        sysconfig.get_path("purelib") + "\n", encoding="utf-8"
    )
    quiet = {"cwd": image.repo, "check": True, "capture_output": True, "text": True}
    # what repo2docker runs for binder/requirements.txt, from the repository folder
    # (pip fetches only the build backend pyproject.toml pins, from PyPI or pip's cache)
    pip = [str(image.python), "-m", "pip", "--disable-pip-version-check", "install", "--no-deps"]
    _run([*pip, "-r", "binder/requirements.txt"], quiet)
    # binder/postBuild: lab settings into the environment, nbgitpuller (already present here)
    env = dict(os.environ, PATH=os.pathsep.join([str(image.venv / "bin"), os.environ["PATH"]]))
    _run(["sh", "binder/postBuild"], {**quiet, "env": env})
    singleuser = image.venv / "bin" / "jupyterhub-singleuser"  # the console script pip writes
    singleuser.write_text(
        f"#!{image.python}\nimport sys\nfrom jupyterhub.singleuser import main\nsys.exit(main())\n",
        encoding="utf-8",
    )
    singleuser.chmod(0o755)
    image.path(IMAGE_HOME).mkdir(parents=True, exist_ok=True)
    return image


def _run(command: list[str], options: dict) -> None:
    try:
        subprocess.run(command, **options)
    except subprocess.CalledProcessError as error:
        raise RuntimeError(f"{' '.join(command[:6])}...: {error.stderr[-2000:]}") from None
