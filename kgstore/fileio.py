"""Reading input files: the checks, decoding and error shapes every loader shares.

A leaf module (it imports nothing of kgstore but the errors and the plain value types), so that
`kgstore.loaders.graphwoz_json`, the dialogue reader, and `kgstore.loaders` can both use it
without importing each other.
"""

from __future__ import annotations

import io
import json
import os
import re
import select
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from kgstore.errors import LoadError
from kgstore.terms import LabelEntry, TableShape


@dataclass
class Parsed:
    quads: list = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    tables: list[TableShape] = field(default_factory=list)
    # Triples as N-Triples text, for the file's own graph, instead of quads (a table: see
    # kgstore.loaders.tables.parse_sheets), with the names it gives entities and the predicates
    # it uses, all of them: the store's name index takes them without reading them back
    ntriples: bytes = b""
    names: list[LabelEntry] = field(default_factory=list)
    predicates: list[str] = field(default_factory=list)


def load_error(path: str, reason: str, line: int | None = None, column: int | None = None) -> LoadError:
    where = f"line {line}" if line else ""
    if line and column:
        where += f", column {column}"
    return LoadError(f"{path}: {where + ': ' if where else ''}{one_line(reason)}")


def one_line(text: object) -> str:
    return re.sub(r"\s+", " ", str(text)).strip()


def json_value(path: str, text: str, line: int | None = None):
    """`text` (the file, or its line `line`) parsed as JSON; every failure is a LoadError naming
    the file and line: bad syntax, nesting too deep for the parser, a number too long to read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise load_error(path, f"not JSON: {exc.msg}", line or exc.lineno, exc.colno) from None
    except RecursionError:
        raise load_error(path, "JSON nested too deeply to read", line) from None
    except ValueError as exc:  # an integer of thousands of digits
        raise load_error(path, f"unreadable JSON value ({one_line(exc)})", line) from None


# Rule, config and query files: the most bytes read, and the longest wait for them (a pipe's
# writer, as in process substitution, gets this long in all; one that never comes ends it).
INPUT_CAP = 16 * 2**20
INPUT_TIMEOUT_S = 10.0


def read_bounded(path: str, what: str, cap: int | None = None, timeout: float | None = None) -> bytes:
    """The bytes of `path` (a file, a pipe, a device), at most `cap` of them within `timeout`
    seconds; anything else is a LoadError naming the file and `what` it is."""
    cap = INPUT_CAP if cap is None else cap
    timeout = INPUT_TIMEOUT_S if timeout is None else timeout
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise LoadError(f"{path}: cannot read the {what} ({exc.strerror})") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise LoadError(f"{path}: is a directory, not a {what}")
        deadline = time.monotonic() + timeout
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        chunks: list[bytes] = []
        size = 0
        while True:
            if not stat.S_ISREG(mode):
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not poller.poll(remaining * 1000):
                    raise LoadError(f"{path}: the {what} did not end within {timeout:g} s (a pipe without a writer?)")
            try:
                chunk = os.read(fd, 2**16)
            except BlockingIOError:
                continue
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > cap:
                raise LoadError(f"{path}: the {what} is larger than {cap:,} bytes")
            chunks.append(chunk)
    finally:
        os.close(fd)


def check_file(path: str) -> int:
    """The file's size; a clear error when it does not exist, is a directory, is not a regular
    file (a pipe or a device: the loaders read files by name, more than once) or is empty."""
    if not os.path.exists(path):
        raise LoadError(f"{path}: file does not exist")
    if os.path.isdir(path):
        raise LoadError(f"{path}: is a directory, not a file")
    if not os.path.isfile(path):
        raise LoadError(f"{path}: not a regular file (a pipe or a device); save it to a file to load it")
    size = os.path.getsize(path)
    if size == 0:
        raise LoadError(f"{path}: empty file")
    return size


BOM = b"\xef\xbb\xbf"


@contextmanager
def rdf_source(path: str) -> Iterator[dict]:
    """pyoxigraph's arguments for reading `path`: the path itself, or a stream past a UTF-8
    byte order mark (its Turtle and N-Triples family parsers take the mark for data)."""
    with open(path, "rb") as f:
        bom = f.read(len(BOM)) == BOM
    if not bom:
        yield {"path": path}
        return
    with open(path, "rb") as f:
        f.seek(len(BOM))
        yield {"input": f}


def read_head(path: str, n: int) -> str:
    check_file(path)
    with open(path, "rb") as f:
        return f.read(n).decode("utf-8", errors="replace")


def read_text(path: str) -> str:
    """The whole file as text; non-UTF-8 bytes and blank files are errors with a position."""
    check_file(path)
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise load_error(path, f"not UTF-8 text (byte 0x{data[exc.start]:02x})", line, column) from None
    if not text.strip():
        raise LoadError(f"{path}: empty file")
    return text


class Progress(io.RawIOBase):
    """A binary stream read through a callback with the bytes read so far (bulk loads report
    progress)."""

    def __init__(self, file: io.RawIOBase | io.BufferedIOBase, progress: Callable[[int], None]):
        self._file = file
        self._progress = progress
        self.done = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = self._file.readinto(buffer)
        self.done += n
        self._progress(self.done)
        return n

    def close(self) -> None:
        self._file.close()
        super().close()


def bulk_stream(path: str, data: bytes | None, progress: Callable[[int], None] | None):
    """What the bulk loader reads (`data`, else the file), always as a stream. Given a path or
    bytes, pyoxigraph 0.5's `Store.bulk_load` parses N-Triples and N-Quads in parallel chunks
    whenever Rust's available_parallelism() is 4 or more (available_parallelism() // 2 parsers,
    at most one per 16 KiB), and each chunk names blank nodes anew and counts lines from its own
    start; a stream goes through one parser whatever the core count."""
    raw = io.BytesIO(data) if data is not None else open(path, "rb")
    if raw.read(len(BOM)) != BOM:  # a byte order mark is not data
        raw.seek(0)
    return Progress(raw, progress) if progress else raw


def ntriples_parts(path: str, n: int) -> list[tuple[int, bytes | None]]:
    """An N-Triples file cut at line ends into `n` parts of similar size, each with the number
    of lines before it (None: the whole file, read as it loads). One part when a blank node may
    occur: each bulk load names blank nodes anew, so `_:b` in two parts would become two nodes."""
    if n < 2:
        return [(0, None)]
    data = Path(path).read_bytes()
    if b"_:" in data:
        return [(0, None)]
    return line_parts(data, n)


def line_parts(data: bytes, n: int) -> list[tuple[int, bytes | None]]:
    """N-Triples text without blank nodes cut at line ends into `n` parts of similar size, each
    with the number of lines before it."""
    parts: list[tuple[int, bytes | None]] = []
    start = lines = 0
    for k in range(1, n + 1):
        end = len(data) if k == n else data.find(b"\n", max(start, len(data) * k // n)) + 1 or len(data)
        if end > start:
            parts.append((lines, data[start:end]))
            lines += data.count(b"\n", start, end)
            start = end
    return parts
