"""The entities a type request means ("which rooms are free?"), within a cap the reasoner can
take.

When a class has more instances than the cap, it is cut to the ones a meeting can go to: rooms
somebody has as their own (a person's office) are left out when there are others, and the ones
that hold more events go first, so that "which rooms are available?" is reasoned over the
bookable rooms; the note says how many were left out and why. A request in a turn that also
names something is taken up too ("I need to meet Lisa: which rooms are free?"), unless a named
entity is itself related to an instance of the class: "which city was Tom born in" asks about
Tom's city, not about every city.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.context import TurnContext, select
from engine.focus import FOCUS_KINDS
from engine.nlp.kinds import entity_kind
from engine.nlp.sentences import TYPE_PREDICATES
from engine.state import Mention
from kgstore.terms import Fact

REQUESTED_CAP = 40  # entities of the types asked for that one turn reasons over
SCAN_CAP = 200  # instances read to choose from; a bigger class is taken as found
SAMPLE = 3
PEOPLE_CAP = 3000  # facts of the people of the groups a timed turn asks about  # subjects of a relation whose kind tells what the relation's subjects are


@dataclass
class Requested:
    entities: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def requested(ctx: TurnContext, mentions: list[Mention], links: dict[str, list[tuple[str, float]]],
              cap: int = REQUESTED_CAP, wanted: list[str] | None = None) -> Requested:
    """The entities the turn's type requests ask for, and those of the classes `wanted` that it
    asks for without naming them (engine.meeting.wanted_types), at most `cap` of each, the
    likeliest first; `links` are what the turn's mentions refer to (the speaker's "I" asks, and
    is not what is asked about)."""
    named = [cands[0][0] for m in mentions if m.kind in FOCUS_KINDS and (cands := links.get(m.iri or ""))]
    out = Requested()
    for m in mentions:
        if m.kind != "type" or not m.value or any(_reaches(ctx, e, str(m.value)) for e in named):
            continue
        for iri in _members(ctx, str(m.value), m.text, cap, out.notes):
            if iri not in out.entities:
                out.entities.append(iri)
    for cls in wanted or []:
        out.entities += [iri for iri in _members(ctx, cls, "a room for the meeting", cap, out.notes)
                         if iri not in out.entities]
    return out


def _reaches(ctx: TurnContext, entity: str, cls: str) -> bool:
    """Whether a fact links `entity` to an instance of `cls`, either way."""
    if not hasattr(ctx.background, "query"):
        return False
    types = ", ".join(f"<{p}>" for p in sorted(TYPE_PREDICATES))
    rows = select(ctx.background, f"""SELECT ?x WHERE {{ {{ <{entity}> ?p ?x }} UNION {{ ?x ?p <{entity}> }}
        ?x ?t <{cls}> . FILTER(?t IN ({types})) }} LIMIT 1""")
    return bool(rows)


def _members(ctx: TurnContext, cls: str, said: str, cap: int, notes: list[str]) -> list[str]:
    members = ctx.background.entities_of_type(cls, cap=SCAN_CAP)
    if len(members) <= cap:
        return members
    free, own = _bookable_first(ctx, members)
    if free and own:  # a request that must be cut leaves out what is somebody's own first
        kept, why = free[:cap], "those that are somebody's own left out"
    else:
        kept, why = (free or own)[:cap], "those that hold more events first"
    total = f"over {SCAN_CAP}" if len(members) >= SCAN_CAP else str(len(members))
    notes.append(f"reasoned over {len(kept)} of the {total} entities \"{said}\" asks for: {why}")
    return kept


def _bookable_first(ctx: TurnContext, members: list[str]) -> tuple[list[str], list[str]]:
    """(members nobody has as their own, those somebody has), each the ones that hold more
    events first, the order found breaking ties. What a relation's subjects are is read from a
    few of them."""
    nb = ctx.background.neighborhood(members, hops=1, cap=len(members) * 20)
    wanted = set(members)
    incoming: dict[str, list[tuple[str, str]]] = {}  # relation -> (subject, member)
    for f in nb.facts:
        if not f.o_literal and f.o in wanted and f.s not in wanted and f.p not in TYPE_PREDICATES:
            incoming.setdefault(f.p, []).append((f.s, f.o))
    events: dict[str, int] = {}
    owned: set[str] = set()
    for pairs in incoming.values():
        kinds = [entity_kind(ctx, s) for s in dict.fromkeys(s for s, _ in pairs[:SAMPLE * 4])][:SAMPLE]
        kind = max(set(kinds), key=kinds.count)
        for _, member in pairs:
            if kind == "event":
                events[member] = events.get(member, 0) + 1
            elif kind == "person":
                owned.add(member)
    order = {iri: i for i, iri in enumerate(members)}
    ranked = sorted(members, key=lambda iri: (-events.get(iri, 0), order[iri]))
    return [m for m in ranked if m not in owned], [m for m in ranked if m in owned]


def people_of_groups(ctx: TurnContext, focus: list[str], facts: list[Fact], timed: object) -> list[Fact]:
    """On a turn with a time (`timed`), the facts of the people of the groups in focus, as far
    as their events' times: "is anyone from the logistics team free at 3?" asks of each member's
    calendar, two steps further than the group's own neighbourhood (`facts`) reaches."""
    if not timed:
        return []
    groups = {iri for iri in focus if entity_kind(ctx, iri) == "group"}
    people = list(dict.fromkeys(f.s for f in facts if not f.o_literal and f.o in groups and f.p not in TYPE_PREDICATES
                                and f.s not in focus and entity_kind(ctx, f.s) == "person"))
    if not people:
        return []
    return ctx.background.neighborhood(people, hops=2, cap=PEOPLE_CAP).facts

