"""What makes a directory a kgchat store: a marker file kgchat writes when it makes one.

The marker also holds the key of the store's pending-load markers: recovery drops only graphs
whose marker carries it, so no quad that came from elsewhere can make an open drop a graph.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from kgstore.errors import BadInput
from kgstore.fileio import one_line

STORE_MARKER = "kgchat-store.json"


def store_key(path: str, create: bool) -> str | None:
    """The key of the kgchat store at `path` (None: a store yet to be marked, see
    write_marker). A directory that holds anything else is refused, so that no one's data is
    taken for a store (RocksDB would rename and delete files in it)."""
    marker = Path(path) / STORE_MARKER
    if marker.is_file():
        try:
            return str(json.loads(marker.read_text(encoding="utf-8"))["key"])
        except (ValueError, KeyError, TypeError) as exc:
            raise BadInput(f"--store {path}: unreadable {STORE_MARKER} ({one_line(exc)})") from None
    if os.path.exists(path) and not os.path.isdir(path):
        raise BadInput(f"--store {path}: not a directory")
    if os.path.isdir(path) and any(os.scandir(path)):
        if _is_legacy_store(path):
            return None
        raise BadInput(f"--store {path}: not a kgchat store (the directory holds other files; "
                       "give a new or empty directory)")
    if not create:
        raise BadInput(f"--store {path}: no kgchat store there (kgchat load --store {path} FILE makes one)")
    os.makedirs(path, exist_ok=True)
    return None


def _is_legacy_store(path: str) -> bool:
    """A store written before stores were marked: a RocksDB with pyoxigraph's column families."""
    for options in Path(path).glob("OPTIONS-*"):
        try:
            text = options.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if '[CFOptions "id2str"]' in text and '[CFOptions "gspo"]' in text:
            return True
    return False


def write_marker(path: str) -> str:
    key = secrets.token_hex(16)
    tmp = Path(path) / f".{STORE_MARKER}.tmp"
    tmp.write_text(json.dumps({"kgchat_store": 1, "key": key}) + "\n", encoding="utf-8")
    os.replace(tmp, Path(path) / STORE_MARKER)
    return key
