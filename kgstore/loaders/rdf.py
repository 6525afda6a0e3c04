"""The RDF serializations pyoxigraph parses: Turtle, N-Triples, N-Quads, TriG, N3, RDF/XML, JSON-LD."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pyoxigraph import DefaultGraph, NamedNode, Quad, RdfFormat, parse as ox_parse

from kgstore.loaders import Parsed, check_file, load_error
from kgstore.vocab import SCHEMA, bg_graph, local_name

OX_FORMATS = {"turtle": RdfFormat.TURTLE, "ntriples": RdfFormat.N_TRIPLES, "nquads": RdfFormat.N_QUADS,
              "trig": RdfFormat.TRIG, "n3": RdfFormat.N3, "rdfxml": RdfFormat.RDF_XML,
              "jsonld": RdfFormat.JSON_LD}
KGCHAT_GRAPHS = "urn:kgchat:graph:"


def parse(path: str, fmt: str, graph: str, name: str) -> Parsed:
    check_file(path)
    mapper = GraphMapper(graph, name)
    try:
        quads = [mapper.quad(q) for q in ox_parse(path=path, format=OX_FORMATS[fmt], base_iri=base_iri(path))]
    except SyntaxError as exc:
        raise syntax_error(path, exc) from None
    except (OSError, ValueError) as exc:
        raise load_error(path, str(exc)) from None
    return Parsed(quads=quads)


# schema.org's context as exporters name it: the parser fetches no remote context, and this one
# says no more than that its terms are schema.org's.
_SCHEMA_CONTEXT = re.compile(r"https?://schema\.org/?")
_REMOTE_SCHEMA = re.compile(rb'"@context"\s*:\s*\[?[^\]{}]*"https?://schema\.org/?"')


def local_contexts(path: str) -> bytes | None:
    """A JSON-LD file whose "@context" names schema.org by its URL, with that context written
    out as schema.org's vocabulary; None for any other file (it loads as it is)."""
    data = Path(path).read_bytes()
    if not _REMOTE_SCHEMA.search(data):
        return None
    try:
        doc = json.loads(data)
    except ValueError:
        return None  # the parser names what is wrong

    def inline(context):
        if isinstance(context, str) and _SCHEMA_CONTEXT.fullmatch(context):
            return {"@vocab": SCHEMA}
        return [inline(c) for c in context] if isinstance(context, list) else context

    def walk(node):
        if isinstance(node, dict):
            return {k: inline(v) if k == "@context" else walk(v) for k, v in node.items()}
        return [walk(n) for n in node] if isinstance(node, list) else node

    return json.dumps(walk(doc)).encode("utf-8")


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
    graphs of a dataset (TriG, N-Quads) become background graphs of their own, except kgchat's
    own graph names (a dump of a kgchat store reloads as it was)."""

    def __init__(self, graph: str, name: str):
        self.graph = NamedNode(graph)
        self.name = name
        self._named: dict[str, NamedNode] = {}

    def graph_for(self, g) -> NamedNode:
        if isinstance(g, DefaultGraph):
            return self.graph
        key = str(g)
        mapped = self._named.get(key)
        if mapped is None:
            value = g.value if isinstance(g, NamedNode) else key
            if value.startswith(KGCHAT_GRAPHS):
                mapped = NamedNode(value)
            else:
                mapped = NamedNode(bg_graph(f"{self.name}.{local_name(value)}"))
            self._named[key] = mapped
        return mapped

    def quad(self, q: Quad) -> Quad:
        return Quad(q.subject, q.predicate, q.object, self.graph_for(q.graph_name))
