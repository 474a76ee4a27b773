"""Write JupyterLab settings that make a first start smooth for learners.

- start the notebook's kernel without asking ("Select Kernel" dialog otherwise on every open);
- never fetch Jupyter news (the series runs offline).

Written to ``<venv>/share/jupyter/lab/settings/overrides.json``, so it only affects this
project's environment.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OVERRIDES = {
    "@jupyterlab/notebook-extension:tracker": {"autoStartDefaultKernel": True},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
}


def main(venv: str) -> None:
    target = Path(venv) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(OVERRIDES, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else sys.prefix)
