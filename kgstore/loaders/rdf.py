"""The RDF serializations pyoxigraph parses: Turtle, N-Triples, N-Quads, TriG, N3, RDF/XML, JSON-LD."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from pyoxigraph import DefaultGraph, NamedNode, Quad, RdfFormat, parse as ox_parse

from kgstore.errors import LoadError
from kgstore.loaders import Parsed, check_file, load_error
from kgstore.vocab import GRAPH_BG, GRAPH_DERIVED, GRAPH_DIALOGUE, GRAPH_META, GRAPH_RESERVED, bg_graph, local_name

OX_FORMATS = {"turtle": RdfFormat.TURTLE, "ntriples": RdfFormat.N_TRIPLES, "nquads": RdfFormat.N_QUADS,
              "trig": RdfFormat.TRIG, "n3": RdfFormat.N3, "rdfxml": RdfFormat.RDF_XML,
              "jsonld": RdfFormat.JSON_LD}


def parse(path: str, fmt: str, graph: str, name: str, restore: bool = False) -> Parsed:
    check_file(path)
    mapper = GraphMapper(path, graph, name, restore=restore)
    try:
        quads = list(mapper.quads(ox_parse(path=path, format=OX_FORMATS[fmt], base_iri=base_iri(path))))
    except SyntaxError as exc:
        raise syntax_error(path, exc) from None
    except (OSError, ValueError) as exc:
        raise load_error(path, str(exc)) from None
    return Parsed(quads=quads)


def base_iri(path: str) -> str:
    return Path(path).resolve().as_uri()


def syntax_error(path: str, exc: SyntaxError):
    """pyoxigraph's message repeats the position and the file name: keep only the reason."""
    reason = str(exc.msg if hasattr(exc, "msg") else exc)
    reason = re.sub(r"^Parser error at line \d+ (?:column \d+|between columns \d+ and \d+):\s*", "", reason)
    reason = re.sub(r"\s*\([^()]*, line \d+\)$", "", reason)
    return load_error(path, reason, exc.lineno, exc.offset)


class GraphMapper:
    """Where a parsed quad goes: the file's default graph becomes its background graph; named
    graphs of a dataset (TriG, N-Quads) become background graphs of their own, but kgchat's
    background graph names are kept. A file never writes kgchat's other graphs: the dialogue
    and derived graphs come back only from a dump restored on purpose (`restore`), and the
    meta graph, whose markers decide what the next open drops, never (a dump's is skipped)."""

    def __init__(self, path: str, graph: str, name: str, restore: bool = False):
        self.path = path
        self.graph = NamedNode(graph)
        self.name = name
        self.restore = restore
        self._named: dict[str, NamedNode | None] = {}

    def graph_for(self, g) -> NamedNode | None:
        """The graph a quad of `g` goes to; None: the quad is skipped."""
        if isinstance(g, DefaultGraph):
            return self.graph
        key = str(g)
        if key not in self._named:
            value = g.value if isinstance(g, NamedNode) else key
            if not value.startswith(GRAPH_RESERVED) or value.startswith(GRAPH_BG):
                self._named[key] = NamedNode(value) if value.startswith(GRAPH_BG) else \
                    NamedNode(bg_graph(f"{self.name}.{local_name(value)}"))
            elif self.restore and value == GRAPH_META:
                self._named[key] = None
            elif self.restore and value.startswith((GRAPH_DIALOGUE, GRAPH_DERIVED)):
                self._named[key] = NamedNode(value)
            else:
                hint = "" if value == GRAPH_META else " (a dump of a kgchat store reloads with --restore)"
                raise LoadError(f"{self.path}: writes into kgchat's own graph {value}: refused{hint}")
        return self._named[key]

    def quads(self, parsed: Iterable[Quad]) -> Iterator[Quad]:
        for q in parsed:
            g = self.graph_for(q.graph_name)
            if g is not None:
                yield Quad(q.subject, q.predicate, q.object, g)
