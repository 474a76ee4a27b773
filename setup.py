"""Build hook: ship the repository's ``data/`` folder inside the wheel, as ``helpers/data/``.

The lessons read ``../data/...`` from a checkout, and so does an editable install (``-e .``).
A wheel installed elsewhere (``pip install on-the-wire``, Colab, a JupyterHub image) has no
checkout beside it, so the same files travel inside the package and
``helpers.paths`` finds them there. Everything else about the package is declared
in ``pyproject.toml``.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildPyWithData(build_py):
    """The usual build, plus a copy of ``data/`` (not for editable installs: they use data/)."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            target = Path(self.build_lib) / "helpers" / "data"
            shutil.copytree(HERE / "data", target, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildPyWithData})
