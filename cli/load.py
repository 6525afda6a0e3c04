"""`kgchat load`: KG files into an on-disk store, each all or nothing."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

from engine.options import ArgumentParser
from kgstore.loaders import FORMATS


def _parser() -> ArgumentParser:
    p = ArgumentParser(prog="kgchat load",
                       description="Load KG files into a store, each all or nothing; prints the triples added per file and graph.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--store", required=True, metavar="DIR", help="on-disk store directory (created when missing or empty)")
    p.add_argument("--format", choices=list(FORMATS), help="file format when the extension does not tell")
    p.add_argument("--graph", metavar="IRI", help="named graph to load into, an absolute IRI (default: urn:kgchat:graph:bg:<file "
                   "name>; GraphWOZ files always get one graph per dialogue); kgchat's own names under urn:kgchat:graph: are "
                   "reserved but for urn:kgchat:graph:bg:<name>")
    p.add_argument("--restore", action="store_true", help="the files are dumps of a kgchat store (N-Quads, TriG): their "
                   "dialogue and derived graphs are restored as they were; without it a file naming them is refused")
    p.add_argument("--dialogue-id", metavar="ID", help="GraphWOZ: load only this dialogue's world")
    p.add_argument("--key", metavar="COLUMN", help="the column that names the rows of a table (CSV, TSV, .xlsx with a "
                   "header row; default: the column named name, label, title or id, else the first)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def main(argv: list[str], command: str = "load") -> int:
    args = _parser().parse_args(argv)
    from kgstore import KGStore

    store = KGStore(args.store)
    files = []
    for path in args.files:
        start = time.perf_counter()
        report = store.load(path, format=args.format, graph=args.graph, dialogue_id=args.dialogue_id,
                            restore=args.restore, key=args.key)
        seconds = time.perf_counter() - start
        for warning in report.warnings:
            print(f"kgchat: warning: {warning}", file=sys.stderr)
        files.append({"path": path, "format": report.format, "added": report.added, "graphs": report.graphs,
                      "bulk": report.bulk, "seconds": round(seconds, 3), "warnings": report.warnings,
                      "tables": [asdict(t) for t in report.tables]})
        if not args.json:
            what = "table" if report.tables else FORMATS[report.format][1]
            print(f"{path}: {report.added} triples added ({what}{', bulk load' if report.bulk else ''}, {seconds:.2f} s)")
            for table in report.tables:
                print(f"{Path(path).name}: {table.describe()}")
            for graph, n in report.graphs.items():
                print(f"  {graph}  +{n}")
    if args.json:
        print(json.dumps({"store": args.store, "files": files, "quads": store.count()}))
    else:
        print(f"store {args.store}: {store.count()} quads")
    return 0
