"""What the verifier reads from the KG about one entity, and what it concludes of a claim."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.factcheck.relations import relation_phrase
from engine.relations import phrase_words
from engine.state import Evidence, Verdict
from kgstore.terms import Fact


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
class Reading:
    """How the verifier reads one claim under one choice of its entities."""

    text: str  # the claim
    blank: str = ""  # the claim with its names and values blanked out: the words of its relation
    where: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # entity -> where the claim names it
    said: set[str] = field(default_factory=set)  # relations the claim states outright
    unit_said: set[str] = field(default_factory=set)  # relations a value's unit names ("180 seats")

    @property
    def phrase(self) -> str:
        """The words of the claim that say its relation (names, values and function words out)."""
        return phrase_words(relation_phrase(self.blank))


@dataclass
class Judgement:
    verdict: Verdict
    evidence: list[KFact] = field(default_factory=list)
    reason: str = ""
    extra: Evidence | None = None  # evidence that is not a triple (dialogue turn, calendar)
    supported: int = 0  # parts of the claim the KG confirmed (ranks readings of ambiguous names)
    unknown: tuple[str, ...] = ()  # names the claim states that the KG has nothing of (invented, maybe)


def rank(j: Judgement) -> tuple[int, int, int]:
    """Which reading of an ambiguous name to believe: the one the KG supports, else one it
    does not contradict (the weekly meeting on the day the claim names)."""
    return ({Verdict.SUPPORTED: 2, Verdict.NEI: 1, Verdict.CONTRADICTED: 0}[j.verdict], j.supported, len(j.evidence))


def negate(j: Judgement) -> Judgement:
    flipped = {Verdict.SUPPORTED: Verdict.CONTRADICTED, Verdict.CONTRADICTED: Verdict.SUPPORTED}.get(j.verdict, j.verdict)
    return Judgement(flipped, j.evidence, reason=("negated: " + j.reason) if flipped != j.verdict else j.reason,
                     extra=j.extra, supported=j.supported)
