"""File loaders: every supported format parses into a list of pyoxigraph quads (or fails whole).

The store decides how to commit them (one transaction, or a guarded bulk load); loaders never
touch the store, so a parse error cannot leave anything behind.
"""

from __future__ import annotations

import re
from pathlib import Path

from kgstore.errors import LoadError

# Re-exported: the loaders and the store read files through these.
from kgstore.fileio import BOM, Parsed, check_file, json_value, load_error, one_line, rdf_source, read_head, read_text  # noqa: F401

# format name -> (file extensions, description shown in errors and the README)
FORMATS: dict[str, tuple[tuple[str, ...], str]] = {
    "turtle": ((".ttl", ".turtle"), "Turtle"),
    "ntriples": ((".nt",), "N-Triples"),
    "nquads": ((".nq",), "N-Quads"),
    "trig": ((".trig",), "TriG"),
    "n3": ((".n3",), "N3"),
    "rdfxml": ((".rdf", ".owl", ".xml"), "RDF/XML"),
    "jsonld": ((".jsonld",), "JSON-LD"),
    "csv": ((".csv",), "CSV: triples head,relation,tail[,tail_type], or a table with a header row"),
    "tsv": ((".tsv",), "TSV: triples head,relation,tail[,tail_type], or a table with a header row"),
    "xlsx": ((".xlsx",), "Excel workbook, each sheet a table with a header row"),
    "wikidata": ((".jsonl", ".ndjson"), "Wikidata JSON entity dump (one entity per line)"),
    "graphwoz": ((), "GraphWOZ JSON (dialogue id -> task, data, log)"),
}
ALIASES = {"ttl": "turtle", "nt": "ntriples", "n-triples": "ntriples", "nq": "nquads",
           "n-quads": "nquads", "xml": "rdfxml", "rdf/xml": "rdfxml", "rdf": "rdfxml",
           "json-ld": "jsonld"}
RDF_FORMATS = ("turtle", "ntriples", "nquads", "trig", "n3", "rdfxml", "jsonld")


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


def parse_file(path: str, fmt: str, graph: str, name: str, dialogue_id: str | None = None,
               restore: bool = False, key: str | None = None) -> Parsed:
    """Parse a whole file into quads for `graph` (datasets keep their graphs, see rdf.py).
    `key`: the column that names the rows of a table (CSV, TSV, a workbook's sheets)."""
    if fmt in RDF_FORMATS:
        from kgstore.loaders import rdf

        parsed = rdf.parse(path, fmt, graph, name, restore)
    elif fmt in ("csv", "tsv"):
        from kgstore.loaders import csv_triples, tables

        text, delimiter = read_text(path), "," if fmt == "csv" else "\t"
        if tables.is_table(text, delimiter, key):
            parsed = tables.parse_delimited(path, text, graph, name, delimiter, key)
        else:
            parsed = csv_triples.parse(path, graph, name, delimiter, text)
    elif fmt == "xlsx":
        from kgstore.loaders import tables

        parsed = tables.parse_workbook(path, graph, name, key)
    elif fmt == "wikidata":
        from kgstore.loaders import wikidata

        parsed = wikidata.parse(path, graph)
    else:
        from kgstore.loaders import graphwoz

        parsed = graphwoz.parse(path, dialogue_id)
    if not parsed.quads and not parsed.ntriples:
        raise LoadError(f"{path}: no triples in the file")
    return parsed
