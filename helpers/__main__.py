"""``python -m helpers ...``: see ``standin/cli/__init__.py``."""

import sys

from standin.cli import main

sys.exit(main())
