"""`python -m cli`: the same entry point as the `kgchat` script."""

import sys

from cli import main

sys.exit(main())
