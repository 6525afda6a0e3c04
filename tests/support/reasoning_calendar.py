"""A small hand-made office calendar with a fixed clock, for the observe/reason/rules tests.

Now is Wednesday 2026-03-04 10:30. Four people, two rooms, two groups, four events:
  Weekly Sync    today    09:00-11:00  Meeting Room Alpha  Lisa (organizer), Omar
  Budget Review  today    14:00-15:00  Meeting Room Beta   Omar, Maria
  Design Review  tomorrow 10:00-11:00  Meeting Room Alpha  Lisa
  Lab Meeting    Friday   13:00-14:00  Meeting Room Beta   Maria, Seán
"""

from __future__ import annotations

from engine.config import Config
from engine.session import Session
from engine.setup import build_context
from kgstore import vocab
from kgstore.terms import Fact

NOW = "2026-03-04T10:30:00"
WORLD = "cal"
XSD = vocab.XSD


def iri(kind: str, key: str) -> str:
    return vocab.office_entity(WORLD, kind, key)


PEOPLE = {"lisa": ("Lisa Wilson", "Engineering"), "omar": ("Omar Haddad", "Engineering"),
          "maria": ("Maria Lopez", "Biology"), "sean": ("Seán O'Brien", "Biology")}
ROOMS = ("Meeting Room Alpha", "Meeting Room Beta")
GROUPS = ("Engineering", "Biology")
EVENTS = {
    "sync": ("Weekly Sync", "2026-03-04", "09:00:00", "11:00:00", "Meeting Room Alpha", "lisa", ("lisa", "omar")),
    "budget": ("Budget Review", "2026-03-04", "14:00:00", "15:00:00", "Meeting Room Beta", "omar", ("omar", "maria")),
    "design": ("Design Review", "2026-03-05", "10:00:00", "11:00:00", "Meeting Room Alpha", "lisa", ("lisa",)),
    "lab": ("Lab Meeting", "2026-03-06", "13:00:00", "14:00:00", "Meeting Room Beta", "maria", ("maria", "sean")),
}


def calendar_facts() -> list[Fact]:
    P = vocab.office_predicate
    out: list[Fact] = []

    def entity(kind: str, key: str, label: str) -> str:
        e = iri(kind, key)
        out.append(Fact(e, vocab.RDF_TYPE, vocab.OFFICE_CLASSES[kind]))
        out.append(Fact(e, vocab.RDFS_LABEL, label, o_literal=True))
        return e

    for g in GROUPS:
        entity("group", g, g)
    for r in ROOMS:
        entity("room", r, r)
    for key, (name, group) in PEOPLE.items():
        p = entity("person", key, name)
        out.append(Fact(p, P("member_of"), iri("group", group)))
        out.append(Fact(p, P("email"), f"{key}@example.org", o_literal=True))
    for key, (name, day, start, end, room, organizer, attendees) in EVENTS.items():
        e = entity("event", key, name)
        out += [Fact(e, P("date"), day, o_literal=True, datatype=XSD + "date"),
                Fact(e, P("start_time"), start, o_literal=True, datatype=XSD + "time"),
                Fact(e, P("end_time"), end, o_literal=True, datatype=XSD + "time"),
                Fact(e, P("location"), iri("room", room)),
                Fact(e, P("organizer"), iri("person", organizer))]
        out += [Fact(e, P("attendee"), iri("person", a)) for a in attendees]
    return out


def open_session(extra_facts: list[Fact] = (), **config) -> Session:
    """A session over the calendar (in memory, no demo KG), the clock fixed at NOW."""
    cfg = Config(memory=True, demo="none", now=config.pop("now", NOW), **config)
    ctx = build_context(cfg)
    ctx.store.add(calendar_facts() + list(extra_facts), vocab.bg_graph(WORLD))
    return Session(ctx, "test")


def turn(session: Session, text: str, stages: tuple[str, ...] = ("observe", "reason")):
    """One user turn through the given stages (no scoring, no model)."""
    from engine.pipeline import STAGES, run_stages, stage_name

    by_name = {stage_name(run): run for run in STAGES}
    state = session.new_state(text)
    run_stages(state, session.ctx, [by_name[name] for name in stages])
    session.history.append(("user", text))
    return state


def derived(state, predicate: str) -> list[tuple]:
    """The argument tuples (IRIs or texts) of the turn's derived facts of one predicate."""
    return sorted(tuple(d.args) for d in state.derived if d.predicate == predicate)
