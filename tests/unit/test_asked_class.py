"""A list question names the kind of thing it asks for: "Which trains does the depot maintain?"
keeps the trains of a relation whose values are also buses; a KG or a class word that fits none
of the values changes nothing."""

from __future__ import annotations

from datetime import datetime

import pytest

from engine.config import Config
from engine.context import TurnContext
from engine.stages.answer.asked_class import asked_noun_phrase, narrow
from engine.state import PathStep, RelationPath, TurnState
from kgstore.terms import Fact
from tests.support.kb import from_turtle

EX = "http://example.org/depot/"
KG = f"""@prefix ex: <{EX}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:Train rdfs:label "train" . ex:Bus rdfs:label "bus" . ex:Tram rdfs:label "night tram" .
ex:maintains rdfs:label "maintains" .
ex:depot rdfs:label "Eastgate Depot" ; ex:maintains ex:t1, ex:t2, ex:b1, ex:n1 .
ex:t1 a ex:Train ; rdfs:label "Kestrel" . ex:t2 a ex:Train ; rdfs:label "Osprey" .
ex:b1 a ex:Bus ; rdfs:label "Route 9 bus" . ex:n1 a ex:Tram ; rdfs:label "Owl Line" .
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("depot"), KG)[0]


def asked(text: str) -> TurnState:
    ends = {"t1": "Kestrel", "t2": "Osprey", "b1": "Route 9 bus", "n1": "Owl Line"}
    chains = [[Fact(EX + "depot", EX + "maintains", EX + e)] for e in ends]
    path = RelationPath(EX + "depot", "Eastgate Depot", [PathStep(EX + "maintains", "maintains")], 1.0,
                        asks_all=True, chains=chains, values=list(ends.values()), total=len(ends))
    state = TurnState(session_id="s", turn=1, text=text, now=datetime(2026, 3, 2, 9, 0))
    state.paths = [path]
    return state


def test_the_noun_phrase_a_which_question_asks_for():
    assert asked_noun_phrase("Which trains does the depot maintain?") == "trains"
    assert asked_noun_phrase("What night trams are there?") == "night trams"
    assert asked_noun_phrase("Who maintains the trains?") == ""


def test_a_list_keeps_the_values_of_the_class_asked_for(store):
    ctx = TurnContext(config=Config(), store=store, background=store)
    state = asked("Which trains does Eastgate Depot maintain?")
    narrow(state, ctx)
    assert state.paths[0].values == ["Kestrel", "Osprey"] and state.paths[0].total == 2
    # a class named by its head noun ("trams" for "night tram") is the class asked for too
    trams = asked("Which trams does Eastgate Depot maintain?")
    narrow(trams, ctx)
    assert trams.paths[0].values == ["Owl Line"]


@pytest.mark.parametrize("question", ["What does Eastgate Depot maintain?", "Which ferries does Eastgate Depot maintain?"])
def test_a_question_naming_no_class_of_the_values_keeps_them_all(store, question):
    ctx = TurnContext(config=Config(), store=store, background=store)
    state = asked(question)
    narrow(state, ctx)
    assert len(state.paths[0].values) == 4
