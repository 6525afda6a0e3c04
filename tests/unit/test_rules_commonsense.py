"""One test per commonsense rule family (rules/commonsense.pl) and per generic rule
(rules/generic.pl), on the hand-made calendar of tests/reasoning_calendar.py (now: Wednesday
2026-03-04 10:30)."""

from __future__ import annotations

import pytest

from kgstore import vocab
from kgstore.terms import Fact
from tests.support.reasoning_calendar import derived, iri, open_session, turn

LISA, OMAR, MARIA = iri("person", "lisa"), iri("person", "omar"), iri("person", "maria")
ALPHA, BETA = iri("room", "Meeting Room Alpha"), iri("room", "Meeting Room Beta")
SYNC, BUDGET, DESIGN, LAB = (iri("event", k) for k in ("sync", "budget", "design", "lab"))
ENGINEERING = iri("group", "Engineering")


@pytest.fixture(scope="module")
def session():
    return open_session(reason_timeout_ms=20000)


def test_events_today_and_tomorrow_with_start_times(session):
    assert derived(turn(session, "When is the Weekly Sync?"), "event_today") == [(SYNC, "09:00")]
    state = turn(session, "And the Design Review?")
    assert derived(state, "event_tomorrow") == [(DESIGN, "10:00")]
    assert derived(state, "event_today") == []


def test_group_of_a_person_members_of_a_group_and_their_count(session):
    assert derived(turn(session, "Which group is Lisa Wilson in?"), "person_group") == [(LISA, ENGINEERING)]
    state = turn(session, "Who works in Engineering?")
    assert derived(state, "group_member") == sorted([(ENGINEERING, LISA), (ENGINEERING, OMAR)])
    assert derived(state, "member_count") == [(ENGINEERING, "2")]
    d = next(d for d in state.derived if d.predicate == "member_count")
    assert d.text == "the Engineering group has 2 members"


def test_room_available_today_or_tomorrow_at_a_time(session):
    state = turn(session, "Is Meeting Room Alpha free at 2 pm?")
    assert derived(state, "room_available") == [(ALPHA, "today at 14:00")]
    state = turn(session, "Is Meeting Room Alpha free tomorrow at 10?")
    assert derived(state, "room_available") == []
    assert derived(state, "room_taken") == [(ALPHA, "tomorrow at 10:00", DESIGN)]


def test_rooms_available_now(session):
    state = turn(session, "Which rooms are free now?")
    assert derived(state, "room_available") == [(BETA, "now (10:30)")]
    assert derived(state, "room_taken") == [(ALPHA, "now (10:30)", SYNC)]


def test_rooms_free_at_the_time_of_the_meeting_being_arranged():
    # Once the meeting has a time, "which rooms are free?" asks about that time, not now.
    session = open_session(reason_timeout_ms=20000)
    turn(session, "Please book a meeting for tomorrow at 10:00 for an hour.")
    state = turn(session, "Which rooms are free?")
    assert derived(state, "room_available") == [(BETA, "tomorrow at 10:00")]
    assert derived(state, "room_taken") == [(ALPHA, "tomorrow at 10:00", DESIGN)]


def test_person_available_or_busy_at_a_time(session):
    state = turn(session, "Is Omar Haddad free at 2 pm?")
    assert derived(state, "person_busy_at") == [(OMAR, "today at 14:00", BUDGET)]
    assert derived(state, "person_available") == []
    state = turn(session, "Is Lisa Wilson available at 14:00?")
    assert derived(state, "person_available") == [(LISA, "today at 14:00")]
    state = turn(session, "Is Lisa Wilson free now?")
    assert derived(state, "person_busy_at") == [(LISA, "now (10:30)", SYNC)]


def test_what_a_person_attends_today_tomorrow_or_on_a_day(session):
    state = turn(session, "What is on Lisa Wilson's calendar?")
    assert derived(state, "attends_today") == [(LISA, SYNC)]
    assert derived(state, "attends_tomorrow") == [(LISA, DESIGN)]
    state = turn(session, "What does Maria Lopez have on Friday?")
    assert derived(state, "attends_on") == [(MARIA, "Friday 6 March", LAB)]
    d = next(d for d in state.derived if d.predicate == "attends_on")
    assert d.text == "Maria Lopez attends Lab Meeting on Friday 6 March"
    assert d.fact == Fact(MARIA, vocab.derived_predicate("attends_on"), LAB)


def test_rooms_and_people_free_in_the_morning_or_afternoon(session):
    state = turn(session, "Is Meeting Room Beta free in the afternoon?")
    assert derived(state, "room_free_during") == [(BETA, "in the afternoon today")]
    # Lisa is in the Weekly Sync 9-11 but free 8-9.
    state = turn(session, "Does Lisa Wilson have time in the morning?")
    assert derived(state, "person_free_during") == [(LISA, "in the morning today")]
    # Alpha on Thursday morning: only the Design Review 10-11, so 8-10 are free.
    state = turn(session, "Is Meeting Room Alpha free tomorrow morning?")
    assert derived(state, "room_free_during") == [(ALPHA, "in the morning tomorrow")]


def test_time_and_place_of_an_event(session):
    state = turn(session, "Where is the Budget Review?")
    assert derived(state, "event_place") == [(BUDGET, BETA)]
    assert derived(state, "event_time") == [(BUDGET, "Wednesday 4 March", "14:00", "15:00")]
    state = turn(session, "When does it end?")  # the pronoun brings the same event into focus
    assert derived(state, "event_time") == [(BUDGET, "Wednesday 4 March", "14:00", "15:00")]


def test_derived_facts_are_written_with_probability_and_rule(session):
    state = turn(session, "Where is the Lab Meeting?")
    d = next(d for d in state.derived if d.predicate == "event_place")
    graph = vocab.derived_graph(session.session_id)
    p = session.ctx.store.probability(d.fact, graph)
    assert p == pytest.approx(d.p, abs=1e-6) and 0.9 < p <= 1.0
    rows = session.ctx.store.query(f"SELECT ?r WHERE {{ GRAPH <{graph}> {{ ?x <{vocab.KGC_RULE}> ?r }} }}")
    assert any(r["r"] == "event_place" for r in rows)


def test_generic_inverse_and_shared_neighbour(session):
    state = turn(session, "Are Lisa Wilson and Omar Haddad in a meeting together?")
    inverse = derived(state, "inverse")
    assert (LISA, "organizes", SYNC) in inverse
    assert (OMAR, "attends", BUDGET) in inverse
    d = next(d for d in state.derived if d.predicate == "inverse" and d.args[1:] == ["organizes", SYNC])
    assert d.fact == Fact(LISA, vocab.derived_predicate("organizes"), SYNC)
    assert (LISA, SYNC, OMAR) in derived(state, "connected_via")
    assert (LISA, ENGINEERING, OMAR) in derived(state, "connected_via")


def test_generic_subclass_and_part_of_chains():
    wd, wdt = vocab.WD, vocab.WDT
    extra = []
    for q, label in (("Q1", "sedan"), ("Q2", "car"), ("Q3", "motor vehicle"), ("Q10", "Oslo"),
                     ("Q11", "Ostlandet"), ("Q12", "Norway")):
        extra.append(Fact(wd + q, vocab.RDFS_LABEL, label, o_literal=True))
    extra += [Fact(wd + "Q1", wdt + "P279", wd + "Q2"), Fact(wd + "Q2", wdt + "P279", wd + "Q3"),
              Fact(wd + "Q10", wdt + "P131", wd + "Q11"), Fact(wd + "Q11", wdt + "P131", wd + "Q12")]
    s = open_session(extra, reason_timeout_ms=20000)
    assert (wd + "Q3") in {a[1] for a in derived(turn(s, "What is a sedan?"), "kind_of")}
    assert (wd + "Q10", wd + "Q12") in derived(turn(s, "Where is Oslo?"), "part_of")


def test_a_kg_without_a_calendar_gets_no_availability_and_no_empty_member_count(tmp_path):
    # A music KG (schema.org person and group, no events, no member edges): neither "Tom is
    # available now" nor "the Basalt Sound group has 0 members" would be true of it.
    from engine.config import Config
    from engine.session import Session
    from engine.setup import build_context

    kg = tmp_path / "music.ttl"
    kg.write_text("""@prefix schema: <http://schema.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<urn:m:tom> a schema:Person ; rdfs:label "Tom Ashby" ; schema:birthPlace <urn:m:leeds> .
<urn:m:leeds> rdfs:label "Leeds" .
<urn:m:basalt> a schema:Organization ; rdfs:label "Basalt Sound" ; schema:foundingDate "2004" .
""", encoding="utf-8")
    ctx = build_context(Config(memory=True, demo="none", kg=[str(kg)], reason_timeout_ms=20000))
    session = Session(ctx, "test")
    state = turn(session, "Where was Tom Ashby born?")
    assert any(m.entity == "urn:m:tom" for m in state.mentions)
    assert derived(state, "person_available") == [] and derived(state, "person_busy_at") == []
    state = turn(session, "How many members does Basalt Sound have?")
    assert any(m.entity == "urn:m:basalt" for m in state.mentions)
    assert derived(state, "member_count") == []


def test_no_bridge_through_name_records_or_sources(tmp_path):
    # Two players of one club, both male and both described by the same encyclopaedia: the club
    # joins them; a shared gender or source is no connection a question asks about.
    from engine.config import Config
    from engine.session import Session
    from engine.setup import build_context

    kg = tmp_path / "football.ttl"
    kg.write_text("""@prefix f: <https://pitch.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
f:playsFor rdfs:label "plays for" . f:sexOrGender rdfs:label "sex or gender" .
f:describedBy rdfs:label "described by source" .
f:ana rdfs:label "Ana Ilić" ; f:playsFor f:club ; f:sexOrGender f:male ; f:describedBy f:brit .
f:ben rdfs:label "Ben Sørensen" ; f:playsFor f:club ; f:sexOrGender f:male ; f:describedBy f:brit .
f:club rdfs:label "Ashcombe Albion" . f:male rdfs:label "male" . f:brit rdfs:label "Encyclopaedia Britannica" .
""", encoding="utf-8")
    ctx = build_context(Config(memory=True, demo="none", kg=[str(kg)], reason_timeout_ms=20000))
    state = turn(Session(ctx, "test"), "How are Ana Ilić and Ben Sørensen connected?")
    p = "https://pitch.example/"
    assert derived(state, "connected_via") == [(p + "ana", p + "club", p + "ben")]
