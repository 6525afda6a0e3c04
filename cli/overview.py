"""`kgchat overview`: what the app's first screen shows of a knowledge graph: its graphs, its
entity types with counts, and example questions built from its own relations."""

from __future__ import annotations

from engine.config import add_config_options, load_config
from engine.inert import json_text
from engine.options import ArgumentParser


def main(argv: list[str], command: str = "overview") -> int:
    from engine.overview import overview
    from engine.setup import build_context

    parser = ArgumentParser(prog=f"kgchat {command}", description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_config_options(parser)
    args = parser.parse_args(argv)
    o = overview(build_context(load_config(args)))
    if args.json:
        print(json_text({"remote": o.remote} if o.remote else {
            "triples": o.triples, "graphs": o.graphs, "types": [{"type": t, "entities": n} for t, n in o.types],
            "examples": o.examples}))
    elif o.remote:
        print(f"remote knowledge graph: {o.remote} (not scanned: no types or examples)")
    else:
        print(f"{o.triples} triples in {', '.join(o.graphs) or 'no graph'}")
        for t, n in o.types:
            print(f"  {n:>7}  {t}")
        for q in o.examples:
            print(f"ask: {q}")
    return 0
