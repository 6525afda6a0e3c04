"""Read the metadata header of a GGUF file without loading the model.

Checking the header first turns a missing, truncated or foreign file into one clear line
before anything slow starts, and gives the model's trained context size.
"""

from __future__ import annotations

import os
import struct
from typing import Any, BinaryIO

from kgstore.errors import BadInput

MAGIC = b"GGUF"
# GGUF value types: struct format of the fixed-size ones; 8 = string, 9 = array.
_FIXED = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9


class _Truncated(Exception):
    pass


def _read(f: BinaryIO, fmt: str) -> Any:
    size = struct.calcsize(fmt)
    data = f.read(size)
    if len(data) != size:
        raise _Truncated()
    return struct.unpack(fmt, data)[0]


def _string(f: BinaryIO, limit: int) -> str:
    n = _read(f, "<Q")
    if n > limit:
        raise _Truncated()
    data = f.read(n)
    if len(data) != n:
        raise _Truncated()
    return data.decode("utf-8", errors="replace")


def _value(f: BinaryIO, vtype: int, limit: int, keep: bool) -> Any:
    if vtype in _FIXED:
        return _read(f, _FIXED[vtype])
    if vtype == _STRING:
        return _string(f, limit)
    if vtype == _ARRAY:
        item_type, count = _read(f, "<I"), _read(f, "<Q")
        if count > limit:
            raise _Truncated()
        if item_type in _FIXED:  # skipped by seeking: tokenizer arrays hold ~10^5 entries
            f.seek(struct.calcsize(_FIXED[item_type]) * count, os.SEEK_CUR)
            return None
        items = [_value(f, item_type, limit, keep) for _ in range(count)]
        return items if keep else None
    raise ValueError(f"unknown value type {vtype}")


def read_metadata(path: str, option: str = "--model") -> dict[str, Any]:
    """The key/value metadata of a GGUF file (arrays left out). Raises BadInput naming the
    file when it is missing, not a GGUF file or cut short."""
    if not os.path.exists(path):
        raise BadInput(f"{option} {path}: file does not exist")
    if not os.path.isfile(path):
        raise BadInput(f"{option} {path}: not a file")
    size = os.path.getsize(path)
    try:
        with open(path, "rb") as f:
            if f.read(4) != MAGIC:
                raise BadInput(f"{option} {path}: not a GGUF model file (it does not start with 'GGUF')")
            version = _read(f, "<I")
            if version not in (2, 3):
                raise BadInput(f"{option} {path}: unsupported GGUF version {version}")
            _read(f, "<Q")  # tensor count
            kv_count = _read(f, "<Q")
            meta: dict[str, Any] = {"gguf.version": version}
            for _ in range(kv_count):
                key = _string(f, size)
                vtype = _read(f, "<I")
                meta[key] = _value(f, vtype, size, keep=False)
                if f.tell() > size:
                    raise _Truncated()
    except (_Truncated, ValueError):
        raise BadInput(f"{option} {path}: corrupt GGUF file (metadata header is cut short or malformed)") from None
    except OSError as exc:
        raise BadInput(f"{option} {path}: cannot read: {exc.strerror or exc}") from None
    return meta


def context_length(meta: dict[str, Any]) -> int | None:
    arch = meta.get("general.architecture")
    value = meta.get(f"{arch}.context_length") if arch else None
    return int(value) if isinstance(value, int) and value > 0 else None
