"""``python -m standin ...`` (the same as ``python -m helpers ...``): see ``standin/cli``."""

import sys

from standin.cli import main

sys.exit(main(prog="python -m standin"))
