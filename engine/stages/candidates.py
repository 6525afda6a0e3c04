"""Candidates stage: the facts that may matter this turn, pulled from neighbourhoods only.

Sources: the k-hop neighbourhood of the entities linked in this turn (and, when the turn names
nothing itself, of the previous turn's focus), the facts derived by the rules, every entity
of a type the user asks for, and what is known of the meeting being arranged (its slots, the
groups of its organizer and invitees: engine.meeting.known_facts). Marked as the meeting's
(`meeting_facts`, which lead the selection on a turn about it): those, the entities the reply
proposed when the turn agrees to it, and the people of a group or event the turn invites from. The background is never scanned as a whole: each source is a
capped neighbourhood query, so the cost follows the neighbourhood, not the KG.

Besides edges, every entity node gets one node fact (its `rdf:type` fact, "X is a person", or
its label when it has no type) so that nodes are scored like facts and PCST can prize them.
"""

from __future__ import annotations

from engine import meeting
from engine.context import TurnContext, stage
from engine.dialogue import turn_entities
from engine.focus import linked_now, radius
from engine.nlp import arrange
from engine.nlp.kinds import entity_kind
from engine.nlp.sentences import TYPE_PREDICATES, derived_sentence
from engine.recent import asks
from engine.state import Candidate, TurnState
from kgstore.terms import Fact
from kgstore.vocab import ALIAS_PREDICATES, KGC, LABEL_PREDICATES, RDF_TYPE, RDFS_LABEL

SKIPPED_PREDICATES = frozenset((*LABEL_PREDICATES, *ALIAS_PREDICATES))
DERIVED_PREDICATE = KGC + "derived:"
TYPE_MEMBERS_CAP = 200


def derived_candidate(d) -> Candidate:
    if d.fact is not None:
        fact = d.fact
    else:
        args = list(d.args) or [""]
        obj = args[1] if len(args) == 2 else " ".join(args[1:])
        literal = len(args) != 2 or not _looks_like_iri(obj)
        fact = Fact(args[0], DERIVED_PREDICATE + d.predicate, obj, o_literal=literal)
    text = d.text or derived_sentence(d.predicate, list(d.args))
    return Candidate(fact=fact, text=text, hop=0, derived=True, p=float(d.p), args=tuple(d.args))


def _looks_like_iri(value: str) -> bool:
    return ":" in value and " " not in value


def gather(state: TurnState, ctx: TurnContext) -> None:
    cfg = ctx.config
    focus = state.focus
    now = linked_now(state)
    focus.turns[state.turn] = now
    if state.plan == "none":
        return
    # A turn that names nothing itself ("and her e-mail?") continues the previous turn's focus.
    named = any(m.kind in ("name", "type") and (m.entity or m.value) for m in state.mentions)
    seeds = dict(now)
    if not named:
        for iri, p in focus.previous(state.turn).items():
            seeds.setdefault(iri, p)
        if not any(m.entity for m in state.mentions if m.kind != "time"):
            # "What time?": its subject is what the reply before it spoke of
            for iri, p in turn_entities(ctx.store, state.session_id, state.turn - 1).items():
                seeds.setdefault(iri, p)
    notes: list[str] = []
    facts: dict[tuple[str, str, str], Candidate] = {}
    nodes: dict[str, Candidate] = {}

    def take(fact: Fact, hop: int) -> None:
        if fact.p in SKIPPED_PREDICATES:
            return
        if fact.p in TYPE_PREDICATES:
            nodes.setdefault(fact.s, Candidate(fact=fact, hop=hop))
            return
        if fact.key not in facts:
            facts[fact.key] = Candidate(fact=fact, hop=hop)

    bg = ctx.background
    if seeds:
        nb = bg.neighborhood(list(seeds), hops=radius(ctx), cap=cfg.candidate_cap)
        for f in nb.facts:
            take(f, nb.hop.get(f.key, 1))
        if nb.capped:
            notes.append(nb.cap_reason or f"neighbourhood capped at {cfg.candidate_cap} facts")
    asked = [(str(m.value), repr(m.text)) for m in state.mentions if m.kind == "type" and m.value]
    for cls, said in asked + [(cls, "asked for the meeting") for cls in state.wanted_types]:
        members = bg.entities_of_type(cls, cap=TYPE_MEMBERS_CAP)
        if len(members) >= TYPE_MEMBERS_CAP:
            notes.append(f"only the first {TYPE_MEMBERS_CAP} entities of type {said}")
        for iri in members:
            nodes.setdefault(iri, Candidate(fact=Fact(iri, RDF_TYPE, cls), hop=1))
        if members:
            nb = bg.neighborhood(members, hops=1, cap=cfg.candidate_cap)
            for f in nb.facts:
                take(f, 1)
            if nb.capped:
                notes.append(nb.cap_reason or f"neighbourhood of {said} capped at {cfg.candidate_cap} facts")

    arranging = meeting.current(ctx.store, state.session_id) if state.meeting else None
    proposed: list[str] = []
    # What is known of the meeting being arranged is part of every turn's knowledge once it is
    # open. On the turn that starts it, that is what the turn gave it (its time, room, invitees),
    # which the reply confirms; whom it brings together is for a later restatement.
    if arranging is not None:
        known = meeting.known_facts(bg, arranging, lambda iri: entity_kind(ctx, iri),
                                    groups=arranging.turn < state.turn)
        for f in known:
            take(f, 0)
        state.meeting_facts = {f.key for f in known}
        if state.about_meeting and not asks(state.text):
            # "Yes." to "Would you like me to invite Natalie?": what the reply proposed is what is agreed to
            proposed = [iri for iri in turn_entities(ctx.store, state.session_id, state.turn - 1)
                        if iri != arranging.iri]
    edges = sorted(facts.values(), key=lambda c: c.hop)
    if len(edges) > cfg.candidate_cap:
        notes.append(f"{len(edges)} candidate facts, kept the {cfg.candidate_cap} nearest")
        edges = edges[:cfg.candidate_cap]
    # The groups and events an earlier turn asked to invite from, while nobody is invited yet.
    earlier = arranging.sources if arranging is not None and state.about_meeting else []
    edges += _people_of(ctx, earlier, {c.fact.key for c in edges})
    derived = [derived_candidate(d) for d in state.derived]
    # Every entity node of the kept facts gets its node fact; untyped ones fall back to a label fact.
    for c in edges + derived:
        for end in (c.fact.s, None if c.fact.o_literal else c.fact.o):
            if end and end not in nodes:
                nodes[end] = Candidate(fact=Fact(end, RDFS_LABEL, "", o_literal=True), hop=c.hop)
    for iri in list(seeds) + proposed:
        nodes.setdefault(iri, Candidate(fact=Fact(iri, RDFS_LABEL, "", o_literal=True), hop=0))
    state.meeting_facts |= {nodes[iri].fact.key for iri in proposed}
    if arranging is not None:
        # "Just anyone will be fine." to "There are six members of the Healthcare group. Who would
        # you like to invite?": the group the reply proposed is the one invited from.
        invited = [m.entity for m in state.mentions if m.entity] if arrange.invites(state.text) else []
        state.invitable_facts = _invitable(ctx, invited + proposed + earlier, edges, arranging.iri)
        state.meeting_facts |= state.invitable_facts
    # A node's hop is its distance from the seeds: the nearest fact that reaches it.
    distance = {iri: 0 for iri in seeds}
    for c in edges + derived:
        for end in (c.fact.s, None if c.fact.o_literal else c.fact.o):
            if end and end not in seeds:
                distance[end] = min(distance.get(end, c.hop), c.hop)
    for iri, c in nodes.items():
        c.hop = distance.get(iri, c.hop)
    state.candidates = derived + edges + list(nodes.values())
    state.candidates_note = "; ".join(notes)


def _people_of(ctx: TurnContext, sources: list[str], have: set) -> list[Candidate]:
    """The facts that join the groups and events `sources` to their people, as candidates."""
    if not sources:
        return []
    nb = ctx.background.neighborhood(sources, hops=1, cap=ctx.config.candidate_cap)
    out = []
    for f in nb.facts:
        other = None if f.o_literal else f.o if f.s in sources else f.s if f.o in sources else None
        if other is not None and f.key not in have and f.p not in TYPE_PREDICATES and entity_kind(ctx, other) == "person":
            out.append(Candidate(fact=f, hop=1))
            have.add(f.key)
    return out


def _invitable(ctx: TurnContext, entities: list[str], edges: list[Candidate], meeting_iri: str) -> set:
    """The keys of the facts that give the people of the groups and events among `entities`, those
    the turn invites from ("add a member of the Healthcare group", "any other member of the
    deliverables meeting"): the reply chooses among all of them."""
    sources = {e for e in entities if e != meeting_iri and entity_kind(ctx, e) in ("group", "event")}
    if not sources:
        return set()
    out = set()
    for c in edges:
        f = c.fact
        if f.o_literal:
            continue
        other = f.o if f.s in sources else f.s if f.o in sources else None
        if other is not None and entity_kind(ctx, other) == "person":
            out.add(f.key)
    return out


def _report(state: TurnState) -> dict:
    return {"count": len(state.candidates), "note": state.candidates_note}


@stage("candidates", report=_report)
def run(state: TurnState, ctx: TurnContext) -> None:
    state.candidates = []
    state.candidates_note = ""
    state.meeting_facts = set()
    state.invitable_facts = set()
    gather(state, ctx)
