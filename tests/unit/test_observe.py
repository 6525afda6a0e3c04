"""The observe stage and the dialogue graph: turns, mentions, speaker, system turns, reading a
session back, and the rule-based rewrite (tests/reasoning_calendar.py is the world)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from engine.dialogue import history, list_sessions, session_turns
from engine.nlp.timeexpr import TimeValue, detect
from kgstore import vocab
from tests.support.reasoning_calendar import iri, open_session, turn

NOW = datetime(2026, 3, 4, 10, 30)  # a Wednesday


def test_turns_mentions_and_the_respond_to_chain_are_in_the_dialogue_graph():
    s = open_session(reason_timeout_ms=20000)
    state = turn(s, "Where is Omar Haddad tomorrow?")
    s.system_turn("Omar Haddad is in the Design Review.")
    turn(s, "And Lisa Wilson?")
    g = vocab.dialogue_graph(s.session_id)
    rows = s.ctx.store.query(f"""SELECT ?i ?speaker ?prev WHERE {{ GRAPH <{g}> {{ ?t a <{vocab.KGC_TURN}> ;
        <{vocab.KGC_INDEX}> ?i ; <{vocab.KGC_SPEAKER}> ?speaker . OPTIONAL {{ ?t <{vocab.KGC_RESPOND_TO}> ?prev }} }} }}
        ORDER BY ?i""")
    assert [(r["i"], r["speaker"]) for r in rows] == [("1", "user"), ("2", "system"), ("3", "user")]
    assert rows[2]["prev"] == vocab.turn_node(s.session_id, 2) and "prev" not in rows[0]
    kinds = {(m.text, m.kind) for m in state.mentions}
    assert {("Omar Haddad", "name"), ("tomorrow", "time")} <= kinds
    time_value = next(m.value for m in state.mentions if m.kind == "time")
    assert time_value.day == date(2026, 3, 5)
    stored = s.ctx.store.query(f"SELECT ?text ?kind WHERE {{ GRAPH <{g}> {{ <{state.turn_iri}> <{vocab.KGC_HAS_MENTION}> ?m . "
                               f"?m <{vocab.KGC_TEXT}> ?text ; <{vocab.KGC_KIND}> ?kind }} }}")
    assert {(r["text"], r["kind"]) for r in stored} == kinds


def test_system_turn_names_are_linked_for_later_pronouns():
    s = open_session(reason_timeout_ms=20000)
    turn(s, "Who organizes the Weekly Sync?")
    s.system_turn("Lisa Wilson organizes it.")
    assert s.history[-1] == ("system", "Lisa Wilson organizes it.")
    assert next(m for m in turn(s, "What is her e-mail?").mentions if m.text == "her").entity == iri("person", "lisa")


def test_sessions_and_their_turns_read_back():
    s = open_session(reason_timeout_ms=20000)
    turn(s, "Hi, I'm Maria Lopez.", stages=("observe", "reason", "rewrite"))
    s.system_turn("Hello Maria.")
    turn(s, "Where is my next meeting?", stages=("observe", "reason", "rewrite"))
    sessions = list_sessions(s.ctx.store)
    assert [(x.session_id, x.turns, x.first_text) for x in sessions] == [(s.session_id, 3, "Hi, I'm Maria Lopez.")]
    assert sessions[0].speaker == iri("person", "maria") and sessions[0].started.startswith("2026-03-04T10:30")
    turns = session_turns(s.ctx.store, s.session_id)
    assert [(t.turn, t.speaker) for t in turns] == [(1, "user"), (2, "system"), (3, "user")]
    assert turns[2].rewritten == "Where is Maria Lopez's next meeting?"
    my = next(m for m in turns[2].mentions if m.text == "my")
    assert my.entity == iri("person", "maria") and my.p == pytest.approx(1.0)
    assert history(s.ctx.store, s.session_id) == [("user", "Hi, I'm Maria Lopez."), ("system", "Hello Maria."),
                                                  ("user", "Where is my next meeting?")]


def test_rewrite_resolves_confident_references_only():
    s = open_session(reason_timeout_ms=20000)
    turn(s, "When is Omar Haddad free?", stages=("observe", "reason", "rewrite"))
    s.system_turn("Omar Haddad is free after 15:00.")
    state = turn(s, "Can I book him? Is his office free?", stages=("observe", "reason", "rewrite"))
    assert state.rewritten == "Can I book Omar Haddad? Is Omar Haddad's office free?"
    strict = open_session(reason_timeout_ms=20000, link_threshold=0.999)
    turn(strict, "When is Omar Haddad free?", stages=("observe", "reason", "rewrite"))
    assert turn(strict, "Can I book him?", stages=("observe", "reason", "rewrite")).rewritten == "Can I book him?"


def test_llm_rewrite_falls_back_to_rules_when_it_fails(monkeypatch):
    import engine.stages.rewrite.llm

    def broken(state, ctx):
        raise RuntimeError("model gone")

    monkeypatch.setattr(engine.stages.rewrite.llm, "rewrite", broken)
    s = open_session(reason_timeout_ms=20000, rewrite="llm")
    turn(s, "Where is Lisa Wilson?", stages=("observe", "reason", "rewrite"))
    s.system_turn("Lisa Wilson is in the Weekly Sync.")
    assert turn(s, "Call her.", stages=("observe", "reason", "rewrite")).rewritten == "Call Lisa Wilson."
    monkeypatch.setattr(engine.stages.rewrite.llm, "rewrite", lambda state, ctx: "the model's own rewrite")
    assert turn(s, "Call her.", stages=("observe", "reason", "rewrite")).rewritten == "the model's own rewrite"


def times(text):
    return [(m.text, m.value) for m in detect(text, NOW)]


@pytest.mark.parametrize("text, expected", [
    ("now", TimeValue(date(2026, 3, 4), 630, 631, "now", True)),
    ("today", TimeValue(date(2026, 3, 4), explicit_day=True)),
    ("tomorrow", TimeValue(date(2026, 3, 5), explicit_day=True)),
    ("on Monday", TimeValue(date(2026, 3, 2), explicit_day=True)),
    ("next Monday", TimeValue(date(2026, 3, 9), explicit_day=True)),
    ("on Friday", TimeValue(date(2026, 3, 6), explicit_day=True)),
    ("March 9", TimeValue(date(2026, 3, 9), explicit_day=True)),
    ("9th of March", TimeValue(date(2026, 3, 9), explicit_day=True)),
    ("2026-03-10", TimeValue(date(2026, 3, 10), explicit_day=True)),
])
def test_days(text, expected):
    assert [v for _, v in times(text)] == [expected]


@pytest.mark.parametrize("text, start", [
    ("at 14:00", 840), ("at 2 pm", 840), ("at 2pm", 840), ("at 2", 840), ("at 10", 600), ("10 o'clock", 600),
    ("half past ten", 630), ("quarter to three", 885), ("at noon", 720), ("9:30 am", 570), ("at 8", 480)])
def test_clock_times_are_office_hours_today(text, start):
    (value,) = [v for _, v in times(text)]
    assert (value.day, value.start, value.end) == (date(2026, 3, 4), start, start + 60)


def test_a_clock_time_takes_the_day_named_in_the_turn():
    found = times("Is Lisa free tomorrow at 3?")
    assert [(t, v.day, v.start) for t, v in found] == [("tomorrow", date(2026, 3, 5), None), ("3", date(2026, 3, 5), 900)]
    assert [(v.part, v.start, v.end) for _, v in times("Any room free on Friday afternoon?") if v.part] == [
        ("afternoon", 720, 1020)]
    (rng,) = [v for _, v in times("from 2 to 4")]
    assert (rng.start, rng.end) == (840, 960)
    assert times("Room 214 and 3 people") == []


def test_then_takes_the_time_of_an_earlier_turn():
    s = open_session(reason_timeout_ms=20000)
    turn(s, "Is Meeting Room Alpha free tomorrow at 10?")
    s.system_turn("No, the Design Review is there.")
    state = turn(s, "Who is in Meeting Room Beta then?")
    then = next(m for m in state.mentions if m.kind == "time")
    assert (then.text, then.value.day, then.value.start) == ("then", date(2026, 3, 5), 600)
    assert TimeValue.from_iso(then.value.iso()) == then.value
