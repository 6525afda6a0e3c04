"""The structured verifier: one claim against the KG, the retrieved facts and the dialogue.

For a claim it links the entities named (the engine's mention detector), resolves pronouns, "you" and definite
noun phrases from the dialogue and the claims before it, reads the typed values (dates, times, phones, e-mails,
numbers), and asks of each thing the claim puts together: is there a fact that connects it to another thing of the
claim, by a relation the claim's words allow? A value or name that differs from the KG's for a relation with one
value (an event's time or room, a phone number, a birth date) contradicts the claim; what no fact covers leaves it
NOT ENOUGH INFO; all covered is SUPPORTED. Availability ("X is free at 3") is checked against the calendar of the
person or room; a comparison, superlative or count is computed again (engine/factcheck/computed.py).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from engine.factcheck import values as V
from engine.factcheck.computed import ComputedChecks
from engine.factcheck.kg import KGView
from engine.factcheck.links import RelationChecks
from engine.factcheck.names import (
    DEMONYMS,
    after_name,
    blank_out,
    capitalized,
    content_words,
    dates_only_context,
    spelled_alike,
    trim,
    trim_to,
    unknown_names,
    whole_name,
)
from engine.factcheck.slots import Judgement, KFact, Reading, negate, rank
from engine.factcheck.split import LEADING_HEDGE, first_verb
from engine.factcheck.valuecheck import ValueChecks, whole_words
from engine.nlp.sentences import literal_text
from engine.relations import RelationMatcher
from engine.state import Check, Evidence, Mention, Verdict
from kgstore.vocab import local_name
from rules.similarity import norm

QUESTION = re.compile(r"\?\s*[\"')\]]*\s*$")
OPINION = re.compile(r"\b(?:i think|i believe|i feel|i guess|in my (?:opinion|view)|i hope|i recommend|i'd recommend|"
                     r"(?:is|are|was|were|'s|looks?|sounds?|seems?)\s+(?:an? |the )?(?:very |really |quite |so |pretty |truly )?"
                     r"(?:great|good|nice|lovely|wonderful|amazing|awesome|fantastic|excellent|boring|fun|interesting|"
                     r"beautiful|best|worst|terrible|brilliant|important|exciting|perfect|cool|bad)|"
                     r"(?:the )?(?:best|greatest|worst|most beautiful|most interesting)\b|should|must see|"
                     r"worth (?:it|seeing|watching|a (?:visit|look|listen)|visiting|checking))\b",
                     re.IGNORECASE)
NEGATION = re.compile(r"\b(?:not|never|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|won't|can't|cannot)\b|n't\b",
                      re.IGNORECASE)
NONE = re.compile(r"\b(?:no|nobody|nothing|none|no one|neither|nor)\b(?! other\b)", re.IGNORECASE)
ONLY = re.compile(r"\b(?:only|alone|solely|exclusively|just|no other|none other than)\b", re.IGNORECASE)
NOT_ONLY = re.compile(r"\bnot (?:only|just|alone)\b", re.IGNORECASE)
YOU = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)
QUALIFIER = re.compile(r"\s*\(([^()]{1,60})\)")
MAX_COMBOS = 8


class Verifier:
    """Checks the claims of one reply. Built per turn: it caches what it reads from the KG. Made of parts: `kg`
    (what it reads from the KG), `links` (the relation between the things a claim names), `values` (the claim's
    dates, numbers and contacts) and `computed` (comparisons, superlatives and counts); this class reads a claim
    (its names, pronouns and values) and puts their findings together."""

    def __init__(self, background, index, *, now: datetime | None = None, retrieved=(), mentions: Sequence[Mention] = (),
                 history: Iterable[tuple[str, str]] = (), speaker: str | None = None, encoder=None,
                 relation_encoder=None):
        self.kg = KGView(background, retrieved)
        self.context: list[str] = []  # entities in the order the dialogue brought them up
        # The encoder (or a function that builds it) that matches wording to a KG's relations.
        self.matcher = RelationMatcher(relation_encoder if relation_encoder is not None else encoder)
        self.links = RelationChecks(self.kg, self.context, self.matcher, encoder)
        # Times the user's turn named, for a reply's "then" ("X is busy then").
        times = [m.value for m in mentions if m.kind == "time" and getattr(m.value, "start", None) is not None]
        self.values = ValueChecks(self.kg, self.matcher, now, times)
        self.computed = ComputedChecks(self.kg, lambda text: [(m.candidates[0][0], m.start, m.end) for m in self._names(text)])
        self._pinned: dict[str, str] = {}  # same-named entities a claim of this reply told apart
        self._pin_ok = True
        self.index = index
        self.now = now
        self.history = list(history)
        self.speaker = speaker
        self._speaker_known = speaker is not None
        for _, text in self.history[-6:]:
            for m in self._names(text):
                self.context.append(m.candidates[0][0])
        for m in mentions:
            if m.entity and m.kind != "first_person":
                self.context.append(m.entity)

    # -- mentions ----------------------------------------------------------------------------
    def _names(self, text: str) -> list[Mention]:
        from engine.nlp.mentions import detect_names

        return [m for m in detect_names(text, self.index) if self._names_a_thing(m)]

    def _names_a_thing(self, m: Mention) -> bool:
        """A named mention a verifier can use: not a relation ("directed" matching the property "director", "works
        for" naming ex:worksFor), not a lower-case word that only partly matches a label ("group" in "Reading Group")."""
        if not m.candidates:
            return False
        m.candidates = [c for c in m.candidates if not self.kg.is_predicate(c[0])]
        return bool(m.candidates) and not (m.text.islower() and m.candidates[0][1] < 0.9)

    def _speaker(self) -> str | None:
        if not self._speaker_known:
            from engine.nlp.speakers import speaker_name

            self._speaker_known = True
            for who, text in self.history:
                if who == "user":
                    found = speaker_name(text, self._names(text))
                    if found is not None:
                        self.speaker = found.candidates[0][0]
        return self.speaker

    def _owns_another(self, text: str, m: Mention) -> bool:
        """"runs its reading group": a possessive before a noun that no relation of the KG names
        speaks of another thing of the entity, not of the entity itself."""
        from engine.nlp.mentions import STOPWORDS

        if m.text.lower() not in ("its", "his", "her", "their"):
            return False
        noun = re.match(r"\s+([a-z][\w-]*)", text[m.end:])
        if noun is None or noun.group(1).lower() in STOPWORDS:
            return False
        word = noun.group(1).lower().replace("-", "")  # "e-mail" is the "email" relation's word
        return not {word, word.removesuffix("s")} & self.index.relation_words

    def _resolve(self, kinds: tuple[str, ...], needs: set[str]) -> str | None:
        """The most recent entity of the dialogue a pronoun can stand for; when the claim gives
        a time, date, phone or e-mail, the most recent one that has such a value ("It starts at
        8" is about the meeting, not the room just named)."""
        fits = [iri for iri in reversed(self.context)
                if self.kg.category(iri) & set(kinds) or ("thing" in kinds and not self.kg.category(iri) & {"person"})]
        if not fits and "person" in kinds:
            # a KG with no types: "his", "her" stand for the last thing of unknown kind
            fits = [iri for iri in reversed(self.context) if self.kg.category(iri) == frozenset({"thing"})]
        if needs:
            for iri in fits[:6]:
                if any(slot.literal and slot.kind in needs for slot in self.kg.slots(iri).values()):
                    return iri
        return fits[0] if fits else None

    def _choices(self, m: Mention) -> list[str]:
        """The candidate entities of a named mention worth trying. Same-named entities (a
        weekly meeting) are all tried and the claim's values decide; a partial or misheard name
        ("Amara") goes to the one the dialogue or the retrieved facts point at, unless the name
        was said in full."""
        top_iri, top = m.candidates[0]
        top_label = self.kg.label(top_iri)
        same = [iri for iri, _ in m.candidates if self.kg.label(iri) == top_label]
        recent = next((iri for iri in reversed(self.context) if iri in dict(m.candidates)), None)
        if recent is None:
            recent = next((iri for iri, _ in m.candidates if iri in self.kg.retrieved_entities), None)
        if len(same) > 1:
            pinned = self._pinned.get(top_label) if self._pin_ok else None
            if pinned in same:
                return [pinned]
            return sorted(same, key=lambda iri: iri != recent)[:MAX_COMBOS]
        if recent is not None and (top < 0.97 or recent == top_iri):
            return [recent]
        return [iri for iri, p in m.candidates if p >= top - 0.05][:4]

    def _same_numbers(self, m: Mention) -> list[tuple[str, float]]:
        """Candidates whose name has the same numbers as the mention: "Office 320" is no misheard "Office 329"."""
        digits = re.findall(r"\d+", m.text)
        if not digits:
            return m.candidates
        if not re.search(r"[^\W\d_]", m.text):
            return [(iri, p) for iri, p in m.candidates if norm(self.kg.label(iri)) == norm(m.text)]
        return [(iri, p) for iri, p in m.candidates if re.findall(r"\d+", self.kg.label(iri)) == digits]

    def _exact_names(self, text: str, blank: str) -> list[Mention]:
        """Capitalized words the detector passed over that are exactly a label ("Seminar"), or
        a nationality adjective of a country the KG names ("American")."""
        found = []
        # each distinct name once: a reply repeating one name thousands of times was quadratic
        for name in dict.fromkeys(name for name, _ in capitalized(blank)):
            lab = self.index.by_norm.get(norm(DEMONYMS.get(name, name)))
            if lab is None:
                continue
            for m in re.finditer(re.escape(name), blank):
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
            trim(m)  # "Grace, the" is the name Grace: a fuzzy match must not swallow the comma after it
            label = self.kg.label(m.candidates[0][0])
            cuts = [m.text.find(c) for c in ",(;" if c in m.text and c not in label]
            if cuts and min(cuts) > 0:
                trim_to(m, min(cuts))
            self._qualify(m, sentence)
            spans.append((m.start, m.end))
            spans += self.values.said_whole(m.candidates[0][0], sentence)
            spans += self.kg.labels_said(m.candidates[0][0], sentence)
        return spans

    def _qualify(self, m: Mention, text: str) -> None:
        """"Staff Meeting (event 26)", "Staff Meeting (Tuesday 3 March 2026)": the words the
        verbalizer adds to tell same-named things apart (verbalize._disambiguated_labels). The
        mention takes the parenthesis in and means the one thing it names, so a list of
        same-named meetings is not read as one meeting in many rooms."""
        q = QUALIFIER.match(text, m.end)
        if not q or len(m.candidates) < 2:
            return
        said = norm(q.group(1))
        for iri, _ in m.candidates:
            dates = {norm(literal_text(kf.other, kf.fact.datatype)) for slot in self.kg.slots(iri).values()
                     if slot.literal and slot.kind == "date" for kf in slot.facts}
            if said == norm(local_name(iri)) or said in dates:
                m.candidates, m.end, m.text = [(iri, 1.0)], q.end(), text[m.start:q.end()]
                return

    # -- claims ------------------------------------------------------------------------------
    def check(self, claim: str) -> Check:
        j = self.judge(claim)
        evidence = self.evidence(j)
        if j.verdict == Verdict.NEI and j.unknown:
            evidence.unknown = list(j.unknown)
        return Check(claim=claim, verdict=j.verdict, evidence=evidence, reason=j.reason)

    def judge(self, claim: str) -> Judgement:
        text = claim.strip()
        if text.startswith(("```", "~~~")):
            return Judgement(Verdict.NEI, reason="a code block, not a claim")
        if not re.search(r"\w", text):
            return Judgement(Verdict.NEI, reason="no statement")
        if QUESTION.search(text):
            return Judgement(Verdict.NEI, reason="a question, not a claim")
        hedge = LEADING_HEDGE.match(text)
        if hedge and not OPINION.search(text[hedge.end():]):
            # "I believe it's in Room B": a hedged claim is still a claim; judged on its own
            # words, and an opinion when the KG has nothing to say on them.
            j = self.judge(text[hedge.end():])
            return j if j.verdict != Verdict.NEI else Judgement(Verdict.NEI, reason="an opinion, not a fact the KG can hold",
                                                          unknown=j.unknown)
        if OPINION.search(text):
            return Judgement(Verdict.NEI, reason="an opinion, not a fact the KG can hold")
        from engine.nlp.mentions import detect

        # Names inside an e-mail address or a phone number are part of the value.
        stated = V.extract(text, self.now)
        inside = [(v.start, v.end) for v in stated if v.kind in ("email", "phone")]
        needs = {v.kind for v in stated if v.kind in ("time", "date", "phone", "email")}
        self._pin_ok = not needs & {"time", "date"}  # a claim's own day or time tells a weekly meeting apart
        mentions = [m for m in detect(text, self.index) if m.kind in ("name", "pronoun", "definite")
                    and V.free(inside, m.start, m.end) and (m.kind != "name" or self._names_a_thing(m))]
        for m in mentions:
            if m.kind == "name":
                heard = m.text
                trim(m)
                whole = whole_name(text, m)
                m.candidates = [c for c in self._same_numbers(m) if spelled_alike(whole, self.kg.label(c[0]))]
                # The name as heard, before trimming, first: its article may be part of it ("The
                # Hidden Cartographer" is not the "Hidden Cartographer" beside it).
                as_said = ([(iri, 1.0) for iri, _ in m.candidates if norm(self.kg.label(iri)) == norm(heard)]
                           or [(iri, 1.0) for iri, _ in m.candidates if norm(self.kg.label(iri)) == norm(whole)])
                m.candidates = as_said or m.candidates
                self._qualify(m, text)
        mentions = [m for m in mentions if m.kind != "name" or m.candidates]
        anchors: list[tuple[Mention, list[str]]] = []
        for m in mentions:
            if m.kind == "name" and m.candidates:
                anchors.append((m, self._choices(m)))
            elif m.kind == "definite" and self._label_of(m.text) is not None:
                # "The Seminar": a noun phrase that is also an entity's exact name.
                m.candidates = [(iri, 1.0) for iri in self._label_of(m.text).iris]
                anchors.append((m, self._choices(m)))
            elif m.kind in ("pronoun", "definite") and not self._owns_another(text, m):
                iri = self._resolve(tuple(m.value or ("thing",)), needs)
                if iri:
                    anchors.append((m, [iri]))
        for you in YOU.finditer(text):
            speaker = self._speaker()
            if speaker:
                anchors.append((Mention(you.group(0), you.start(), you.end(), "first_person"), [speaker]))
        spans = [(m.start, m.end) for m, _ in anchors] + [(m.start, m.end) for m in mentions if m.kind == "name"]
        # A number right after a capitalized word belongs to a name ("Office 115", "Apollo 13").
        values = [v for v in V.extract(text, self.now, spans)
                  if not (v.kind == "number" and after_name(text[:v.start]))]
        if first_verb(blank_out(text, spans)) is None:  # names out: "Teaching Committee" has no verb
            for v in values:  # "Seminar — Monday; 11 am; Room B": a time listed with no verb is when it starts
                if v.kind == "time" and not v.slot:
                    v.slot = "start"
        blank = blank_out(text, spans + [(v.start, v.end) for v in values])
        unknown = unknown_names(blank)
        exact = self._exact_names(text, blank)
        # "a French actor": a nationality word says citizenship as plainly as "citizen of" does.
        implied = {"P27"} if any(m.text in DEMONYMS for m in exact) else set()
        if exact:
            anchors += [(m, self._choices(m)) for m in exact]
            blank = blank_out(blank, [(m.start, m.end) for m in exact])
            unknown = [u for u in unknown if not any(m.text == u for m in exact)]
        if not anchors:
            if unknown:
                return Judgement(Verdict.NEI, reason=f"'{unknown[0]}' is not in the KG", unknown=tuple(unknown))
            return self._from_dialogue(text) or Judgement(Verdict.NEI, reason="names nothing the KG knows")
        implicit = self.links.implicit_argument(anchors, values, unknown, blank)
        if implicit is not None:
            anchors.append((Mention("", 0, 0, "definite", entity=implicit), [implicit]))
        best: Judgement | None = None
        choices = [c for _, c in anchors]
        for combo in itertools.islice(itertools.product(*choices), MAX_COMBOS):
            r = Reading(text, blank)
            for (m, _), iri in zip(anchors, combo, strict=False):
                if m.end > m.start:
                    r.where.setdefault(iri, []).append((m.start, m.end))
            j = self._judge_with(r, list(dict.fromkeys(combo)), values, unknown, anchors, implied)
            if best is None or rank(j) > rank(best):
                best = j
        assert best is not None
        for _, combo_iris in anchors:
            if len(combo_iris) == 1:
                self.context.append(combo_iris[0])
            elif best.verdict == Verdict.SUPPORTED:
                # A weekly meeting told apart by one value ("Design Review from 15:30") stays that
                # meeting for the reply's next claims ("... in Meeting Room Omega").
                hit = next((x for kf in best.evidence for x in (kf.fact.s, kf.fact.o) if x in combo_iris), None)
                if hit is not None:
                    self._pinned[self.kg.label(hit)] = hit
        if best.evidence:
            self.context += [kf.fact.s for kf in best.evidence[:1]]
        said = [(m.start, c[0]) for m, c in anchors if m.end > m.start and len(c) == 1 and m.kind != "first_person"]
        if said:  # the next claim's "it" is most likely what this one is about: its subject, said first
            self.context.append(min(said)[1])
        if best.verdict == Verdict.NEI and not best.evidence:
            return self._from_dialogue(text) or best
        return best

    def _judge_with(self, r: Reading, ents: list[str], values: list[V.Value], unknown: list[str],
                    anchors, implied: set[str]) -> Judgement:
        text, blank = r.text, r.blank
        negated = bool(NEGATION.search(NOT_ONLY.sub(" ", blank)))  # "not only X" says X, and more
        avail = self.values.availability(text, blank, ents, values)
        if avail is not None:
            return negate(avail) if negated else avail
        if implied:
            implied = implied | self.links.nationality(ents)
        said = r.said = self.links.stated(self._relation_words_kept(r, ents), ents) | implied
        if (computed := self.computed.judge(r, ents, values)) is not None:  # "X is older", "3 ships are built by Y"
            return negate(computed) if negated else computed
        if NONE.search(blank):
            return Judgement(Verdict.NEI, reason="says what there is not; the KG lists what there is")
        cues = self.links.cues(blank, ents) | implied | said
        support: list[KFact] = []
        contra: list[tuple[KFact, str]] = []
        missing: list[str] = []

        if (ents == [self.speaker] and not values and not unknown and any(m.kind == "first_person" for m, _ in anchors)
                and any(m.kind == "name" for m, _ in anchors)):  # "You are Mei Nguyen."
            turn = self._intro_turn()
            if turn is not None:
                return Judgement(Verdict.SUPPORTED, reason="the user said so", extra=turn)

        # Each value must be a value of a thing the claim names.
        unplaced: list[V.Value] = []
        for v in values:
            if (bounded := self.values.bound(v, ents, cues, r)) is not None:
                held, against = bounded
                if against is not None:
                    contra.append((against, f"the KG says {self.kg.say(against)}, the other side of {v.text.strip()}"))
                elif held:
                    support.extend(held)
                else:
                    unplaced.append(v)
                continue
            found = self.values.value_support(v, ents, cues, r)
            if found:
                support.extend(found)
                continue
            clash = self.values.value_clash(v, ents, cues, r, said)
            if clash:
                contra.append(clash)
            else:
                unplaced.append(v)
        valued = {kf.fact.s for kf in support}

        # Each thing the claim names must be connected to another one, or carry one of its values
        # ("X ends at 10, just before Y starts at 10").
        unlinked: list[str] = []  # things of the KG that the claim's relation joins to no other one
        if len(ents) >= 2:
            # A relation of values ("founded" of an inception year) said with no value in the claim
            # is the claim's word for how its things are joined: it is not blanked away as said.
            link_said = said if values else {k for k in said if any(
                s.key == k and not s.literal for e in ents for s in self.kg.slots(e).values())}
            connected = {b: self.links.connect(b, ents, cues, r, link_said) for b in ents}
            for b in ents:
                support.extend(connected[b])
            linked = {x for kf in support for x in (kf.fact.s, kf.fact.o)}
            for b in ents:
                if connected[b] or b in valued or b in linked or self.links.names_said(b, ents, said, r):
                    continue
                read = self.links.read(b, ents, cues, first_verb(blank) is None, r, said)
                support += read.support
                contra += [read.clash] if read.clash else []
                unlinked += [] if read.clash or read.support else [b]
        missing += [v.text for v in unplaced if not (v.kind == "date" and support and dates_only_context(v))]

        if len(ents) == 1 and len(r.where.get(ents[0], ())) > 1:
            clash = self.links.itself(ents[0], r, said)  # "The Poster Session is organized by the Poster Session."
            if clash:
                contra.append(clash)
        invented = []
        for name in unknown:
            clash = self.values.unknown_clash(name, ents, cues, r, said)
            if clash:
                contra.append(clash)
            else:
                missing.append(name)
                invented.append(name)

        if not contra and not (support and not missing):
            # a value the KG holds in words: "Pad Thai is medium-spicy" (spice level: medium)
            worded, clash = self.values.text_value(ents, r)
            if worded:
                support.extend(worded)
                # a capitalized value the KG holds as words ("spoke Thai") is no unknown name
                values_said = {norm(self.kg.value_label(kf)) for kf in worded}
                missing = [x for x in missing if not any(x == self.kg.label(e) for e in ents) and norm(x) not in values_said]
            elif clash:
                contra.append(clash)
            elif (named_class := self.values.class_word(ents, r)) is not None:
                contra.append(named_class)
        path = self._along_path(r, ents, values) if not support else None
        if path is not None:
            j = path
        elif contra:
            j = Judgement(Verdict.CONTRADICTED, [k for k, _ in contra], reason=contra[0][1], supported=len(support))
        elif missing:
            j = Judgement(Verdict.NEI, support, reason=f"the KG has nothing on {', '.join(repr(x) for x in missing[:3])}"
                          + (" here" if support else ""), unknown=tuple(invented))
        elif unlinked:
            j = Judgement(Verdict.NEI, support, reason=self._unlinked_reason(unlinked, ents))
        elif support:
            j = self._only(r, ents, support) or Judgement(Verdict.SUPPORTED, support, reason="the KG says " + self.kg.say(
                support[0]), supported=len(support))
        else:
            j = Judgement(Verdict.NEI, reason="nothing in the claim the KG could confirm")
        if negated and j.verdict != Verdict.NEI:
            j = negate(j)
        return j

    def _unlinked_reason(self, unlinked: list[str], ents: list[str]) -> str:
        """Why a claim about things the KG has is not enough info: none of its relations between
        them is the one the claim states. Says the facts the KG does have between them, so the
        reader sees which relation it holds (and the reason never reads as if a thing were missing)."""
        names = [self.kg.label(x) for x in dict.fromkeys([*unlinked, *ents])][:3]
        have = {kf.fact: kf for b in unlinked for slot in self.kg.slots(b).values() if not slot.literal
                for kf in slot.facts if kf.other in ents and kf.other != b}
        both = " and ".join(repr(x) for x in names) if len(names) == 2 else ", ".join(repr(x) for x in names)
        if have:
            return f"between {both} the KG has only {'; '.join(self.kg.say(kf) for kf in list(have.values())[:3])}, not what the claim states"
        if len(set(ents)) == 2:
            return f"the KG has {both} but no relation between them"
        alone = " and ".join(repr(self.kg.label(x)) for x in unlinked[:2])
        return f"the KG has {both} but nothing that joins {alone} to the others"

    def _relation_words_kept(self, r: Reading, ents: list[str]) -> str:
        """The claim with its names blanked, but for a thing named in lower case by words of a
        relation of the others ("the department administrator"): those words state the relation."""
        chars = list(r.blank)
        for iri in ents:
            if self.links.names_said(iri, ents, r=r):
                for a, b in r.where.get(iri, ()):
                    if r.text[a:b].islower():
                        chars[a:b] = r.text[a:b]
        return "".join(chars)

    def _along_path(self, r: Reading, ents: list[str], values: list[V.Value]) -> Judgement | None:
        """A claim about a thing given by a description ("the department that offers Syntax",
        "The Glass Harbour's label", "the lead singer of Kestrel Lane"): the thing is reached
        from a named one by a relation the claim states, and the claim judged of it by another
        relation the claim states. None when no such path is found."""
        named = [iri for iri in ents if r.where.get(iri)]
        if not named:
            return None
        # the description hangs on the thing the claim names first ("the head of the
        # department that offers Syntax", "Germany's capital"); the others are what it says of it
        for a in [min(named, key=lambda iri: r.where[iri][0][0])]:
            targets = [b for b in ents if b != a]
            first = [s for s in self.kg.slots(a).values() if not s.literal and s.key in r.said]
            for s1 in first:
                for kf1 in s1.facts[:6]:
                    x = kf1.other
                    if x in ents:
                        continue
                    # what the claim says of x, in words other than those that led to it
                    said = self.links.stated(self.links.unsaid(r.blank, {s1.key}, [a]), [x], guess=False) - {s1.key}
                    if not said:
                        continue
                    step = Reading(r.text, r.blank, {**r.where, x: r.where.get(a, [])}, said, set())
                    for b in targets:
                        found = self.links.connect(b, [x, b], said, step, said)
                        if found:
                            return Judgement(Verdict.SUPPORTED, [kf1] + found, reason="the KG says " + " and ".join(
                                self.kg.say(k) for k in [kf1] + found[:1]), supported=2)
                        clash = self.links.wrong_value(x, b, step, said)
                        if clash:
                            return Judgement(Verdict.CONTRADICTED, [kf1, clash[0]],
                                             reason=f"the KG says {self.kg.say(kf1)}; {clash[1]}")
                    if not targets and not values:  # "The creator of nachos worked as a maître d'"
                        worded, clash = self.values.text_value([x], step)
                        if worded:
                            return Judgement(Verdict.SUPPORTED, [kf1] + worded[:1], reason="the KG says " + " and ".join(
                                self.kg.say(k) for k in [kf1] + worded[:1]), supported=2)
                        if clash:
                            return Judgement(Verdict.CONTRADICTED, [kf1, clash[0]],
                                             reason=f"the KG says {self.kg.say(kf1)}; {clash[1]}")
                    for v in values:
                        found = self.values.value_support(v, [x], said, step)
                        if found:
                            return Judgement(Verdict.SUPPORTED, [kf1] + found, reason="the KG says " + " and ".join(
                                self.kg.say(k) for k in [kf1] + found[:1]), supported=2)
                        clash = self.values.value_clash(v, [x], said, step, said)
                        if clash:
                            return Judgement(Verdict.CONTRADICTED, [kf1, clash[0]],
                                             reason=f"the KG says {self.kg.say(kf1)}; {clash[1]}")
        return None

    def _only(self, r: Reading, ents: list[str], support: list[KFact]) -> Judgement | None:
        """"X speaks only French", "invented by Y alone", "no other ...": a claim about the whole
        set of a relation's values, contradicted when the KG lists more than the claim names."""
        said = ONLY.search(r.blank)
        if said is None or NOT_ONLY.search(r.blank):
            return None
        if said.group(0).lower() == "just" and not any(a == said.end() + 1 for spans in r.where.values()
                                                        for a, _ in spans):
            return None  # "just over", "just opened": "just" is "only" right before a name
        # the restricted values: the names after "only", or before "alone"
        after = said.group(0).lower() != "alone"
        values = {iri for iri, spans in r.where.items()
                  if any((a >= said.end()) if after else (b <= said.start()) for a, b in spans)}
        region = r.text[said.end():] if after else r.text[:said.start()]
        for kf in support:
            # a value the KG holds as words ("speaks only English") is restricted as a name is
            if not (whole_words(self.kg.value_label(kf), region) if kf.literal else kf.other in values):
                continue
            anchor = kf.fact.o if kf.fact.s == kf.other else kf.fact.s
            slot = next((s for s in self.kg.slots(anchor).values() if kf in s.facts), None)
            if slot is None:
                continue
            more = [self.kg.value_label(f) for f in slot.facts if not whole_words(self.kg.value_label(f), r.text)
                    ] if kf.literal else [self.kg.label(o) for o in slot.others if o not in ents]
            if more:
                names = ", ".join(more[:4])
                return Judgement(Verdict.CONTRADICTED, [kf], reason=f"the KG lists more than that: also {names}",
                                 supported=len(support))
        return None

    # -- dialogue ----------------------------------------------------------------------------
    def _intro_turn(self) -> Evidence | None:
        for i, (who, text) in enumerate(self.history, start=1):
            if who == "user" and self.speaker and re.search(r"\b(my name is|i am|i'm)\b", text, re.I):
                return Evidence(text=text, source="dialogue", turn=i, speaker="user")
        return None

    def _from_dialogue(self, text: str) -> Judgement | None:
        """A claim about the user that restates what they said (their name, their plans, what
        they asked). What the user said of the KG's world is no evidence for it."""
        words = content_words(text)
        if len(words) < 2 or not YOU.search(text):
            return None
        for i, (who, turn) in reversed(list(enumerate(self.history, start=1))):
            if who != "user":
                continue
            said = content_words(turn)
            if len(words & said) >= 0.8 * len(words):
                return Judgement(Verdict.SUPPORTED, reason="the user said so",
                                 extra=Evidence(text=turn, source="dialogue", turn=i, speaker="user"))
        return None

    # -- output ------------------------------------------------------------------------------
    def evidence(self, j: Judgement) -> Evidence:
        if not j.evidence:
            return dataclasses.replace(j.extra) if j.extra else Evidence()
        facts = list({kf.fact.key: kf for kf in j.evidence}.values())
        out = self._triple(facts[0])
        out.more = [self._triple(k) for k in facts[1:4]]
        return out

    def _triple(self, kf: KFact) -> Evidence:
        f = kf.fact
        return Evidence(text=self.kg.say(kf), source=kf.source, s=f.s, p=f.p, o=f.o, s_label=self.kg.label(f.s),
                        p_label=kf.p_label, o_label=self.kg.value_label(kf))
