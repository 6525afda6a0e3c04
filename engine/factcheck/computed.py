"""Claims of what is computed, judged by computing them again over the graph: a comparison ("X is
older", "X is older than Y"), a superlative ("X has the most tracks", "A and B are tied for the longest", "... next is
Y"), a tie ("A and B are tied"), a count ("3 ships are built by Harland Yard") and a lack ("2 of the
6 have no length: A and B"). Values are read and ordered as engine/compute reads them (dates as
dates, units converted), so an answer and its check agree and a wrong one is contradicted. What a
claim leaves open (the things compared) comes from the claim, else from the sentence of the reply
it was split from; a superlative ranks the members of the subject's class (the one the claim
names, when it names one). None when a claim is none of these or its relation cannot be told: the
other checks then judge it."""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.compute.members import keys, wanted_kind
from engine.compute.operators import Operator, graded, measures
from engine.compute.run import Result, rank
from engine.compute.values import compare, read
from engine.context import select
from engine.factcheck import values as V
from engine.factcheck.kg import KGView
from engine.factcheck.names import blank_out
from engine.factcheck.relations import label_words
from engine.factcheck.slots import Judgement, KFact, Reading, Slot
from engine.nlp.sentences import name_and_unit
from engine.relations import relation_kind
from engine.state import Verdict
from kgstore.store import TYPE_PREDICATES

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_COUNTED = frozenset("more most fewer fewest less least".split())
_NEXT = re.compile(r"\bnext\b", re.I)
_THAN = re.compile(r"\bthan\b", re.I)
_TIED = re.compile(r"\btied\b", re.I)
_LACKS = re.compile(r"\b(?:has|have|had) no\b", re.I)
# A lack is judged only as a claim about the graph or a part of a counted whole ("2 of the 6 have
# no ..."): "X has no children" of the world is beyond what an open-world graph can say.
_OF_GRAPH = re.compile(r"\b(?:KG|knowledge graph)\b|^\s*\d+ of the \d+\b", re.I)
# "The KG does not list X among Y's members": judged as its positive ("X is among ..."), which the
# claim's negation turns round.
_AMONG = re.compile(r"\bdoes not list\b.*\bamong\b", re.I)
_TYPES = " ".join(f"<{p}>" for p in TYPE_PREDICATES)
Values = dict[str, list[str]]


class ComputedChecks:
    """The computed half of a judgement. `names(text)` gives the entities a text names and where; `reply`
    is the whole reply the claims come from (set before its claims are checked)."""

    def __init__(self, kg: KGView, names: Callable[[str], list[tuple[str, int, int]]]):
        self.kg = kg
        self.names = names
        self.reply = ""
        self._predicates: dict[str, str] | None = None

    def judge(self, r: Reading, ents: list[str], values: list[V.Value]) -> Judgement | None:
        if not ents:
            return None
        op = graded(r.blank)
        if op is not None:
            return self._graded(op, r, ents)
        if _TIED.search(r.blank) and len(ents) > 1:
            return self._tied(r, ents)
        return self._count(r, ents, values) or self._lacking(r, ents) or self._among(r, ents)

    # -- what a claim leaves open ----------------------------------------------------------------
    def _sentence(self, claim: str) -> str:
        """The sentence of the reply the claim was split from (the claim itself when none)."""
        head = re.split(r"[:;.]", claim, maxsplit=1)[0].strip().casefold()
        return next((s for s in _SENTENCE.split(self.reply) if head and head in s.casefold()), claim)

    def _words(self, r: Reading, sentence: str) -> str:
        """The claim's and its sentence's words, names out: "Natural Language Processing" says
        nothing of a relation "languages spoken"."""
        return r.blank + " " + blank_out(sentence, [(a, b) for _, a, b in self.names(sentence)])

    def _relation(self, op: Operator | None, subject: str, text: str) -> tuple[Slot, bool] | None:
        """The relation of `subject` the claim (or its sentence, `text`) weighs: one whose label
        it says (its values ordered, or counted after "most"/"fewer"); for a word pointing in
        time with none said, the one date it has. (slot, counted)."""
        said = keys(re.sub(re.escape(op.graded), " ", text, flags=re.I) if op else text)
        noun = keys(op.noun) if op else set()
        fits: list[tuple[int, bool, Slot]] = []
        for slot in self.kg.slots(subject).values():
            label = slot.facts[0].p_label or label_words(slot.key)
            if slot.literal and slot.direction == "out":
                sample = slot.facts[0].other
                if read(sample, label).kind == "text" or (op is not None and not wanted_kind(op, label, sample)):
                    continue
                counted = False
            elif not slot.literal and (op is None or op.graded in _COUNTED):
                counted = True
            else:
                continue
            # "the most courses": a counted relation whose things are of the kind the noun names
            kinds = {k for t in self.kg.bg.types(slot.facts[0].other) for k in keys(self.kg.label(t))} if counted else set()
            fits.append((len(keys(label) & said) + len(kinds & noun), counted, slot))
        named = [f for f in fits if f[0]]
        if named:
            best = max(named, key=lambda f: (f[0], not f[1]))
            return best[2], best[1]
        # "X is longer than Y": the one relation holding the measure the adjective grades
        sized = [f for f in fits if not f[1] and op is not None and op.graded
                 and read(f[2].facts[0].other, f[2].facts[0].p_label or label_words(f[2].key)).measure
                 in measures(op.graded)]
        if len(sized) == 1:
            return sized[0][2], False
        # "X has the most people": the one relation holding a count ("maximum capacity")
        holding = [f for f in fits if not f[1] and op is not None and op.noun
                   and relation_kind(f[2].facts[0].p_label or label_words(f[2].key), f[2].facts[0].other) == "count"]
        if len(holding) == 1:
            return holding[0][2], False
        dated = [f for f in fits if not f[1]]
        if op is not None and op.time_back is not None and len(dated) == 1:
            return dated[0][2], False
        return None

    def _values(self, slot: Slot, counted: bool, entities: list[str]) -> Values:
        out: Values = {}
        for e in entities:
            got = self.kg.slots(e).get((slot.key, slot.direction))
            if got is not None:
                out[e] = [str(len(got.facts))] if counted else [kf.other for kf in got.facts]
        return out

    def _class_values(self, slot: Slot, counted: bool, klass: str | None) -> Values:
        """Every member's value (or count) of the relation: an aggregate over the class, or over
        everything that has the relation when there is no class."""
        p = slot.facts[0].fact.p
        scope = f"VALUES ?t {{ {_TYPES} }} ?s ?t <{klass}> ." if klass else ""
        triple = f"?s <{p}> ?o" if slot.direction == "out" else f"?o <{p}> ?s"
        if counted:
            rows = select(self.kg.bg, f"SELECT ?s (COUNT(DISTINCT ?o) AS ?n) WHERE {{ {scope} {triple} }} GROUP BY ?s")
            return {r["s"]: [str(int(float(r["n"])))] for r in rows if "s" in r and "n" in r}
        out: Values = {}
        for r in select(self.kg.bg, f"SELECT ?s ?o WHERE {{ {scope} {triple} }}"):
            if "s" in r and "o" in r:
                out.setdefault(r["s"], []).append(r["o"])
        return out

    def _evidence(self, slot: Slot, entities: list[str]) -> list[KFact]:
        facts = []
        for e in dict.fromkeys(entities):
            got = self.kg.slots(e).get((slot.key, slot.direction))
            if got is not None:
                facts.append(got.facts[0])
        return facts

    # -- graded claims --------------------------------------------------------------------------
    def _graded(self, op: Operator, r: Reading, ents: list[str]) -> Judgement | None:
        nexts = [m.end() for m in _NEXT.finditer(r.text)]
        after = {e for e in ents if nexts and any(a >= nexts[0] for a, _ in r.where.get(e, ()))}
        # "X is older than Y", "X has more tracks than Y": what follows "than" is the rival
        thans = [m.end() for m in _THAN.finditer(r.text)] if op.name == "compare" else []
        beaten = [e for e in ents if thans and r.where.get(e) and min(a for a, _ in r.where[e]) >= thans[0]]
        # a class named ("more races") is what is counted, no thing compared
        subjects = [e for e in ents if e not in after and e not in beaten and not (beaten and self._is_class(e))]
        if not subjects:
            return None
        sentence = self._sentence(r.text)
        found = self._relation(op, subjects[0], self._words(r, sentence))
        if found is None:
            return None
        slot, counted = found
        if op.name == "compare":
            rivals = [e for e in dict.fromkeys(beaten + [e for e, _, _ in self.names(sentence)] + ents) if e not in subjects]
            values = self._values(slot, counted, subjects + rivals)
            if not any(e in values for e in rivals):
                return None
            return self._verdict(op, r, slot, counted, values, subjects, [])
        classes = list(self.kg.bg.types(subjects[0])) or [None]
        named = [k for k in classes if k and keys(self.kg.label(k)) & keys(r.text)]
        best: Judgement | None = None
        for klass in named or classes:
            j = self._verdict(op, r, slot, counted, self._class_values(slot, counted, klass), subjects, sorted(after))
            if j is not None and (best is None or j.verdict == Verdict.SUPPORTED):
                best = j
        return best

    def _verdict(self, op: Operator, r: Reading, slot: Slot, counted: bool, values: Values, subjects: list[str],
                 runners: list[str]) -> Judgement | None:
        label = slot.facts[0].p_label or label_words(slot.key)
        if any(s not in values for s in subjects):
            return None
        result: Result = rank(op, values, "" if counted else label)
        winners = list(result.winners)
        name = self.kg.label
        evidence = self._evidence(slot, subjects + winners)
        if _TIED.search(r.blank) or len(subjects) > 1:
            if set(subjects) == set(winners):
                return Judgement(Verdict.SUPPORTED, evidence, reason=f"the KG's {label} ranks them level first",
                                 supported=len(evidence))
            return Judgement(Verdict.CONTRADICTED, evidence, reason=f"by the KG's {label}, {self._said(winners)} "
                             f"{'is' if len(winners) == 1 else 'are'} {op.graded}")
        if subjects[0] not in winners:
            return Judgement(Verdict.CONTRADICTED, evidence,
                             reason=f"by the KG's {label}, {self._said(winners)} is {op.graded}, not {name(subjects[0])}")
        if len(winners) > 1:
            return Judgement(Verdict.NEI, evidence, reason=f"{self._said(winners)} are level on {label}")
        rest = [(e, v) for e, v in result.ranked if e not in winners]
        if runners:
            second = [e for e, v in rest if compare(v, rest[0][1]) == 0] if rest else []
            if not set(runners) <= set(second):
                return Judgement(Verdict.CONTRADICTED, evidence + self._evidence(slot, second[:1]),
                                 reason=f"by the KG's {label}, {self._said(second) or 'nothing'} comes next")
        return Judgement(Verdict.SUPPORTED, evidence, reason=f"by the KG's {label}, {name(subjects[0])} is {op.graded}",
                         supported=len(evidence))

    def _is_class(self, entity: str) -> bool:
        return bool(select(self.kg.bg, f"SELECT ?s WHERE {{ VALUES ?t {{ {_TYPES} }} ?s ?t <{entity}> }} LIMIT 1"))

    def _said(self, entities: list[str]) -> str:
        names = [self.kg.label(e) for e in entities[:4]]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""

    def _tied(self, r: Reading, ents: list[str]) -> Judgement | None:
        """"A and B are tied": the same value of the relation the claim (or its sentence) says."""
        found = self._relation(None, ents[0], self._words(r, self._sentence(r.text)))
        if found is None:
            return None
        slot, counted = found
        label = slot.facts[0].p_label or label_words(slot.key)
        values = self._values(slot, counted, ents)
        if len(values) < len(ents):
            return None
        firsts = [read(v[0], "" if counted else label) for v in values.values()]
        level = all(compare(firsts[0], v) == 0 for v in firsts[1:])
        return Judgement(Verdict.SUPPORTED if level else Verdict.CONTRADICTED, self._evidence(slot, ents),
                         reason=f"the KG's {label} is {'the same' if level else 'not the same'} for them",
                         supported=len(ents) if level else 0)

    # -- counts and lacks -----------------------------------------------------------------------
    def _count(self, r: Reading, ents: list[str], values: list[V.Value]) -> Judgement | None:
        """"Harland Yard is the builder of 3 ships", "3 ships are built by Harland Yard": the number
        of things (of the class the words after the number name) that the relation the claim
        states joins to the one thing it names."""
        number = next((v for v in values if v.kind == "number" and v.unit is None), None)
        if number is None or not re.match(r"\s+[^\W\d]", r.text[number.end:]):
            return None
        # the thing counted from: the one named that the stated relation joins to others (the
        # class's name, "ships", is no anchor)
        anchored = [(e, s) for e in ents for s in self.kg.slots(e).values() if not s.literal and s.key in r.said]
        # one thing, and one relation of it, or several joining it to the same things (a band's
        # "member" and its members' "member of")
        if len({e for e, _ in anchored}) != 1 or len({frozenset(s.others) for _, s in anchored}) != 1:
            return None
        anchor, slot = anchored[0]
        later = [a for a, _ in r.where.get(anchor, ()) if a > number.end]
        words = keys(r.text[number.end:min(later, default=len(r.text))])
        label = slot.facts[0].p_label or label_words(slot.key)
        # the things of a class whose whole label the words say ("board games", not the "game
        # expansion" beside them), else whose head noun they say ("missions" of "space mission")
        of_class = ([o for o in slot.others if any(keys(self.kg.label(t)) <= words for t in self.kg.bg.types(o))]
                    or [o for o in slot.others if any(keys(self.kg.label(t).split()[-1]) <= words
                                                      for t in self.kg.bg.types(o) if self.kg.label(t).strip())])
        if not of_class and not keys(label) & words:
            return None  # the number counts something else than the relation's things
        n = float(V.number_of(number)[0])
        counted = len(of_class or slot.others)
        if counted == n:
            return Judgement(Verdict.SUPPORTED, slot.facts[:1], reason=f"the KG lists {counted} for {label}", supported=1)
        return Judgement(Verdict.CONTRADICTED, slot.facts[:1], reason=f"the KG lists {counted}, not {number.text.strip()}")

    def _lacking(self, r: Reading, ents: list[str]) -> Judgement | None:
        """"The KG has no length for A and B (2 of the 6)": a relation other things have that these lack."""
        said = _LACKS.search(r.blank)
        if said is None or not _OF_GRAPH.search(r.text):
            return None
        words = keys(r.blank[said.end():])
        if not words:
            return None
        # what lacks it is named after "has no" (a sentence before it, glued on by a unit's dot
        # read as an abbreviation, names what has it)
        at = _LACKS.search(r.text)
        ents = [e for e in ents if at is None or any(a >= at.end() for a, _ in r.where.get(e, ()))] or ents
        for p, label in self._labelled_predicates().items():
            # "no length" of a "length (metres)": the unit in a label's name is no word said of it
            label = name_and_unit(label, "0")[0]
            if keys(label) and keys(label) <= words:
                has = [e for e in ents if any(s.facts[0].fact.p == p and s.direction == "out"
                                              for s in self.kg.slots(e).values())]
                if has:
                    kf = next(s.facts[0] for s in self.kg.slots(has[0]).values() if s.facts[0].fact.p == p)
                    return Judgement(Verdict.CONTRADICTED, [kf], reason=f"the KG says {self.kg.say(kf)}")
                return Judgement(Verdict.SUPPORTED, reason=f"the KG has no {label} for {self._said(ents)}")
        return None

    def _labelled_predicates(self) -> dict[str, str]:
        if self._predicates is None:
            rows = select(self.kg.bg, "SELECT DISTINCT ?p WHERE { ?s ?p ?o }")
            iris = [r["p"] for r in rows if "p" in r]
            self._predicates = {p: label_words(lab) for p, lab in self.kg.bg.labels(iris).items()}
        return self._predicates

    def _among(self, r: Reading, ents: list[str]) -> Judgement | None:
        said = _AMONG.search(r.blank)
        if said is None or len(ents) != 2:
            return None
        named, owner = sorted(ents, key=lambda e: min((a for a, _ in r.where.get(e, ())), default=len(r.text)))
        words = keys(r.blank[said.end():])
        slots = [s for s in self.kg.slots(owner).values()
                 if not s.literal and keys(s.facts[0].p_label or label_words(s.key)) & words]
        if len(slots) != 1:
            return None
        slot = slots[0]
        if named in slot.others:
            kf = next(kf for kf in slot.facts if kf.other == named)
            return Judgement(Verdict.SUPPORTED, [kf], reason=f"the KG says {self.kg.say(kf)}", supported=1)
        return Judgement(Verdict.CONTRADICTED, slot.facts[:1], reason=f"the KG lists {self._said(sorted(slot.others))}")
