"""Background knowledge from any SPARQL 1.1 endpoint (`--sparql URL`).

The same read interface as KGStore (label, labels, label_entries, find_labels, types,
entities_of_type, neighborhood, facts_about, count, query), over HTTP with a bounded connection
pool and a timeout. Entities' facts and neighbourhoods are cached for the session. Values only
enter a query as RDF terms written by pyoxigraph (IRIs validated, literals escaped), never as
pasted text. The dialogue and derived graphs stay in the local store.

Faults: an endpoint that cannot be reached when the session starts is BadInput naming the URL;
one that fails later (down, slower than the timeout, answering garbage) raises RemoteUnavailable,
which the candidates stage catches so the turn goes on with the dialogue graph only.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from pyoxigraph import Literal, NamedNode

from kgstore.errors import BadInput, RemoteUnavailable
from kgstore.neighborhood import NAME_PREDICATES, collect
from kgstore.store import TYPE_PREDICATES, WIKIDATA_PROPERTY, best_name, predicate_forms, resolve_label
from kgstore.terms import Fact, LabelEntry, Neighborhood
from kgstore.vocab import ALIAS_PREDICATES, LABEL_PREDICATES, WD, XSD

XSD_STRING = XSD + "string"
RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"


def iri(value: str) -> str:
    """An IRI as a SPARQL term; ValueError when it is not a valid IRI."""
    return str(NamedNode(value))


def literal(text: str, lang: str | None = None) -> str:
    """A string literal as a SPARQL term, escaped."""
    return str(Literal(text, language=lang) if lang else Literal(text))


def values(var: str, terms: Iterable[str]) -> str:
    return f"VALUES ?{var} {{ {' '.join(terms)} }}"


def batches(items: list[str], size: int = 40) -> list[list[str]]:
    """Long VALUES blocks and UNIONs plan slowly: a few dozen terms per query."""
    return [items[i:i + size] for i in range(0, len(items), size)]


def by_predicate(predicates: Iterable[str], pattern: str) -> str:
    """`{ ?s <p1> ?l BIND(<p1> AS ?p) } UNION ...` for a pattern like "?s {} ?l". Each branch
    has its predicate bound: with `?p` left open, a VALUES block joined with it makes some
    engines (Oxigraph among them) scan the whole store."""
    return " UNION ".join(f"{{ {pattern.format(iri(p))} BIND({iri(p)} AS ?p) }}" for p in predicates)


NAME_FILTER = f"FILTER(?p NOT IN ({', '.join(iri(p) for p in sorted(NAME_PREDICATES))}))"


@dataclass
class _Edges:
    facts: list[Fact] = field(default_factory=list)
    complete: bool = False


def _well_formed(body) -> bool:
    """SPARQL JSON results: a boolean, or bindings whose every value is a term with a text value."""
    if not isinstance(body, dict):
        return False
    if "boolean" in body:
        return isinstance(body["boolean"], bool)
    results = body.get("results")
    rows = results.get("bindings") if isinstance(results, dict) else None
    return isinstance(rows, list) and all(
        isinstance(row, dict) and all(isinstance(t, dict) and isinstance(t.get("value"), str) for t in row.values())
        for row in rows)


_SELECTED = re.compile(r"SELECT\s+(?:DISTINCT\s+)?((?:\?\w+\s+)+)WHERE")


class SparqlBackground:
    # The most bytes of one answer read: a bigger one is the endpoint failing, not data to hold.
    max_answer_bytes = 64 * 2**20

    def __init__(self, url: str, timeout: float = 2.0, *, max_connections: int = 4, cache_entities: int = 20_000):
        import httpx

        try:
            parsed = httpx.URL(url)
        except (httpx.InvalidURL, TypeError) as exc:
            raise BadInput(f"--sparql {url}: not a URL ({exc})") from None
        if parsed.scheme not in ("http", "https") or not parsed.host:
            raise BadInput(f"--sparql {url}: not an http:// or https:// URL")
        self.url = url
        self.timeout = timeout
        self._httpx = httpx
        self._client = httpx.Client(
            timeout=httpx.Timeout(timeout), headers={"Accept": "application/sparql-results+json"},
            limits=httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections))
        self._pool = ThreadPoolExecutor(max_workers=max_connections, thread_name_prefix="sparql")
        self._lock = threading.Lock()
        self._labels: dict[str, str] = {}
        self._edges: OrderedDict[str, _Edges] = OrderedDict()
        self._cache_entities = cache_entities
        self._neighborhoods: OrderedDict[tuple, Neighborhood] = OrderedDict()
        self._entries: list[LabelEntry] | None = None
        self._relations: list[str] | None = None
        try:
            self._request("ASK { ?s ?p ?o }")
        except RemoteUnavailable as exc:
            raise BadInput(f"--sparql {url}: {exc}") from None

    def close(self) -> None:
        self._pool.shutdown(wait=False)
        self._client.close()

    # ---- HTTP ----------------------------------------------------------------------------

    def _request(self, query: str) -> dict:
        """The endpoint's answer, read within `timeout` seconds in all (a watchdog closes a
        connection that trickles bytes past it) and at most `max_answer_bytes` long."""
        httpx = self._httpx
        late = f"SPARQL endpoint {self.url} did not answer within {self.timeout:g} s"
        start = time.monotonic()
        try:
            with self._client.stream("POST", self.url, data={"query": query}) as response:
                watchdog = threading.Timer(max(0.0, self.timeout - (time.monotonic() - start)), response.close)
                watchdog.start()
                try:
                    status, data = response.status_code, self._read(response)
                finally:
                    watchdog.cancel()
        except httpx.TimeoutException:
            raise RemoteUnavailable(late) from None
        except httpx.HTTPError as exc:
            if time.monotonic() - start >= self.timeout:  # the watchdog closed it
                raise RemoteUnavailable(late) from None
            raise RemoteUnavailable(f"SPARQL endpoint {self.url} is unreachable ({type(exc).__name__}: {exc})") from None
        if data is None or time.monotonic() - start >= self.timeout:
            raise RemoteUnavailable(late if data is not None else
                                    f"SPARQL endpoint {self.url} answered more than {self.max_answer_bytes // 2**20} MB")
        text = data.decode("utf-8", errors="replace")
        if status == 400:
            raise BadInput(f"SPARQL query refused by {self.url}: {text.strip().splitlines()[0][:300] if text.strip() else 'HTTP 400'}")
        if status != 200:
            raise RemoteUnavailable(f"SPARQL endpoint {self.url} answered HTTP {status}")
        try:
            body = json.loads(text)
        except (ValueError, RecursionError):
            body = None
        if not _well_formed(body):
            raise RemoteUnavailable(f"SPARQL endpoint {self.url} answered something that is not SPARQL JSON results")
        return body

    def _read(self, response) -> bytes | None:
        """The body, or None past `max_answer_bytes`; ends early when the watchdog closes it."""
        chunks, size = [], 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > self.max_answer_bytes:
                return None
            chunks.append(chunk)
        return b"".join(chunks)

    def _select(self, query: str) -> list[dict[str, dict]]:
        """The rows of one of kgchat's own SELECT queries, each binding every variable it selects."""
        rows = self._request(query)["results"]["bindings"]
        selected = _SELECTED.match(query)
        wanted = re.findall(r"\?(\w+)", selected.group(1)) if selected else []
        if any(name not in row for row in rows for name in wanted):
            raise RemoteUnavailable(f"SPARQL endpoint {self.url} answered rows without the variables asked for")
        return rows

    def _select_all(self, queries: list[str]) -> list[list[dict[str, dict]]]:
        """Several queries at once over the connection pool."""
        return list(self._pool.map(self._select, queries)) if len(queries) > 1 else [self._select(q) for q in queries]

    # ---- the KGStore read interface -------------------------------------------------------

    def query(self, sparql: str) -> list[dict[str, str]] | bool:
        body = self._request(sparql)
        if "boolean" in body:
            return bool(body["boolean"])
        return [{k: _lexical(v) for k, v in row.items()} for row in body["results"]["bindings"]]

    def count(self) -> int:
        rows = self._select("SELECT ?n WHERE { { SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o } } }")
        try:
            return int(rows[0]["n"]["value"])
        except (IndexError, ValueError):
            raise RemoteUnavailable(f"SPARQL endpoint {self.url} answered a count that is not a number") from None

    def label(self, value: str) -> str:
        return self.labels([value])[value]

    def labels(self, iris: Iterable[str]) -> dict[str, str]:
        wanted = list(dict.fromkeys(iris))
        missing = [i for i in wanted if i not in self._labels]
        found: dict[str, list] = {}
        valid = []
        for value in missing:
            try:
                valid.append(iri(value))
            except ValueError:
                self._labels[value] = value
                continue
            match = WIKIDATA_PROPERTY.match(value)
            if match:  # wdt:P57 is labelled on wd:P57: ask for both in the same query
                valid.append(iri(WD + match.group(1)))
        valid = list(dict.fromkeys(valid))
        queries = [f"SELECT ?s ?p ?l WHERE {{ {values('s', batch)} {by_predicate(LABEL_PREDICATES, '?s {} ?l')} "
                   "FILTER(isLiteral(?l)) }" for batch in batches(valid)]
        for rows in self._select_all(queries):
            for row in rows:
                found.setdefault(row["s"]["value"], []).append(
                    (row["p"]["value"], row["l"]["value"], row["l"].get("xml:lang")))
        for value in missing:
            if value not in self._labels:
                self._labels[value] = resolve_label(value, lambda x: best_name(found[x]) if x in found else None)
        return {i: self._labels[i] for i in wanted}

    def label_entries(self, cap: int = 500_000) -> list[LabelEntry]:
        """Every English/untagged label and alias (up to `cap`), once per session, but a relation's
        (as the embedded store's `label_entries`). For endpoints holding a huge KG prefer
        `find_labels(text)`."""
        if self._entries is None:
            rows = self._select(
                f"SELECT ?s ?p ?l WHERE {{ {values('p', map(iri, LABEL_PREDICATES + ALIAS_PREDICATES))} ?s ?p ?l "
                f"FILTER(isLiteral(?l) && (lang(?l) = \"\" || langMatches(lang(?l), \"en\"))) }} LIMIT {int(cap)}")
            relations = set(self.relations())
            seen: dict[tuple, LabelEntry] = {}
            for r in rows:
                if relations.intersection(predicate_forms(r["s"]["value"])):
                    continue
                key = (r["l"]["value"], r["s"]["value"], r["p"]["value"] in ALIAS_PREDICATES)
                seen.setdefault(key, LabelEntry(*key))
            self._entries = sorted(seen.values(), key=lambda e: (e.iri, e.text, e.alias))
        return self._entries

    def relations(self) -> list[str]:
        """The endpoint's predicates, once per session."""
        if self._relations is None:
            self._relations = sorted(r["p"]["value"] for r in self._select("SELECT DISTINCT ?p WHERE { ?s ?p ?o }"))
        return self._relations

    def find_labels(self, text: str, max_words: int = 4) -> list[LabelEntry]:
        """Entities whose label or alias is exactly a run of 1..max_words words of `text`
        (as written, lower case or title case; untagged or English): index lookups only."""
        words = re.findall(r"[\w'.-]+", text)
        phrases = {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, min(i + max_words, len(words)) + 1)}
        variants = {v for p in phrases for v in (p, p.lower(), p.title())}
        terms = [t for v in sorted(variants) for t in (literal(v), literal(v, "en"))]
        entries: dict[tuple, LabelEntry] = {}
        queries = [f"SELECT ?s ?p ?l WHERE {{ {values('l', batch)} "
                   f"{by_predicate(LABEL_PREDICATES + ALIAS_PREDICATES, '?s {} ?l')} }}" for batch in batches(terms)]
        for rows in self._select_all(queries):
            for r in rows:
                key = (r["l"]["value"], r["s"]["value"], r["p"]["value"] in ALIAS_PREDICATES)
                entries.setdefault(key, LabelEntry(*key))
        return list(entries.values())

    def types(self, value: str) -> list[str]:
        rows = self._select(f"SELECT DISTINCT ?t WHERE {{ {values('p', map(iri, TYPE_PREDICATES))} {iri(value)} ?p ?t "
                            "FILTER(!isLiteral(?t)) }")
        return sorted(r["t"]["value"] for r in rows)

    def entities_of_type(self, type_iri: str, cap: int = 200) -> list[str]:
        rows = self._select(f"SELECT DISTINCT ?s WHERE {{ {values('p', map(iri, TYPE_PREDICATES))} ?s ?p {iri(type_iri)} }} "
                            f"LIMIT {int(cap) + 1}")
        found = [_lexical(r["s"]) for r in rows]
        return found[:cap] if len(found) > cap else sorted(found)

    def facts_about(self, value: str, cap: int = 200) -> list[Fact]:
        return self.neighborhood([value], hops=1, cap=cap).facts

    def neighborhood(self, seeds: Iterable[str], hops: int = 1, cap: int = 2000) -> Neighborhood:
        seeds = list(dict.fromkeys(seeds))
        key = (tuple(seeds), hops, cap)
        with self._lock:
            cached = self._neighborhoods.get(key)
        if cached is not None:
            return cached
        nb = collect(seeds, hops, cap, self._entity_edges, self.label, prefetch=self._prefetch)
        with self._lock:
            self._neighborhoods[key] = nb
            while len(self._neighborhoods) > 256:
                self._neighborhoods.popitem(last=False)
        return nb

    # ---- neighbourhood pages -------------------------------------------------------------

    def _page(self, node: str, offset: int, limit: int) -> list[Fact]:
        n = iri(node)
        rows = self._select(
            f"SELECT ?s ?p ?o WHERE {{ {{ {n} ?p ?o BIND({n} AS ?s) }} UNION {{ ?s ?p {n} BIND({n} AS ?o) }} "
            f"{NAME_FILTER} }} OFFSET {int(offset)} LIMIT {int(limit)}")
        facts = []
        for r in rows:
            o = r["o"]
            if o["type"] == "triple":
                continue
            if o["type"] == "literal" or o["type"] == "typed-literal":
                datatype = o.get("datatype")
                lang = o.get("xml:lang")
                facts.append(Fact(_lexical(r["s"]), r["p"]["value"], o["value"], True,
                                  None if datatype in (XSD_STRING, RDF_LANG_STRING) or lang else datatype, lang))
            else:
                facts.append(Fact(_lexical(r["s"]), r["p"]["value"], _lexical(o)))
        return facts

    def _fetch(self, node: str, limit: int) -> _Edges:
        with self._lock:
            entry = self._edges.get(node)
        if entry is None:
            try:
                facts = self._page(node, 0, limit)
            except ValueError:  # not an IRI: no facts
                facts = []
                limit = 1
            entry = _Edges(facts, complete=len(facts) < limit)
            with self._lock:
                self._edges[node] = entry
                while len(self._edges) > self._cache_entities:
                    self._edges.popitem(last=False)
        return entry

    def _prefetch(self, nodes: list[str], share: int) -> None:
        """First pages of a frontier's entities, in parallel over the connection pool."""
        with self._lock:
            todo = [n for n in nodes if n not in self._edges]
        if len(todo) > 1:
            list(self._pool.map(lambda n: self._fetch(n, share + 1), todo))

    def _entity_edges(self, node: str, limit: int) -> Iterator[Fact]:
        entry = self._fetch(node, limit)
        i = 0
        while True:
            while i < len(entry.facts):
                yield entry.facts[i]
                i += 1
            if entry.complete:
                return
            page = max(limit, len(entry.facts))
            more = self._page(node, len(entry.facts), page)
            entry.facts.extend(more)
            entry.complete = len(more) < page


def _lexical(term: dict) -> str:
    return "_:" + term["value"] if term["type"] == "bnode" else term["value"]

