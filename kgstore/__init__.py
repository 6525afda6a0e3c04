"""The knowledge store: `from kgstore import KGStore, demo_path`.

The names load lazily so that importing `kgstore.errors` (every CLI path does) stays cheap.
"""

from __future__ import annotations

__all__ = ["KGStore", "demo_path"]


def __getattr__(name: str):
    if name in __all__:
        from kgstore import store

        return getattr(store, name)
    raise AttributeError(f"module 'kgstore' has no attribute {name!r}")
