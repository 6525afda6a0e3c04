"""`kgchat stats`: the named graphs of a store and their sizes."""

from __future__ import annotations

import json

from engine.options import ArgumentParser


def main(argv: list[str], command: str = "stats") -> int:
    p = ArgumentParser(prog="kgchat stats", description="Named graphs of a store and their sizes.")
    p.add_argument("--store", required=True, metavar="DIR")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    from kgstore import KGStore

    store = KGStore(args.store, create=False)
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
