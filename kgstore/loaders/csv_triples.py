"""CSV/TSV triples: `head,relation,tail[,tail_type]`, one per row.

Heads and relations are names: they get minted IRIs and an rdfs:label. A tail is a literal when
`tail_type` says so or when it reads as a number, date, time, e-mail, phone number or URL;
otherwise it is an entity like the head. A row whose relation says what the head is ("instance
of", "type", "is a") types it: rdf:type, as an RDF file would; one whose relation gives another
name of the head ("also known as", "alias", "nickname") is an alias (skos:altLabel), so the
head is found by that name too.
"""

from __future__ import annotations

import csv
import io
import re

from pyoxigraph import Literal, NamedNode

from kgstore.loaders import Parsed, load_error, read_text
from kgstore.terms import LabelEntry
from kgstore.vocab import ALIAS_PREDICATES, RDF_TYPE, RDFS_LABEL, XSD, kg_iri_maker, split_words

HEADER = ("head", "relation", "tail")
# Relation names that mean rdf:type (compared in lower case, "_" and "-" as spaces).
TYPE_RELATIONS = frozenset({"instance of", "type", "rdf:type", "is a", "isa", "a", "p31", "wdt:p31"})
# Relation names that give another name of the head (compared as TYPE_RELATIONS are).
ALIAS_RELATIONS = frozenset({"also known as", "aka", "a.k.a.", "alias", "aliases", "alternative name", "alternate name",
                             "alternative names", "other name", "nickname", "alt label", "skos:altlabel",
                             "schema:alternatename", "p1449", "wdt:p1449"})
# tail_type column values -> xsd datatype ("" = plain string literal, None = entity)
TAIL_TYPES: dict[str, str | None] = {
    "entity": None, "iri": None, "literal": "", "string": "", "text": "", "email": "", "phone": "",
    "integer": "integer", "int": "integer", "decimal": "decimal", "number": "decimal",
    "double": "double", "float": "double", "date": "date", "time": "time", "datetime": "dateTime",
    "boolean": "boolean", "bool": "boolean", "url": "anyURI", "uri": "anyURI",
}
# A number with a unit of measure (a letter after a number is no unit: "7C" is a room).
_AMOUNT = (r"\d[\d,]*(?:\.\d+)?\s?(?:km/h|kmh|kph|mph|m/s|km²|km2|m²|m2|sq km|km|cm|mm|m|kg|g|tonnes?|t|h|hrs?|hours?"
           r"|min|mins|minutes?|s|secs?|seconds?|days?|°C|°F|%|ha|l|ml|kcal|kWh|MW|GW)")
_PATTERNS: list[tuple[re.Pattern, str]] = [
    (re.compile(r"[+-]?\d+"), "integer"),
    (re.compile(r"[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?|[+-]?\d+[eE][+-]?\d+"), "decimal"),
    (re.compile(r"\d{4}-\d{2}-\d{2}"), "date"),
    (re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?"), "dateTime"),
    (re.compile(r"\d{1,2}:\d{2}(:\d{2})?"), "time"),
    (re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+"), ""),
    (re.compile(r"(https?|ftp)://\S+"), "anyURI"),
    (re.compile(r"\+?\(?\d[\d ()./-]{5,}\d"), ""),  # phone: digits with separators, at least 7
    (re.compile(rf"{_AMOUNT}(?:\s+{_AMOUNT})*"), ""),  # "1222 m", "210 km/h", "6 h 40 min": a measure, no name
]


def literal_for(text: str, datatype: str | None = None) -> Literal | None:
    """The literal a tail reads as (None: an entity). `datatype` forces one (xsd local name)."""
    if datatype is None:
        if text[:1].isalpha() and "@" not in text and "://" not in text:
            return None  # every pattern but the e-mail's and the URL's opens with a digit, a sign or a bracket
        for pattern, dt in _PATTERNS:
            if pattern.fullmatch(text):
                if dt == "decimal" and re.search(r"[eE]", text):
                    dt = "double"
                datatype = dt
                break
        else:
            return None
    if datatype == "":
        return Literal(text)
    if datatype == "time":
        text = _full_time(text)
    if datatype == "dateTime":
        text = text.replace(" ", "T", 1)
    return Literal(text, datatype=NamedNode(XSD + datatype))


def _full_time(text: str) -> str:
    parts = text.split(":")
    h, m, s = (parts + ["00"])[:3]
    return f"{int(h):02d}:{m}:{s}"


def is_relation(relation: str, names: frozenset[str]) -> bool:
    return " ".join(split_words(relation).replace("-", " ").casefold().split()) in names \
        or relation.casefold() in names


def parse(path: str, graph: str, name: str, delimiter: str = ",", text: str | None = None) -> Parsed:
    """The file's triples as N-Triples text for `graph`, with the names it gives entities and the
    predicates it uses (as a table's, see kgstore.loaders.tables.parse_sheets: pyoxigraph reads
    the text faster than Python builds quads, and the store indexes the names without reading
    them back); `text`, when given, is the file already read. A head, relation or tail is minted
    and written once however many rows say it."""
    text = read_text(path) if text is None else text
    label, rdf_type, alias = (str(NamedNode(iri)) for iri in (RDFS_LABEL, RDF_TYPE, ALIAS_PREDICATES[0]))
    lines: list[str] = []
    entries: list[LabelEntry] = []
    used: set[str] = {label}  # predicates, N-Triples form
    entities: dict[str, str] = {}
    relations: dict[str, tuple[str, str]] = {}  # name -> (role: "alias", "type" or "", N-Triples node)
    values: dict[tuple[str, str | None], str | None] = {}  # (tail, tail_type) -> literal, N-Triples form
    entity_iri, relation_iri = kg_iri_maker(name, "entity"), kg_iri_maker(name, "relation")

    def entity(label_text: str) -> str:
        node = entities.get(label_text)
        if node is None:
            iri = entity_iri(label_text)
            node = entities[label_text] = f"<{iri}>"
            lines.append(f"{node} {label} {Literal(label_text)} .\n")
            entries.append(LabelEntry(label_text, iri))
        return node

    def relation(relation_text: str) -> tuple[str, str]:
        known = relations.get(relation_text)
        if known is None:
            role = "alias" if is_relation(relation_text, ALIAS_RELATIONS) else \
                "type" if is_relation(relation_text, TYPE_RELATIONS) else ""
            known = relations[relation_text] = (role, f"<{relation_iri(relation_text)}>")
        return known

    def predicate_of(relation_text: str, node: str) -> str:
        if node not in used:  # named where first used: an alias or type relation is no predicate
            # A relation written as a code name ("place_of_birth", "homeGround") reads as words.
            words = split_words(relation_text) if " " not in relation_text else relation_text
            lines.append(f"{node} {label} {Literal(words)} .\n")
            used.add(node)
        return node

    def value(tail: str, tail_type: str | None) -> str | None:
        key = (tail, tail_type)
        if key not in values:
            if tail_type is None:
                obj = literal_for(tail)
            elif TAIL_TYPES[tail_type] is None:
                obj = None
            else:
                obj = literal_for(tail, TAIL_TYPES[tail_type])
            values[key] = None if obj is None else str(obj)
        return values[key]

    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        for row in reader:
            line = reader.line_num
            cells = [c.strip() for c in row]
            if not any(cells) or cells[0].startswith("#"):
                continue
            if line == 1 and tuple(c.lower() for c in cells[:3]) == HEADER:
                continue
            if len(cells) not in (3, 4):
                raise load_error(path, f"expected 3 or 4 columns (head, relation, tail[, tail_type]), found {len(cells)}", line)
            head, relation_text, tail = cells[:3]
            if not head or not relation_text or not tail:
                raise load_error(path, "head, relation and tail must not be empty", line)
            tail_type = cells[3].lower() if len(cells) == 4 and cells[3] else None
            if tail_type is not None and tail_type not in TAIL_TYPES:
                raise load_error(path, f"unknown tail_type '{cells[3]}' (choose from {', '.join(TAIL_TYPES)})", line)
            obj = value(tail, tail_type)
            role, predicate = relation(relation_text)
            if role == "alias":
                subject = entity(head)
                lines.append(f"{subject} {alias} {Literal(tail)} .\n")
                entries.append(LabelEntry(tail, subject[1:-1], True))
                used.add(alias)
                continue
            if role == "type" and obj is None:
                used.add(rdf_type)
                predicate = rdf_type
            else:
                predicate = predicate_of(relation_text, predicate)
            lines.append(f"{entity(head)} {predicate} {obj if obj is not None else entity(tail)} .\n")
    except csv.Error as exc:
        raise load_error(path, f"bad CSV: {exc}", reader.line_num) from None
    except ValueError as exc:  # a literal pyoxigraph refuses (e.g. a malformed date forced by tail_type)
        raise load_error(path, str(exc), reader.line_num) from None
    return Parsed(ntriples="".join(lines).encode(), names=entries, predicates=sorted(node[1:-1] for node in used))
