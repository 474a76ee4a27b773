"""``python -m helpers ...``: see ``helpers/machinery/cli/__init__.py``."""

import sys

from helpers.machinery.cli import main

sys.exit(main())
