"""Wikidata JSON entity dumps: one entity per line, optionally inside `[` ... `]` with a comma
after each line (the layout of the official dumps). Keeps truthy claims (preferred rank when a
property has one, else normal; never deprecated) as `wd:Q wdt:P value`, English labels as
rdfs:label and English aliases as skos:altLabel."""

from __future__ import annotations

from pyoxigraph import Literal, NamedNode, Quad

from kgstore.loaders import Parsed, json_value, load_error, read_text
from kgstore.vocab import ALIAS_PREDICATES, RDFS_LABEL, WD, WDT, XSD

GEO_WKT = "http://www.opengis.net/ont/geosparql#wktLiteral"
# Wikidata time precision -> (xsd datatype, characters of "YYYY-MM-DDThh:mm:ss" kept)
TIME_PRECISION = {9: ("gYear", 4), 10: ("gYearMonth", 7), 11: ("date", 10), 14: ("dateTime", 19)}


def parse(path: str, graph: str) -> Parsed:
    text = read_text(path)
    g = NamedNode(graph)
    out = Parsed()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().rstrip(",").strip()
        if not line or line in ("[", "]"):
            continue
        entity = json_value(path, line, number)
        if not isinstance(entity, dict) or not isinstance(entity.get("id"), str):
            raise load_error(path, "not a Wikidata entity (a JSON object with an 'id')", number)
        try:
            out.quads.extend(entity_quads(entity, g))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise load_error(path, f"entity {entity['id']}: malformed claim or label ({type(exc).__name__}: {exc})", number) from None
    return out


def entity_quads(entity: dict, g: NamedNode) -> list[Quad]:
    subject = NamedNode(WD + entity["id"])
    quads = []
    label = (entity.get("labels") or {}).get("en")
    if label:
        quads.append(Quad(subject, NamedNode(RDFS_LABEL), Literal(label["value"], language="en"), g))
    for alias in (entity.get("aliases") or {}).get("en", []):
        quads.append(Quad(subject, NamedNode(ALIAS_PREDICATES[0]), Literal(alias["value"], language="en"), g))
    for prop, statements in (entity.get("claims") or {}).items():
        predicate = NamedNode(WDT + prop)
        for statement in truthy(statements):
            value = snak_value(statement["mainsnak"])
            if value is not None:
                quads.append(Quad(subject, predicate, value, g))
    return quads


def truthy(statements: list[dict]) -> list[dict]:
    preferred = [s for s in statements if s.get("rank") == "preferred"]
    return preferred or [s for s in statements if s.get("rank", "normal") == "normal"]


def snak_value(snak: dict):
    """The RDF term of a claim's value; None for 'no value' / 'some value' and unknown types."""
    if snak.get("snaktype", "value") != "value":
        return None
    datavalue = snak["datavalue"]
    kind, value = datavalue["type"], datavalue["value"]
    if kind == "wikibase-entityid":
        ident = value.get("id") or {"item": "Q", "property": "P"}[value["entity-type"]] + str(value["numeric-id"])
        return NamedNode(WD + ident)
    if kind == "string":
        return Literal(value)
    if kind == "monolingualtext":
        return Literal(value["text"], language=value["language"])
    if kind == "quantity":
        amount = value["amount"].lstrip("+")
        return Literal(amount, datatype=NamedNode(XSD + ("decimal" if "." in amount else "integer")))
    if kind == "time":
        precision = value.get("precision", 11)
        datatype, keep = TIME_PRECISION.get(precision, TIME_PRECISION[9 if precision < 9 else 14])
        stamp = value["time"].lstrip("+")
        if datatype == "dateTime":
            return Literal(stamp[:keep] + "Z", datatype=NamedNode(XSD + datatype))
        return Literal(stamp[:keep], datatype=NamedNode(XSD + datatype))
    if kind == "globecoordinate":
        return Literal(f"Point({value['longitude']} {value['latitude']})", datatype=NamedNode(GEO_WKT))
    return None
