"""``python -m helpers ...``: see ``helpers/cli/__init__.py``."""

import sys

from helpers.cli import main

sys.exit(main())
