"""Which rooms a type request ("which rooms are free now?") reasons over: on the calendar of
tests/support/reasoning_calendar.py (now 10:30; Meeting Room Alpha taken by the Weekly Sync,
Meeting Room Beta free), with many people's own offices added whose names sort first, or
with rooms of classes of their own."""

from __future__ import annotations

from kgstore import vocab
from kgstore.terms import Fact
from tests.support.reasoning_calendar import derived, iri, open_session, turn

ALPHA, BETA = iri("room", "Meeting Room Alpha"), iri("room", "Meeting Room Beta")
SYNC = iri("event", "sync")
OFFICES = 60  # more than one turn reasons over
EX = "urn:test:rooms:"


def offices(owned: bool = True) -> list[Fact]:
    """Rooms named by their number ("101" sorts before "Meeting Room ..."), each with a person
    who has it as their own office, or nobody's."""
    out = []
    for n in range(101, 101 + OFFICES):
        person, office = iri("person", f"staff{n}"), iri("room", str(n))
        out += [Fact(office, vocab.RDF_TYPE, vocab.OFFICE_CLASSES["room"]),
                Fact(office, vocab.RDFS_LABEL, str(n), o_literal=True)]
        out += [Fact(person, vocab.RDF_TYPE, vocab.OFFICE_CLASSES["person"]),
                Fact(person, vocab.RDFS_LABEL, f"Staff Member {n}", o_literal=True),
                Fact(person, vocab.office_predicate("office"), office)] if owned else []
    return out


def test_a_request_for_more_rooms_than_reasoned_over_leaves_out_peoples_offices():
    session = open_session(offices(), reason_timeout_ms=20000)
    state = turn(session, "Which rooms are free now?")
    assert derived(state, "room_available") == [(BETA, "now (10:30)")]
    assert derived(state, "room_taken") == [(ALPHA, "now (10:30)", SYNC)]
    # the cut is said, with how many there were and why
    assert (f'reasoned over 2 of the {OFFICES + 2} entities "rooms" asks for: '
            "those that are somebody's own left out") in state.reasoning_note


def test_a_request_for_more_rooms_than_reasoned_over_takes_those_that_hold_events_first():
    session = open_session(offices(owned=False), reason_timeout_ms=20000)
    state = turn(session, "Which rooms are free now?")
    available = derived(state, "room_available")
    # the two that hold events first, then 38 rooms nobody has as their own, free as their calendars are empty
    assert (BETA, "now (10:30)") in available and len(available) == 39
    assert derived(state, "room_taken") == [(ALPHA, "now (10:30)", SYNC)]
    assert "reasoned over 40 of the 62" in state.reasoning_note and "hold more events first" in state.reasoning_note


def test_a_request_for_rooms_is_honoured_when_the_turn_also_names_someone():
    session = open_session(reason_timeout_ms=20000)
    state = turn(session, "I need to meet Lisa Wilson: which rooms are free now?")
    assert any(m.entity == iri("person", "lisa") for m in state.mentions)
    assert derived(state, "room_available") == [(BETA, "now (10:30)")]
    assert state.reasoning_note == ""  # two rooms: nothing cut


def test_a_request_naming_a_class_of_the_kg_asks_for_its_instances():
    # Conference rooms and phone booths typed only by their own subclasses of Room.
    room = vocab.OFFICE_CLASSES["room"]
    board, huddle = EX + "board", EX + "huddle"
    extra = [Fact(EX + "ConferenceRoom", vocab.RDFS + "subClassOf", room),
             Fact(EX + "ConferenceRoom", vocab.RDFS_LABEL, "conference room", o_literal=True),
             Fact(EX + "PhoneBooth", vocab.RDFS + "subClassOf", room),
             Fact(EX + "PhoneBooth", vocab.RDFS_LABEL, "phone booth", o_literal=True),
             Fact(board, vocab.RDF_TYPE, EX + "ConferenceRoom"), Fact(board, vocab.RDFS_LABEL, "Boardroom", o_literal=True),
             Fact(huddle, vocab.RDF_TYPE, EX + "PhoneBooth"), Fact(huddle, vocab.RDFS_LABEL, "Huddle", o_literal=True),
             Fact(iri("event", "sync"), vocab.office_predicate("location"), huddle),
             Fact(iri("event", "lab"), vocab.office_predicate("location"), board)]
    session = open_session(extra, reason_timeout_ms=20000)
    state = turn(session, "Which conference rooms are free now?")
    assert derived(state, "room_available") == [(board, "now (10:30)")]
    assert derived(state, "room_taken") == []


def test_a_request_about_a_named_thing_stays_with_it():
    # "which room" asks for the Weekly Sync's room, not for every room's availability
    session = open_session(reason_timeout_ms=20000)
    state = turn(session, "Which room is the Weekly Sync in?")
    assert any(m.entity == SYNC for m in state.mentions)
    assert derived(state, "event_place") == [(SYNC, ALPHA)]
    assert derived(state, "room_available") == [] and derived(state, "room_taken") == []
