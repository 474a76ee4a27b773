"""Build hook: ship the repository's ``data/`` folder inside the wheel, as ``helpers/data/``.

The lessons read ``../data/...`` from a checkout, and so does an editable install (``-e .``).
A wheel installed elsewhere (``pip install on-the-wire``, Colab, a JupyterHub image) has no
checkout beside it, so the same files travel inside the package and
``helpers.examples.DATA`` finds them there. Everything else about the package is declared
in ``pyproject.toml``.

The wheel is built either from the checkout or, as ``python -m build`` does, from the sdist:
``MANIFEST.in`` puts ``data/`` into the sdist, so both have it beside this file. A source tree
without it cannot make a working wheel, and the build says so instead of shipping one that
fails at run time.
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
        if getattr(self, "editable_mode", False):
            return
        source = HERE / "data"
        if not (source / "models.json").is_file():
            raise SystemExit(
                f"on-the-wire: no data/ beside setup.py ({HERE}); build from a checkout or "
                "from an sdist made by `python -m build --sdist` (MANIFEST.in includes data/)"
            )
        target = Path(self.build_lib) / "helpers" / "data"
        shutil.copytree(source, target, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildPyWithData})
