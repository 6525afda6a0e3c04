"""What a pronoun or "that <class>" takes up after a reply, on a KG of ferry lines
(tests/support/ferries.py)."""

from __future__ import annotations

import pytest

from tests.support.ferries import e, ferry_session
from tests.support.reasoning_calendar import turn


def linked(state, text):
    return next(m for m in state.mentions if m.text == text).entity


@pytest.fixture()
def session():
    return ferry_session()


def test_he_is_the_person_the_reply_answered_with_not_one_it_named_aside(session):
    turn(session, "Who is the captain of MS Storm Petrel?")
    # both are men; only Bjorn stands in a KG relation with the ship asked about
    session.system_turn("Aksel Vennesland once sailed on it, but MS Storm Petrel is captained by Bjorn Haugland.")
    assert linked(turn(session, "When was he born?"), "he") == e("bjorn")


def test_that_class_takes_up_only_a_thing_the_kg_classes_so(session):
    turn(session, "Which ferry line operates MS Storm Petrel?")
    session.system_turn("MS Storm Petrel is operated by Tidewater Ferries.")
    assert linked(turn(session, "When was that ferry line founded?"), "that ferry line") == e("tidewater")


def test_that_class_reaches_past_the_last_reply(session):
    turn(session, "Which ferry line operates MS Storm Petrel?")
    session.system_turn("MS Storm Petrel is operated by Tidewater Ferries.")
    turn(session, "Who runs Northsound Freight?")
    session.system_turn("Bjorn Haugland runs Northsound Freight.")
    assert linked(turn(session, "And when was that ship launched?"), "that ship") == e("stormpetrel")


def test_it_keeps_to_the_topic_over_a_thing_the_reply_answered_with(session):
    turn(session, "Where does MS Gullwing have its home port?")
    session.system_turn("MS Gullwing is operated by Tidewater Ferries, whose home port is Skalvik.")
    assert linked(turn(session, "When was it launched?"), "it") == e("gullwing")


def test_she_is_the_topic_when_the_reply_answered_with_a_thing(session):
    turn(session, "Which ferry line does Marit Solberg run?")
    session.system_turn("Marit Solberg runs Tidewater Ferries.")
    assert linked(turn(session, "When was she born?"), "she") == e("marit")


def test_a_year_said_in_words_is_asked_as_written(session):
    state = turn(session, "which ship was launched in twenty nineteen", ("observe", "reason", "rewrite"))
    assert state.rewritten == "which ship was launched in 2019"


def test_it_takes_the_one_of_the_reply_that_has_the_relation_asked(session):
    turn(session, "Which ferry line operates MS Storm Petrel?")
    session.system_turn("MS Storm Petrel is operated by Tidewater Ferries.")
    # the ship has no home port; the line has
    assert linked(turn(session, "Where is its home port?"), "its") == e("tidewater")



def test_a_code_spelled_out_is_written_as_the_label_it_heard(session):
    from kgstore import vocab
    from kgstore.terms import Fact
    from tests.support.ferries import F

    code = [Fact(e("stormpetrel"), F + "code", e("gbr4471")), Fact(e("gbr4471"), vocab.RDFS_LABEL, "GBR 4471", o_literal=True)]
    session.ctx.store.add(code, vocab.bg_graph("ferries"))
    state = turn(session, "which ship has route code g b r four four seven one", ("observe", "reason", "rewrite"))
    assert state.rewritten == "which ship has route code GBR 4471"
    assert next(m for m in state.mentions if m.label == "GBR 4471").entity == e("gbr4471")
