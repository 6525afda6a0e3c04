"""The knowledge store: a pyoxigraph Store with one named graph per loaded file, the dialogue
and derived graphs, labels, and capped neighbourhood queries over the background graphs."""

from __future__ import annotations

import itertools
import os
import re
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext
from importlib import resources
from pathlib import Path

from pyoxigraph import BlankNode, DefaultGraph, Literal, NamedNode, Quad, QueryBoolean, QuerySolutions, Store, Triple
from pyoxigraph import parse as ox_parse

from kgstore.bulk import bulk_parts
from kgstore.errors import BadInput, LoadError
from kgstore.fileio import Parsed, bulk_stream, line_parts, ntriples_parts
from kgstore.loaders import check_file, detect_format, load_error, one_line, parse_file, rdf_source
from kgstore.loaders.rdf import (
    ENTITY_EXPANSION_CAP,
    MAX_XML_DEPTH,
    OX_FORMATS,
    GraphMapper,
    base_iri,
    check_entities,
    check_nesting,
    is_term_too_long,
    local_contexts,
    syntax_error,
    term_too_long,
)
from kgstore.neighborhood import NAME_PREDICATES, collect
from kgstore.storedir import store_key, write_marker
from kgstore.terms import Fact, LabelEntry, LoadReport, Neighborhood
from kgstore.vocab import (
    ALIAS_PREDICATES,
    GRAPH_BG,
    GRAPH_META,
    KGC_PENDING_LOAD,
    KGC_PROBABILITY,
    KGC_RULE,
    LABEL_PREDICATES,
    RDF_REIFIES,
    RDF_TYPE,
    WD,
    WDT,
    XSD,
    bg_graph,
    readable_name,
    user_graph_problem,
)
from kgstore.wikidata_labels import PROPERTY_LABELS

DEMOS = {"office": "office.json", "wikidata": "wikidata_demo.ttl"}
TYPE_PREDICATES = (RDF_TYPE, WDT + "P31")
WIKIDATA_PROPERTY = re.compile(r"^http://www\.wikidata\.org/(?:entity/|prop/direct/|prop/)(P\d+)$")
TRIPLE_FORMATS = ("turtle", "ntriples", "n3", "rdfxml", "jsonld")
BULK_FORMATS = TRIPLE_FORMATS + ("nquads",)
XSD_STRING = XSD + "string"


def demo_path(name: str) -> str:
    """The packaged demo KG file: "office" (GraphWOZ-like) or "wikidata"."""
    if name not in DEMOS:
        raise BadInput(f"unknown demo KG '{name}' (choose from {', '.join(DEMOS)})")
    return str(resources.files("kgstore").joinpath("data", DEMOS[name]))


def term(value: str):
    """IRI or blank node ("_:id") as a pyoxigraph term."""
    return BlankNode(value[2:]) if value.startswith("_:") else NamedNode(value)


def term_str(t) -> str:
    if isinstance(t, BlankNode):
        return "_:" + t.value
    if isinstance(t, Triple):
        return f"<<( {t.subject} {t.predicate} {t.object} )>>"
    return t.value


def fact_of(q: Quad) -> Fact | None:
    o = q.object
    if isinstance(o, Triple):
        return None
    graph = None if isinstance(q.graph_name, DefaultGraph) else term_str(q.graph_name)
    if isinstance(o, Literal):
        datatype = o.datatype.value if o.datatype is not None else None
        return Fact(term_str(q.subject), q.predicate.value, o.value, True,
                    None if datatype == XSD_STRING or o.language else datatype, o.language, graph)
    return Fact(term_str(q.subject), q.predicate.value, term_str(o), graph=graph)


def object_term(fact: Fact):
    if not fact.o_literal:
        return term(fact.o)
    if fact.lang:
        return Literal(fact.o, language=fact.lang)
    if fact.datatype:
        return Literal(fact.o, datatype=NamedNode(fact.datatype))
    return Literal(fact.o)


def is_english(lang: str | None) -> bool:
    return not lang or lang == "en" or lang.startswith("en-")


def best_name(candidates: Iterable[tuple[str, str, str | None]]) -> str | None:
    """From (label predicate, text, language) rows: the first label predicate's English or
    untagged text, else its text in any language."""
    best: dict[str, tuple[bool, str]] = {}
    for predicate, text, lang in candidates:
        english = is_english(lang)
        if predicate not in best or (english and not best[predicate][0]):
            best[predicate] = (english, text)
    for predicate in LABEL_PREDICATES:
        if predicate in best:
            return best[predicate][1]
    return None


def resolve_label(iri: str, name_of: Callable[[str], str | None]) -> str:
    """A label from the data, then for Wikidata properties the shipped list of their labels, then the local name."""
    found = name_of(iri)
    if found is not None:
        return found
    match = WIKIDATA_PROPERTY.match(iri)
    if match:
        pid = match.group(1)
        found = name_of(WD + pid) if iri != WD + pid else None
        return found or PROPERTY_LABELS.get(pid) or pid
    return readable_name(iri)


def predicate_forms(iri: str) -> list[str]:
    """The IRIs under which an entity is used as a relation: itself, and for a Wikidata property
    entity (wd:P123 "publisher") its direct-claim form (wdt:P123)."""
    match = WIKIDATA_PROPERTY.match(iri)
    return [iri, WDT + match.group(1)] if match and iri == WD + match.group(1) else [iri]


def is_background(graph) -> bool:
    return isinstance(graph, NamedNode) and graph.value.startswith(GRAPH_BG)


def _with_names(entries: list[LabelEntry], relations: list[str], parsed: Parsed) -> tuple[list[LabelEntry], list[str]]:
    """`label_entries()` and `relations()` of a background after a load that added `parsed`'s
    names and predicates, as reading them from the store would give them."""
    new = set(parsed.predicates) - set(relations)
    known = set(relations) | new
    kept = [e for e in entries if e.iri not in _entities_of(new)] if new else entries
    used = _entities_of(known)
    merged = {(e.iri, e.text, e.alias): e for e in kept + [e for e in parsed.names if e.iri not in used]}
    return [merged[k] for k in sorted(merged)], sorted(known)


def _entities_of(predicates: set[str]) -> set[str]:
    """The IRIs whose `predicate_forms` meet `predicates` (wd:P123 of wdt:P123)."""
    return predicates | {WD + m.group(1) for p in predicates if (m := WIKIDATA_PROPERTY.match(p)) and p == WDT + m.group(1)}


class KGStore:
    """See docs/internals.md for the contract. `path=None` keeps everything in memory."""

    # RDF files (but TriG) at least this big go through pyoxigraph's bulk loader: on disk it
    # is several times faster than one big transaction even at 100,000 triples.
    bulk_min_bytes = 2**20
    # One bulk load parses on one core (it is always fed a stream, see _stream); N-Triples parts
    # load side by side on these many threads (1M triples into a named graph on 2 cores: 10.4 s
    # on one, 5.9 s on two). The parts, not the machine, decide where blank nodes and line
    # numbers could go wrong, so tests set it to force the many-core path on any machine.
    bulk_workers = min(4, os.cpu_count() or 1)
    # Quads per bulk write when graph names must be rewritten (N-Quads) on the way in.
    bulk_chunk = 200_000
    # Characters the entity references of an RDF/XML file may expand to (see check_entities).
    entity_cap = ENTITY_EXPANSION_CAP
    # How deep the elements of an RDF/XML file may nest (see check_nesting).
    xml_depth_cap = MAX_XML_DEPTH

    def __init__(self, path: str | os.PathLike | None = None, create: bool = True):
        """`create=False` (read-only commands): a missing or empty directory is an error rather
        than a new, empty store."""
        self.path = str(path) if path else None
        self._key = secrets.token_hex(16)
        try:
            key = store_key(self.path, create) if self.path else None
            self._store = Store(self.path) if self.path else Store()
            if self.path:
                self._key = key or write_marker(self.path)
        except OSError as exc:
            raise BadInput(f"--store {self.path}: cannot open the store ({one_line(exc)})") from None
        self._label_cache: dict[str, str] = {}
        self._entries: list[LabelEntry] | None = None
        self._relations: list[str] | None = None
        self.revision = 0  # bumped as the caches below go stale: engine/compute keys its own by it
        if self.path:
            self._recover()

    # ---- writing -------------------------------------------------------------------------

    def _changed(self) -> None:
        self.revision += 1
        self._label_cache.clear()
        self._entries = None
        self._relations = None

    def _recover(self) -> None:
        """Undo bulk loads a killed process left half done: their graphs were new, so dropping them restores the store
        as it was before that load. Their disk space comes back too: pyoxigraph's bulk loader writes
        `bulk-<random>.sst` files into the store directory and only then hands them to RocksDB, so files of a killed
        load stay there, referenced by nothing (we hold the store's lock: no other process can be loading them); what
        was handed over and then dropped is reclaimed by a compaction (but for the strings it added: pyoxigraph never
        removes a string from its dictionary)."""
        meta = NamedNode(GRAPH_META)
        pending = list(self._store.quads_for_pattern(None, NamedNode(KGC_PENDING_LOAD), None, meta))
        for q in pending:
            # a marker without this store's key was not written by kgchat: it says nothing
            if isinstance(q.object, Literal) and q.object.value.startswith(self._key + " ") \
                    and isinstance(q.subject, NamedNode | BlankNode):
                self._store.remove_graph(q.subject)
            self._store.remove(q)
        assert self.path is not None  # only a store on disk has anything to recover
        for orphan in Path(self.path).glob("bulk-*.sst"):
            orphan.unlink(missing_ok=True)
        if pending:  # the deletions go to disk first, so that the compaction can drop what they delete
            self._store.flush()
            self._store.optimize()
            # RocksDB deletes the obsolete log of those deletions (often larger than them) only on reopening
            del self._store
            self._store = Store(self.path)

    def pending_marker(self, graph: NamedNode, path: str) -> Quad:
        """The quad that marks `graph` as being bulk-loaded from `path` until the load ends."""
        return Quad(graph, NamedNode(KGC_PENDING_LOAD), Literal(f"{self._key} {path}"), NamedNode(GRAPH_META))

    def load(self, path, format: str | None = None, graph: str | None = None, dialogue_id: str | None = None,
             *, progress: Callable[[int], None] | None = None, restore: bool = False,
             key: str | None = None) -> LoadReport:
        """Load one file, all or nothing (raises LoadError naming file, line and reason).

        Big RDF files into new graphs go through the bulk loader, guarded by a
        pending-load marker so a crash mid-load is undone when the store is next opened.
        `progress`, when given, is called with the bytes read so far during a bulk load.
        `restore`: the file is a dump of a kgchat store, whose dialogue and derived graphs
        come back as they were (any other file that names them is refused). `key`: the column
        that names the rows of a table (kgstore.loaders.tables).
        """
        path = str(path)
        if graph is not None and (problem := user_graph_problem(graph)):
            raise BadInput(f"--graph {graph}: {problem}")
        size = check_file(path)  # first: a directory or a missing file is named as such, whatever its name
        fmt = detect_format(path, format)
        if fmt == "rdfxml":
            check_entities(path, self.entity_cap)
            check_nesting(path, self.xml_depth_cap)
        try:
            return self._load(path, fmt, size, graph, dialogue_id, progress, restore, key)
        except MemoryError as exc:  # each path below undoes what it wrote before it raises
            if is_term_too_long(exc):
                raise term_too_long(path, fmt) from None
            raise

    def _load(self, path: str, fmt: str, size: int, graph: str | None, dialogue_id: str | None,
              progress: Callable[[int], None] | None, restore: bool, key: str | None = None) -> LoadReport:
        name = Path(path).stem
        target = graph or bg_graph(name)
        if fmt in BULK_FORMATS and size >= self.bulk_min_bytes:
            report = self._bulk(path, fmt, target, name, graph is not None, progress, restore)
            if report is not None:
                return report
        if fmt in TRIPLE_FORMATS:
            return self._load_triples(path, fmt, target)
        parsed = parse_file(path, fmt, target, name, dialogue_id, restore, key)
        report = LoadReport(path=path, format=fmt, warnings=parsed.warnings)
        if parsed.ntriples:  # a table, written as N-Triples: loaded as an N-Triples file of its size is
            known = self._known_names()
            bulk = self._bulk(path, "ntriples", target, name, True, None, restore, parsed.ntriples) \
                if size >= self.bulk_min_bytes else None
            report = bulk or self._load_triples(path, "ntriples", target, parsed.ntriples)
            report.format, report.warnings, report.tables = fmt, parsed.warnings, parsed.tables
            if known is not None:  # a graph outside the background names nothing there
                self._entries, self._relations = _with_names(*known, parsed) if target.startswith(GRAPH_BG) else known
            return report
        report.graphs = self._commit(parsed.quads)
        return report

    def _known_names(self) -> tuple[list[LabelEntry], list[str]] | None:
        """The names and relations of the background as cached before a load (an empty store's
        are none), or None when they are not known: a loader that says which it adds (a table)
        keeps them known, as reading them back from 10^5 rows costs seconds."""
        if self._entries is not None and self._relations is not None:
            return self._entries, self._relations
        if next(iter(self._store.quads_for_pattern(None, None, None, None)), None) is None:
            return [], []
        return None

    def _load_triples(self, path: str, fmt: str, target: str, data: bytes | None = None) -> LoadReport:
        """One pyoxigraph transaction, parsed in Rust: a syntax error writes nothing. `data`: the
        text to parse instead of the file's."""
        before = self.count(target)
        data = local_contexts(path) if fmt == "jsonld" else data
        try:
            with nullcontext({"input": data}) if data is not None else rdf_source(path) as source:
                self._store.load(**source, format=OX_FORMATS[fmt], base_iri=base_iri(path), to_graph=NamedNode(target))
        except SyntaxError as exc:
            raise syntax_error(path, exc) from None
        except (OSError, ValueError) as exc:
            raise load_error(path, str(exc)) from None
        self._changed()
        after = self.count(target)
        if after == 0:
            raise LoadError(f"{path}: no triples in the file")
        return LoadReport(path=path, format=fmt, graphs={target: after - before})

    def _commit(self, quads: list[Quad]) -> dict[str, int]:
        """Add in one transaction; returns the new quads per graph."""
        new = [q for q in dict.fromkeys(quads) if q not in self._store]
        try:
            self._store.extend(new)
        except OSError as exc:
            raise BadInput(f"store {self.path or '(memory)'}: write failed, nothing was added ({one_line(exc)})") from None
        self._changed()
        counts = Counter(term_str(q.graph_name) for q in new)
        for q in quads:
            counts.setdefault(term_str(q.graph_name), 0)
        return dict(counts)

    def _bulk(self, path, fmt, target, name, forced_graph, progress, restore, data: bytes | None = None) -> LoadReport | None:
        """Bulk-load into graphs that are new; None when a graph already has data (the caller
        then loads in one transaction instead, as dropping that graph would lose its data).
        `data`: N-Triples to load instead of the file."""
        report = LoadReport(path=path, format=fmt, bulk=True)
        pending: list[NamedNode] = []

        def claim(g: NamedNode) -> bool:
            if g in pending:
                return True
            if next(iter(self._store.quads_for_pattern(None, None, None, g)), None) is not None:
                return False
            self._store.add(self.pending_marker(g, path))
            pending.append(g)
            return True

        def undo() -> None:
            for g in pending:
                self._store.remove_graph(g)
                self._store.remove(self.pending_marker(g, path))
            self._changed()

        try:
            if fmt in TRIPLE_FORMATS:
                g = NamedNode(target)
                if not claim(g):
                    return None
                before = len(self._store)
                # `data` is a table's, whose IRIs are all minted: no blank node to keep in one part
                parts: list[tuple[int, bytes | None]] = line_parts(data, self.bulk_workers) if data is not None else \
                    ntriples_parts(path, self.bulk_workers) if fmt == "ntriples" else [(0, None)]
                bulk_parts(self._store, path, fmt, parts, g, progress)
            else:
                mapper = GraphMapper(path, target, name, restore=restore)
                with bulk_stream(path, None, progress) as source:  # pyoxigraph.parse never splits
                    parsed = ox_parse(input=source, format=OX_FORMATS[fmt], base_iri=base_iri(path))
                    quads = (Quad(q.subject, q.predicate, q.object, NamedNode(target)) for q in parsed) if forced_graph \
                        else mapper.quads(parsed)
                    while chunk := list(itertools.islice(quads, self.bulk_chunk)):
                        # the forced graph and the mapper only ever name named graphs
                        named = {q.graph_name for q in chunk if isinstance(q.graph_name, NamedNode)}
                        if not all(claim(g) for g in named):
                            undo()
                            return None
                        self._store.bulk_extend(chunk)
        except SyntaxError as exc:
            undo()
            raise syntax_error(path, exc) from None
        except (OSError, ValueError) as exc:
            undo()
            raise load_error(path, str(exc)) from None
        except BaseException:  # a refused graph (LoadError) among them
            undo()
            raise
        if fmt in TRIPLE_FORMATS:  # one new graph: the store's size tells, faster than counting it
            report.graphs[target] = len(self._store) - before
        for g in pending:
            if g.value not in report.graphs:
                report.graphs[g.value] = self.count(g.value)
        if not report.added:
            undo()
            raise LoadError(f"{path}: no triples in the file")
        for g in pending:
            self._store.remove(self.pending_marker(g, path))
        self._store.flush()
        self._changed()
        return report

    def add(self, facts: Iterable[Fact], graph: str) -> None:
        facts = list(facts)
        g = NamedNode(graph)
        self._store.extend([Quad(term(f.s), NamedNode(f.p), object_term(f), g) for f in facts])
        # The dialogue writes every turn: keep the label caches unless names may have changed.
        if graph.startswith(GRAPH_BG) or any(f.p in LABEL_PREDICATES for f in facts):
            self._changed()

    def add_probabilistic(self, fact: Fact, p: float, graph: str, rule: str = "") -> None:
        """The plain quad, and an RDF 1.2 reifier carrying its probability and rule. Adding the
        same fact from the same rule again updates the probability instead of piling reifiers."""
        g = NamedNode(graph)
        s, pred, o = term(fact.s), NamedNode(fact.p), object_term(fact)
        triple = Triple(s, pred, o)
        quads = [Quad(s, pred, o, g)]
        rule_lit = Literal(rule)
        reifier = None
        for q in self._store.quads_for_pattern(None, NamedNode(RDF_REIFIES), triple, g):
            if Quad(q.subject, NamedNode(KGC_RULE), rule_lit, g) in self._store:
                reifier = q.subject
                break
        if reifier is not None:
            for q in list(self._store.quads_for_pattern(reifier, NamedNode(KGC_PROBABILITY), None, g)):
                self._store.remove(q)
        else:
            reifier = BlankNode()
            quads += [Quad(reifier, NamedNode(RDF_REIFIES), triple, g), Quad(reifier, NamedNode(KGC_RULE), rule_lit, g)]
        quads.append(Quad(reifier, NamedNode(KGC_PROBABILITY), Literal(float(p)), g))
        self._store.extend(quads)
        if graph.startswith(GRAPH_BG) or fact.p in LABEL_PREDICATES:
            self._changed()

    def probability(self, fact: Fact, graph: str | None = None) -> float | None:
        """The highest probability a reifier gives this fact (None when it has none)."""
        triple = Triple(term(fact.s), NamedNode(fact.p), object_term(fact))
        g = NamedNode(graph) if graph else None
        best = None
        for q in self._store.quads_for_pattern(None, NamedNode(RDF_REIFIES), triple, g):
            for pq in self._store.quads_for_pattern(q.subject, NamedNode(KGC_PROBABILITY), None, q.graph_name):
                if isinstance(pq.object, Literal):
                    best = max(best or 0.0, float(pq.object.value))
        return best

    def remove_graph(self, graph: str) -> None:
        self._store.remove_graph(NamedNode(graph))
        self._changed()

    def update(self, sparql_update: str) -> None:
        try:
            self._store.update(sparql_update)
        except SyntaxError as exc:
            raise BadInput(f"SPARQL update: {one_line(exc)}") from None
        self._changed()

    # ---- reading -------------------------------------------------------------------------

    def dump(self, graph: str | None = None) -> bytes:
        """The store as N-Quads, or one graph's triples as N-Triples (export, serving elsewhere)."""
        if graph is None:
            data = self._store.dump(format=OX_FORMATS["nquads"])
        else:
            data = self._store.dump(format=OX_FORMATS["ntriples"], from_graph=NamedNode(graph))
        assert data is not None  # given no `output` to write to, dump returns the bytes
        return data

    def count(self, graph: str | None = None) -> int:
        if graph is None:
            return len(self._store)
        rows = self._store.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {NamedNode(graph)} {{ ?s ?p ?o }} }}")
        assert isinstance(rows, QuerySolutions)  # a SELECT
        return int(next(iter(rows))["n"].value)

    def graphs(self) -> list[tuple[str, int]]:
        names = sorted(g.value for g in self._store.named_graphs() if isinstance(g, NamedNode) and g.value != GRAPH_META)
        return [(g, self.count(g)) for g in names]

    def background_graphs(self) -> list[str]:
        return sorted(g.value for g in self._store.named_graphs() if is_background(g))

    def query(self, sparql: str) -> list[dict[str, str]] | bool:
        """SELECT rows (variable -> IRI, "_:id" or literal's lexical form), ASK's answer, or
        CONSTRUCT's triples as rows of s, p, o. The default graph is the union of all graphs."""
        try:
            result = self._store.query(sparql, use_default_graph_as_union=True)
        except SyntaxError as exc:
            raise BadInput(f"SPARQL query: {one_line(exc)}") from None
        if isinstance(result, QueryBoolean):
            return bool(result)
        if isinstance(result, QuerySolutions):
            names = [v.value for v in result.variables]
            return [{n: term_str(row[n]) for n in names if row[n] is not None} for row in result]
        return [{"s": term_str(t.subject), "p": t.predicate.value, "o": term_str(t.object)} for t in result]

    def label(self, iri: str) -> str:
        cached = self._label_cache.get(iri)
        if cached is None:
            cached = self._label_cache[iri] = self._find_label(iri)
        return cached

    def _find_label(self, iri: str) -> str:
        try:
            term(iri)
        except ValueError:
            return iri
        return resolve_label(iri, self._name_of)

    def _name_of(self, iri: str) -> str | None:
        node = term(iri)
        for predicate in LABEL_PREDICATES:  # most entities stop at the first, rdfs:label
            name = best_name((predicate, q.object.value, q.object.language)
                             for q in self._store.quads_for_pattern(node, NamedNode(predicate), None, None)
                             if isinstance(q.object, Literal))
            if name is not None:
                return name
        return None

    def labels(self, iris: Iterable[str]) -> dict[str, str]:
        return {iri: self.label(iri) for iri in iris}

    def label_entries(self) -> list[LabelEntry]:
        """Every English/untagged label and alias of background entities (cached until a write).
        A relation's label is left out: "office hours" in a question asks for the relation, and
        taken for an entity's name it would be masked out of the question that asks for it. So is
        a Wikidata property's (wd:P123 "publisher", used as wdt:P123): "Who published X?"."""
        if self._entries is None:
            entries: dict[tuple[str, str, bool], LabelEntry] = {}
            relations = set(self.relations())
            for predicate in LABEL_PREDICATES + ALIAS_PREDICATES:
                alias = predicate in ALIAS_PREDICATES
                for q in self._store.quads_for_pattern(None, NamedNode(predicate), None, None):
                    o, s = q.object, term_str(q.subject)
                    if not (is_background(q.graph_name) and isinstance(o, Literal) and is_english(o.language)):
                        continue
                    if not relations.intersection(predicate_forms(s)):
                        key = (o.value, s, alias)
                        entries.setdefault(key, LabelEntry(o.value, s, alias))
            self._entries = sorted(entries.values(), key=lambda e: (e.iri, e.text, e.alias))
        return self._entries

    def relations(self) -> list[str]:
        """The predicates of the background's edges (cached until a write)."""
        if self._relations is None:
            rows = self.query(f'SELECT DISTINCT ?p WHERE {{ GRAPH ?g {{ ?s ?p ?o }} FILTER(STRSTARTS(STR(?g), "{GRAPH_BG}")) }}')
            assert isinstance(rows, list)  # a SELECT
            self._relations = sorted(row["p"] for row in rows)
        return self._relations

    def types(self, iri: str) -> list[str]:
        out: dict[str, None] = {}
        node = term(iri)
        for predicate in TYPE_PREDICATES:
            for q in self._store.quads_for_pattern(node, NamedNode(predicate), None, None):
                if is_background(q.graph_name) and not isinstance(q.object, Literal):
                    out[term_str(q.object)] = None
        return sorted(out)

    def entities_of_type(self, type_iri: str, cap: int = 200) -> list[str]:
        """Instances of a class, sorted when they fit under `cap` (else the first `cap` found)."""
        out: dict[str, None] = {}
        node = term(type_iri)
        for predicate in TYPE_PREDICATES:
            for q in self._store.quads_for_pattern(None, NamedNode(predicate), node, None):
                if is_background(q.graph_name):
                    out[term_str(q.subject)] = None
                    if len(out) > cap:
                        return list(out)[:cap]
        return sorted(out)

    def facts_about(self, iri: str, cap: int = 200) -> list[Fact]:
        return self.neighborhood([iri], hops=1, cap=cap).facts

    def predicates_of(self, iri: str) -> list[str]:
        """The predicates of the background facts the entity is the subject of, names left out,
        sorted: what its relations say of its kind (engine.nlp.kinds), read without making
        a fact of every edge (a hub's thousands of incoming ones among them)."""
        try:
            n = term(iri)
        except ValueError:
            return []
        return sorted({q.predicate.value for q in self._store.quads_for_pattern(n, None, None, None)
                       if is_background(q.graph_name) and q.predicate.value not in NAME_PREDICATES
                       and not isinstance(q.object, Triple)})

    def neighborhood(self, seeds: Iterable[str], hops: int = 1, cap: int = 2000) -> Neighborhood:
        """Background facts within `hops` of the seeds, both directions, literals included;
        capped, and `cap_reason` says so (see kgstore.neighborhood)."""
        return collect(seeds, hops, cap, self._edges, self.label)

    def _edges(self, node: str, limit: int) -> Iterator[Fact]:
        """Background facts of one entity, read lazily (the walk stops when it has enough)."""
        try:
            n = term(node)
        except ValueError:
            return
        for q in itertools.chain(self._store.quads_for_pattern(n, None, None, None),
                                 self._store.quads_for_pattern(None, None, n, None)):
            if is_background(q.graph_name) and q.predicate.value not in NAME_PREDICATES:
                fact = fact_of(q)
                if fact is not None:
                    yield fact

