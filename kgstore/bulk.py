"""Bulk loading in parts: each part of a file on a thread of its own, pyoxigraph releasing the GIL
while it parses, so a file split in parts loads on as many cores as there are parts."""

from __future__ import annotations

import threading
from collections.abc import Callable

from pyoxigraph import NamedNode, Store

from kgstore.fileio import bulk_stream
from kgstore.loaders.rdf import OX_FORMATS, base_iri


def bulk_parts(store: Store, path: str, fmt: str, parts: list[tuple[int, bytes | None]], graph: NamedNode,
               progress: Callable[[int], None] | None) -> None:
    """Bulk-load the parts (None: the whole file) on one thread each, pyoxigraph releasing the
    GIL; a syntax error is raised with its line number in the whole file."""
    done = [0] * len(parts)
    errors: list[BaseException] = []
    reporting = threading.Lock()  # callers get one progress call at a time, as with one stream

    def load(i: int, first_line: int, data: bytes | None) -> None:
        seen: Callable[[int], None] | None = None
        if progress is not None:
            report = progress

            def seen(n: int) -> None:
                with reporting:
                    done[i] = n
                    report(sum(done))

        try:
            with bulk_stream(path, data, seen) as source:
                store.bulk_load(input=source, format=OX_FORMATS[fmt], base_iri=base_iri(path), to_graph=graph)
        except SyntaxError as exc:
            exc.lineno = (exc.lineno or 1) + first_line
            errors.append(exc)
        except BaseException as exc:  # re-raised in the caller's thread
            errors.append(exc)

    if len(parts) == 1:
        load(0, *parts[0])
    else:
        workers = [threading.Thread(target=load, args=(i, first, data)) for i, (first, data) in enumerate(parts)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    if errors:
        raise min(errors, key=lambda e: getattr(e, "lineno", None) or 0)
