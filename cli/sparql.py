"""`kgchat sparql`: a query against a store, streamed under a row limit and a timeout."""

from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager

from engine.inert import json_text
from engine.options import ArgumentParser, bounded, seconds
from kgstore.errors import BadInput
from kgstore.fileio import read_bounded
from kgstore.loaders import one_line
from kgstore.query import DEFAULT_LIMIT, DEFAULT_TIMEOUT_S, BoundedQuery, display_width, fit

TABLE_SAMPLE = 100  # rows that set the column widths of a streamed table...
TABLE_WAIT_S = 0.3  # ...or those that came before a pause this long


def _parser() -> ArgumentParser:
    p = ArgumentParser(prog="kgchat sparql", description="Run a SPARQL query; the default graph is the union of all graphs.")
    p.add_argument("query", metavar="QUERY", help="the query text, or @FILE to read it from a file")
    p.add_argument("--store", required=True, metavar="DIR")
    p.add_argument("--limit", type=bounded(int, ge=1, le=10**9), default=DEFAULT_LIMIT, metavar="N",
                   help=f"most rows printed (default {DEFAULT_LIMIT}); the output says when more exist")
    p.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT_S, metavar="SECONDS",
                   help=f"give up after this long (default {DEFAULT_TIMEOUT_S:g}), keeping the rows printed so far")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def main(argv: list[str], command: str = "sparql") -> int:
    args = _parser().parse_args(argv)
    from kgstore import KGStore

    store = KGStore(args.store, create=False)
    text = args.query
    if text.startswith("@"):
        try:
            text = read_bounded(text[1:], "query file").decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadInput(f"{text[1:]}: cannot read the query ({one_line(exc)})") from None
    run = BoundedQuery(store, text, limit=args.limit, timeout=args.timeout)
    try:
        code = _print_json(run) if args.json else _print_table(run)
    except KeyboardInterrupt:
        run.outcome.stopped = "interrupted"
        print(f"kgchat: interrupted after {run.outcome.rows} rows", file=sys.stderr)
        code = 130
    note = run.outcome.note(args.limit, args.timeout)
    if run.outcome.stopped == "timeout":
        print(f"kgchat: error: SPARQL query {note}", file=sys.stderr)
        code = 2
    elif note and run.outcome.stopped != "interrupted":
        print(f"kgchat: note: {note}", file=sys.stderr)
    if run.running:
        # pyoxigraph is still inside a step it cannot be asked to stop; what was printed is
        # complete, so leave now rather than wait for it or tear the interpreter down under it.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


@contextmanager
def _said_why_stopped(run: BoundedQuery):
    """A stream ended by Ctrl-C or an error records why, so the closing line of the output says
    it is not the whole result; the exception goes on to the caller."""
    try:
        yield
    except KeyboardInterrupt:
        run.outcome.stopped = "interrupted"
        raise
    except Exception:  # any failure ends the stream; recorded so the closing line says why, then re-raised
        run.outcome.stopped = "error"
        raise


def _print_json(run: BoundedQuery) -> int:
    """One JSON object, written as the rows come: {"rows": [...], "count", "stopped"}, or
    {"boolean": ...} for ASK. A cut result is still valid JSON, "stopped" saying why."""
    head = run.head()
    if head is not None and head.boolean is not None:
        print(json.dumps({"boolean": head.boolean}))
        return 0
    out = sys.stdout
    out.write('{"rows": [')
    try:
        with _said_why_stopped(run):
            for i, row in enumerate(run.rows()):
                out.write(("\n" if i == 0 else ",\n") + json_text(row))
                out.flush()
    finally:
        out.write(f'], "count": {run.outcome.rows}, "stopped": {json.dumps(run.outcome.stopped)}}}\n')
        out.flush()
    return 0


def _print_table(run: BoundedQuery) -> int:
    """Rows printed as they come; column widths (in terminal cells) from the rows that came
    before the first pause after the first row, or the first TABLE_SAMPLE of them."""
    head = run.head()
    if head is not None and head.boolean is not None:
        print("true" if head.boolean else "false")
        return 0
    names = head.columns if head else []
    first: list[dict[str, str]] = []
    widths: dict[str, int] | None = None

    def print_head() -> dict[str, int]:
        found = {n: min(max([display_width(n)] + [display_width(r.get(n, "")) for r in first]), 80) for n in names}
        if names:
            print("  ".join(fit(n, found[n]) for n in names).rstrip())
            print("  ".join("-" * found[n] for n in names))
        for r in first:
            print_row(r, found)
        return found

    def print_row(row: dict[str, str], w: dict[str, int]) -> None:
        if names:
            print("  ".join(fit(row.get(n, ""), w[n]) for n in names).rstrip(), flush=True)

    try:
        with _said_why_stopped(run):
            for row in run.rows(idle=TABLE_WAIT_S):
                if widths is not None:
                    if row is not None:
                        print_row(row, widths)
                elif row is None:  # a pause: print what came, unless nothing came yet
                    if first:
                        widths = print_head()
                elif len(first) + 1 >= TABLE_SAMPLE:
                    first.append(row)
                    widths = print_head()
                else:
                    first.append(row)
            if widths is None:
                print_head()
    finally:
        cut = f", cut: {run.outcome.stopped}" if run.outcome.stopped else ""
        print(f"({run.outcome.rows} rows{cut})", flush=True)
    return 0
