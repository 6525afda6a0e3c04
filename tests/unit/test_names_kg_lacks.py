"""Whole names the KG lacks: a name that shares a first name, a surname or a word with names the
KG has, and is none of them, links to nothing (a KG of beekeepers and their apiaries)."""

from __future__ import annotations

import pytest

from engine.nlp.mentions import LabelIndex, detect_names
from kgstore.terms import LabelEntry

ENTRIES = [LabelEntry("Oksana Petrenko", "p:oksana"), LabelEntry("Taras Hnatiuk", "p:taras"),
           LabelEntry("Lidia Hnatiuk", "p:lidia"), LabelEntry("Linden Hill Apiary", "a:linden"),
           LabelEntry("Clover Ridge Honey", "a:clover"), LabelEntry("Linden Ridge Meadery", "a:meadery")]


@pytest.fixture(scope="module")
def index():
    return LabelIndex(ENTRIES)


def names(text, index):
    return [(m.text, m.candidates[0][0]) for m in detect_names(text, index)]


@pytest.mark.parametrize("text", [
    "When was Oksana H. born?",            # an initial no missing word of Oksana Petrenko starts with
    "When was Oksana Hnatiuk born?",       # a first name of one and a surname of another
    "Who keeps the hives at Clover Hill?",  # a word of one apiary and a word of another
])
def test_a_whole_name_the_kg_lacks_links_to_nothing(index, text):
    assert names(text, index) == []


@pytest.mark.parametrize("text, found", [
    ("When was Oksana P. born?", [("Oksana", "p:oksana")]),  # the initial fits
    ("Where does Taras keep his bees?", [("Taras", "p:taras")]),
    ("Is Lidia Hnatiuk at Linden Hill Apiary?", [("Lidia Hnatiuk", "p:lidia"), ("Linden Hill Apiary", "a:linden")]),
    ("Does Taras work with Oksana?", [("Taras", "p:taras"), ("Oksana", "p:oksana")]),
])
def test_names_the_kg_has_still_link(index, text, found):
    assert names(text, index) == found


def test_a_name_the_kg_lacks_is_not_found_and_the_close_ones_are_offered():
    from engine.state import AnswerSource
    from tests.support.ferries import ferry_session

    state = ferry_session(answer="facts").user_turn("Who runs Northsound Ferries?")
    assert state.composed is not None and state.composed.source == AnswerSource.NOT_FOUND
    assert "Northsound Freight" in state.composed.matches and "Tidewater Ferries" in state.composed.matches
