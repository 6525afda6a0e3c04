"""Dispatch for the command families whose members live in different modules (eval, bench)."""

from __future__ import annotations

from importlib import import_module

from kgstore.errors import BadInput


def dispatch(family: str, table: dict[str, tuple[str, str]], argv: list[str]) -> int:
    """Run `kgchat <family> <name> ...` through `table[name]`'s module `main(argv, command)`."""
    if not argv:
        raise BadInput(f"{family}: which {family}? (choose from {', '.join(table)}; kgchat {family} --help)")
    if argv[0] in ("-h", "--help"):
        width = max(len(n) for n in table)
        lines = "\n".join(f"  {n:<{width}}  {h}" for n, (_, h) in table.items())
        print(f"usage: kgchat {family} {{{','.join(table)}}} [options]\n\n{lines}")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in table:
        raise BadInput(f"{family}: unknown {family} '{name}' (choose from {', '.join(table)})")
    return int(import_module(table[name][0]).main(rest, command=f"{family} {name}") or 0)


def family_main(family: str, table: dict[str, tuple[str, str]]):
    def main(argv: list[str], command: str = family) -> int:
        return dispatch(family, table, argv)

    return main


