"""File loaders: every supported format parses into a list of pyoxigraph quads (or fails whole).

The store decides how to commit them (one transaction, or a guarded bulk load); loaders never
touch the store, so a parse error cannot leave anything behind.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from kgstore.errors import LoadError

# format name -> (file extensions, description shown in errors and the README)
FORMATS: dict[str, tuple[tuple[str, ...], str]] = {
    "turtle": ((".ttl", ".turtle"), "Turtle"),
    "ntriples": ((".nt",), "N-Triples"),
    "nquads": ((".nq",), "N-Quads"),
    "trig": ((".trig",), "TriG"),
    "n3": ((".n3",), "N3"),
    "rdfxml": ((".rdf", ".owl", ".xml"), "RDF/XML"),
    "jsonld": ((".jsonld",), "JSON-LD"),
    "csv": ((".csv",), "CSV triples head,relation,tail[,tail_type]"),
    "tsv": ((".tsv",), "TSV triples head,relation,tail[,tail_type]"),
    "wikidata": ((".jsonl", ".ndjson"), "Wikidata JSON entity dump (one entity per line)"),
    "graphwoz": ((), "GraphWOZ JSON (dialogue id -> task, data, log)"),
}
ALIASES = {"ttl": "turtle", "nt": "ntriples", "n-triples": "ntriples", "nq": "nquads",
           "n-quads": "nquads", "xml": "rdfxml", "rdf/xml": "rdfxml", "rdf": "rdfxml",
           "json-ld": "jsonld"}
RDF_FORMATS = ("turtle", "ntriples", "nquads", "trig", "n3", "rdfxml", "jsonld")


@dataclass
class Parsed:
    quads: list = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def load_error(path: str, reason: str, line: int | None = None, column: int | None = None) -> LoadError:
    where = f"line {line}" if line else ""
    if line and column:
        where += f", column {column}"
    return LoadError(f"{path}: {where + ': ' if where else ''}{one_line(reason)}")


def one_line(text: object) -> str:
    return re.sub(r"\s+", " ", str(text)).strip()


def detect_format(path: str, format: str | None = None) -> str:
    """The format name for `path`, from `format` when given, else from the extension."""
    names = ", ".join(FORMATS)
    if format:
        name = ALIASES.get(format.lower(), format.lower())
        if name not in FORMATS:
            raise LoadError(f"{path}: unknown format '{format}' (choose from {names})")
        return name
    suffix = Path(path).suffix.lower()
    for name, (extensions, _) in FORMATS.items():
        if suffix in extensions:
            return name
    if suffix == ".json":
        return _sniff_json(path)
    raise LoadError(f"{path}: unknown file extension '{suffix}' (use --format, one of {names})")


def _sniff_json(path: str) -> str:
    """A .json file is GraphWOZ, a Wikidata dump or JSON-LD: its first few KB tell which."""
    head = read_head(path, 8192)
    if '"@context"' in head or '"@id"' in head:
        return "jsonld"
    if '"claims"' in head or re.search(r'"type"\s*:\s*"(item|property)"', head):
        return "wikidata"
    if '"log"' in head or '"data"' in head:
        return "graphwoz"
    raise LoadError(f"{path}: cannot tell which JSON format this is (use --format graphwoz, wikidata or jsonld)")


def check_file(path: str) -> int:
    """The file's size; a clear error when it does not exist, is a directory or is empty."""
    if not os.path.exists(path):
        raise LoadError(f"{path}: file does not exist")
    if os.path.isdir(path):
        raise LoadError(f"{path}: is a directory, not a file")
    size = os.path.getsize(path)
    if size == 0:
        raise LoadError(f"{path}: empty file")
    return size


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


def parse_file(path: str, fmt: str, graph: str, name: str, dialogue_id: str | None = None) -> Parsed:
    """Parse a whole file into quads for `graph` (datasets keep their graphs, see rdf.py)."""
    if fmt in RDF_FORMATS:
        from kgstore.loaders import rdf

        parsed = rdf.parse(path, fmt, graph, name)
    elif fmt in ("csv", "tsv"):
        from kgstore.loaders import csv_triples

        parsed = csv_triples.parse(path, graph, name, delimiter="," if fmt == "csv" else "\t")
    elif fmt == "wikidata":
        from kgstore.loaders import wikidata

        parsed = wikidata.parse(path, graph)
    else:
        from kgstore.loaders import graphwoz

        parsed = graphwoz.parse(path, dialogue_id)
    if not parsed.quads:
        raise LoadError(f"{path}: no triples in the file")
    return parsed
