"""`python -m engine.cli`: the same entry point as the `kgchat` script."""

import sys

from engine.cli import main

sys.exit(main())
