"""The value every pipeline stage reads and extends: one user turn on its way through kgchat."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from kgstore.terms import Fact


class Plan(StrEnum):
    """Which knowledge a turn needs (the plan stage)."""

    NONE = "none"  # small talk: nothing is looked up
    DIALOGUE = "dialogue"  # a question about the conversation itself
    BACKGROUND = "background"  # it names entities or types and points back at nothing
    BOTH = "both"  # it leans on earlier turns (pronouns, first person, follow-ups)


KNOWLEDGE_PLANS = (Plan.BACKGROUND, Plan.BOTH)  # plans that look things up in the KG


class AnswerSource(StrEnum):
    """Whose reply the user is shown."""

    NONE = ""  # no reply
    LLM = "llm"  # the model's, or its refinement
    FACTS = "facts"  # kgchat's own, composed from the KG's facts
    NOT_FOUND = "not_found"  # kgchat's own: the KG has nothing that answers


@dataclass
class Mention:
    """A span of the user turn that names or points at something."""

    text: str
    start: int
    end: int
    kind: str  # "name" | "pronoun" | "definite" | "first_person" | "time" | "type"
    entity: str | None = None  # IRI it refers to, once linked
    label: str | None = None  # a name's label; the class IRI a definite noun phrase names ("that airline")
    heard: str = ""  # a name's words as the KG writes them, spoken forms joined ("new ham": "nieuwham")
    p: float = 0.0
    candidates: list[tuple[str, float]] = field(default_factory=list)  # (iri, p) best first
    value: Any = None  # resolved value for time expressions (datetime/date/time/range), type IRI for "type"
    iri: str | None = None  # the mention's own node in the dialogue graph
    # A plural mention's entities, taken together ("them" after a reply that named two people)
    together: list[str] = field(default_factory=list)

    @property
    def node(self) -> str:
        """`iri`, which observe gives every mention of a turn before anything links it."""
        if self.iri is None:
            raise ValueError(f"mention {self.text!r} has no node in the dialogue graph")
        return self.iri


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
class Refinement:
    """The model's second reply, over reworked evidence, when the checks asked for one."""

    response: str
    checks: list[Check]  # empty when the reply was cut
    fact_score: float | None
    neip: float | None
    dropped: list[str]  # sentences of the facts taken out of the evidence
    added: list[str]  # and of those brought in
    steps: int  # regenerations made
    cut: bool


@dataclass
class Composed:
    """kgchat's own answer, said from the KG's facts (or saying that it has none)."""

    response: str
    source: AnswerSource  # FACTS or NOT_FOUND
    facts: list[str] = field(default_factory=list)  # the sentences it says (or the closest, with not found)
    reason: str = ""  # why it is shown rather than the model's reply
    matches: list[str] = field(default_factory=list)  # close names offered when nothing was found
    checks: list[Check] = field(default_factory=list)
    fact_score: float | None = None
    neip: float | None = None
    asked: str | None = None  # what a "not found" took the question to ask for


@dataclass
class PathStep:
    """One hop of a relation path: a KG relation, followed forwards (subject to object) or
    backwards (object to subject: how "which films did X direct" walks film -> director -> X)."""

    predicate: str  # the relation's IRI
    label: str  # the relation as read ("head coach", "date published")
    forward: bool = True


@dataclass
class Operation:
    """What the question computes over a path's values (engine/compute): the operator, the values
    read, the result in short, and how many listed values a cap left out (a count never is cut)."""

    operator: str  # value, list, count, compare, argmax, argmin, filter, yesno
    values: list[str]
    result: str
    cut: int = 0


@dataclass
class RelationPath:
    """A chain of one to three relations that the question asks for, from an entity it names or
    points at, with the values found at its end."""

    start: str  # IRI of the linked entity the path starts from
    start_label: str
    steps: list[PathStep]
    score: float  # how well the relation labels, in order, read like the question
    asks_all: bool = False  # a list question: every value is the answer, counted
    chains: list[list[Fact]] = field(default_factory=list)  # per value: its facts, start -> value
    values: list[str] = field(default_factory=list)  # per chain: its value as read (label or literal)
    part: str = ""  # the clause of the question this path answers (a compound question has several)
    total: int = 0  # values at the path's end before any cap cut the list
    cut: str = ""  # what bounded the search or the list ("12 values, 10 kept"), said to the user
    operation: Operation | None = None  # what the question computes over the values, when it does

    @property
    def relations(self) -> str:
        """Its relation labels in order: "plays for / head coach"."""
        return " / ".join(s.label for s in self.steps)


@dataclass
class SystemTurn:
    """A system turn as written to the dialogue graph, with what it mentions (not linked yet)."""

    session_id: str
    turn: int
    iri: str
    names: list[Mention]
    times: list[Mention]
    now: datetime


@dataclass
class Focus:
    """Per session: the entities each user turn linked (IRI -> p), for salience and follow-ups.
    The Session owns it; each of its turns' states refers to it."""

    turns: dict[int, dict[str, float]] = field(default_factory=dict)

    def previous(self, turn: int) -> dict[str, float]:
        """The entities of the latest earlier user turn that linked any."""
        earlier = [t for t in self.turns if t < turn and self.turns[t]]
        return self.turns[max(earlier)] if earlier else {}


@dataclass
class TurnState:
    session_id: str
    turn: int
    text: str
    now: datetime
    alternatives: list[str] = field(default_factory=list)  # the recognizer's other hypotheses, best first
    text_note: str = ""  # what was cut of a long turn before it was read (engine.session.cut_turn)
    speaker: str = "user"
    speaker_entity: str | None = None
    history: list[tuple[str, str]] = field(default_factory=list)  # earlier (speaker, text), oldest first
    focus: Focus = field(default_factory=Focus)  # the session's (Session.focus), shared by its turns
    turn_iri: str | None = None
    mentions: list[Mention] = field(default_factory=list)
    derived: list[Derived] = field(default_factory=list)
    reasoning_note: str = ""  # what reasoning gave up or left out (timeout, error, a cut), shown to the user
    rewritten: str = ""
    plan: Plan = Plan.BOTH
    paths: list[RelationPath] = field(default_factory=list)  # what the question asks for, best first
    paths_note: str = ""  # what bounded the path search this turn
    paths_turned: list[str] = field(default_factory=list)  # what the question asks of its entity, whose relation the KG has only the other way round
    candidates: list[Candidate] = field(default_factory=list)
    candidates_note: str = ""  # e.g. "neighbourhood of X capped at 2000 facts"
    # The meeting the user is arranging after this turn (engine.meeting.Meeting.summary), if any
    meeting: dict[str, Any] | None = None
    about_meeting: bool = False  # the turn confirms, amends or asks about it (engine.meeting.about)
    # Classes the turn asks for without naming them: the rooms free at the time it gives a meeting without one
    wanted_types: list[str] = field(default_factory=list)
    meeting_facts: set[tuple[str, str, str]] = field(default_factory=set)  # keys of its candidate facts
    invitable_facts: set[tuple[str, str, str]] = field(default_factory=set)  # the people it invites from, of those
    retrieved: list[Candidate] = field(default_factory=list)
    subgraph_nodes: list[str] = field(default_factory=list)
    retrieved_note: str = ""  # what the subgraph's size cap left out
    bridging_nodes: list[str] = field(default_factory=list)
    prompt: list[dict[str, str]] = field(default_factory=list)
    response: str = ""
    cut: bool = False
    reply_note: str = ""  # what was cut of the model's reply (a loop)
    error: str = ""
    checks: list[Check] = field(default_factory=list)
    checks_truncated: bool = False  # the reply had more claims than were checked (--max-claims)
    fact_score: float | None = None
    neip: float | None = None
    refined: Refinement | None = None
    composed: Composed | None = None  # kgchat's own answer, when it is the one shown
    shown_reply: str = ""  # what the user is shown (set by the answer stage)
    answer_source: AnswerSource = AnswerSource.NONE  # whose it is
    device: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def previous_system(self) -> str:
        """The system turn this user turn answers ("" when the user spoke first or twice in a row)."""
        return self.history[-1][1] if self.history and self.history[-1][0] == "system" else ""

    @property
    def linked_entities(self) -> list[str]:
        seen: dict[str, None] = {}
        for m in self.mentions:
            if m.entity:
                seen.setdefault(m.entity, None)
        return list(seen)
