"""The value every pipeline stage reads and extends: one user turn on its way through kgchat."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from kgstore.terms import Fact


@dataclass
class Mention:
    """A span of the user turn that names or points at something."""

    text: str
    start: int
    end: int
    kind: str  # "name" | "pronoun" | "definite" | "first_person" | "time" | "type"
    entity: str | None = None  # IRI it refers to, once linked
    label: str | None = None
    p: float = 0.0
    candidates: list[tuple[str, float]] = field(default_factory=list)  # (iri, p) best first
    value: Any = None  # resolved value for time expressions (datetime/date/time/range), type IRI for "type"
    iri: str | None = None  # the mention's own node in the dialogue graph


@dataclass
class Derived:
    """A fact a rule derived for this turn."""

    predicate: str
    args: list[str]
    p: float
    rule: str = ""
    text: str = ""
    fact: Fact | None = None  # its triple form, when it has one (binary predicates)
    restates: bool = False  # says what a KG edge of the turn says (merged into it among the candidates)


@dataclass
class Candidate:
    """A fact that may be relevant this turn, with its verbalization, features and score."""

    fact: Fact
    s_label: str = ""
    p_label: str = ""
    o_label: str = ""
    text: str = ""
    hop: int = 1
    derived: bool = False
    p: float = 1.0  # probability (derived facts), 1.0 for background facts
    args: tuple[str, ...] = ()  # a derived fact's arguments; its triple keeps two of them
    features: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    # Derived facts that restate this one (an inverse rule giving a KG edge back), merged into it
    # so that one fact is shown once: [{"predicate", "p", "text"}]
    also_derived: list[dict[str, Any]] = field(default_factory=list)


class Verdict(StrEnum):
    """What the KG says of one claim (the strings are those of the JSON output)."""

    SUPPORTED = "supported"
    CONTRADICTED = "contradicted"
    NEI = "nei"


@dataclass
class Evidence:
    """What a verdict rests on: a KG fact (its triple, labels and sentence), what the user said
    (source "dialogue", with the turn), or a calendar finding (a sentence only). Empty: nothing."""

    text: str = ""  # the fact as a sentence, or the user's words
    source: str = ""  # "kg" | "retrieved" (the turn's retrieved facts) | "dialogue"
    s: str = ""
    p: str = ""
    o: str = ""
    s_label: str = ""
    p_label: str = ""
    o_label: str = ""
    more: list[Evidence] = field(default_factory=list)  # further facts the verdict rests on
    turn: int | None = None  # the dialogue turn (1-based), for source "dialogue"
    speaker: str = ""  # who said it, for source "dialogue"
    unknown: list[str] = field(default_factory=list)  # names of a nei claim the KG has nothing of

    @property
    def triple(self) -> tuple[str, str, str] | None:
        return (self.s, self.p, self.o) if self.s and self.p and self.o else None

    def __bool__(self) -> bool:
        return bool(self.text or self.triple or self.unknown or self.s)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of `ask`/`check --json`: the fields that are set."""
        out: dict[str, Any] = {}
        for key in ("s", "p", "o", "s_label", "p_label", "o_label", "text", "source", "turn", "speaker"):
            value = getattr(self, key)
            if value not in ("", None):
                out[key] = value
        if self.more:
            out["more"] = [e.to_json() for e in self.more]
        if self.unknown:
            out["unknown"] = list(self.unknown)
        return out


@dataclass
class Incomplete:
    """A reply that names fewer values than the KG holds for the list its question asks for."""

    relation: str  # the relation's label
    named: int  # values the reply names
    total: int  # values the KG holds
    missing: list[str] = field(default_factory=list)  # labels of the values left out

    def to_json(self) -> dict[str, Any]:
        return {"relation": self.relation, "named": self.named, "of": self.total, "missing": list(self.missing)}


@dataclass
class Check:
    """The verdict on one atomic claim of a reply."""

    claim: str
    verdict: Verdict
    evidence: Evidence = field(default_factory=Evidence)
    reason: str = ""
    # Not a verdict: the claim names part of the list the question asks for (not in the scores).
    incomplete: Incomplete | None = None

    def to_json(self) -> dict[str, Any]:
        out = {"claim": self.claim, "verdict": str(self.verdict), "evidence": self.evidence.to_json(),
               "reason": self.reason}
        if self.incomplete is not None:
            out["incomplete"] = self.incomplete.to_json()
        return out


@dataclass
class TurnState:
    session_id: str
    turn: int
    text: str
    now: datetime
    alternatives: list[str] = field(default_factory=list)  # the recognizer's other hypotheses, best first
    speaker: str = "user"
    speaker_entity: str | None = None
    history: list[tuple[str, str]] = field(default_factory=list)  # earlier (speaker, text), oldest first
    turn_iri: str | None = None
    mentions: list[Mention] = field(default_factory=list)
    derived: list[Derived] = field(default_factory=list)
    reasoning_note: str = ""  # why reasoning gave nothing (timeout, error), shown to the user
    rewritten: str = ""
    plan: str = "both"  # "none" | "dialogue" | "background" | "both"
    candidates: list[Candidate] = field(default_factory=list)
    candidates_note: str = ""  # e.g. "neighbourhood of X capped at 2000 facts"
    retrieved: list[Candidate] = field(default_factory=list)
    subgraph_nodes: list[str] = field(default_factory=list)
    bridging_nodes: list[str] = field(default_factory=list)
    prompt: list[dict[str, str]] = field(default_factory=list)
    response: str = ""
    cut: bool = False
    error: str = ""
    checks: list[Check] = field(default_factory=list)
    checks_truncated: bool = False  # the reply had more claims than were checked (--max-claims)
    fact_score: float | None = None
    neip: float | None = None
    refined: dict[str, Any] | None = None  # {"response", "checks", "fact_score", "neip", "dropped", "added"}
    # Where the reply shown to the user comes from: "llm" (the model's, or its refinement),
    # "facts" (composed from retrieved facts), "not_found" (nothing matched), "" (no reply)
    answer_source: str = ""
    composed: dict[str, Any] | None = None  # {"response", "facts", "reason", "matches", "checks", "fact_score", "neip"}
    device: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def shown_reply(self) -> str:
        """The reply the user sees: composed, else refined, else the model's."""
        if self.composed:
            return self.composed["response"]
        if self.refined:
            return self.refined["response"]
        return self.response

    @property
    def linked_entities(self) -> list[str]:
        seen: dict[str, None] = {}
        for m in self.mentions:
            if m.entity:
                seen.setdefault(m.entity, None)
        return list(seen)
