"""The value every pipeline stage reads and extends: one user turn on its way through kgchat."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
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
    # A plural mention's entities, taken together ("them" after a reply that named two people)
    together: list[str] = field(default_factory=list)


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


@dataclass
class Check:
    """The verdict on one atomic claim of a reply."""

    claim: str
    verdict: str  # "supported" | "contradicted" | "nei"
    evidence: dict[str, Any] = field(default_factory=dict)
    reason: str = ""


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
    # The meeting the user is arranging after this turn (engine.meeting.Meeting.summary), if any
    meeting: dict[str, Any] | None = None
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
