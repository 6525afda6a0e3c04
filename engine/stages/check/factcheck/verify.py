"""The structured verifier: one claim against the KG, the retrieved facts and the dialogue.

For a claim it links the entities named (the engine's mention detector), resolves pronouns,
"you" and definite noun phrases from the dialogue and the claims before it, reads the typed
values (dates, times, phones, e-mails, numbers), and asks of each thing the claim puts
together: is there a fact that connects it to another thing of the claim, by a relation the
claim's words allow? A value or name that differs from the KG's for a relation with one value
(an event's time or room, a phone number, a birth date) contradicts the claim; what no fact
covers leaves it NOT ENOUGH INFO; all covered is SUPPORTED. Availability ("X is free at 3")
is checked against the calendar of the person or room.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from datetime import datetime

from engine.stages.check.factcheck import values as V
from engine.stages.check.factcheck.relations import (COUNT_NOUNS, TIME_SLOTS, cued, custom, functional, glosses, label_words,
                                        relation_phrase, stated)
from engine.stages.check.factcheck.split import first_verb
from engine.state import Check, Mention
from engine.nlp.timeexpr import hhmm
from engine.stages.verbalize import literal_text, predicate_key, sentence
from kgstore.terms import Fact
from kgstore.vocab import LABEL_PREDICATES, OFFICE_CLASSES, WD, local_name
from rules.similarity import norm

QUESTION = re.compile(r"\?\s*[\"')\]]*\s*$")
OPINION = re.compile(r"\b(?:i think|i believe|i feel|i guess|in my (?:opinion|view)|i hope|i recommend|i'd recommend|"
                     r"(?:is|are|was|were|'s|looks?|sounds?|seems?)\s+(?:an? |the )?(?:very |really |quite |so |pretty |truly )?"
                     r"(?:great|good|nice|lovely|wonderful|amazing|awesome|fantastic|excellent|boring|fun|interesting|"
                     r"beautiful|best|worst|terrible|brilliant|important|exciting|perfect|cool|bad)|"
                     r"(?:the )?(?:best|greatest|worst|most beautiful|most interesting)\b|should|must see|"
                     r"worth (?:it|seeing|watching|a (?:visit|look|listen)|visiting|checking))\b",
                     re.IGNORECASE)
HEDGE = re.compile(r"^(?:i (?:think|believe|guess|reckon)|if i'?m not mistaken|as far as i know|if i remember "
                   r"(?:correctly|rightly)|i'm (?:fairly |pretty )?sure)\s*(?:that\s+)?,?\s*(?=\w)", re.IGNORECASE)
NEGATION = re.compile(r"\b(?:not|never|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|won't|can't|cannot)\b|n't\b",
                      re.IGNORECASE)
FREE = re.compile(r"\b(?:free|available|open)\b", re.IGNORECASE)
NOTHING_ON = re.compile(r"\b(?:(?:has|have) no (?:bookings|meetings|events|appointments)|has nothing (?:booked|scheduled|planned)|"
                        r"(?:is|are) free all day|(?:is|are) free the whole day)\b", re.IGNORECASE)
NONE = re.compile(r"\b(?:no|nobody|nothing|none|no one|neither|nor)\b", re.IGNORECASE)
BUSY = re.compile(r"\b(?:busy|occupied|taken|unavailable|booked up|in a meeting)\b", re.IGNORECASE)
THEN = re.compile(r"\b(?:then|at that time|at that hour)\b", re.IGNORECASE)
YOU = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)
CAPITALIZED = re.compile(r"(?:\b(?:[A-ZÀ-ÖØ-Þ][\w'’\-]*|O'[A-Z]\w*)(?:\s+(?:de|van|von|der|da|di|le|la|del|bin|al)?\s*(?=[A-ZÀ-ÖØ-Þ])"
                         r"[A-ZÀ-ÖØ-Þ][\w'’\-]*)*(?:\s+\d+\b)?)")
COMMON_CAPS = frozenset("""i it he she they we you the a an this that these those there here his her its their our your my
yes no sure ok okay hello hi hey thanks thank sorry today tomorrow yesterday tonight now then also and but or so done
monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september
october november december am pm mr mrs ms dr prof unfortunately please great perfect well however what which who when
where why how around about roughly approximately nearly almost over some just""".split())
OFFICE_KIND = re.compile(r"^urn:kgchat:kg:[^:]+:(person|event|room|group):")
CLASS_KIND = {iri: kind for kind, iri in OFFICE_CLASSES.items()}
DEMONYMS = {"American": "United States", "British": "United Kingdom", "English": "England", "Scottish": "Scotland",
            "Irish": "Ireland", "French": "France", "German": "Germany", "Italian": "Italy", "Spanish": "Spain",
            "Portuguese": "Portugal", "Dutch": "Netherlands", "Belgian": "Belgium", "Swiss": "Switzerland",
            "Austrian": "Austria", "Swedish": "Sweden", "Norwegian": "Norway", "Danish": "Denmark",
            "Finnish": "Finland", "Polish": "Poland", "Russian": "Russia", "Greek": "Greece", "Serbian": "Serbia",
            "Croatian": "Croatia", "Canadian": "Canada", "Mexican": "Mexico", "Brazilian": "Brazil",
            "Argentine": "Argentina", "Argentinian": "Argentina", "Jamaican": "Jamaica", "Japanese": "Japan",
            "Chinese": "China", "Korean": "South Korea", "Indian": "India", "Australian": "Australia",
            "New Zealander": "New Zealand", "Nigerian": "Nigeria", "Kenyan": "Kenya", "Ethiopian": "Ethiopia",
            "South African": "South Africa", "Egyptian": "Egypt", "Turkish": "Turkey"}
PROPERTY = re.compile(r"/(?:entity|prop/direct)/P\d+$")
MAX_COMBOS = 8
SEMANTIC_MARGIN = 0.05  # how much closer to the claim one relation's sentence must be than the next
PREPOSITIONS = frozenset("in at on from during near inside into within across to by of for with".split())
LOCATIVE = frozenset("in at on from during near inside into within across".split())
PERSON_TYPES = frozenset("person human people agent lecturer professor teacher student musician singer artist actor "
                         "actress author writer director producer player athlete employee researcher scientist chef "
                         "cook politician mayor composer drummer guitarist".split())
RELATION_MIN = 0.35  # how close a claim's wording must be to a relation's label to state it

# Literal kinds no other kind of value can stand for.
CONTACT_KINDS = ("phone", "email")


@dataclass
class KFact:
    """One KG fact seen from an anchor entity."""

    fact: Fact
    key: str
    p_label: str
    other: str  # the other end: an IRI, or the literal's lexical form
    literal: bool
    kind: str = ""  # literal kind (date/time/phone/email/number/text)
    value: object = None
    source: str = "kg"


@dataclass
class Slot:
    key: str
    direction: str  # "out": anchor is the subject; "in": anchor is the object
    facts: list[KFact]
    literal: bool
    kind: str  # literal kind, or "" for entity-valued slots

    @property
    def others(self) -> set[str]:
        return {f.other for f in self.facts}


@dataclass
class Judgement:
    verdict: str
    evidence: list[KFact] = field(default_factory=list)
    reason: str = ""
    extra: dict | None = None  # evidence that is not a triple (dialogue turn, calendar)
    supported: int = 0  # parts of the claim the KG confirmed (ranks readings of ambiguous names)


class Verifier:
    """Checks the claims of one reply. Built per turn: it caches what it reads from the KG."""

    def __init__(self, background, index, *, now: datetime | None = None, retrieved=(), mentions: list[Mention] = (),
                 history: list[tuple[str, str]] = (), speaker: str | None = None, encoder=None,
                 relation_encoder=None):
        self.bg = background
        # The encoder (or a function that builds it) that matches wording to a custom KG's relations.
        self.relation_encoder = relation_encoder if relation_encoder is not None else encoder
        self._where: dict[str, list[tuple[int, int]]] = {}
        self._blank = self._text = ""
        self._unit_said: set[str] = set()
        self.encoder = encoder  # engine.stages.score.encoder.Encoder, only when the session already has one
        self.index = index
        self.now = now
        self.history = list(history)
        self.retrieved_keys = {c.fact.key for c in retrieved}
        self.retrieved = list(retrieved)
        self._slots: dict[str, dict[tuple[str, str], Slot]] = {}
        self._cats: dict[str, frozenset[str]] = {}
        self._labels: dict[str, str] = {}
        self._predicates: dict[str, bool] = {}
        self.speaker = speaker
        self._speaker_known = speaker is not None
        self.context: list[str] = []  # entities in the order the dialogue brought them up
        for _, text in self.history[-6:]:
            for m in self._names(text):
                self.context.append(m.candidates[0][0])
        for m in mentions:
            if m.entity and m.kind != "first_person":
                self.context.append(m.entity)
        # Times the user's turn named, for a reply's "then" ("X is busy then").
        self.times = [m.value for m in mentions if m.kind == "time" and getattr(m.value, "start", None) is not None]
        self._retrieved_entities = {x for c in self.retrieved for x in (c.fact.s, c.fact.o) if not c.fact.o_literal}

    # -- KG access ---------------------------------------------------------------------------
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
                if WD + "Q5" in types or any(label_words(local_name(t)) in PERSON_TYPES for t in types):
                    kinds.add("person")  # a custom KG's Lecturer or Musician is someone "they" can stand for
                cat = frozenset(kinds or types or {"thing"})
            self._cats[iri] = cat
        return cat

    def slots(self, iri: str) -> dict[tuple[str, str], Slot]:
        got = self._slots.get(iri)
        if got is not None:
            return got
        facts = list(self.bg.facts_about(iri, cap=400))
        seen = {f.key for f in facts}
        facts += [c.fact for c in self.retrieved if iri in (c.fact.s, c.fact.o) and c.fact.key not in seen]
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

    def slot_category(self, slot: Slot) -> frozenset[str]:
        return self.category(slot.facts[0].other)

    # -- mentions ----------------------------------------------------------------------------
    def _names(self, text: str) -> list[Mention]:
        from engine.nlp.mentions import detect_names

        return [m for m in detect_names(text, self.index) if self._names_a_thing(m)]

    def _names_a_thing(self, m: Mention) -> bool:
        """A named mention a verifier can use: not a relation ("directed" matching the property
        "director", "works for" naming ex:worksFor), not a lower-case word that only partly
        matches a label ("group" in "Reading Group", "eight" in "Fight Club")."""
        if not m.candidates:
            return False
        m.candidates = [c for c in m.candidates if not self._is_predicate(c[0])]
        return bool(m.candidates) and not (m.text.islower() and m.candidates[0][1] < 0.9)

    def _is_predicate(self, iri: str) -> bool:
        if PROPERTY.search(iri):
            return True
        if iri not in self._predicates:
            ask = getattr(self.bg, "query", None)
            try:
                self._predicates[iri] = bool(ask and ask(f"ASK {{ GRAPH ?g {{ ?s <{iri}> ?o }} }}"))
            except Exception:  # a remote endpoint that refuses the query: treat it as an entity
                self._predicates[iri] = False
        return self._predicates[iri]

    def _speaker(self) -> str | None:
        if not self._speaker_known:
            from engine.nlp.mentions import speaker_name

            self._speaker_known = True
            for who, text in self.history:
                if who == "user":
                    found = speaker_name(text, self._names(text))
                    if found is not None:
                        self.speaker = found.candidates[0][0]
        return self.speaker

    def _resolve(self, kinds: tuple[str, ...], needs: set[str]) -> str | None:
        """The most recent entity of the dialogue a pronoun can stand for; when the claim gives
        a time, date, phone or e-mail, the most recent one that has such a value ("It starts at
        8" is about the meeting, not the room just named)."""
        fits = [iri for iri in reversed(self.context)
                if self.category(iri) & set(kinds) or ("thing" in kinds and not self.category(iri) & {"person"})]
        if needs:
            for iri in fits[:6]:
                if any(slot.literal and slot.kind in needs for slot in self.slots(iri).values()):
                    return iri
        return fits[0] if fits else None

    def _choices(self, m: Mention) -> list[str]:
        """The candidate entities of a named mention worth trying. Same-named entities (a
        weekly meeting) are all tried and the claim's values decide; a partial or misheard name
        ("Amara") goes to the one the dialogue or the retrieved facts point at, unless the name
        was said in full."""
        top_iri, top = m.candidates[0]
        top_label = self.label(top_iri)
        same = [iri for iri, _ in m.candidates if self.label(iri) == top_label]
        recent = next((iri for iri in reversed(self.context) if iri in dict(m.candidates)), None)
        if recent is None:
            recent = next((iri for iri, _ in m.candidates if iri in self._retrieved_entities), None)
        if len(same) > 1:
            return sorted(same, key=lambda iri: iri != recent)[:MAX_COMBOS]
        if recent is not None and (top < 0.97 or recent == top_iri):
            return [recent]
        return [iri for iri, p in m.candidates if p >= top - 0.05][:4]

    def _same_numbers(self, m: Mention) -> list[tuple[str, float]]:
        """Candidates whose name has the same numbers as the mention: "Office 320" is not a
        misheard "Office 329", and "1994" names no film."""
        digits = re.findall(r"\d+", m.text)
        if not digits:
            return m.candidates
        if not re.search(r"[^\W\d_]", m.text):
            return [(iri, p) for iri, p in m.candidates if norm(self.label(iri)) == norm(m.text)]
        return [(iri, p) for iri, p in m.candidates if re.findall(r"\d+", self.label(iri)) == digits]

    def _exact_names(self, text: str, blank: str) -> list[Mention]:
        """Capitalized words the detector passed over that are exactly a label ("Seminar"), or
        a nationality adjective of a country the KG names ("American")."""
        found = []
        for name, _ in _capitalized(blank):
            for m in re.finditer(re.escape(name), blank):
                lab = self.index.by_norm.get(norm(DEMONYMS.get(name, name)))
                if lab is not None:
                    found.append(Mention(text[m.start():m.end()], m.start(), m.end(), "name",
                                         candidates=[(iri, 1.0) for iri in lab.iris], label=lab.text))
        return found

    def _label_of(self, phrase: str):
        words = norm(phrase).split()
        if words and words[0] in ("the", "that", "this"):
            words = words[1:]
        return self.index.by_norm.get(" ".join(words)) if words else None

    def protected_spans(self, sentence: str) -> list[tuple[int, int]]:
        """Entity names in a sentence, which the splitter must not cut at their "and"."""
        spans = []
        for m in self._names(sentence):
            _trim(m)  # "Grace, the" is the name Grace: a fuzzy match must not swallow the comma after it
            cut = m.text.find(",")
            if cut > 0 and "," not in self.label(m.candidates[0][0]):
                _trim_to(m, cut)
            spans.append((m.start, m.end))
        return spans

    # -- claims ------------------------------------------------------------------------------
    def check(self, claim: str) -> Check:
        j = self.judge(claim)
        return Check(claim=claim, verdict=j.verdict, evidence=self.evidence(j), reason=j.reason)

    def judge(self, claim: str) -> Judgement:
        text = claim.strip()
        if text.startswith(("```", "~~~")):
            return Judgement("nei", reason="a code block, not a claim")
        if not re.search(r"\w", text):
            return Judgement("nei", reason="no statement")
        if QUESTION.search(text):
            return Judgement("nei", reason="a question, not a claim")
        hedge = HEDGE.match(text)
        if hedge and not OPINION.search(text[hedge.end():]):
            # "I believe it's in Room B": a hedged claim is still a claim; judged on its own
            # words, and an opinion when the KG has nothing to say on them.
            j = self.judge(text[hedge.end():])
            return j if j.verdict != "nei" else Judgement("nei", reason="an opinion, not a fact the KG can hold")
        if OPINION.search(text):
            return Judgement("nei", reason="an opinion, not a fact the KG can hold")
        from engine.nlp.mentions import detect

        # Names inside an e-mail address or a phone number are part of the value.
        said = V.extract(text, self.now)
        inside = [(v.start, v.end) for v in said if v.kind in ("email", "phone")]
        needs = {v.kind for v in said if v.kind in ("time", "date", "phone", "email")}
        mentions = [m for m in detect(text, self.index) if m.kind in ("name", "pronoun", "definite")
                    and V.free(inside, m.start, m.end) and (m.kind != "name" or self._names_a_thing(m))]
        for m in mentions:
            if m.kind == "name":
                _trim(m)
                said = _whole_name(text, m)
                m.candidates = [c for c in self._same_numbers(m) if _spelled_alike(said, self.label(c[0]))]
                exact = [(iri, 1.0) for iri, _ in m.candidates if norm(self.label(iri)) == norm(said)]
                m.candidates = exact or m.candidates
        mentions = [m for m in mentions if m.kind != "name" or m.candidates]
        anchors: list[tuple[Mention, list[str]]] = []
        for m in mentions:
            if m.kind == "name" and m.candidates:
                anchors.append((m, self._choices(m)))
            elif m.kind == "definite" and self._label_of(m.text) is not None:
                # "The Seminar": a noun phrase that is also an entity's exact name.
                m.candidates = [(iri, 1.0) for iri in self._label_of(m.text).iris]
                anchors.append((m, self._choices(m)))
            elif m.kind in ("pronoun", "definite"):
                iri = self._resolve(tuple(m.value or ("thing",)), needs)
                if iri:
                    anchors.append((m, [iri]))
        for m in YOU.finditer(text):
            speaker = self._speaker()
            if speaker:
                anchors.append((Mention(m.group(0), m.start(), m.end(), "first_person"), [speaker]))
        spans = [(m.start, m.end) for m, _ in anchors] + [(m.start, m.end) for m in mentions if m.kind == "name"]
        # A number right after a capitalized word belongs to a name ("Office 115", "Apollo 13").
        values = [v for v in V.extract(text, self.now, spans)
                  if not (v.kind == "number" and _after_name(text[:v.start]))]
        blank = _blank(text, spans + [(v.start, v.end) for v in values])
        unknown = _unknown_names(blank)
        exact = self._exact_names(text, blank)
        # "a French actor": a nationality word says citizenship as plainly as "citizen of" does.
        implied = {"P27"} if any(m.text in DEMONYMS for m in exact) else set()
        if exact:
            anchors += [(m, self._choices(m)) for m in exact]
            blank = _blank(blank, [(m.start, m.end) for m in exact])
            unknown = [u for u in unknown if not any(m.text == u for m in exact)]
        if not anchors:
            if unknown:
                return Judgement("nei", reason=f"'{unknown[0]}' is not in the KG")
            return self._from_dialogue(text) or Judgement("nei", reason="names nothing the KG knows")
        implicit = self._implicit_argument(anchors, values, unknown, blank)
        if implicit is not None:
            anchors.append((Mention("", 0, 0, "definite", entity=implicit), [implicit]))
        best: Judgement | None = None
        choices = [c for _, c in anchors]
        for combo in itertools.islice(itertools.product(*choices), MAX_COMBOS):
            self._where = {}
            for (m, _), iri in zip(anchors, combo):
                if m.end > m.start:
                    self._where.setdefault(iri, []).append((m.start, m.end))
            j = self._judge_with(text, blank, list(dict.fromkeys(combo)), values, unknown, anchors, implied)
            if best is None or _rank(j) > _rank(best):
                best = j
        assert best is not None
        for _, combo_iris in anchors:
            if len(combo_iris) == 1:
                self.context.append(combo_iris[0])
        if best.evidence:
            self.context += [kf.fact.s for kf in best.evidence[:1]]
        if best.verdict == "nei" and not best.evidence:
            return self._from_dialogue(text) or best
        return best

    def _judge_with(self, text: str, blank: str, ents: list[str], values: list[V.Value], unknown: list[str],
                    anchors, implied: set[str]) -> Judgement:
        negated = bool(NEGATION.search(blank))
        avail = self._availability(text, blank, ents, values)
        if avail is not None:
            return _negate(avail) if negated else avail
        if NONE.search(blank):
            return Judgement("nei", reason="says what there is not; the KG lists what there is")
        self._blank, self._text, self._unit_said = blank, text, set()
        said = self._stated(blank, ents) | implied
        cues = self._cues(blank, ents) | implied | said
        support: list[KFact] = []
        contra: list[tuple[KFact, str]] = []
        missing: list[str] = []

        if (ents == [self.speaker] and not values and not unknown and any(m.kind == "first_person" for m, _ in anchors)
                and any(m.kind == "name" for m, _ in anchors)):  # "You are Mei Nguyen."
            turn = self._intro_turn()
            if turn is not None:
                return Judgement("supported", reason="the user said so", extra=turn)

        # Each value must be a value of a thing the claim names.
        unplaced: list[V.Value] = []
        for v in values:
            found = self._value_support(v, ents, cues, blank)
            if found:
                support.extend(found)
                continue
            clash = self._value_clash(v, ents, cues, blank, said)
            if clash:
                contra.append(clash)
            else:
                unplaced.append(v)
        valued = {kf.fact.s for kf in support}

        # Each thing the claim names must be connected to another one, or carry one of its values
        # ("X ends at 10, just before Y starts at 10").
        if len(ents) >= 2:
            for b in ents:
                found = self._connect(b, ents, cues, text, said)
                if found:
                    support.extend(found)
                    continue
                if b in valued:
                    continue
                clash = self._entity_clash(b, ents, cues, first_verb(text) is None, said)
                if clash:
                    contra.append(clash)
                else:
                    missing.append(self.label(b))
        missing += [v.text for v in unplaced if not (v.kind == "date" and support and _dates_only_context(v))]

        if len(ents) == 1 and len(self._where.get(ents[0], ())) > 1:
            clash = self._itself(ents[0], said)  # "The Poster Session is organized by the Poster Session."
            if clash:
                contra.append(clash)
        for name in unknown:
            clash = self._unknown_clash(name, ents, cues)
            if clash:
                contra.append(clash)
            else:
                missing.append(name)

        if contra:
            j = Judgement("contradicted", [k for k, _ in contra], reason=contra[0][1], supported=len(support))
        elif missing:
            j = Judgement("nei", support, reason=f"the KG has nothing on {', '.join(repr(x) for x in missing[:3])}"
                          + (" here" if support else ""))
        elif support:
            j = Judgement("supported", support, reason="the KG says " + self.say(support[0]), supported=len(support))
        else:
            j = Judgement("nei", reason="nothing in the claim the KG could confirm")
        if negated and j.verdict != "nei":
            j = _negate(j)
        return j

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
        if not custom(slot.key) or len(slot.facts) != 1:
            return False
        return slot.key in said or slot.key in self._unit_said or slot.kind == "date"

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
            if (slot.direction == "out" and not slot.literal and (slot.key in said or by_prep)
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

    def _numbered(self, v: V.Value, ents: list[str], cues: set[str]) -> tuple[list[KFact], bool] | None:
        """"Her office is 323": a number that stands for a named thing ("Office 323")."""
        if v.kind != "number":
            return None
        for a in ents:
            for slot in self.slots(a).values():
                if slot.direction != "out" or slot.literal or slot.key not in cues:
                    continue
                numbered = [kf for kf in slot.facts if re.search(r"\d", self.label(kf.other))]
                if numbered:
                    said = f"{v.value[0]:g}"
                    hits = [kf for kf in numbered if said in re.findall(r"\d+", self.label(kf.other))]
                    return (hits or numbered), bool(hits)
        return None

    def _same_unit(self, v: V.Value, slot: Slot) -> bool:
        """A year is compared only with dates and with years, a number with a unit ("194
        minutes", "500,000 listeners") only with relations that speak of that unit."""
        words = label_words(slot.facts[0].p_label) + " " + slot.key.lower()
        if v.kind == "year" and not (slot.kind == "date" or "year" in words):
            return False
        if v.kind not in ("number", "year"):
            return True
        after = re.findall(r"[a-z]+", self._blank[v.end:v.end + 40].lower())[:2]
        unit = [w for w in after if w not in _FUNCTION]
        if not unit:
            return True
        said = " ".join(unit) + " " + glosses(" ".join(unit))
        if any(w[:5] in words for w in said.split() if len(w) >= 4) or cued(slot.key, "", " ".join(unit)):
            self._unit_said.add(slot.key)
            return True
        return False

    def _literal_slots(self, v: V.Value, a: str, cues: set[str]) -> list[Slot]:
        rivals = [s for s in self.slots(a).values() if s.literal and s.direction == "out" and V.comparable(v, s.kind)
                  and self._same_unit(v, s)]
        if v.kind == "time" and v.slot:
            timed = [s for s in rivals if s.key in TIME_SLOTS[v.slot]]
            if timed:
                return timed
        named = [s for s in rivals if s.key in cues]
        return named or rivals

    def _value_support(self, v: V.Value, ents: list[str], cues: set[str], blank: str) -> list[KFact]:
        for a in ents:
            for slot in self._literal_slots(v, a, cues):
                for kf in slot.facts:
                    if V.matches(v, kf.kind, kf.value):
                        return [kf]
        counted = self._count(v, ents, blank) or self._numbered(v, ents, cues)
        return counted[0][:1] if counted and counted[1] else []

    def _value_clash(self, v: V.Value, ents: list[str], cues: set[str], blank: str,
                     said: set[str] = frozenset()) -> tuple[KFact, str] | None:
        counted = self._count(v, ents, blank)
        if counted and not counted[1]:
            facts = counted[0]
            return facts[0], f"the KG lists {len(facts)}, not {v.text}"
        numbered = self._numbered(v, ents, cues)
        if numbered and not numbered[1] and all(functional(kf.key, len(numbered[0])) for kf in numbered[0]):
            kf = numbered[0][0]
            return kf, f"the KG says {self.say(kf)}, not {v.text}"
        for a in ents:
            slots = self._literal_slots(v, a, cues)
            if slots and all(self._single(s, said) for s in slots):
                kf = slots[0].facts[0]
                return kf, f"the KG says {self.say(kf)}, not {v.text.strip()}"
            # "Her phone number is 09:30": a contact attribute named outright and given a value
            # that cannot be one. Dates and times stay out: "starts on Tuesday" is a fine claim.
            named = [s for s in self.slots(a).values() if s.literal and s.direction == "out" and s.key in cues
                     and s.kind in CONTACT_KINDS and not V.comparable(v, s.kind) and functional(s.key, len(s.facts))]
            if len(named) == 1:
                kf = named[0].facts[0]
                return kf, f"the KG says {self.say(kf)}, not {v.text.strip()}"
        return None

    def _count(self, v: V.Value, ents: list[str], blank: str) -> tuple[list[KFact], bool] | None:
        """"has 4 members": the number of values of one relation, in a closed-world calendar."""
        if v.kind != "number":
            return None
        after = re.match(r"\s*(?:other\s+)?(\w+)", blank[v.end:])
        noun = after.group(1).lower() if after else ""
        if noun not in COUNT_NOUNS:
            return None
        key, direction = COUNT_NOUNS[noun]
        for a in ents:
            slot = self.slots(a).get((key, direction))
            if slot is not None:
                return slot.facts, V.matches(v, "number", float(len(slot.facts)))
        return None

    def _unknown_clash(self, name: str, ents: list[str], cues: set[str]) -> tuple[KFact, str] | None:
        # An invented name stands in for a person, or for a room when it says so.
        looks_like = {"room"} if re.search(r"\b(room|office)\b", name, re.I) else None
        for a in ents:
            for slot in self.slots(a).values():
                if (slot.direction == "out" and not slot.literal and slot.key in cues
                        and functional(slot.key, len(slot.facts))):
                    if not self.slot_category(slot) & (looks_like or {"person"}):
                        continue
                    kf = slot.facts[0]
                    return kf, f"the KG says {self.say(kf)}; it knows no {name}"
        return None

    # -- availability ------------------------------------------------------------------------
    def _availability(self, text: str, blank: str, ents: list[str], values: list[V.Value]) -> Judgement | None:
        whole_day = bool(NOTHING_ON.search(blank))  # "has no bookings today"
        says_free, says_busy = bool(FREE.search(blank)) or whole_day, bool(BUSY.search(blank))
        times = [v for v in values if v.kind == "time"]
        if not times and self.times and THEN.search(blank):
            said = self.times[-1]
            d = said.day
            times = [V.Value("time", frozenset({said.start}), 0, 0, "then")]
            values = values + [V.Value("date", (d.year, d.month, d.day, d.weekday()), 0, 0, "then")]
        if not (says_free or says_busy) or not (times or whole_day):
            return None
        who = next((e for e in ents if self.category(e) & {"person", "room"}), None)
        if who is None:
            return None
        dates = [v for v in values if v.kind == "date"]
        if dates:
            day = dates[0].value
        elif whole_day and not times:
            return None  # "has no meetings" without a day says nothing about one calendar day
        elif self.now is not None:
            d = self.now.date()
            day = (d.year, d.month, d.day, d.weekday())
        else:
            return None
        slots = self.slots(who)
        keys = [("attendee", "in"), ("organizer", "in")] if "person" in self.category(who) else [("location", "in")]
        events = {f.other for k in keys if k in slots for f in slots[k].facts}
        moments = times[0].value if times else frozenset(range(0, 24 * 60))
        if len(moments) > 1 and times:  # "at 3": the working-hours reading
            moments = frozenset(x for x in moments if 7 * 60 <= x <= 19 * 60) or moments
        busy_with: list[KFact] = []
        for e in sorted(events):
            es = self.slots(e)
            date_f = es.get(("date", "out"))
            start_f, end_f = es.get(("start_time", "out")), es.get(("end_time", "out"))
            if not (date_f and start_f and end_f):
                continue
            if not V.same_date(day, date_f.facts[0].value):
                continue
            start, end = min(start_f.facts[0].value), min(end_f.facts[0].value)
            if any(start <= t < end for t in moments):
                busy_with = [start_f.facts[0], end_f.facts[0]]
                break
        name = self.label(who)
        when = hhmm(min(moments)) if times else ""
        if busy_with:
            ev = self.say(busy_with[0])
            verdict = "supported" if says_busy and not says_free else "contradicted"
            busy = f"is busy at {when}" if times else "has something that day"
            return Judgement(verdict, busy_with, reason=f"the KG says {ev}, so {name} {busy}")
        verdict = "supported" if says_free else "contradicted"
        return Judgement(verdict, reason=f"{name} has nothing in the calendar at {when} that day" if times
                         else f"{name} has nothing in the calendar that day",
                         extra={"text": f"{name} has no event {'at ' + when + ' ' if times else ''}that day", "s": who,
                                "source": "kg"})

    # -- dialogue ----------------------------------------------------------------------------
    def _intro_turn(self) -> dict | None:
        for i, (who, text) in enumerate(self.history, start=1):
            if who == "user" and self.speaker and re.search(r"\b(my name is|i am|i'm)\b", text, re.I):
                return {"source": "dialogue", "turn": i, "speaker": "user", "text": text}
        return None

    def _from_dialogue(self, text: str) -> Judgement | None:
        """A claim that restates what the user said (their name, their plans)."""
        words = _content_words(text)
        if len(words) < 2:
            return None
        for i, (who, turn) in reversed(list(enumerate(self.history, start=1))):
            if who != "user":
                continue
            said = _content_words(turn)
            if len(words & said) >= 0.8 * len(words):
                return Judgement("supported", reason="the user said so",
                                 extra={"source": "dialogue", "turn": i, "speaker": "user", "text": turn})
        return None

    # -- output ------------------------------------------------------------------------------
    def say(self, kf: KFact) -> str:
        f = kf.fact
        o_label = literal_text(f.o, f.datatype) if f.o_literal else self.label(f.o)
        return sentence(self.label(f.s), kf.key, kf.p_label, o_label)

    def evidence(self, j: Judgement) -> dict:
        if not j.evidence:
            return dict(j.extra or {})
        facts = list({kf.fact.key: kf for kf in j.evidence}.values())
        out = self._triple(facts[0])
        if len(facts) > 1:
            out["more"] = [self._triple(k) for k in facts[1:4]]
        return out

    def _triple(self, kf: KFact) -> dict:
        f = kf.fact
        return {"s": f.s, "p": f.p, "o": f.o, "s_label": self.label(f.s), "p_label": kf.p_label,
                "o_label": literal_text(f.o, f.datatype) if f.o_literal else self.label(f.o),
                "text": self.say(kf), "source": kf.source}


def _rank(j: Judgement) -> tuple[int, int, int]:
    """Which reading of an ambiguous name to believe: the one the KG supports, else one it
    does not contradict (the weekly meeting on the day the claim names)."""
    return ({"supported": 2, "nei": 1, "contradicted": 0}[j.verdict], j.supported, len(j.evidence))


def _negate(j: Judgement) -> Judgement:
    flipped = {"supported": "contradicted", "contradicted": "supported"}.get(j.verdict, j.verdict)
    return Judgement(flipped, j.evidence, reason=("negated: " + j.reason) if flipped != j.verdict else j.reason,
                     extra=j.extra, supported=j.supported)


def _after_name(before: str) -> bool:
    m = re.search(r"([A-Z][\w'’\-]*)\s$", before)
    return bool(m) and m.group(1).lower() not in COMMON_CAPS


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for a, b in spans:
        for i in range(max(a, 0), min(b, len(chars))):
            chars[i] = " "
    return "".join(chars)


def _name_words(run: str) -> list[str]:
    """The words of a capitalized run that can be part of a name, possessive "'s" dropped."""
    words = [re.sub(r"['’]s$", "", w) for w in run.split()]
    return [w for w in words if w.lower().strip("'’") not in COMMON_CAPS]


def _capitalized(blank: str) -> list[tuple[str, bool]]:
    """Capitalized word runs, each with whether it is only the sentence's first word."""
    out = []
    for m in CAPITALIZED.finditer(blank):
        words = _name_words(m.group(0))
        if not words:
            continue
        at_start = not blank[:m.start()].strip()
        out.append((" ".join(words), len(words) == 1 and (at_start or len(words[0]) < 3 or words[0].isupper())))
    return out


def _unknown_names(blank: str) -> list[str]:
    """Capitalized word runs the KG did not recognise: a person or place the reply invented.
    A single capitalized word at the start of the claim is just the sentence's first word."""
    return [name for name, first_word in _capitalized(blank) if not first_word]


def _trim(m: Mention) -> None:
    """Drop what a fuzzy match took in at the edges: function words, stray letters and a
    possessive ("Amara is" → "Amara", "Lukas's e" → "Lukas")."""
    words = list(re.finditer(r"\S+", m.text))

    def filler(w: str) -> bool:
        return w.lower() in _FUNCTION or len(w) < 2

    while len(words) > 1 and filler(words[-1].group(0)):
        words.pop()
    while len(words) > 1 and filler(words[0].group(0)):
        words.pop(0)
    a, b = words[0].start(), words[-1].end()
    possessive = re.search(r"['’]s$", m.text[a:b])
    if possessive and b - a > 2:
        b -= 2
    m.start, m.end, m.text = m.start + a, m.start + b, m.text[a:b]


def _trim_to(m: Mention, n: int) -> None:
    m.text = m.text[:n].rstrip()
    m.end = m.start + len(m.text)
    _trim(m)


def _whole_name(text: str, m: Mention) -> str:
    """The capitalized run a named mention sits in: "Björn Müller" when only "Müller" matched,
    so a surname alone does not make another person of the same family name."""
    for run in CAPITALIZED.finditer(text):
        if run.start() <= m.start and m.end <= run.end():
            words = _name_words(run.group(0))
            return " ".join(words) if words else m.text
    return m.text


def _spelled_alike(said: str, name: str) -> bool:
    """A reply may misspell a name ("Bjorn Muller", "Siobhan"), but a short word a letter off
    is another name ("Zeta" is not "Beta"): every word said must be a word of the name, or a
    long one within one edit (two from eight letters)."""
    from rapidfuzz.distance import Levenshtein

    have = norm(name).split()
    for w in norm(said).split():
        if w in have:
            continue
        if len(w) < 5 or not any(Levenshtein.distance(w, h) <= (1 if len(w) < 8 else 2) for h in have):
            return False
    return True


def _dates_only_context(v: V.Value) -> bool:
    """"today" next to a supported fact frames it; it asserts nothing of its own."""
    return v.text.lower() in ("today", "tomorrow", "tonight")


_FUNCTION = frozenset("""a an the is are was were be been to of in on at for with and or but i you he she it we they my your
his her its our their me him us them this that these those do does did have has had will would can could shall
should may might must so as by from then there here""".split())


def _content_words(text: str) -> set[str]:
    return {w for w in norm(text).split() if w not in _FUNCTION}
