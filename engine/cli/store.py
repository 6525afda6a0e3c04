"""`kgchat load`, `kgchat sparql`, `kgchat stats`: the store from the command line."""

from __future__ import annotations

import argparse
import json
import sys
import time

from kgstore.errors import BadInput
from kgstore.loaders import FORMATS, one_line


def _parser(command: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"kgchat {command}")
    if command == "load":
        p.description = "Load KG files into a store, each all or nothing; prints the triples added per file and graph."
        p.add_argument("files", nargs="+", metavar="FILE")
        p.add_argument("--store", required=True, metavar="DIR", help="on-disk store directory (created when missing)")
        p.add_argument("--format", choices=list(FORMATS), help="file format when the extension does not tell")
        p.add_argument("--graph", metavar="IRI", help="named graph to load into (default: urn:kgchat:graph:bg:<file name>; GraphWOZ "
                       "files always get one graph per dialogue)")
        p.add_argument("--dialogue-id", metavar="ID", help="GraphWOZ: load only this dialogue's world")
    elif command == "sparql":
        p.description = "Run a SPARQL query; the default graph is the union of all graphs."
        p.add_argument("query", metavar="QUERY", help="the query text, or @FILE to read it from a file")
        p.add_argument("--store", required=True, metavar="DIR")
    else:
        p.description = "Named graphs of a store and their sizes."
        p.add_argument("--store", required=True, metavar="DIR")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def main(argv: list[str], command: str = "load") -> int:
    args = _parser(command).parse_args(argv)
    from kgstore import KGStore

    store = KGStore(args.store)
    if command == "load":
        return _load(store, args)
    if command == "sparql":
        return _sparql(store, args)
    return _stats(store, args)


def _load(store, args) -> int:
    files = []
    for path in args.files:
        start = time.perf_counter()
        report = store.load(path, format=args.format, graph=args.graph, dialogue_id=args.dialogue_id)
        seconds = time.perf_counter() - start
        for warning in report.warnings:
            print(f"kgchat: warning: {warning}", file=sys.stderr)
        files.append({"path": path, "format": report.format, "added": report.added, "graphs": report.graphs,
                      "bulk": report.bulk, "seconds": round(seconds, 3), "warnings": report.warnings})
        if not args.json:
            print(f"{path}: {report.added} triples added ({FORMATS[report.format][1]}{', bulk load' if report.bulk else ''}, {seconds:.2f} s)")
            for graph, n in report.graphs.items():
                print(f"  {graph}  +{n}")
    if args.json:
        print(json.dumps({"store": args.store, "files": files, "quads": store.count()}))
    else:
        print(f"store {args.store}: {store.count()} quads")
    return 0


def _sparql(store, args) -> int:
    text = args.query
    if text.startswith("@"):
        try:
            with open(text[1:], encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise BadInput(f"{text[1:]}: cannot read the query ({one_line(exc)})") from None
    result = store.query(text)
    if args.json:
        print(json.dumps({"boolean": result} if isinstance(result, bool) else {"rows": result}))
    elif isinstance(result, bool):
        print("true" if result else "false")
    else:
        _table(result)
    return 0


def _table(rows: list[dict[str, str]]) -> None:
    names = list(dict.fromkeys(k for row in rows for k in row))
    if not names:
        print(f"({len(rows)} rows)")
        return
    widths = {n: min(max([len(n)] + [len(row.get(n, "")) for row in rows]), 80) for n in names}
    print("  ".join(n.ljust(widths[n]) for n in names))
    print("  ".join("-" * widths[n] for n in names))
    for row in rows:
        print("  ".join(_cell(row.get(n, ""), widths[n]) for n in names))
    print(f"({len(rows)} rows)")


def _cell(value: str, width: int) -> str:
    value = value.replace("\n", " ")
    return (value[: width - 1] + "…" if len(value) > width else value).ljust(width)


def _stats(store, args) -> int:
    graphs = store.graphs()
    total = store.count()
    if args.json:
        print(json.dumps({"store": args.store, "quads": total, "graphs": [{"graph": g, "quads": n} for g, n in graphs]}))
        return 0
    width = max([len(g) for g, _ in graphs] + [5])
    for g, n in graphs:
        print(f"{g.ljust(width)}  {n:>10}")
    print(f"{'total'.ljust(width)}  {total:>10}")
    return 0
