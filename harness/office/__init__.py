"""The generated office benchmark (GraphWOZ-like): `load_split("train" | "dev" | "test")`.

Each split is a GraphWOZ-format dict `{dialogue_id: {"task", "data", "log", "now", ...}}`; every
log entry carries `gold` nodes, edges and links (docs/internals.md, "Generated benchmark").
"""

from __future__ import annotations

import pickle

_CACHE: dict[str, bytes] = {}


def load_split(name: str) -> dict[str, dict]:
    """The split, deterministic from fixed seeds. Generated once per process and cached; each
    call returns a fresh copy, so callers may modify what they get."""
    if name not in _CACHE:
        from harness.office.generate import generate_split

        _CACHE[name] = pickle.dumps(generate_split(name), protocol=pickle.HIGHEST_PROTOCOL)
    return pickle.loads(_CACHE[name])


__all__ = ["load_split"]
