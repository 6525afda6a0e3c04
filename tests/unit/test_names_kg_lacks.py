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


FAMILY = LabelIndex(ENTRIES + [LabelEntry("Petro Hnatiuk", "p:petro"), LabelEntry("Meadow Cargo Depot", "d:meadow"),
                               LabelEntry("Hill Cargo", "d:hill"), LabelEntry("Ridge Cargo Yard", "d:ridge"),
                               LabelEntry("Swarm Days 2019", "f:2019"), LabelEntry("Swarm Days 2021", "f:2021")])


@pytest.mark.parametrize("text", [
    "When was Oksana Hnatiuk born?",   # a surname three people the KG has share, none of them Oksana
    "when was oksana hnatiuk born",    # the same heard: a surname after a first name
    "Who runs Clover Cargo?",          # a word of one name, then a word of three others
    "Who opened Swarm Days 2020?",     # a year no edition has
])
def test_a_name_beside_a_word_of_other_names_links_to_nothing(text):
    assert names(text, FAMILY) == []


@pytest.mark.parametrize("text, found", [
    ("taras oksana and lidia hnatiuk", [("taras", "p:taras"), ("oksana", "p:oksana"), ("lidia hnatiuk", "p:lidia")]),
    ("Who opened Swarm Days 2021?", [("Swarm Days 2021", "f:2021")]),
    ("Please add Oksana Taras and Lidia", [("Oksana", "p:oksana"), ("Taras", "p:taras"), ("Lidia", "p:lidia")]),
    ("Is Petro Hnatiuk at Meadow Cargo Depot?", [("Petro Hnatiuk", "p:petro"), ("Meadow Cargo Depot", "d:meadow")]),
])
def test_names_beside_names_the_kg_has_still_link(text, found):
    assert names(text, FAMILY) == found


def festival_session():
    """Editions of a festival whose name ends as a superlative does ("Gullfest"), and its town."""
    from engine.config import Config
    from engine.session import Session
    from engine.setup import build_context
    from kgstore import vocab
    from kgstore.terms import Fact

    f = "http://example.org/fest/"
    facts = [Fact(f + "headliner", vocab.RDFS_LABEL, "headliner", o_literal=True)]
    for key, label, headliner in (("g19", "Gullfest 2019", "Lucia DeMarco"), ("g21", "Gullfest 2021", "Pieter Nieuwham"),
                                  ("g22", "Gullfest 2022", "Kemi Oyelaran")):
        person = f + headliner.split()[0].lower()
        facts += [Fact(f + key, vocab.RDFS_LABEL, label, o_literal=True), Fact(f + key, f + "headliner", person),
                  Fact(person, vocab.RDFS_LABEL, headliner, o_literal=True)]
    facts += [Fact(f + "population", vocab.RDFS_LABEL, "population", o_literal=True),
              Fact(f + "town", vocab.RDFS_LABEL, "Nieuwham", o_literal=True), Fact(f + "town", f + "population", "8400", o_literal=True)]
    ctx = build_context(Config(memory=True, demo="none", reason_timeout_ms=20000, answer="facts"))
    ctx.store.add(facts, vocab.bg_graph("festival"))
    return Session(ctx, "festival")


def test_an_edition_heard_in_words_is_answered_and_one_the_kg_lacks_is_not_found():
    from engine.state import AnswerSource

    session = festival_session()
    heard = session.user_turn("who headlined gull fest twenty nineteen")
    assert heard.composed is not None and "Lucia DeMarco" in heard.composed.response
    absent = session.user_turn("Who headlined Gullfest 2020?")
    assert absent.composed is not None and absent.composed.source == AnswerSource.NOT_FOUND
    assert "Gullfest 2019" in absent.composed.matches


def test_a_town_heard_by_its_sounds_is_linked_by_the_name_heard():
    state = festival_session().user_turn("what is the population of new ham")
    assert [(m.text, m.label, m.entity) for m in state.mentions if m.kind == "name"] == \
        [("new ham", "Nieuwham", "http://example.org/fest/town")]
    assert state.composed is not None and "8400" in state.composed.response


@pytest.mark.parametrize("text", ["Who won the Harwick Open 2010?", "who won the harwick open 2010",
                                  "who won the harwick open twenty ten"])
def test_a_name_inside_an_edition_the_kg_lacks_is_not_linked_on_its_own(text):
    # "Harwick" is a town of the KG too: inside "Harwick Open 2010" it names no town
    index = LabelIndex([LabelEntry("Harwick Open 1984", "t:ho1984"), LabelEntry("Harwick Open 2005", "t:ho2005"),
                        LabelEntry("Harwick", "pl:harwick")])
    assert detect_names(text, index) == []
    assert names("who won the harwick open two thousand and five", index) == [
        ("harwick open two thousand and five", "t:ho2005")]


@pytest.mark.parametrize("text, found", [
    ("when was eilidh morrison born", []),        # an Eilidh Morrison the KG lacks
    ("is eilidh campbell on board", []),
    ("where does the tern sail", ["s:tern"]),      # a verb after the name
    ("eilidh said the ferry was late", ["p:eilidh"]),
])
def test_a_common_noun_after_part_of_a_name_in_a_transcript_says_another_name(text, found):
    from engine.nlp.dependency import parser

    if parser() is None:
        pytest.skip("the English tagger is not installed")
    index = LabelIndex([LabelEntry("Tern Spirit", "s:tern"), LabelEntry("Eilidh MacLeod", "p:eilidh"),
                        LabelEntry("Morvern Lass", "s:lass")])
    assert [iri for _, iri in names(text, index)] == found
