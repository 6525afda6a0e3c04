"""A tiny fixed office world for the app's tests and the composer's: two people, a group, two rooms,
one event, a fixed clock and the scripted model's reply."""

from __future__ import annotations

from kgstore.vocab import OFFICE_CLASSES, RDF_TYPE, RDFS_LABEL, office_entity, office_predicate

NOW = "2024-05-06T10:00:00"
REPLY = ("Mark Taylor's phone number is **+47 400 82 254**.\n\n"
         "- He is a member of the Engineering group.\n- His office is Office 359.")


def _iri(kind: str, key: str) -> str:
    return f"<{office_entity('tui', kind, key)}>"


def office_turtle() -> str:
    """A tiny fixed office world: two people, a group, two rooms, one event."""
    p = lambda name: f"<{office_predicate(name)}>"  # noqa: E731
    mark, ada = _iri("person", "p1"), _iri("person", "p2")
    eng, room, office = _iri("group", "Engineering"), _iri("room", "Meeting Room Beta"), _iri("room", "Office 359")
    event = _iri("event", "e1")
    lines = [
        f'{mark} <{RDF_TYPE}> <{OFFICE_CLASSES["person"]}> ; <{RDFS_LABEL}> "Mark Taylor" ;'
        f' {p("phone")} "+47 400 82 254" ; {p("email")} "mark.taylor@example.org" ;'
        f' {p("member_of")} {eng} ; {p("office")} {office} .',
        f'{ada} <{RDF_TYPE}> <{OFFICE_CLASSES["person"]}> ; <{RDFS_LABEL}> "Ada Lindqvist" ;'
        f' {p("phone")} "+47 400 11 111" ; {p("member_of")} {eng} .',
        f'{eng} <{RDF_TYPE}> <{OFFICE_CLASSES["group"]}> ; <{RDFS_LABEL}> "Engineering" .',
        f'{room} <{RDF_TYPE}> <{OFFICE_CLASSES["room"]}> ; <{RDFS_LABEL}> "Meeting Room Beta" .',
        f'{office} <{RDF_TYPE}> <{OFFICE_CLASSES["room"]}> ; <{RDFS_LABEL}> "Office 359" .',
        f'{event} <{RDF_TYPE}> <{OFFICE_CLASSES["event"]}> ; <{RDFS_LABEL}> "Design Review" ;'
        f' {p("location")} {room} ; {p("organizer")} {mark} ; {p("attendee")} {ada} ;'
        f' {p("date")} "2024-05-06"^^<http://www.w3.org/2001/XMLSchema#date> ;'
        f' {p("start_time")} "14:00:00"^^<http://www.w3.org/2001/XMLSchema#time> .',
    ]
    return "\n".join(lines) + "\n"
