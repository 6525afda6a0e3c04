"""The RDF serializations pyoxigraph parses: Turtle, N-Triples, N-Quads, TriG, N3, RDF/XML, JSON-LD."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
from pyoxigraph import DefaultGraph, NamedNode, Quad, RdfFormat
from pyoxigraph import parse as ox_parse

from kgstore.errors import LoadError
from kgstore.fileio import bulk_stream
from kgstore.loaders import FORMATS, Parsed, check_file, load_error, rdf_source
from kgstore.vocab import (
    GRAPH_BG,
    GRAPH_DERIVED,
    GRAPH_DIALOGUE,
    GRAPH_META,
    GRAPH_RESERVED,
    SCHEMA,
    bg_graph,
    local_name,
)

OX_FORMATS = {"turtle": RdfFormat.TURTLE, "ntriples": RdfFormat.N_TRIPLES, "nquads": RdfFormat.N_QUADS,
              "trig": RdfFormat.TRIG, "n3": RdfFormat.N3, "rdfxml": RdfFormat.RDF_XML,
              "jsonld": RdfFormat.JSON_LD}


def parse(path: str, fmt: str, graph: str, name: str, restore: bool = False) -> Parsed:
    check_file(path)
    mapper = GraphMapper(path, graph, name, restore=restore)
    try:
        with rdf_source(path) as source:
            quads = list(mapper.quads(ox_parse(**source, format=OX_FORMATS[fmt], base_iri=base_iri(path))))
    except SyntaxError as exc:
        raise syntax_error(path, exc) from None
    except (OSError, ValueError) as exc:
        raise load_error(path, str(exc)) from None
    return Parsed(quads=quads)


# An RDF/XML file's internal DTD may declare entities (OWL files name their namespaces so); the
# parser expands them unbounded, so a few hundred bytes of nested declarations make gigabytes
# ("billion laughs"). Declarations that refer to other entities, parameter entities and
# external ones (they read another file) are refused; plain ones may expand to this many
# characters in all, references counted over the whole file.
ENTITY_EXPANSION_CAP = 16 * 2**20
# The prolog, DOCTYPE included, must end within this many bytes.
PROLOG_MAX = 2**16
_DOCTYPE = re.compile(r"<!DOCTYPE\b")
_ELEMENT = re.compile(r"<[A-Za-z_]")
_ENTITY = re.compile(r"<!ENTITY\s+(%\s*)?(\S+)\s+(?:\"([^\"]*)\"|'([^']*)'|(\S+))")
_REFERENCE = re.compile(r"&[A-Za-z_:][\w.:-]*;")


def check_entities(path: str, cap: int = ENTITY_EXPANSION_CAP) -> None:
    """Refuse an RDF/XML file whose entity declarations could expand past `cap` (see above)."""
    with open(path, "rb") as f:
        head = f.read(PROLOG_MAX).decode("utf-8", errors="replace")
    doctype = _DOCTYPE.search(head)
    root = _ELEMENT.search(head)
    if doctype is None or (root is not None and root.start() < doctype.start()):
        return
    line = head.count("\n", 0, doctype.start()) + 1
    end = head.find("]>", doctype.start())
    if end < 0 or (root is not None and root.start() < end):
        end = head.find(">", doctype.start())
    if end < 0:
        raise load_error(path, f"DOCTYPE longer than {PROLOG_MAX // 1024} KB", line)
    sizes: dict[str, int] = {}
    declared = _ENTITY.findall(head, doctype.start(), end)
    if len(declared) != head.count("<!ENTITY", doctype.start(), end):
        raise load_error(path, "an entity declaration that cannot be read: refused", line)
    for m in _ENTITY.finditer(head, doctype.start(), end):
        name, value = m.group(2), m.group(3) if m.group(3) is not None else m.group(4)
        where = head.count("\n", 0, m.start()) + 1
        if m.group(1) or value is None:
            kind = "parameter" if m.group(1) else "external"
            raise load_error(path, f"{kind} entity '{name}' refused (only entities with a plain value are read)", where)
        if _REFERENCE.search(value):
            raise load_error(path, f"entity '{name}' refers to another entity: refused (entity expansion)", where)
        sizes[f"&{name};"] = len(value)
    if not sizes:
        return
    expanded = 0
    with open(path, "rb") as f:
        tail = ""
        while chunk := f.read(2**20):
            text = tail + chunk.decode("utf-8", errors="replace")
            cut = text.rfind("&") if text.rfind("&") > text.rfind(";") else len(text)
            expanded += sum(sizes.get(r, 0) for r in _REFERENCE.findall(text, 0, cut))
            tail = text[cut:][-256:]  # the start of a reference the next chunk ends
            if expanded > cap:
                raise load_error(path, f"entity references expand to over {cap:,} characters: refused (entity expansion)")



# pyoxigraph's RDF/XML parser does work in proportion to the depth for every element it reads,
# so a file of elements nested tens of thousands deep takes minutes (4.6 MB, 57,000 deep); no RDF/XML
# an exporter writes comes near this depth, and at it a file costs at most a few times a flat one.
MAX_XML_DEPTH = 1000
# What holds a "<" that opens no element: comments, CDATA, processing instructions; removed
# before the tags are counted (a lone opening is carried on to the next read).
_NOT_MARKUP = re.compile(rb"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>", re.S)
_OPEN_NOT_MARKUP = re.compile(rb"<!--|<!\[CDATA\[|<\?")
_TAG_END = re.compile(rb"(?:[^>\"']|\"[^\"]*\"|'[^']*')*>")


def check_nesting(path: str, cap: int = MAX_XML_DEPTH) -> None:
    """Refuse an RDF/XML file whose elements nest deeper than `cap` (see above), naming the line
    where the element one too deep starts; the file is read once, a MB at a time. A read whose
    tags are plain (each "<" met by the next ">") is counted in numpy; any other, and the read
    that goes too deep, tag by tag in Python."""
    depth = lines = 0
    carry = b""
    with open(path, "rb") as f:
        while True:
            chunk = f.read(max(2**20, len(carry)))  # a long comment is read on in ever larger reads
            buf = _NOT_MARKUP.sub(lambda m: b"\n" * m.group().count(b"\n"), carry + chunk)  # lines kept
            carry = b""
            if chunk:  # the last tag, or an unended comment, may end in the next read
                cut = buf.rfind(b"<") % (len(buf) + 1)
                if (opened := _OPEN_NOT_MARKUP.search(buf)) is not None:
                    cut = opened.start()
                buf, carry = buf[:cut], buf[cut:]
            counted = _plain_depth(buf, depth, cap)
            depth = counted if counted is not None else _tag_depth(buf, depth, cap, path, lines)
            if not chunk:
                return
            lines += buf.count(b"\n")


_LT, _GT, _SLASH = ord("<"), ord(">"), ord("/")


def _plain_depth(buf: bytes, depth: int, cap: int) -> int | None:
    """The depth after `buf`, or None when this read needs `_tag_depth`: a ">" that ends no tag
    (in text or in an attribute value) leaves a tag's end unknown here, and a read that goes too
    deep needs the line of the tag that does."""
    data = np.frombuffer(buf, dtype=np.uint8)
    lt = np.flatnonzero(data == _LT)
    gt = np.flatnonzero(data == _GT)
    # XML allows no "<" in text or attribute values once comments, CDATA and PIs are gone, so
    # every "<" opens a tag; when a ">" lies between each "<" and the next, it is the tag's end.
    if len(lt) != len(gt) or (len(lt) and not ((lt < gt).all() and (gt[:-1] < lt[1:]).all())):
        return None
    after = data[np.minimum(lt + 1, len(data) - 1)]
    closing = after == _SLASH
    opening = ~closing & (after != ord("!")) & (after != ord("?"))
    step = opening.astype(np.int64) - closing
    step[opening & (data[gt - 1] == _SLASH)] = 0  # an empty element <x/> nests nothing
    before = depth + np.cumsum(step) - step  # the depth each tag starts at
    if opening.any() and int(before[opening].max()) >= cap:
        return None
    return depth + int(step.sum())


def _tag_depth(buf: bytes, depth: int, cap: int, path: str, lines: int) -> int:
    """The depth after `buf`, read tag by tag; raises at the first element nested one too deep."""
    pieces = buf.split(b"<")
    for i in range(1, len(pieces)):
        tag = pieces[i]  # the tag and the text after it, which holds no "<"
        first = tag[:1]
        if first == b"/":
            depth -= 1
            continue
        end = tag.find(b">")
        if tag.find(b">", end + 1) >= 0:  # a ">" in an attribute value or the text after
            m = _TAG_END.match(tag)
            end = m.end() - 1 if m else end
        if first in b"!?":  # the DOCTYPE, its declarations
            continue
        if depth >= cap:  # this element, empty or not, is one level too deep
            line = lines + sum(p.count(b"\n") for p in pieces[:i]) + 1
            raise load_error(path, f"elements nested more than {cap:,} deep: refused", line)
        if tag[end - 1:end] != b"/":
            depth += 1
    return depth



# pyoxigraph's parsers but RDF/XML's hold each term (a literal, an IRI) whole in a buffer of at
# most this many bytes, and raise MemoryError past it; RDF/XML reads any length.
TERM_BUFFER = 16 * 2**20


def is_term_too_long(exc: MemoryError) -> bool:
    return str(exc).startswith("Reached the buffer maximal size")


def term_too_long(path: str, fmt: str) -> LoadError:
    """The error for a file holding a term past the parser's buffer, with the line it is on (for
    a Turtle string over several lines, the one 16 MB into it): the file is parsed again up to
    that term, counting the bytes read, as the parser's error names no position."""
    reason = f"a literal or IRI longer than {TERM_BUFFER // 2**20} MB, more than the {FORMATS[fmt][1]} parser reads: refused"
    with bulk_stream(path, None, lambda n: None) as stream:
        try:
            for _ in ox_parse(input=stream, format=OX_FORMATS[fmt], base_iri=base_iri(path)):
                pass
        except MemoryError as exc:
            if is_term_too_long(exc):
                # the buffer is full and the term goes on past it: the last byte read is one of its own
                return load_error(path, reason, line_at(path, stream.done - 1))
        except (SyntaxError, OSError, ValueError):
            pass
    return load_error(path, reason)


def line_at(path: str, offset: int) -> int:
    """The line of the file's byte `offset`, counted a MB at a time."""
    lines = 1
    with open(path, "rb") as f:
        while offset > 0 and (chunk := f.read(min(offset, 2**20))):
            lines += chunk.count(b"\n")
            offset -= len(chunk)
    return lines

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
