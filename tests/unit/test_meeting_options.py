"""The options of a meeting being arranged: which rooms are free at its time (a room nobody has
as their own office is bookable even with an empty calendar), until when a person is busy, on
the calendar of tests/support/reasoning_calendar.py (now Wednesday 10:30)."""

from __future__ import annotations

from kgstore import vocab
from kgstore.terms import Fact
from tests.support.reasoning_calendar import derived, iri, open_session, turn

ALPHA, BETA = iri("room", "Meeting Room Alpha"), iri("room", "Meeting Room Beta")
GAMMA, OFFICE = iri("room", "Meeting Room Gamma"), iri("room", "Office 12")
OMAR, LISA = iri("person", "omar"), iri("person", "lisa")


def rooms_without_events() -> list[Fact]:
    """A meeting room no event was ever held in, and Lisa's office."""
    out = []
    for room, label in ((GAMMA, "Meeting Room Gamma"), (OFFICE, "Office 12")):
        out += [Fact(room, vocab.RDF_TYPE, vocab.OFFICE_CLASSES["room"]),
                Fact(room, vocab.RDFS_LABEL, label, o_literal=True)]
    return out + [Fact(LISA, vocab.office_predicate("office"), OFFICE)]


def test_a_room_with_an_empty_calendar_is_free_but_an_office_is_not_bookable():
    session = open_session(rooms_without_events(), reason_timeout_ms=20000)
    state = turn(session, "Which rooms are free now?")
    assert derived(state, "room_available") == sorted([(BETA, "now (10:30)"), (GAMMA, "now (10:30)")])


def test_rooms_free_at_the_meetings_time_include_one_with_an_empty_calendar():
    session = open_session(rooms_without_events(), reason_timeout_ms=20000)
    turn(session, "Please book a meeting for tomorrow at 10:00 for an hour.")
    state = turn(session, "Which rooms are available then?")
    assert derived(state, "room_available") == sorted([(BETA, "tomorrow at 10:00"), (GAMMA, "tomorrow at 10:00")])


def test_a_busy_person_is_busy_until_the_end_of_what_keeps_them():
    session = open_session(reason_timeout_ms=20000)
    state = turn(session, "Is Omar Haddad free at 2 pm?")
    assert derived(state, "person_busy_until") == [(OMAR, "15:00")]
    d = next(d for d in state.derived if d.predicate == "person_busy_until")
    assert d.text == "Omar Haddad is busy until 15:00"
    assert derived(turn(session, "Is Lisa Wilson available at 14:00?"), "person_busy_until") == []
