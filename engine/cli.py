"""`kgchat` command line: the app by default, headless subcommands for scripts.

Each subcommand lives in the module that owns its work and exposes `main(argv) -> int`;
this file only dispatches, so `kgchat --help` lists everything without importing heavy code.
"""

from __future__ import annotations

import sys
from importlib import import_module

from kgstore.errors import BadInput

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "load": ("kgstore.cli", "load KG files into an on-disk store; prints triples added per file and graph"),
    "sparql": ("kgstore.cli", "run a SPARQL query against a store (table, or --json)"),
    "stats": ("kgstore.cli", "named graphs and their sizes in a store"),
    "retrieve": ("engine.cli_retrieve", "replay a dialogue and print what each user turn retrieved (--json)"),
    "ask": ("engine.cli_ask", "answer one question headless: retrieval, reply, checks (--json)"),
    "check": ("engine.cli_check", "check a given response against the KG (--json)"),
    "eval": ("engine.evaluation", "evaluation harness: eval retrieval|factcheck|linking"),
    "bench": ("engine.bench", "benchmarks: bench load|retrieve|reason|generate|check|scale"),
    "prepare": ("engine.stages.score.prepare", "export MiniLM to ONNX ahead of the first question; show the scorer's device"),
    "learn": ("rules.learn", "re-estimate the entity-linking rule weights from gold links (problog lfi)"),
}

USAGE = """usage: kgchat [options]            start the app (kgchat --help-app for its options)
       kgchat COMMAND [options]    run a headless command (kgchat COMMAND --help)

commands:
{commands}
"""


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help"):
        width = max(len(n) for n in COMMANDS)
        print(USAGE.format(commands="\n".join(f"  {n:<{width}}  {h}" for n, (_, h) in COMMANDS.items())))
        return 0
    try:
        if argv and argv[0] in COMMANDS:
            name = argv.pop(0)
            module = import_module(COMMANDS[name][0])
            return int(module.main(argv, command=name) or 0)
        if argv and argv[0] == "--help-app":
            argv[0] = "--help"
        return int(import_module("tui.main").main(argv) or 0)
    except BadInput as exc:
        print(f"kgchat: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
