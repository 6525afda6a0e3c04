"""Child processes that import what the test process imports."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def child_env(**extra: str) -> dict[str, str]:
    """The parent's environment with the parent's import path as PYTHONPATH (the repo first):
    a child started with sys.executable finds pyoxigraph and kgchat wherever this process found
    them, be it a venv, a PYTHONPATH or a .pth file."""
    path = dict.fromkeys([str(ROOT), *(p for p in sys.path if p)])
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path), **extra}
