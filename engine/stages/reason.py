"""Reason stage: link the turn's mentions and derive facts with the ProbLog rules.

Two small programs per turn, run by rules/reasoner.py on the prepared rule files. The linking
program holds the new mentions and their candidate entities, what the mentions of the last ten
turns referred to (with their stored probabilities), the speaker, and the candidates' own facts;
it asks `refers_to`. The deriving program holds each mention's best entities (with their link
probability) or the entities of a requested type, the times the turn names, and the two-hop
neighbourhood of those entities; it asks the derived predicates. `refers_to` goes into the
dialogue graph and the derived facts into the derived graph, with probabilities. On a timeout or
a ProbLog error the turn keeps what it has (the links, or the name matcher's), gets no derived
facts, and `state.reasoning_note` says why.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from engine import meeting
from engine.context import TurnContext, select, stage
from engine.events import Linked
from engine.nlp import plural
from engine.nlp.antecedents import pronoun_gender, takes_up_here
from engine.nlp.kinds import class_phrase, entity_gender, entity_kind
from engine.nlp.mentions import label_index
from engine.nlp.spoken import as_written
from engine.nlp.timeexpr import PARTS, TimeValue, day_phrase, hhmm
from engine.recent import LINK_WINDOW, answer_and_topic, asks, called_so, entity_marks, is_a, listed_of, recent_links
from engine.requested import people_of_groups, requested
from engine.state import Derived, Mention, SystemTurn, TurnState
from kgstore import vocab
from kgstore.errors import RemoteUnavailable
from kgstore.terms import Fact
from rules.kinds import kind_of_types
from rules.reasoner import (
    Answer,
    Atom,
    Program,
    ReasoningFailed,
    RuleSet,
    Stats,
    Var,
    add_background,
    evaluate,
    predicate_atom,
    predicate_iri,
)

LINKED_KINDS = ("name", "pronoun", "definite", "first_person")
# The kinds of answer a pronoun takes up over the topic: "she" the person a reply answered with,
# "there" a place, "they" a group. "It" keeps to the topic ("Where did the probe go?" - "To the
# asteroid Halloran." - "When did it launch?"), as "they" does for a person; "that <class>" takes
# up the answer of its own kinds.
_PERSON = ("person",)
ANSWER_KINDS: dict[str, tuple[str, ...]] = {
    "there": ("room", "thing"), "they": ("group",), "them": ("group",), "their": ("group",), "theirs": ("group",),
    "he": _PERSON, "him": _PERSON, "his": _PERSON, "she": _PERSON, "her": _PERSON, "hers": _PERSON,
}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1}
CANDIDATES_IN_PROGRAM = 5
PRIOR_MARGIN = 0.35
EXACT_PRIOR, EXACT_MARGIN = 0.99, 0.1
NEIGHBOURHOOD_HOPS = 2
NEIGHBOURHOOD_CAP = 3000
KEEP_LINKS = 3  # refers_to edges stored per mention
MIN_LINK_P = 0.05
MIN_DERIVED_P = 0.05  # below it a derived fact rests on a link nobody believes
FOCUS_ODDS = 0.5  # a mention's entities at least half as likely (in odds) as its best one are in focus


def rules_of(ctx: TurnContext) -> RuleSet:
    """The rule files of this context, parsed and prepared once."""
    return ctx.resource("rules", lambda: RuleSet.load(ctx.config.rules, ctx.config.trust_rules))


@dataclass
class TurnInput:
    """One turn to link (and maybe reason about)."""

    session_id: str
    turn: int
    turn_iri: str
    mentions: list[Mention]
    now: datetime
    speaker_entity: str | None = None
    arranging: TimeValue | None = None  # the time of the meeting being arranged, when it has one
    derive: bool = True
    entities: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)  # what deriving left out, for the user
    after_question: bool = False  # the reply before this turn answered a question of the user's
    text: str = ""  # the turn's words, which the mentions' offsets index
    wanted_types: list[str] = field(default_factory=list)  # classes asked for unnamed (TurnState.wanted_types)


def build_program(ctx: TurnContext, rules: RuleSet, inp: TurnInput, *, whole_kg: bool = False) -> Program:
    """The linking program of a turn: its mentions, their candidates, the earlier links, and the candidates'
    own facts; the query is refers_to of every new mention. `whole_kg` is the naive baseline of `kgchat bench
    reason` instead: one program with every background fact, every labelled entity a candidate of every named
    mention and in focus, and every derived predicate queried."""
    prog = Program()
    ent = _entity_atoms(inp)

    def turn_atom(i: int) -> Atom:
        return Atom.of(vocab.turn_node(inp.session_id, i))

    this_turn = turn_atom(inp.turn)
    for i in range(max(1, inp.turn - LINK_WINDOW), inp.turn):
        prog.fact("respond_to", turn_atom(i + 1), turn_atom(i))

    seeds: dict[str, None] = {}  # entities whose own facts the program needs
    # Earlier links: the evidence recency rules build on.
    links = recent_links(ctx, inp.session_id, inp.turn)
    for link in links:
        earlier = Atom.of(link.mention)
        prog.fact("mention", earlier, turn_atom(link.turn))
        prog.fact("mention_kind", earlier, Atom.plain(link.kind))
        prog.prob_fact(link.p, "linked", earlier, ent(link.entity))
    listed = listed_of(ctx, [k for k in links if k.turn == inp.turn - 1])
    for t, kind, n, e in listed:
        prog.fact("listed", turn_atom(t), Atom.plain(kind), n, ent(e))
    if inp.after_question:
        answer, topic = answer_and_topic(ctx, links, listed, inp.session_id, inp.turn)
        for pred, entities in (("answered", answer), ("topic", topic)):
            for e in entities:
                prog.fact(pred, turn_atom(inp.turn - 1), ent(e))
    # "The first one" points into the longest list of the previous turn (its events, not the
    # rooms they are in).
    sizes = {kind: n for _, kind, n, _ in listed if n > 0}
    longest = max(sizes, key=lambda k: (sizes[k], k == "event")) if sizes else None
    if inp.speaker_entity:
        prog.fact("speaker", ent(inp.speaker_entity))

    labels = label_index(ctx).labels if whole_kg else []
    linked = [m for m in inp.mentions if m.kind in LINKED_KINDS]
    classes_wanted: dict[Atom, tuple[str, str]] = {}  # the class words a noun phrase says, and its label
    for j, m in enumerate(linked):
        ma = Atom.of(m.node)
        prog.fact("new", ma)
        prog.fact("mention", ma, this_turn)
        # "g b r four": GBR4; "new ham": the Nieuwham the detector heard
        prog.fact("string", ma, Atom.of(as_written(m.heard or m.text) if m.kind == "name" else m.text))
        prog.fact("mention_kind", ma, Atom.plain(m.kind))
        kinds = tuple(m.value or ()) if m.kind in ("pronoun", "definite") else ()
        ordinal = next((ORDINALS[w] for w in m.text.lower().split() if w in ORDINALS), None) \
            if m.kind == "definite" else None
        if ordinal is not None:
            prog.fact("ordinal", ma, ordinal)
            if len(kinds) > 1 and longest in kinds:
                kinds = (longest,)
        for k in kinds:
            prog.fact("wants_kind", ma, Atom.plain(k))
        for k in ANSWER_KINDS.get(m.text.casefold(), ()) if m.kind == "pronoun" else kinds if m.kind == "definite" else ():
            prog.fact("answer_kind", ma, Atom.plain(k))
        if m.kind == "definite" and m.label:  # "that airline": what it takes up is what the KG calls an airline
            classes_wanted[ma] = (class_phrase(m.text), m.label)
        if m.kind == "pronoun" and (gender := pronoun_gender(m.text)):
            prog.fact("pronoun_gender", ma, Atom.plain(gender))
        for other in linked[:j]:
            prog.fact("before", Atom.of(other.node), ma)
            if takes_up_here(inp.text, other, m):
                prog.fact("here", Atom.of(other.node), ma)
        # Candidates far behind the best name match cannot win; the rules need not see them.
        cands = _program_candidates(m)
        if whole_kg and m.kind == "name":
            cands = list(dict.fromkeys(iri for lab in labels for iri in lab.iris))
        for iri in cands:
            prog.fact("candidate", ma, ent(iri))
        # Every candidate's own facts: a recurring "Methods Workshop" has one event per day, and
        # the day the turn names decides only among those whose day the program knows.
        for iri in cands:
            seeds.setdefault(iri, None)
        prog.query("refers_to", ma, Var("E"))
    if whole_kg:
        for lab in labels:
            for iri in lab.iris:
                prog.fact("name", ent(iri), Atom.of(lab.text))
                prog.fact("requested", ent(iri))  # the naive way: derive everything about everything
    else:
        for iri in {e for m in linked for e in _program_candidates(m)}:
            for name in _names(ctx, iri):
                prog.fact("name", ent(iri), Atom.of(name))

    _time_facts(prog, inp, this_turn, slots=whole_kg)
    if whole_kg:
        facts = _all_background(ctx)
    else:
        # Linking needs the candidates' own facts (their kind, an event's day).
        facts = ctx.background.neighborhood(list(seeds), hops=1, cap=NEIGHBOURHOOD_CAP).facts
    add_background(prog, facts, ent)
    _kind_and_text_facts(ctx, prog, facts, ent, inp)
    for ma, (said, label) in classes_wanted.items():
        if (takes := called_so(ctx, said, label, list(inp.entities), {k.entity for k in links})) is not None:
            prog.fact("wants_class", ma, Atom.of(said))
        for iri in takes or ():
            prog.fact("class_of", ent(iri), Atom.of(said))
    if whole_kg:
        for name, arity in rules.derived_predicates():
            prog.query(name, *(Var(f"A{i}") for i in range(arity)))
    return prog


def _odds(p: float) -> float:
    return p / max(1.0 - p, 1e-9)


def _program_candidates(m: Mention) -> list[str]:
    """The candidates the rules see: those within reach of the best name match (the others
    cannot win), at most five."""
    top = m.candidates[0][1] if m.candidates else 0.0
    margin = EXACT_MARGIN if top >= EXACT_PRIOR else PRIOR_MARGIN  # an exact name leaves no doubt
    return [iri for iri, prior in m.candidates if prior >= top - margin][:CANDIDATES_IN_PROGRAM]


def derive_program(ctx: TurnContext, rules: RuleSet, inp: TurnInput, links: dict[str, list[tuple[str, float]]]) -> Program:
    """The derivation program of a turn: what its mentions refer to (the linking program's answer: each
    mention's best entities, with their probabilities), or the entities of a requested type, the times the
    turn names, and the two-hop neighbourhood of those entities (and, on a turn with a time, of the people of
    the groups among them); the queries are the derived predicates about the kinds of entity in focus."""
    prog = Program()
    ent = _entity_atoms(inp)
    focus: dict[str, None] = {}
    for m in inp.mentions:
        cands = links.get(m.iri or "")
        if not cands or m.kind not in LINKED_KINDS:
            continue
        ma = Atom.of(m.node)
        prog.fact("new", ma)
        best = _odds(cands[0][1])
        for e, p in cands:
            if p >= MIN_DERIVED_P and _odds(p) >= best * FOCUS_ODDS:
                prog.prob_fact(p, "refers_to", ma, ent(e))
                focus.setdefault(e, None)
    asked = requested(ctx, inp.mentions, links, wanted=inp.wanted_types)  # "which rooms are free", named or not
    inp.notes += asked.notes
    for iri in asked.entities:
        prog.fact("requested", ent(iri))
        focus.setdefault(iri, None)
    if not focus:
        return prog
    nb = ctx.background.neighborhood(list(focus), hops=NEIGHBOURHOOD_HOPS, cap=NEIGHBOURHOOD_CAP)
    facts = nb.facts + _chains(ctx, list(focus))
    facts += people_of_groups(ctx, list(focus), nb.facts, inp.arranging or any(m.kind == "time" for m in inp.mentions))
    # "Now" is asked of a calendar only: on a KG without one, "Tom is available now" is made up.
    _time_facts(prog, inp, Atom.of(inp.turn_iri), slots=True,
                now=any(f.p in CLOCK_PREDICATES for f in facts))
    add_background(prog, facts, ent)
    _record_relations(ctx, prog, facts)
    _kind_and_text_facts(ctx, prog, facts, ent, inp)
    kinds = {entity_kind(ctx, iri) for iri in focus}
    for name, arity in rules.derived_predicates(kinds):
        prog.query(name, *(Var(f"A{i}") for i in range(arity)))
    return prog


CHAIN_PREDICATES = (vocab.RDFS + "subClassOf", vocab.WDT + "P279", vocab.WDT + "P361", vocab.WDT + "P131")
CHAIN_STEPS = 3


def _chains(ctx: TurnContext, seeds: list[str]) -> list[Fact]:
    """The "subclass of" / "part of" chains above the named entities (and their classes), up
    to three steps: neighbourhoods do not walk through classes, the generic rules need them."""
    if not seeds or not hasattr(ctx.background, "query"):
        return []
    preds = ", ".join(f"<{p}>" for p in CHAIN_PREDICATES + (vocab.RDF_TYPE, vocab.WDT + "P31"))
    out: list[Fact] = []
    frontier, seen = list(seeds), set(seeds)
    for step in range(CHAIN_STEPS + 1):
        nxt = []
        for node in frontier:
            rows = select(ctx.background, f"SELECT ?p ?o WHERE {{ <{node}> ?p ?o . FILTER(isIRI(?o) && ?p IN ({preds})) }}")
            for row in rows or []:
                if step > 0 and row["p"] not in CHAIN_PREDICATES:
                    continue  # the class of a class is not the entity's
                out.append(Fact(node, row["p"], row["o"]))
                if row["o"] not in seen:
                    seen.add(row["o"])
                    nxt.append(row["o"])
        frontier = nxt
    return out


def _entity_atoms(inp: TurnInput):
    def ent(iri: str) -> Atom:
        inp.entities.add(iri)
        return Atom.of(iri)

    return ent


def _names(ctx: TurnContext, iri: str) -> list[str]:
    return label_index(ctx).names_of(iri) or [ctx.background.label(iri)]


def _all_background(ctx: TurnContext) -> list[Fact]:
    """Every background fact touching a labelled entity (the naive baseline's whole KG)."""
    index = label_index(ctx)
    iris = list(dict.fromkeys(iri for lab in index.labels for iri in lab.iris))
    return ctx.background.neighborhood(iris, hops=1, cap=10**9).facts


def _time_facts(prog: Program, inp: TurnInput, this_turn: Atom, *, slots: bool, now: bool = True) -> None:
    """today/tomorrow and the days the turn names; with `slots`, the times the rules ask about
    (a clock time, a part of the day, a day; with `now`, when the turn names none, the arranged meeting's, else now)."""
    today = inp.now.date()
    prog.fact("today", today.toordinal())
    prog.fact("tomorrow", (today + timedelta(days=1)).toordinal())
    times: list[TimeValue] = [m.value for m in inp.mentions if m.kind == "time" and isinstance(m.value, TimeValue)]
    for tv in times:
        if tv.explicit_day:
            prog.fact("turn_day", this_turn, tv.day.toordinal())
    if not slots:
        return
    days_only = [tv for tv in times if tv.start is None]
    # the parser gives every start its end
    spans = [(tv, tv.start, tv.end) for tv in times if tv.start is not None and tv.end is not None]
    for tv, start, end in spans:
        text = Atom.of(tv.text(inp.now))
        if tv.part in PARTS:
            prog.fact("part", tv.day.toordinal(), start // 60, -(-end // 60), text)
        else:
            prog.fact("slot", tv.day.toordinal(), start, end, text)
    for tv in days_only:
        if tv.day not in (today, today + timedelta(days=1)):
            prog.fact("asked_day", tv.day.toordinal(), Atom.of(day_phrase(tv.day, today)))
    if now and not times:
        at = inp.arranging or TimeValue(today, (m := inp.now.hour * 60 + inp.now.minute), m + 1, "now")
        prog.fact("slot", at.day.toordinal(), at.start, at.end, Atom.of(at.text(inp.now)))


TYPE_PREDICATES = (vocab.RDF_TYPE, vocab.WDT + "P31")
DATE = vocab.office_predicate("date")
CLOCK_PREDICATES = (vocab.office_predicate("start_time"), vocab.office_predicate("end_time"))


def _record_relations(ctx: TurnContext, prog: Program, facts: list[Fact]) -> None:
    """record_rel(P) for the entity-valued name records and bookkeeping relations of the turn's
    neighbourhood (the relevance features' name-noise test): the generic rules bridge no two
    entities through them."""
    from engine.nlp.answer_type import is_name_noise
    from engine.nlp.sentences import predicate_key

    predicates = list(dict.fromkeys(f.p for f in facts if not f.o_literal and f.p not in TYPE_PREDICATES))
    try:
        labels = ctx.background.labels(predicates) if predicates else {}
    except Exception:  # a remote background that fails: its predicates' local names still tell
        labels = {}
    for p in predicates:
        if is_name_noise(labels.get(p) or vocab.readable_name(p), predicate_key(p)):
            prog.fact("record_rel", predicate_atom(p))


def _kind_and_text_facts(ctx: TurnContext, prog: Program, facts: list[Fact], ent, inp: TurnInput) -> None:
    kinds: dict[str, str] = {}
    for f in facts:
        if f.p in TYPE_PREDICATES and not f.o_literal:
            k = kind_of_types([f.o])
            if k != "thing":
                kinds[f.s] = k
        elif f.o_literal and f.p == DATE:
            try:
                d = date.fromisoformat(f.o[:10])
            except ValueError:
                continue
            prog.fact("day_text", d.toordinal(), Atom.of(day_phrase(d, None)))
        elif f.o_literal and f.p in CLOCK_PREDICATES:
            parts = f.o.split(":")
            if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
                minute = int(parts[0]) * 60 + int(parts[1])
                prog.fact("clock", minute, Atom.of(hhmm(minute)))
    marks = entity_marks(ctx, inp.text, inp.entities, any(m.kind in ("pronoun", "definite") for m in inp.mentions))
    for iri in list(inp.entities):
        k = kinds.get(iri) or entity_kind(ctx, iri)
        prog.fact("kind", ent(iri), Atom.plain(k))
        for mark in marks.get(iri, ()):
            prog.fact(mark, ent(iri))
        if k == "person" and (gender := entity_gender(ctx, iri)):
            prog.fact("gender_of", ent(iri), Atom.plain(gender))


# --- running it and reading the answers back ------------------------------------------------

@dataclass
class Outcome:
    links: dict[str, list[tuple[str, float]]]  # mention IRI -> (entity, p), best first
    derived: list[Derived]
    note: str = ""


def reason_turn(ctx: TurnContext, inp: TurnInput, budget_s: float, stats: list | None = None) -> Outcome:
    """Link, then (unless `inp.derive` is false) derive, within `budget_s` in all; on a timeout
    or an error fall back to the name-matching priors. `stats` collects each evaluation's Stats."""
    rules = rules_of(ctx)
    deadline = time.perf_counter() + budget_s

    def run(prog: Program, phase: str) -> list[Answer]:
        st = Stats()
        try:
            return evaluate(rules, prog, max(deadline - time.perf_counter(), 0.001), st, phase)
        finally:
            if stats is not None:
                stats.append(st)

    linking = None
    try:
        linking = _read_answers(ctx, rules, inp, run(build_program(ctx, rules, inp), "link"))
        if not inp.derive:
            return linking
        prog = derive_program(ctx, rules, inp, linking.links)
        derived = _read_answers(ctx, rules, inp, run(prog, "derive")).derived if prog.queries else []
    except (ReasoningFailed, RemoteUnavailable) as exc:
        if isinstance(exc, RemoteUnavailable):
            why = f"reasoning could not read the background: {exc}"
        else:
            why = f"reasoning stopped at its time budget of {budget_s * 1000:.0f} ms" if exc.timeout else str(exc)
        if linking is not None:  # linking finished, deriving did not
            return Outcome(linking.links, [], f"{why}; no derived facts")
        return Outcome(_prior_links(inp, _last_spoken_of(ctx, inp)), [],
                       f"{why}; mentions linked by name matching only, no derived facts")
    return Outcome(linking.links, derived)


def _last_spoken_of(ctx: TurnContext, inp: TurnInput) -> dict[str, tuple[int, float]]:
    """Entity -> (the last turn that referred to it, how surely): what the recency rules read."""
    try:
        links = recent_links(ctx, inp.session_id, inp.turn)
    except RemoteUnavailable:
        return {}
    out: dict[str, tuple[int, float]] = {}
    for link in links:
        out[link.entity] = max(out.get(link.entity, (0, 0.0)), (link.turn, link.p))
    return out


def _prior_links(inp: TurnInput, spoken_of: dict[str, tuple[int, float]] | None = None
                 ) -> dict[str, list[tuple[str, float]]]:
    """The name matcher's links; among equally good names, the entity spoken of last goes first
    ("Michael" after a reply naming Michael Orr, when the KG has Michael Jacobs too)."""
    out: dict[str, list[tuple[str, float]]] = {}
    recent = spoken_of or {}
    for m in inp.mentions:
        if m.kind == "name" and m.candidates:
            out[m.node] = sorted(m.candidates, key=lambda c: (-c[1], *(-x for x in recent.get(c[0], (0, 0.0)))))
        elif m.kind == "first_person" and inp.speaker_entity:
            out[m.node] = [(inp.speaker_entity, 1.0)]
    return out


def _read_answers(ctx: TurnContext, rules: RuleSet, inp: TurnInput, answers: list[Answer]) -> Outcome:
    links: dict[str, list[tuple[str, float]]] = {}
    derived: list[Derived] = []
    prior = {m.iri: dict(m.candidates) for m in inp.mentions}
    labels: dict[str, str] = {}

    def show(a) -> str:
        if isinstance(a, Atom):
            text = a.text
            if text in inp.entities:
                if text not in labels:
                    labels[text] = ctx.background.label(text)
                return labels[text]
            return text
        return str(a)

    for ans in answers:
        if ans.p <= 0.0:
            continue
        if ans.predicate == "refers_to":
            m, e = (a.text for a in ans.args)
            links.setdefault(m, []).append((e, ans.p))
            continue
        key = (ans.predicate, len(ans.args))
        if key not in rules.templates or ans.p < MIN_DERIVED_P:
            continue
        args = [a.text if isinstance(a, Atom) else str(a) for a in ans.args]
        text = rules.templates[key]
        for i, a in enumerate(ans.args, 1):
            text = text.replace(f"{{{i}}}", show(a))
        derived.append(Derived(ans.predicate, args, round(ans.p, 4), rule=ans.predicate, text=text,
                               fact=_derived_fact(rules, inp, ans)))
    for m, cands in links.items():
        # Ties (the same evidence for two entities) go to the better name match.
        cands.sort(key=lambda c: (-round(c[1], 9), -prior.get(m, {}).get(c[0], 0.0), c[0]))
    derived.sort(key=lambda d: (d.predicate, -d.p, d.args))
    return Outcome(links, derived)


def _derived_fact(rules: RuleSet, inp: TurnInput, ans: Answer) -> Fact | None:
    key = (ans.predicate, len(ans.args))
    if len(ans.args) == 2:
        s_i, o_i, pred = 0, 1, vocab.derived_predicate(ans.predicate)
    elif key in rules.fact_args:
        s_i, o_i = (i - 1 for i in rules.fact_args[key])
        pred = vocab.derived_predicate(ans.predicate)
        if ans.predicate == "inverse":  # the middle argument is the relation itself
            pred = predicate_iri(ans.args[1])
    else:
        return None
    s, o = ans.args[s_i], ans.args[o_i]
    if not isinstance(s, Atom) or s.text not in inp.entities:
        return None
    if isinstance(o, Atom) and o.text in inp.entities:
        return Fact(s.text, pred, o.text)
    return Fact(s.text, pred, o.text if isinstance(o, Atom) else str(o), o_literal=True)


# --- what the dialogue decides over the rules -----------------------------------------------

def dialogue_links(ctx: TurnContext, state: TurnState, links: dict[str, list[tuple[str, float]]]) -> None:
    """Plural reference over what the previous turn named, then the meeting being arranged."""
    previous = [k for k in recent_links(ctx, state.session_id, state.turn) if k.turn == state.turn - 1]
    classes = label_index(ctx).class_iris  # "two of the dishes are desserts": what they are, not who they are
    plural.link(state.mentions, links, [(kind, e) for _, kind, n, e in listed_of(ctx, previous)
                                        if n > 0 and e not in classes], lambda e, c: is_a(ctx, e, c))
    office = _office_of(ctx, state.speaker_entity) if state.speaker_entity else None
    for m in state.mentions:
        if office and m.kind == "definite" and m.text.lower().startswith("my "):  # "my office"
            links[m.node] = [(office, EXACT_PRIOR)]
    meeting.link_and_fill(ctx, state, links, lambda iri: entity_kind(ctx, iri),
                          lambda: recent_links(ctx, state.session_id, state.turn))


def _office_of(ctx: TurnContext, person: str) -> str | None:
    """The room a relation named "office" gives the person, if any."""
    try:
        facts = ctx.background.facts_about(person)
    except RemoteUnavailable:
        return None
    return next((f.o for f in facts if f.s == person and not f.o_literal
                 and "office" in vocab.local_name(f.p).lower()), None)


# --- the stage -------------------------------------------------------------------------------

def link_system_turn(ctx: TurnContext, said: SystemTurn) -> None:
    """Link the names a system turn said (by the same rules as a user turn's, deriving nothing)."""
    if not said.names:
        return
    out = reason_turn(ctx, TurnInput(said.session_id, said.turn, said.iri, said.names + said.times, said.now,
                                     derive=False), ctx.config.reason_timeout_ms / 1000.0)
    apply_links(ctx, said.session_id, said.names, out.links, rule="entity_linking")


def apply_links(ctx: TurnContext, session_id: str, mentions: list[Mention], links, rule: str) -> None:
    """Set each mention's entity/label/p/candidates and store its best refers_to edges. A name
    linked below `link_threshold` (a partial or fuzzy match) stays a proposal: the mention shows
    it, but no edge is stored, so later pronouns and first person cannot take it up."""
    graph = vocab.dialogue_graph(session_id)
    for m in mentions:
        cands = links.get(m.iri)
        if not cands:
            continue
        m.candidates = [(e, round(p, 4)) for e, p in cands]
        m.entity, m.p = cands[0][0], round(cands[0][1], 4)
        # A person the dialogue introduced is named in the dialogue graph, not the background.
        m.label = (ctx.store if m.entity.startswith(vocab.session_node(session_id)) else ctx.background).label(m.entity)
        if m.kind == "name" and m.p < ctx.config.link_threshold:
            continue
        for e, p in cands[:KEEP_LINKS]:
            if p >= MIN_LINK_P:
                ctx.store.add_probabilistic(Fact(m.node, vocab.KGC_REFERS_TO, e), p, graph, rule=rule)


def store_derived(ctx: TurnContext, session_id: str, derived: list[Derived]) -> None:
    graph = vocab.derived_graph(session_id)
    for d in derived:
        if d.fact is not None:
            ctx.store.add_probabilistic(d.fact, d.p, graph, rule=d.rule)


def _report(state: TurnState):
    return {"mentions": state.mentions, "derived": state.derived, "note": state.reasoning_note}


@stage("reason", report=_report)
def run(state: TurnState, ctx: TurnContext) -> None:
    reason_state(state, ctx)
    ctx.emit(Linked())


def reason_state(state: TurnState, ctx: TurnContext, stats: list | None = None) -> None:
    """The stage's work; `stats` collects each program's Stats (for `kgchat bench reason`)."""
    # the user's turn that the last reply answered
    last = state.history[-2:]
    asked = [last[0][1]] if len(last) == 2 and last[0][0] == "user" != last[1][0] else []
    before = meeting.current(ctx.store, state.session_id)
    inp = TurnInput(state.session_id, state.turn, state.turn_iri or vocab.turn_node(state.session_id, state.turn),
                    state.mentions, state.now, state.speaker_entity, before.when() if before else None,
                    after_question=bool(asked) and asks(asked[0]), text=state.text)
    inp.wanted_types = state.wanted_types = meeting.wanted_types(state, before, lambda iri: entity_kind(ctx, iri))
    out = reason_turn(ctx, inp, ctx.config.reason_timeout_ms / 1000.0, stats)
    dialogue_links(ctx, state, out.links)
    apply_links(ctx, state.session_id, state.mentions, out.links,
                rule="name matching (reasoning failed)" if out.note else "entity_linking")
    arranging = meeting.current(ctx.store, state.session_id)
    state.meeting = arranging.summary(ctx.store.label) if arranging else None
    state.about_meeting = meeting.about(state, before, arranging)
    state.derived = out.derived
    state.reasoning_note = "; ".join(note for note in (state.reasoning_note, *inp.notes, out.note) if note)
    store_derived(ctx, state.session_id, out.derived)
