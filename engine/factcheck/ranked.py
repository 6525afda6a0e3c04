"""Which relation a claim's words say, read against the relations the KG has, not against one
fixed score. A claim naming two things the KG joins ("Joost Verhagen flew on Petrel 3", where the
KG has him as a crew member of it) states that relation when its words fit the joining relation
better than any other relation the KG has, by a clear lead, and say nothing opposite to it ("died
in" is no birth place). When the words clearly fit another relation the claim's things have,
with another value that is the only one, the claim is contradicted by that value ("Valeria
Strand commanded Lumen-3", whose mission commander is someone else). What fits neither way is
left to the other checks, which call it not enough info.

The fit of words to a label (`fit`) is read from the label's words and WordNet's: what decides
is the order of the labels of the claim's things, which carries to relations no word list
foresaw. The sentence encoder's closeness of a short phrase to a label was measured and left
out: it ranks the right relation first no more often than chance does among a thing's few
relations ("acted" is closer to "director" than to "cast member"). Whole sentences fared no better
(the claim against "S — label — O", "O is the label of S" or "What is the label of S?", with
MiniLM or the larger all-mpnet-base-v2): on hand-written claims of thirteen domains the larger
encoder put the joining relation first more often, but for claims of a relation the things do not
have ("founded" where the KG has an employer) as often, and no threshold chosen on some domains
kept those unsupported on the others while supporting most verbs that name a way of doing the
relation. Closeness of meaning is not entailment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from engine.factcheck.kg import RECORD, KGView
from engine.factcheck.relations import label_words, relation_phrase
from engine.factcheck.slots import KFact, Reading, Slot
from engine.lexicon import lexicon
from engine.nlp.sentences import TYPE_PREDICATES
from engine.relations import glosses, other_modifier
from engine.words import forms, near_stems, said_share, stem, words_of

FLOOR = 0.5  # the fit below which words say no relation, however far ahead of the others
LEAD = 0.1  # how far ahead of every other relation of the KG the one the words say must be


@dataclass(frozen=True)
class Read:
    """What the claim's words say of two things: the facts of the relation they state that join
    them, or the fact of that relation they contradict, with the reason."""

    support: list[KFact]
    clash: tuple[KFact, str] | None = None


class RankedRelations:
    """The relations of one KG, ranked against a claim's words. One per reply."""

    def __init__(self, kg: KGView):
        self.kg = kg

    def read(self, b: str, ents: list[str], r: Reading) -> Read | None:
        """What the claim says of b and another of its things, decided by the order of the KG's
        relations for its words; None where that order decides nothing."""
        said = relation_phrase(r.blank)
        if not said:
            return None
        for a in ents:
            if a == b:
                continue
            phrase = self._unclassed(said, a, b)
            slots = self._slots(a)
            joining = [s for s in slots if b in s.others]
            scores = {label: fit(phrase, label) for label in {self._label(s) for s in [*slots, *self._slots(b)]}}
            own = {self._label(s) for s in joining}
            best_own = max((scores[x] for x in own), default=0.0)
            rival = max(((x, s) for x, s in scores.items() if x not in own), key=lambda p: p[1], default=("", 0.0))
            if joining and best_own >= FLOOR and best_own - rival[1] >= LEAD:
                slot = max(joining, key=lambda s: scores[self._label(s)])
                return Read([f for f in slot.facts if f.other == b][:1])
            if rival[1] >= FLOOR and rival[1] - best_own >= LEAD:
                clash = self._clash(a, b, rival[0], r)
                if clash is not None:
                    return Read([], clash)
            if own and phrase and self._sole(phrase, own, a, b, r.blank):
                return Read([f for f in joining[0].facts if f.other == b][:1])
        return None

    def _sole(self, phrase: str, own: set[str], a: str, b: str, blank: str = "") -> bool:
        """Do the claim's words read as the relation the KG has between a and b, though they
        say its label only faintly or not at all? They do where the graph leaves them no other
        reading: every relation joining either thing to things of the other's kind joins these
        two ("runs from" a station that is both a line's terminus and a station it serves), the
        words fit no other relation of either thing, its values' relations included ("founded"
        fits an opening date: the claim says another relation, which the KG lacks between them),
        and say nothing opposite to it. Then words WordNet ties to the label at all confirm it
        ("planted with" of "sown with"); words it does not tie confirm it only when they are a
        verb that names no event of its own (`standing`): "flew on" a mission one is a crew
        member of, "sails out of" a home port, but not "sold", "founded" or "restored", which
        the KG would record under a relation of their own, nor a role named by a noun
        ("treasurer" of a chairperson). For those, relations of values, and relations whose values
        are things of another kind than the claim's, are no rival reading (a station's platform
        count, a line's operator, a company, are not what "runs from" says of a station)."""
        if any(opposite(phrase, label) for label in own) or not (self._all_join(a, b) and self._all_join(b, a)):
            return False
        if any(fit(phrase, label) > 0.0 for label in own) and all(
                fit(phrase, x) < FLOOR for x in self._rivals(a, b, True) - own):
            return True
        return standing(phrase, blank) and all(fit(phrase, x) < FLOOR for x in self._rivals(a, b, False) - own)

    def _rivals(self, a: str, b: str, every: bool) -> set[str]:
        """The labels of the relations of a and b a claim's words could say instead: all of them
        (`every`), or those whose values may be the claim's other thing: things of its kind."""
        out = set()
        for x, other in ((a, b), (b, a)):
            kind = self.kg.category(other) - {"thing"}
            for s in self.kg.slots(x).values():
                label = self._label(s)
                if s.facts[0].fact.p in TYPE_PREDICATES or RECORD.search(label):
                    continue
                if s.literal and not every:
                    continue  # a relation of values holds no thing
                if every or not kind:
                    out.add(label)
                    continue
                held = self.kg.slot_category(s) - {"thing"}
                if not held or held & kind:
                    out.add(label)
        return out

    def _all_join(self, a: str, b: str) -> bool:
        """Does every relation joining a to things of b's kind join it to b? Where a crossing has
        an origin and a terminus, both ports, "departs from" one of them could say either, and
        words that say neither decide nothing. Of a thing of no class, only the other side tells."""
        kind = self.kg.category(b) - {"thing"}
        if not kind:
            return True  # a thing of no class: its own relations tell (barley is only ever sown)
        return all(b in s.others for s in self._slots(a) if self.kg.slot_category(s) & kind)

    def _unclassed(self, phrase: str, a: str, b: str) -> str:
        """The claim's relation words without those that name the class of one of its things
        ("the Paediatrics department treats": a department is what Paediatrics is, no relation)."""
        classes = {w for x in (a, b) for t in self.kg.bg.types(x) for w in words_of(self.kg.label(t))}
        return " ".join(w for w in phrase.split() if w not in classes) if classes else phrase

    def _slots(self, iri: str) -> list[Slot]:
        """The relations of a thing to other things that a claim's words could state: not its
        class, not a record of a name or a gender."""
        return [s for s in self.kg.slots(iri).values() if not s.literal and s.facts[0].fact.p not in TYPE_PREDICATES
                and not RECORD.search(self._label(s))]

    @staticmethod
    def _label(slot: Slot) -> str:
        return label_words(slot.facts[0].p_label or slot.key)

    def _clash(self, a: str, b: str, label: str, r: Reading) -> tuple[KFact, str] | None:
        """The fact of a's relation `label` that b, given as its value, contradicts: the relation
        holds one value here, of b's kind, and it is not b."""
        for slot in self._slots(a):
            if (slot.direction == "out" and self._label(slot) == label and b not in slot.others
                    and self.kg.single(slot, {slot.key} | r.said)
                    and self.kg.slot_category(slot) & self.kg.category(b) - {"thing"}):
                kf = slot.facts[0]
                return kf, f"the KG says {self.kg.say(kf)}, not {self.kg.label(b)}"
        return None


def fit(phrase: str, label: str) -> float:
    """How well a claim's relation words say a label: the share of the label's words they say
    (`said_share`), or, with WordNet, how near a word of theirs and a word of the label come to
    one word one step from each ("skippers" and "captain" meet in "skipper"; "headed" and
    "chief executive" in "head"); 0 where the words name another kind of the label's head noun,
    or its opposite ("died" of "place of birth")."""
    if other_modifier(label, phrase) or opposite(phrase, label):
        return 0.0
    share = said_share(label, phrase, glosses(phrase))
    mine = [_near(w) for w in words_of(phrase)]
    theirs = [_near(w) for w in words_of(label)]
    met = max((a[k] * b[k] for a in mine for b in theirs for k in a.keys() & b.keys()), default=0.0)
    return max(share, met)


@lru_cache(maxsize=16384)
def _near(word: str) -> dict[str, float]:
    """The stems of a word (1.0) and of the words WordNet puts one step from it, by closeness."""
    return {**near_stems(word), **dict.fromkeys(forms(word), 1.0)}


# WordNet's classes of verbs that report an event with participants of its own: a thing made,
# changed, or changing hands, a contest won, a thing said, recorded or judged. A KG records such
# an event under a relation of its own (founder, restorer, seller, reviewer), so the one relation
# it has between two things is no reading of it.
EVENTS = frozenset({"verb.creation", "verb.change", "verb.possession", "verb.competition", "verb.communication",
                    "verb.cognition"})


def standing(phrase: str, blank: str = "") -> bool:
    """Do a claim's relation words say how two things stand or move together, by a verb (its
    particle taken with it where WordNet has the pair: "brought out", "looks after") whose
    frequent senses report no event (EVENTS), or a verb of making in the passive before what a
    thing is made of ("is made of", "was carved from": what it is of, no deed), with no noun that
    names a role a person holds ("treasurer")? False without WordNet. `blank` is the claim with
    its names blanked, where the passive is read."""
    lex = lexicon()
    words = phrase.split()
    if lex is None or not words:
        return False
    # two verbs say two relations, and a thing named before the first name is the subject ("the
    # meeting X organizes is held in Y"): neither is one relation between the claim's two names
    first = re.search(r" {2,}", blank)
    if relation_phrase(blank[:first.start()] if first else "") or sum(
            all(pos == "v" for _, pos in lemmas) for lemmas in map(lex.lemmas, words) if lemmas) > 1:
        return False
    if "verb.creation" in lex.groups(words[0], "v") and re.search(
            rf"\b(?:is|are|was|were|be|been)\s+{re.escape(words[0])}\s+(?:of|from|out of)\b", blank, re.IGNORECASE):
        return not any(lex.groups(w, "n") == {"noun.person"} for w in words[1:])
    verbs = [lemma for lemma, pos in lex.lemmas(words[0]) if pos == "v"]
    if not verbs:
        return False
    pair = next((f"{v}_{words[1]}" for v in verbs if len(words) > 1 and lex.senses(f"{v}_{words[1]}", "v")), None)
    groups = lex.groups(pair, "v") if pair else lex.groups(words[0], "v")
    rest = words[2:] if pair else words[1:]
    return bool(groups) and not groups & EVENTS and not any(lex.groups(w, "n") == {"noun.person"} for w in rest)


def opposite(phrase: str, label: str) -> bool:
    """Does a word of the phrase, or a word WordNet derives from it, name the opposite of a word
    of the label ("died": death, the opposite of the birth of "place of birth")? False without
    WordNet."""
    lex = lexicon()
    if lex is None:
        return False
    own = {x for w in words_of(label) for x in (w, stem(w))}  # "born" is read as "birth"
    for w in words_of(phrase):
        near = {w, *(x for x in lex.near(w) if x.isalpha())}
        if any(own & lex.opposites(x) for x in near) or any(near & lex.opposites(x) for x in own):
            return True
    return False
