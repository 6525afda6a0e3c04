"""A world as the file a user would load: IRIs per format, and the file text.

Formats: Turtle with the domain's own predicate IRIs carrying rdfs:labels; CSV
`head,relation,tail[,tail_type]` (IRIs minted by kgchat's CSV loader from the file's name); a
Wikidata JSON entity dump (P-ids, statement ranks, property entities for some P-ids); and
N-Triples whose predicates are bare camelCase or snake_case local names without labels.
Literal objects keep the same lexical form in every format, so gold facts read `(s, p, value)`.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zlib

from harness.ood.domain import Domain
from harness.ood.world import Lit, World
from kgstore.vocab import RDF_TYPE, RDFS_LABEL, WD, WDT, XSD, kg_iri

XSD_OF = {"int": "integer", "year": "gYear", "date": "date", "text": "string"}
CSV_TAIL_TYPE = {"int": "integer", "year": "integer", "date": "date", "text": "string"}
# Wikidata class items for `instance of` (P31); the rest of the Q-ids are made up.
WIKIDATA_CLASSES = {"person": "Q5", "city": "Q515", "country": "Q6256"}
# P-ids of the books domain that the file labels with a property entity, as a full dump does;
# the others rely on kgchat's built-in table or stay bare P-ids.
WIKIDATA_LABELLED = ("P123", "P407")


def slug(label: str) -> str:
    return re.sub(r"[^\w]+", "_", label, flags=re.UNICODE).strip("_")


class Encoding:
    """The IRIs one domain's file gives to a world's entities and relations."""

    def __init__(self, domain: Domain, world: World, stem: str):
        self.domain, self.world, self.stem = domain, world, stem
        self._iri: dict[str, str] = {}
        taken: set[str] = set()
        for eid, e in world.entities.items():
            iri, n = self._mint(eid, e.label, 1), 1
            while iri in taken:  # two entities with one label (a town and a club's town)
                n += 1
                iri = self._mint(eid, e.label, n)
            taken.add(iri)
            self._iri[eid] = iri

    def _mint(self, eid: str, label: str, n: int) -> str:
        fmt, base = self.domain.fmt, self.domain.base
        if fmt == "csv":
            if n > 1:  # the CSV loader mints one IRI per label
                raise ValueError(f"{self.stem}: two entities are labelled {label!r}")
            return kg_iri(self.stem, "entity", label)
        if fmt == "wikidata":
            return WD + qid(eid if n == 1 else f"{eid}#{n}")
        return f"{base}{'id' if fmt == 'turtle' else 'resource'}/{slug(label)}{'' if n == 1 else f'_{n}'}"

    def entity(self, eid: str) -> str:
        return self._iri[eid]

    def predicate(self, rel: str) -> str:
        native = self.domain.vocab[rel][0]
        if self.domain.fmt == "csv":
            return kg_iri(self.stem, "relation", native)
        if self.domain.fmt == "wikidata":
            return WDT + native
        return f"{self.domain.base}ont/{native}"

    def cls(self, type_: str) -> str | None:
        if type_ not in self.domain.types:
            return None
        if self.domain.fmt == "wikidata":
            return WD + WIKIDATA_CLASSES.get(type_, qid(f"class_{type_}"))
        return f"{self.domain.base}{'ont' if self.domain.fmt == 'turtle' else 'class'}/{self.domain.types[type_][0]}"

    def obj(self, o: str | Lit) -> str:
        """The object as the loaded store has it: an IRI, or a literal's lexical form."""
        return o.value if isinstance(o, Lit) else self.entity(o)

    def edge(self, s: str, rel: str, o: str | Lit) -> tuple[str, str, str]:
        return (self.entity(s), self.predicate(rel), self.obj(o))


def qid(key: str) -> str:
    """A made-up, stable Q-id for a world entity (high enough not to look like a famous item)."""
    return f"Q{880_000_000 + zlib.crc32(key.encode()) % 99_999_999}"


def render(enc: Encoding) -> str:
    return {"turtle": _turtle, "csv": _csv, "wikidata": _wikidata}.get(enc.domain.fmt, _ntriples)(enc)


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _rdf_literal(o: Lit) -> str:
    return f'{_q(o.value)}^^<{XSD}{XSD_OF[o.kind]}>'


def _triples(enc: Encoding, labels_for_predicates: bool) -> list[tuple[str, str, str]]:
    """(s, p, o) in N-Triples term syntax: types, labels, then the facts."""
    w, out = enc.world, []
    if labels_for_predicates:
        used = {rel for _, rel, _ in w.facts}
        for rel in sorted(used):
            out.append((f"<{enc.predicate(rel)}>", f"<{RDFS_LABEL}>", f"{_q(enc.domain.label(rel))}@en"))
        for type_, (_, label) in sorted(enc.domain.types.items()):
            out.append((f"<{enc.cls(type_)}>", f"<{RDFS_LABEL}>", f"{_q(label)}@en"))
    for eid, e in w.entities.items():
        cls = enc.cls(e.type)
        if cls:
            out.append((f"<{enc.entity(eid)}>", f"<{RDF_TYPE}>", f"<{cls}>"))
        out.append((f"<{enc.entity(eid)}>", f"<{RDFS_LABEL}>", _q(e.label) + ("@en" if labels_for_predicates else "")))
    for s, rel, o in w.facts:
        obj = _rdf_literal(o) if isinstance(o, Lit) else f"<{enc.entity(o)}>"
        out.append((f"<{enc.entity(s)}>", f"<{enc.predicate(rel)}>", obj))
    return out


def _ntriples(enc: Encoding) -> str:
    return "".join(f"{s} {p} {o} .\n" for s, p, o in _triples(enc, labels_for_predicates=False))


def _turtle(enc: Encoding) -> str:
    """Turtle grouped by subject, with prefixes, as a hand-maintained file looks."""
    base = enc.domain.base
    prefixes = {f"{base}ont/": "pso", f"{base}id/": "", RDFS_LABEL[:-5]: "rdfs", XSD: "xsd"}

    def short(term: str) -> str:
        if term.startswith("<") and term.endswith(">"):
            iri = term[1:-1]
            if iri == RDF_TYPE:
                return "a"
            for ns, prefix in prefixes.items():
                local = iri[len(ns):]
                if iri.startswith(ns) and re.fullmatch(r"[A-Za-z_][\w-]*", local, flags=re.ASCII):
                    return f"{prefix}:{local}"
        return term

    lines = [f"@prefix {p}: <{ns}> ." for ns, p in prefixes.items()] + [""]
    by_subject: dict[str, list[tuple[str, str]]] = {}
    for s, p, o in _triples(enc, labels_for_predicates=True):
        by_subject.setdefault(s, []).append((short(p), short(o)))
    for s, pos in by_subject.items():
        body = " ;\n    ".join(f"{p} {o}" for p, o in pos)
        lines.append(f"{short(s)} {body} .\n")
    return "\n".join(lines)


def _csv(enc: Encoding) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["head", "relation", "tail", "tail_type"])
    w = enc.world
    for s, rel, o in w.facts:
        row = [w.entities[s].label, enc.domain.vocab[rel][0]]
        if isinstance(o, Lit):
            writer.writerow(row + [o.value, CSV_TAIL_TYPE[o.kind]])
        else:
            writer.writerow(row + [w.entities[o].label])
    return out.getvalue()


def _snak(prop: str, o: str | Lit, enc: Encoding) -> dict:
    if not isinstance(o, Lit):
        value = {"type": "wikibase-entityid", "value": {"entity-type": "item", "id": enc.entity(o)[len(WD):]}}
    elif o.kind == "int":
        value = {"type": "quantity", "value": {"amount": f"+{o.value}", "unit": "1"}}
    elif o.kind in ("year", "date"):
        stamp = f"+{o.value}-00-00T00:00:00Z" if o.kind == "year" else f"+{o.value}T00:00:00Z"
        value = {"type": "time", "value": {"time": stamp, "timezone": 0, "before": 0, "after": 0,
                                           "precision": 9 if o.kind == "year" else 11,
                                           "calendarmodel": "http://www.wikidata.org/entity/Q1985727"}}
    else:
        value = {"type": "string", "value": o.value}
    return {"snaktype": "value", "property": prop, "datavalue": value}


def _wikidata(enc: Encoding) -> str:
    """One entity per line inside `[` ... `]`, as the official dumps are laid out. Some dates
    carry a second, deprecated statement (a corrected error), which the loader must skip."""
    w = enc.world
    claims: dict[str, dict[str, list]] = {eid: {} for eid in w.entities}
    for eid, e in w.entities.items():
        if e.type in enc.domain.types:
            cls = enc.cls(e.type).rsplit("/", 1)[1]
            claims[eid]["P31"] = [_statement(enc.entity(eid)[len(WD):], "P31", {"snaktype": "value", "property": "P31", "datavalue": {
                "type": "wikibase-entityid", "value": {"entity-type": "item", "id": cls}}}, "normal")]
    for n, (s, rel, o) in enumerate(w.facts):
        prop = enc.domain.vocab[rel][0]
        statements = claims[s].setdefault(prop, [])
        statements.append(_statement(enc.entity(s)[len(WD):], f"{prop}-{n}", _snak(prop, o, enc), "normal"))
        if isinstance(o, Lit) and o.kind == "year" and zlib.crc32(f"{s}{rel}".encode()) % 3 == 0:
            statements[-1]["rank"] = "preferred"
            wrong = Lit(str(int(o.value) + 1), o.kind)
            statements.append(_statement(enc.entity(s)[len(WD):], f"{prop}-{n}-x", _snak(prop, wrong, enc), "deprecated"))
    lines = []
    for pid in WIKIDATA_LABELLED:
        label = next(lab for native, lab in enc.domain.vocab.values() if native == pid)
        lines.append({"type": "property", "id": pid, "datatype": "wikibase-item",
                      "labels": {"en": {"language": "en", "value": label}}, "claims": {}})
    for type_, (_, label) in sorted(enc.domain.types.items()):
        lines.append({"type": "item", "id": enc.cls(type_).rsplit("/", 1)[1],
                      "labels": {"en": {"language": "en", "value": label}}, "claims": {}})
    for eid, e in w.entities.items():
        item = {"type": "item", "id": enc.entity(eid)[len(WD):], "labels": {"en": {"language": "en", "value": e.label}},
                "claims": claims[eid]}
        if e.aliases:
            item["aliases"] = {"en": [{"language": "en", "value": a} for a in e.aliases]}
        lines.append(item)
    return "[\n" + ",\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n]\n"


def _statement(q: str, key: str, snak: dict, rank: str) -> dict:
    return {"mainsnak": snak, "type": "statement", "rank": rank,
            "id": f"{q}${zlib.crc32(key.encode()):08x}"}
