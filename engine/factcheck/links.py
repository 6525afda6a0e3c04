"""Relation first, then value: which relation a claim states, and whether the things it names
are joined by a fact of that relation (a value the KG holds under another relation is no
support; a wrong value, or a thing of the wrong kind, for a single-valued relation contradicts)."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from engine.factcheck.kg import RECORD, KGView
from engine.factcheck.ranked import RankedRelations, Read, fit, opposite
from engine.factcheck.relations import (
    cued,
    custom,
    label_words,
    relation_phrase,
    said_as_modifier,
    said_in_own_words,
    stated,
)
from engine.factcheck.slots import KFact, Reading, Slot
from engine.nlp.sentences import TYPE_PREDICATES, sentence
from engine.relations import MATCH_MIN, Relation, RelationMatcher, content_stems, glosses
from rules.similarity import norm

# Relations that put a place inside another (Wikidata: located in the administrative territorial
# entity, country, part of, continent, located in/on physical feature).
CONTAINMENT_KEYS = frozenset({"P131", "P17", "P361", "P30", "P706"})
CONTAINMENT = re.compile(r"^(?:country|region|province|county|district|state|continent|campus|building)$|"
                         r"\b(?:located|situated|part of|within|inside|contained in)\b")
# A relation whose label says its value is a place: "in" introduces that value ("born in Italy").
GENERIC_PLACE = content_stems("place date time location country city")
PLACE_LABEL = re.compile(r"\b(?:place|location|country|city|town|room|venue|origin|headquarters|residence|hometown)\b")
# An article and at most two words (adjectives, a nationality) before a class's name: "is a French dish".
A_CLASS = re.compile(r"\ban?\s+(?:[\w'’-]+\s+){0,2}$", re.IGNORECASE)
NATIONALITY = re.compile(r"\b(?:country|nationality|citizenship|citizen|origin)\b")
SEMANTIC_MARGIN = 0.05  # how much closer to the claim one relation's sentence must be than the next
PREPOSITIONS = frozenset("in at on from during near inside into within across to by of for with".split())
OF_LABEL = re.compile(r"\bof\b")  # "head of department", "member of": what the subject is of the object
LOCATIVE = frozenset("in at on from during near inside into within across".split())


class RelationChecks:
    """The entity-to-entity half of a judgement: which relation a claim states and whether the
    things it names are joined by it. One per reply; `context` is the reply's running list of
    entities in the order the dialogue brought them up (shared with the verifier)."""

    def __init__(self, kg: KGView, context: list[str], matcher: RelationMatcher, encoder=None):
        self.kg = kg
        self.context = context
        self.matcher = matcher
        self.encoder = encoder  # engine.nlp.encoder.Encoder, only when the session already has one
        self.ranked = RankedRelations(kg)

    def implicit_argument(self, anchors, values, unknown, blank: str) -> str | None:
        """"Ravi is the organizer.", "David and José will attend.": a relation whose other end
        the claim leaves to the context — the most recent entity that has that relation."""
        iris = {iri for _, choices in anchors for iri in choices}
        if len(iris) != 1 or values or unknown:
            return None
        anchor = next(iter(iris))
        cues = self.cues(blank, [anchor])
        if not cues:
            return None
        cat = self.kg.category(anchor)
        for iri in reversed(self.context[-12:]):
            if iri == anchor:
                continue
            for slot in self.kg.slots(iri).values():
                if slot.key in cues and not slot.literal and slot.direction == "out" and self.kg.slot_category(slot) & cat:
                    return iri
        return None

    def stated(self, blank: str, ents: list[str], guess: bool = True) -> set[str]:
        """The relations the claim states outright (see relations.stated); for a KG of one's own,
        when no label's words are said and `guess`, the one the relation matcher finds the
        claim's wording states, by a clear margin (never a name or gender record: "sister" is
        not a family name)."""
        glossed = glosses(blank)
        score: dict[str, float] = {}
        labels: dict[str, str] = {}
        labels_of: dict[str, str] = {}
        literal: set[str] = set()  # relations of values: the value's kind tells them apart
        for iri in ents:
            for (key, _), slot in self.kg.slots(iri).items():
                label = slot.facts[0].p_label
                if key not in score:
                    score[key], labels_of[key] = stated(key, label, blank, glossed), label or key
                if slot.literal:
                    literal.add(key)
                if custom(key) and not RECORD.search(label_words(label)):
                    labels.setdefault(key, label_words(label))
        phrase = relation_phrase(blank)
        # "died in Bergen" states no birth place, whatever word the two share
        score = {k: x for k, x in score.items() if not (x and opposite(phrase, label_words(labels_of[k])))}
        best = max(score.values(), default=0.0)
        out = {k for k, x in score.items() if x >= 0.5 and (x == best or x == 1.0)}
        if out or len(labels) < 2 or not phrase or not guess:
            return out
        match = self.matcher.best(phrase, [Relation(label, key) for key, label in labels.items()])
        # the encoder alone puts a short phrase near many labels ("acted" nearer to "director" than
        # to "cast member"): between two things it guesses a relation only with words for it
        if match is not None and not said_as_modifier(match.relation.label, blank) and (
                fit(phrase, match.relation.label) or match.relation.key in literal):
            out.add(match.relation.key)
        return out

    def cues(self, blank: str, ents: list[str]) -> set[str]:
        out = set()
        for iri in ents:
            for (key, _), slot in self.kg.slots(iri).items():
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
        keys: dict[str, Slot] = {}
        for s in rivals:
            keys.setdefault(s.key, s)
        if self.encoder is None or len(keys) < 2:
            return None
        sentences = []
        for key, s in keys.items():
            subj, obj = (a, b) if s.direction == "out" else (b, a)
            sentences.append(sentence(self.kg.label(subj), key, s.facts[0].p_label, self.kg.label(obj)))
        vectors = self.encoder.encode([claim] + sentences)
        sims = [float(vectors[0] @ v) for v in vectors[1:]]
        ranked = sorted(range(len(sims)), key=lambda i: -sims[i])
        if sims[ranked[0]] - sims[ranked[1]] < SEMANTIC_MARGIN:
            return None
        return list(keys)[ranked[0]]

    def connect(self, b: str, ents: list[str], cues: set[str], r: Reading, said: set[str]) -> list[KFact]:
        """A fact joining b to another thing of the claim. When the claim states its relation,
        only a fact of that relation supports it: "organized by Room Delta" is not made true by
        "held in Room Delta". A possessive ("Fatima's seminar") states no relation of its own."""
        cat_b = self.kg.category(b)
        claim = r.text
        for a in ents:
            if a == b:
                continue
            typed = self._instance_of(a, b, r) or self._instance_of(b, a, r)
            if typed:
                return typed
            if said and not (self._possessive(a, r) or self._possessive(b, r)) and self._links_said(said, a, b):
                preps = (self._preposition(b, r), self._preposition(a, r)) if self._verb_fits(a, b, r) else ()
                stated = [slot for slot in self.kg.slots(a).values() if not slot.literal and (
                    slot.key in said or any(self._by_preposition(slot, p, self._verb_before(x, r))
                                            for p, x in zip(preps, (b, a), strict=False)))]
                for slot in stated:  # "died in Bergen" is no birth place, whatever its preposition says
                    if b in slot.others and not opposite(relation_phrase(r.blank), label_words(slot.facts[0].p_label)):
                        return [f for f in slot.facts if f.other == b][:1]
                for slot in stated:  # "born in London" of someone born in Ealing, which is in London
                    for kf in slot.facts if slot.direction == "out" else ():
                        path = self.within(kf.other, b)
                        if path:
                            return [kf] + path
                continue
            rivals = [s for s in self.kg.slots(a).values() if not s.literal and self.kg.slot_category(s) & cat_b]
            phrase = " ".join(self.unsaid(r.phrase, said, ents).split())
            for slot in rivals:
                if b in slot.others and self._allowed(slot, rivals, cues, claim, a, b) and self._says(
                        slot, phrase, cues, rivals, a, b):
                    return [f for f in slot.facts if f.other == b][:1]
        return []

    def _instance_of(self, x: str, cls: str, r: Reading) -> list[KFact]:
        """"Tarte Tatin is a French dish": the class said after an article, and x an instance of
        it in the KG, whatever other relation the claim's words state."""
        spans = r.where.get(cls)
        if not spans or not A_CLASS.search(r.text[:spans[0][0]]):
            return []
        for slot in self.kg.slots(x).values():
            if slot.direction == "out" and not slot.literal and slot.facts[0].fact.p in TYPE_PREDICATES:
                return [f for f in slot.facts if f.other == cls][:1]
        return []

    def nationality(self, ents: list[str]) -> set[str]:
        """The relations a nationality adjective may say of the claim's things ("a French dish":
        its country of origin; "a French actor": citizenship)."""
        return {"P27"} | {key for iri in ents for (key, _), slot in self.kg.slots(iri).items()
                          if not slot.literal and NATIONALITY.search(label_words(slot.facts[0].p_label or key))}

    def _links_said(self, said: set[str], a: str, b: str) -> bool:
        """Does the claim state a relation between things, of a or b? "Velvet Static released
        Neon Parish in 2013" states the album's date only: the band and the album are joined
        by whatever relation the wording allows."""
        return any(not slot.literal and slot.key in said for x in (a, b) for slot in self.kg.slots(x).values())

    def unsaid(self, text: str, said: AbstractSet[str], ents: list[str]) -> str:
        """The claim's words with those that state the relations `said` of its things blanked:
        in "Velvet Static released Neon Parish in 2013", "released" is the album's date, and
        says nothing of how the band and the album are joined."""
        if not said:
            return text
        labels = {key: slot.facts[0].p_label for iri in ents for (key, _), slot in self.kg.slots(iri).items()
                  if key in said}

        def blank(m: re.Match) -> str:
            w = m.group(0)
            return " " * len(w) if any(stated(key, label, w, glosses(w)) > 0 for key, label in labels.items()) else w

        return re.sub(r"[^\W\d_]+", blank, text)

    def _says(self, slot: Slot, phrase: str, cues: set[str], rivals: list[Slot], a: str, b: str) -> bool:
        """Does the claim's wording (its relation words) allow this relation? A claim with words
        of a relation ("the manager of ...") is not made true by a fact of another one between
        the same two things; a claim with none ("Omar is in Engineering") is read as any
        relation that fits."""
        if not phrase or slot.key in cues:
            return True
        label = slot.facts[0].p_label or label_words(slot.key)
        if opposite(phrase, label_words(label)):
            return False  # "died in Bergen" is no birth place, though a person has no other relation to a town
        match = self.matcher.rank(phrase, [Relation(label, slot.key, "entity")], kind="entity")[0]
        # the encoder alone decides only where no other relation of the kind is (see `stated`)
        others = [s for s in self.kg.slots(b).values() if not s.literal and self.kg.slot_category(s) & self.kg.category(a)]
        return match.score >= MATCH_MIN and (match.words > 0 or fit(phrase, label_words(label)) > 0
                                             or {s.key for s in rivals + others} == {slot.key})

    def within(self, x: str, b: str, depth: int = 3) -> list[KFact]:
        """The containment facts (located in, part of, country ...) that lead from place x up to
        b, or []: a place is in every place that contains it."""
        frontier: list[tuple[str, list[KFact]]] = [(x, [])]
        seen = {x}
        for _ in range(depth):
            nxt = []
            for node, path in frontier:
                for slot in self.kg.slots(node).values():
                    if slot.direction != "out" or slot.literal or not self._containment(slot):
                        continue
                    for kf in slot.facts:
                        if kf.other == b:
                            return path + [kf]
                        if kf.other not in seen:
                            seen.add(kf.other)
                            nxt.append((kf.other, path + [kf]))
            frontier = nxt[:40]
        return []

    @staticmethod
    def _containment(slot: Slot) -> bool:
        return slot.key in CONTAINMENT_KEYS or bool(CONTAINMENT.search(label_words(slot.facts[0].p_label or slot.key)))

    def _preposition(self, iri: str, r: Reading) -> str:
        """The preposition that introduces a thing in the claim ("in the Turing Building" → "in")."""
        spans = r.where.get(iri)
        if not spans:
            return ""
        words = [w.lower() for w in re.findall(r"[A-Za-z']+", r.text[:spans[0][0]])[-4:]]
        return next((w for w in reversed(words) if w in PREPOSITIONS), "")

    def _verb_before(self, iri: str, r: Reading) -> str:
        """The word before the preposition that introduces a thing ("born" in "born in Italy")."""
        spans = r.where.get(iri)
        if not spans:
            return ""
        words = [w.lower() for w in re.findall(r"[A-Za-z']+", r.text[:spans[0][0]])[-3:]]
        return next((w for w in reversed(words) if w not in PREPOSITIONS and w not in ("the", "a", "an")), "")

    def _verb_fits(self, a: str, b: str, r: Reading) -> bool:
        """Does the verb before b's preposition say a relation a has? "Caesar salad was invented
        in Italy" (the dish has an inventor: "in" may give its origin); "The man who invented
        Caesar salad was born in Mexico" (the dish has no birth: "in" is not the dish's place)."""
        verb = self._verb_before(b, r)
        gloss = glosses(verb) if verb else ""
        if not gloss:
            return True
        own = frozenset().union(*(content_stems(s.facts[0].p_label or label_words(s.key)) for s in self.kg.slots(a).values()))
        return bool(content_stems(verb + " " + gloss) & own)

    @staticmethod
    def _verb_says(slot: Slot, verb: str) -> bool:
        """Does the verb before a place's preposition allow this place relation? "died in
        Vienna" is no birth place; "meets in TB G.01" is the course's room; "is in" any place."""
        gloss = glosses(verb) if verb else ""
        if not gloss:
            return True
        specific = content_stems(verb + " " + gloss) - GENERIC_PLACE
        return bool(specific & content_stems(label_words(slot.facts[0].p_label or slot.key)))

    def _by_preposition(self, slot: Slot, prep: str, verb: str = "") -> bool:
        """A place or time preposition says its own relation, whatever the verb says: "taught in
        the Turing Building" is where the course is held."""
        words = label_words(slot.facts[0].p_label)
        return prep in LOCATIVE and (cued(slot.key, "", prep) or prep in words.split() or (
            bool(PLACE_LABEL.search(words)) and self._verb_says(slot, verb)))

    def _possessive(self, iri: str, r: Reading) -> bool:
        return any(re.match(r"['’]s?\b", r.text[end:end + 2]) for _, end in r.where.get(iri, ()))

    def itself(self, a: str, r: Reading, said: set[str]) -> tuple[KFact, str] | None:
        for slot in self.kg.slots(a).values():
            if (slot.direction == "out" and not slot.literal and slot.key in said and self.kg.single(slot, said | r.unit_said)
                    and a not in slot.others):
                kf = slot.facts[0]
                return kf, f"the KG says {self.kg.say(kf)}, not {self.kg.label(a)} itself"
        return None

    def wrong_value(self, a: str, b: str, r: Reading, said: AbstractSet[str]) -> tuple[KFact, str] | None:
        """b given as the value of a single-valued relation the claim states of a (a named
        first), where the KG has another value — whatever kind of thing b is: a room or an
        event as an organizer is as wrong as another person."""
        if not said:
            return None
        prep = self._preposition(b, r)
        for slot in self.kg.slots(a).values():
            by_prep = self._by_preposition(slot, prep, self._verb_before(b, r))
            # a custom relation whose label says what its subject is of its object ("head of
            # department") may be stated from the object's side ("the department's head is X");
            # one whose label names the object ("station manager") may not: "Pennock Quay is
            # managed by X", where X manages another station, says nothing against a KG that
            # gives Pennock Quay no manager
            if slot.direction == "in" and (slot.key, "out") in self.kg.slots(b):
                continue  # "Henrik's office is TB 3.04" is judged as Henrik's office, not the room's occupant
            if ((slot.direction == "out" or (custom(slot.key) and OF_LABEL.search(label_words(slot.facts[0].p_label))))
                    and not slot.literal and (slot.key in said or by_prep)
                    and self.kg.single(slot, said | r.unit_said | ({slot.key} if by_prep else set()))
                    and b not in slot.others and (prep not in LOCATIVE or by_prep or self._same_kind(slot, b))):
                kf = slot.facts[0]
                kind = "" if self.kg.slot_category(slot) & self.kg.category(b) else " (not even the right kind of thing)"
                if kind and not by_prep and not said_in_own_words(slot.key, kf.p_label, r.text):
                    continue  # a relation read from other words, of a value of another kind: the words name another
                return kf, f"the KG says {self.kg.say(kf)}, not {self.kg.label(b)}{kind}"
        return None

    def names_said(self, b: str, ents: list[str], said: AbstractSet[str] | None = None, r: Reading | None = None) -> bool:
        """Is b's name, or the claim's lower-case words for it, words of the label of a relation
        of the claim's other things (of one it states, when `said` is given)? "is the department
        administrator": the occupation "administrator" names the relation; "Petrel 4's mission
        commander" names the class "space mission" by a word of the relation's label. Either is
        no thing the claim gives as a value, nor a class it puts a thing in."""
        label = self.kg.label(b)
        # a concept named in lower case, not "Office 249" of "office"
        names = [label] if label.islower() else []
        names += [r.text[x:y] for x, y in r.where.get(b, ()) if r.text[x:y].islower()] if r is not None else []
        owns = [own for own in map(content_stems, names) if own]
        return bool(owns) and any(
            own <= content_stems(label_words(slot.facts[0].p_label or key)) for own in owns
            for iri in ents if iri != b for (key, _), slot in self.kg.slots(iri).items() if said is None or key in said)

    def _same_kind(self, slot: Slot, b: str) -> bool:
        """Is b a thing of the typed kind the relation's value is ("born in Hamburg" where the KG
        says Berlin: both cities), so that "in" introduces it as that value, not as a place?"""
        shared = self.kg.slot_category(slot) & self.kg.category(b)
        return bool(shared - {"thing"})

    def read(self, b: str, ents: list[str], cues: set[str], fragment: bool, r: Reading, said: AbstractSet[str]) -> Read:
        """What the claim says of b where no relation it states joins b to its other things: the
        order of their relations for its words first (`ranked`), then b as another value of a
        relation it states (`entity_clash`)."""
        return self.ranked.read(b, ents, r) or Read([], self.entity_clash(b, ents, cues, fragment, r, said))

    def entity_clash(self, b: str, ents: list[str], cues: set[str], fragment: bool, r: Reading,
                     said: AbstractSet[str] = frozenset()) -> tuple[KFact, str] | None:
        """b in a single-valued relation the claim names (or, in a verbless fragment like
        "Seminar: Monday, Room B", the only one b's kind fits) where the KG has another value."""
        cat_b = self.kg.category(b)
        for a in ents:
            if a == b:
                continue
            wrong = self.wrong_value(a, b, r, said)
            if wrong:
                return wrong
            fitting = [slot for slot in self.kg.slots(a).values() if slot.direction == "out" and not slot.literal
                       and self.kg.single(slot, said | r.unit_said) and self.kg.slot_category(slot) & cat_b]
            named = [slot for slot in fitting if slot.key in cues]
            prep = self._preposition(b, r)
            for slot in named or (fitting if fragment and len(fitting) == 1 else []):
                if prep in LOCATIVE and not self._by_preposition(slot, prep, self._verb_before(b, r)):
                    continue  # "composed in Aarhus" names a place, not the composer
                if b not in slot.others:
                    kf = slot.facts[0]
                    return kf, f"the KG says {self.kg.say(kf)}, not {self.kg.label(b)}"
        return self._role_clash(b, ents, r, said)

    def _role_clash(self, b: str, ents: list[str], r: Reading, said: AbstractSet[str]) -> tuple[KFact, str] | None:
        """b is in the KG only ever the value of one relation (a course type, an occupation),
        the claim names it (not an adjective of it: "spoke Italian" gives no place), states no
        relation b could be the value of, and another thing of the claim holds one other value
        of that relation: "Caesar salad is served as a main course" where the KG's course type
        of it is starter."""
        if not any(norm(r.text[x:y]) == norm(self.kg.label(b)) for x, y in r.where.get(b, ())):
            return None
        roles = {key for (key, direction), slot in self.kg.slots(b).items() if direction == "in" and not slot.literal
                 and slot.facts[0].fact.p not in TYPE_PREDICATES}  # a thing may be of many classes
        out = {key for (key, direction), slot in self.kg.slots(b).items() if direction == "out" and not slot.literal
               and slot.facts[0].fact.p not in TYPE_PREDICATES}
        if len(roles) != 1 or out or roles & said:
            return None
        key = next(iter(roles))
        for a in ents:
            slot = self.kg.slots(a).get((key, "out"))
            if a != b and slot is not None and b not in slot.others and self.kg.single(slot, {key}):
                kf = slot.facts[0]
                return kf, f"the KG says {self.kg.say(kf)}, not {self.kg.label(b)}"
        return None
