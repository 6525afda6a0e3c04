"""What the checker reads from the KG for one reply: labels, kinds of things, each entity's facts
grouped by relation and direction (slots), and which relations hold one value. Cached per reply."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from engine.factcheck import values as V
from engine.factcheck.relations import custom, functional, label_words
from engine.factcheck.slots import KFact, Slot
from engine.nlp.sentences import literal_text, predicate_key, sentence
from kgstore.terms import Fact
from kgstore.vocab import LABEL_PREDICATES, OFFICE_CLASSES, WD, local_name
from rules.similarity import norm

_IRI = re.compile(r"^(?:urn|https?):\S+$")
# A label with a comma or a coordination inside: the splitter would cut it as a list of predicates.
_COORDINATED = re.compile(r",|;|\b(?:and|or)\b")
PERSON_TYPES = frozenset("person human people agent lecturer professor teacher student musician singer artist actor "
                         "actress author writer director producer player athlete employee researcher scientist chef "
                         "cook politician mayor composer drummer guitarist".split())
PERSON_KEYS = frozenset({"P21", "P735", "P734", "P569", "P19"})
# Relations that record a name, a gender or a source: they say nothing a claim's words could mean.
RECORD = re.compile(r"\b(?:given|first|family|last|middle|nick|sur|fore) ?names?\b|^names?$|\bsex\b|\bgender\b|"
                    r"\bdescribed (?:by|at)\b|\bsource\b", re.IGNORECASE)
PERSON_RECORD = re.compile(r"\b(?:given|first|family|last) ?names?\b|\bsex\b|\bgender\b|\b(?:date|place) of birth\b|"
                           r"\bborn\b", re.IGNORECASE)
OFFICE_KIND = re.compile(r"^urn:kgchat:kg:[^:]+:(person|event|room|group):")
CLASS_KIND = {iri: kind for kind, iri in OFFICE_CLASSES.items()}
PROPERTY = re.compile(r"/(?:entity|prop/direct)/P\d+$")


class KGView:
    """The background KG and the turn's retrieved facts, as the checker reads them."""

    def __init__(self, background, retrieved=()):
        self.bg = background
        self.retrieved = list(retrieved)
        self.retrieved_keys = {c.fact.key for c in self.retrieved}
        self.retrieved_entities = {x for c in self.retrieved for x in (c.fact.s, c.fact.o) if not c.fact.o_literal}
        self._labels: dict[str, str] = {}
        self._cats: dict[str, frozenset[str]] = {}
        self._slots: dict[str, dict[tuple[str, str], Slot]] = {}
        self._predicates: dict[str, bool] = {}
        self._many: dict[tuple[str, str], bool] = {}
        self._texts: dict[tuple[str, str], bool] = {}

    def label(self, iri: str) -> str:
        if iri not in self._labels:
            self._labels[iri] = self.bg.label(iri)
        return self._labels[iri]

    def category(self, iri: str) -> frozenset[str]:
        """What kind of thing an entity is: person/event/room/group, else its types."""
        cat = self._cats.get(iri)
        if cat is None:
            m = OFFICE_KIND.match(iri)
            if m:
                cat = frozenset({m.group(1)})
            else:
                types = self.bg.types(iri)
                kinds = {CLASS_KIND[t] for t in types if t in CLASS_KIND}
                if WD + "Q5" in types or any(set(label_words(local_name(t)).lower().split()) & PERSON_TYPES
                                             for t in types):
                    kinds.add("person")  # a custom KG's Lecturer or Musician is someone "they" can stand for
                if not kinds and not types and self._named_like_a_person(iri):
                    kinds.add("person")  # an untyped KG: given and family names, a gender, say who
                cat = frozenset(kinds or types or {"thing"})
            self._cats[iri] = cat
        return cat

    def _named_like_a_person(self, iri: str) -> bool:
        return any(d == "out" and (key in PERSON_KEYS or PERSON_RECORD.search(label_words(s.facts[0].p_label or key)))
                   for (key, d), s in self.slots(iri).items())

    def slots(self, iri: str) -> dict[tuple[str, str], Slot]:
        got = self._slots.get(iri)
        if got is not None:
            return got
        facts = list(self.bg.facts_about(iri, cap=400))
        seen = {f.key for f in facts}
        facts += [c.fact for c in self.retrieved if iri in (c.fact.s, c.fact.o) and c.fact.key not in seen]
        # A derived fact of three entities keeps two in its triple: "X and Y are both connected
        # to Z" is (X, connected via, Y); its claims "X is connected to Z", "Y is connected to Z"
        # read the third too.
        for c in self.retrieved:
            if len(c.args) > 2 and not c.fact.o_literal and iri in (c.fact.s, c.fact.o):
                for z in c.args:
                    if z not in (c.fact.s, c.fact.o) and _IRI.match(z):
                        extra = Fact(iri, c.fact.p, z)
                        self.retrieved_keys.add(extra.key)
                        facts.append(extra)
        out: dict[tuple[str, str], Slot] = {}
        for f in facts:
            if f.p in LABEL_PREDICATES:
                continue
            key = predicate_key(f.p) or f.p
            if f.s == iri:
                direction, other, literal = "out", f.o, f.o_literal
            elif f.o == iri and not f.o_literal:
                direction, other, literal = "in", f.s, False
            else:
                continue
            kf = KFact(f, key, "", other, literal, source="retrieved" if f.key in self.retrieved_keys else "kg")
            if literal:
                parsed = V.literal_kind(f.o, f.datatype)
                kf.kind, kf.value = parsed if parsed else ("text", norm(f.o))
            slot = out.get((key, direction))
            if slot is None:
                slot = out[(key, direction)] = Slot(key, direction, [], literal, kf.kind)
            slot.facts.append(kf)
        for slot in out.values():
            label = self.label(slot.facts[0].fact.p)
            for kf in slot.facts:
                kf.p_label = label
        self._slots[iri] = out
        return out

    def labels_said(self, iri: str, sentence: str) -> list[tuple[int, int]]:
        """Where a sentence says whole a relation label of the entity that holds a comma or a
        coordination ("languages spoken, written or signed"): one term, not three predicates."""
        low = sentence.casefold()
        spans = []
        for slot in self.slots(iri).values():
            label = slot.facts[0].p_label.casefold()
            at = low.find(label) if _COORDINATED.search(label) else -1
            if at >= 0:
                spans.append((at, at + len(label)))
        return spans

    def slot_category(self, slot: Slot) -> frozenset[str]:
        return self.category(slot.facts[0].other)

    def is_predicate(self, iri: str) -> bool:
        if PROPERTY.search(iri):
            return True
        if iri not in self._predicates:
            ask = getattr(self.bg, "query", None)
            try:
                self._predicates[iri] = bool(ask and ask(f"ASK {{ GRAPH ?g {{ ?s <{iri}> ?o }} }}"))
            except Exception:  # a remote endpoint that refuses the query: treat it as an entity
                self._predicates[iri] = False
        return self._predicates[iri]

    def many_valued(self, slot: Slot) -> bool:
        """Does any subject of the KG hold two values of this relation ("teaches" does; "head of
        department" does not)? Asked once per predicate and direction."""
        p = slot.facts[0].fact.p
        key = (p, slot.direction)
        if key not in self._many:
            a, b = ("?s", "?o") if slot.direction == "out" else ("?o", "?s")
            ask = getattr(self.bg, "query", None)
            try:
                self._many[key] = bool(ask and ask(
                    f"ASK {{ GRAPH ?g {{ {a} <{p}> {b} . {a} <{p}> ?other . FILTER({b} != ?other) }} }}"
                    if slot.direction == "out" else
                    f"ASK {{ GRAPH ?g {{ {b} <{p}> {a} . ?other <{p}> {a} . FILTER({b} != ?other) }} }}"))
            except Exception:  # an endpoint that refuses the query: assume several values, claim nothing
                self._many[key] = True
        return self._many[key]

    def holds_text(self, p: str, text: str) -> bool:
        """Does any subject of the KG hold `text` (case aside) as a value of predicate p?"""
        key = (p, norm(text))
        if key not in self._texts:
            ask = getattr(self.bg, "query", None)
            quoted = text.lower().replace("\\", "\\\\").replace('"', '\\"')
            try:
                self._texts[key] = bool(ask and ask(
                    f'ASK {{ GRAPH ?g {{ ?s <{p}> ?o . FILTER(isLiteral(?o) && LCASE(STR(?o)) = "{quoted}") }} }}'))
            except Exception:  # an endpoint that refuses the query: no value known
                self._texts[key] = False
        return self._texts[key]

    def single(self, slot: Slot, said: AbstractSet[str]) -> bool:
        """One value per subject: by the schema, or a relation the claim states (`said`: by its
        words or its value's unit) that holds one number, date or thing here and for every
        other subject of the KG ("draws 500,000 monthly listeners", "was formed in Leeds")."""
        if functional(slot.key, len(slot.facts)):
            return True
        if not custom(slot.key) or len(slot.facts) != 1 or self.many_valued(slot):
            return False
        return slot.key in said or slot.kind in ("date", "number")

    def say(self, kf: KFact) -> str:
        f = kf.fact
        return sentence(self.label(f.s), kf.key, kf.p_label, self.value_label(kf))

    def value_label(self, kf: KFact) -> str:
        f = kf.fact
        return literal_text(f.o, f.datatype) if f.o_literal else self.label(f.o)
