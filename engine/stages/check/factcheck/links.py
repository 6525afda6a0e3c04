"""Relation first, then value: which relation a claim states, and whether the things it names
are joined by a fact of that relation (a value the KG holds under another relation is no
support; a wrong value, or a thing of the wrong kind, for a single-valued relation contradicts)."""

from __future__ import annotations

import re

from engine.stages.check.factcheck.relations import (
    cued,
    custom,
    functional,
    glosses,
    label_words,
    relation_phrase,
    stated,
)
from engine.stages.check.factcheck.slots import KFact, Slot
from engine.nlp.sentences import sentence

SEMANTIC_MARGIN = 0.05  # how much closer to the claim one relation's sentence must be than the next
PREPOSITIONS = frozenset("in at on from during near inside into within across to by of for with".split())
LOCATIVE = frozenset("in at on from during near inside into within across".split())
RELATION_MIN = 0.5  # how close a claim's wording must be to a relation's label to state it ("toured" ~ "debut year" is 0.42)


class RelationChecks:
    """Mixed into engine.stages.check.factcheck.verify.Verifier: the entity-to-entity half of a judgement."""

    def _implicit_argument(self, anchors, values, unknown, blank: str) -> str | None:
        """"Ravi is the organizer.", "David and José will attend.": a relation whose other end
        the claim leaves to the context — the most recent entity that has that relation."""
        iris = {iri for _, choices in anchors for iri in choices}
        if len(iris) != 1 or values or unknown:
            return None
        anchor = next(iter(iris))
        cues = self._cues(blank, [anchor])
        if not cues:
            return None
        cat = self.category(anchor)
        for iri in reversed(self.context[-12:]):
            if iri == anchor:
                continue
            for slot in self.slots(iri).values():
                if slot.key in cues and not slot.literal and slot.direction == "out" and self.slot_category(slot) & cat:
                    return iri
        return None

    def _stated(self, blank: str, ents: list[str]) -> set[str]:
        """The relations the claim states outright (see relations.stated); for a KG of one's own,
        when no label's words are said, the relation whose label reads most like the claim's
        wording to the sentence encoder, by a clear margin."""
        glossed = glosses(blank)
        score: dict[str, float] = {}
        labels: dict[str, str] = {}
        for iri in ents:
            for (key, _), slot in self.slots(iri).items():
                label = slot.facts[0].p_label
                if key not in score:
                    score[key] = stated(key, label, blank, glossed)
                if custom(key):
                    labels.setdefault(key, label_words(label))
        best = max(score.values(), default=0.0)
        out = {k for k, x in score.items() if x >= 0.5 and (x == best or x == 1.0)}
        if out or len(labels) < 2 or self.relation_encoder is None:
            return out
        phrase = (relation_phrase(blank) + " " + glossed).strip()
        if not phrase:
            return out
        encoder = self.relation_encoder() if callable(self.relation_encoder) else self.relation_encoder
        keys = list(labels)
        vectors = encoder.encode([phrase] + [labels[k] for k in keys])
        sims = sorted(((float(vectors[0] @ vec), k) for vec, k in zip(vectors[1:], keys)), reverse=True)
        if sims[0][0] >= RELATION_MIN and sims[0][0] - sims[1][0] >= SEMANTIC_MARGIN:
            out.add(sims[0][1])
        return out

    def _cues(self, blank: str, ents: list[str]) -> set[str]:
        out = set()
        for iri in ents:
            for (key, _), slot in self.slots(iri).items():
                if key not in out and cued(key, slot.facts[0].p_label, blank):
                    out.add(key)
        return out

    def _allowed(self, slot: Slot, rivals: list[Slot], cues: set[str], claim: str, a: str, b: str) -> bool:
        """A slot may explain a thing unless the claim's words name a rival relation instead;
        with no cue words, the sentence encoder (when the session has loaded it) may still
        tell which relation the wording is closest to."""
        named = [s for s in rivals if s.key in cues]
        if named:
            return slot in named
        pick = self._closest_relation(claim, rivals, a, b)
        return pick is None or slot.key == pick

    def _closest_relation(self, claim: str, rivals: list[Slot], a: str, b: str) -> str | None:
        """The relation whose sentence about a and b reads most like the claim, by a clear margin."""
        keys = {}
        for s in rivals:
            keys.setdefault(s.key, s)
        if self.encoder is None or len(keys) < 2:
            return None
        sentences = []
        for key, s in keys.items():
            subj, obj = (a, b) if s.direction == "out" else (b, a)
            sentences.append(sentence(self.label(subj), key, s.facts[0].p_label, self.label(obj)))
        vectors = self.encoder.encode([claim] + sentences)
        sims = [float(vectors[0] @ v) for v in vectors[1:]]
        ranked = sorted(range(len(sims)), key=lambda i: -sims[i])
        if sims[ranked[0]] - sims[ranked[1]] < SEMANTIC_MARGIN:
            return None
        return list(keys)[ranked[0]]

    def _connect(self, b: str, ents: list[str], cues: set[str], claim: str, said: set[str]) -> list[KFact]:
        """A fact joining b to another thing of the claim. When the claim states its relation,
        only a fact of that relation supports it: "organized by Room Delta" is not made true by
        "held in Room Delta". A possessive ("Fatima's seminar") states no relation of its own."""
        cat_b = self.category(b)
        for a in ents:
            if a == b:
                continue
            if said and not (self._possessive(a, claim) or self._possessive(b, claim)):
                preps = (self._preposition(b, claim), self._preposition(a, claim))
                for slot in self.slots(a).values():
                    if ((slot.key in said or any(self._by_preposition(slot, p) for p in preps)) and not slot.literal
                            and b in slot.others):
                        return [f for f in slot.facts if f.other == b][:1]
                continue
            rivals = [s for s in self.slots(a).values() if not s.literal and self.slot_category(s) & cat_b]
            for slot in rivals:
                if b in slot.others and self._allowed(slot, rivals, cues, claim, a, b):
                    return [f for f in slot.facts if f.other == b][:1]
        return []

    def _preposition(self, iri: str, text: str) -> str:
        """The preposition that introduces a thing in the claim ("in the Turing Building" → "in")."""
        spans = self._where.get(iri)
        if not spans:
            return ""
        words = [w.lower() for w in re.findall(r"[A-Za-z']+", text[:spans[0][0]])[-4:]]
        return next((w for w in reversed(words) if w in PREPOSITIONS), "")

    def _by_preposition(self, slot: Slot, prep: str) -> bool:
        """A place or time preposition says its own relation, whatever the verb says: "taught in
        the Turing Building" is where the course is held."""
        return prep in LOCATIVE and (cued(slot.key, "", prep) or prep in label_words(slot.facts[0].p_label).split())

    def _possessive(self, iri: str, text: str) -> bool:
        return any(re.match(r"['’]s?\b", text[end:end + 2]) for _, end in self._where.get(iri, ()))

    def _single(self, slot: Slot, said: set[str]) -> bool:
        """One value per subject: by the schema, or a relation the claim states that holds one
        number, date or thing here ("draws 500,000 monthly listeners", "was formed in Leeds")."""
        if functional(slot.key, len(slot.facts)):
            return True
        if not custom(slot.key) or len(slot.facts) != 1 or self._many_valued(slot):
            return False
        return slot.key in said or slot.key in self._unit_said or slot.kind in ("date", "number")

    def _many_valued(self, slot: Slot) -> bool:
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

    def _itself(self, a: str, said: set[str]) -> tuple[KFact, str] | None:
        for slot in self.slots(a).values():
            if (slot.direction == "out" and not slot.literal and slot.key in said and self._single(slot, said)
                    and a not in slot.others):
                kf = slot.facts[0]
                return kf, f"the KG says {self.say(kf)}, not {self.label(a)} itself"
        return None

    def _wrong_value(self, a: str, b: str, said: set[str]) -> tuple[KFact, str] | None:
        """b given as the value of a single-valued relation the claim states of a (a named
        first), where the KG has another value — whatever kind of thing b is: a room or an
        event as an organizer is as wrong as another person."""
        if not said:
            return None
        prep = self._preposition(b, self._text)
        for slot in self.slots(a).values():
            by_prep = self._by_preposition(slot, prep)
            # a custom relation may be stated from its object's side ("X is head of the
            # department": the department's head)
            if slot.direction == "in" and (slot.key, "out") in self.slots(b):
                continue  # "Henrik's office is TB 3.04" is judged as Henrik's office, not the room's occupant
            if ((slot.direction == "out" or custom(slot.key)) and not slot.literal and (slot.key in said or by_prep)
                    and self._single(slot, said | ({slot.key} if by_prep else set()))
                    and b not in slot.others and (prep not in LOCATIVE or by_prep)):
                kf = slot.facts[0]
                kind = "" if self.slot_category(slot) & self.category(b) else " (not even the right kind of thing)"
                return kf, f"the KG says {self.say(kf)}, not {self.label(b)}{kind}"
        return None

    def _entity_clash(self, b: str, ents: list[str], cues: set[str], fragment: bool,
                      said: set[str] = frozenset()) -> tuple[KFact, str] | None:
        """b in a single-valued relation the claim names (or, in a verbless fragment like
        "Seminar: Monday, Room B", the only one b's kind fits) where the KG has another value."""
        cat_b = self.category(b)
        for a in ents:
            if a == b:
                continue
            wrong = self._wrong_value(a, b, said)
            if wrong:
                return wrong
            fitting = [slot for slot in self.slots(a).values() if slot.direction == "out" and not slot.literal
                       and self._single(slot, said) and self.slot_category(slot) & cat_b]
            named = [slot for slot in fitting if slot.key in cues]
            for slot in named or (fitting if fragment and len(fitting) == 1 else []):
                if b not in slot.others:
                    kf = slot.facts[0]
                    return kf, f"the KG says {self.say(kf)}, not {self.label(b)}"
        return None
