"""Install the series on Colab without moving Colab's own pinned packages.

Run by the lessons' Colab set-up cell (``scripts/colab_cell.py``) inside the fresh clone:
``python scripts/colab_install.py``. Colab's ``google-colab`` package pins what its runtime
needs (``requests==2.32.*``, ``ipykernel``, ``ipywidgets``, ...); pip prints a red dependency
ERROR in the learner's first cell if an install moves one of them. So every package
``google-colab`` requires that is installed stays at its installed version, and the series'
other pins (``constraints.txt``) apply as everywhere. It installs the package editable and the
two SDKs the lessons study, and writes the constraints it used to ``.colab-constraints.txt``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "google-colab"


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def held() -> dict[str, str]:
    """{package: installed version} of what the host package requires (nothing off Colab)."""
    try:
        requires = metadata.requires(HOST) or []
    except metadata.PackageNotFoundError:
        return {}
    found = {}
    for text in requires:
        name = re.split(r"[\s;<>=!~\[(]", text, maxsplit=1)[0]
        try:
            found[norm(name)] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return found


def constraints(keep: dict[str, str]) -> str:
    lines = []
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        text = line.split("#")[0].strip()
        if text and norm(re.split(r"[\s;<>=!~\[]", text, maxsplit=1)[0]) not in keep:
            lines.append(text)
    lines += [f"{name}=={version}" for name, version in sorted(keep.items())]
    return "\n".join(lines) + "\n"


def main() -> int:
    keep = held()
    path = ROOT / ".colab-constraints.txt"
    path.write_text(constraints(keep), encoding="utf-8")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    packages = ["-e", ".", "openai", "anthropic", "pydantic-ai-slim[openai]"]
    return subprocess.run([*pip, "-c", str(path), *packages], cwd=ROOT, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
