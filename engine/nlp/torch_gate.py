"""Imports that load torch, and the one that must not, taken one at a time.

spaCy's small English pipeline runs on numpy alone, but thinc imports torch when it can (seconds
and hundreds of MB), so spaCy is imported with torch hidden from the import system. That hiding is
process-wide: a worker thread importing torch meanwhile (the encoder's ONNX export, its CUDA probe)
would get ImportError. Both go through this gate, so neither sees the other half done.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_GATE = threading.RLock()


@contextmanager
def with_torch() -> Iterator[None]:
    """Around an import that may load torch."""
    with _GATE:
        yield


@contextmanager
def without_torch() -> Iterator[None]:
    """Around an import that must not load torch where none is loaded yet."""
    with _GATE:
        hidden = "torch" not in sys.modules
        if hidden:
            sys.modules["torch"] = None  # type: ignore[assignment]
        try:
            yield
        finally:
            if hidden and sys.modules.get("torch", 0) is None:
                del sys.modules["torch"]
