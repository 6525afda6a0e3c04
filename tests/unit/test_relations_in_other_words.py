"""Relations said in other words than their labels, as a new user says them about a KG of their
own: a verb naming a way of doing the label's relation ("painted" for "creator"), a word derived
from the label's ("restored" for "restorer"), a synonym ("costs" for "price"). Read through
WordNet (skipped where it is not installed: `make wordnet`). A small KG of street murals, and
one of a football league for the relations a modifier narrows."""

from __future__ import annotations

import pytest

from engine.config import Config
from engine.lexicon import lexicon
from engine.session import Session
from tests.support.fakes import ScriptedLLM
from tests.support.kb import checks_of, from_turtle

needs_wordnet = pytest.mark.skipif(lexicon() is None, reason="WordNet 3.0 is not installed (make wordnet)")

MURALS = """
@prefix m: <http://murals.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
m:creator rdfs:label "creator" .
m:restorer rdfs:label "restorer" .
m:commissionedBy rdfs:label "commissioned by" .
m:wallOf rdfs:label "wall of" .
m:price rdfs:label "price" .
m:tide rdfs:label "The Tide Mural" ; m:price "12000 EUR" ; m:creator m:rui ; m:restorer m:lena ; m:commissionedBy m:council ; m:wallOf m:depot .
m:rui rdfs:label "Rui Sato" .
m:lena rdfs:label "Lena Brandt" .
m:council rdfs:label "Harbour District Council" .
m:depot rdfs:label "Old Tram Depot" .
"""


@pytest.fixture(scope="module")
def murals(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("murals"), MURALS)


def verdict(kg, claim) -> tuple[str, str]:
    checks = checks_of(kg, claim)
    assert len(checks) == 1, [c.claim for c in checks]
    return str(checks[0].verdict), checks[0].reason


@needs_wordnet
@pytest.mark.parametrize("claim", [
    "The Tide Mural was painted by Rui Sato.",
    "Rui Sato painted The Tide Mural.",
    "The Tide Mural was restored by Lena Brandt.",
])
def test_a_verb_for_the_label_s_relation_supports_it(murals, claim):
    assert verdict(murals, claim)[0] == "supported"


@needs_wordnet
def test_the_verb_read_as_the_relation_finds_another_value_wrong(murals):
    said, reason = verdict(murals, "The Tide Mural was painted by Lena Brandt.")
    assert said == "contradicted", reason
    assert "Rui Sato" in reason


def session(tmp_path, turtle: str) -> Session:
    path = tmp_path / "kg.ttl"
    path.write_text(turtle, encoding="utf-8")
    config = Config(kg=[str(path)], memory=True, demo="none", scorer="learned", answer="facts", refine_steps=0)
    return Session.open(config, llm=ScriptedLLM([]))


def relations_asked(s: Session, question: str) -> list[list[str]]:
    return [[step.label for step in p.steps] for p in s.user_turn(question).paths]


@needs_wordnet
def test_a_question_in_other_words_takes_the_label_s_relation(tmp_path):
    s = session(tmp_path, MURALS)
    assert relations_asked(s, "Who painted The Tide Mural?") == [["creator"]]
    assert relations_asked(s, "Who fixed up The Tide Mural?") == [["restorer"]]
    state = s.user_turn("Who painted The Tide Mural?")
    assert "Rui Sato" in state.shown_reply


LEAGUE = """
@prefix f: <http://league.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
f:headCoach rdfs:label "head coach" .
f:homeGround rdfs:label "home ground" .
f:maxCapacity rdfs:label "maximum capacity" .
f:spurs rdfs:label "Tottenham Hotspur" ; f:headCoach f:ange ; f:homeGround f:stadium .
f:ange rdfs:label "Ange Postecoglou" .
f:stadium f:maxCapacity 62850 .
f:stadium rdfs:label "Tottenham Hotspur Stadium" .
"""


@needs_wordnet
def test_a_modifier_before_another_word_for_the_label_s_head_asks_another_relation(tmp_path):
    s = session(tmp_path, LEAGUE)
    # a manager is a coach in other words; an assistant manager is no head coach
    assert relations_asked(s, "Who is the assistant manager of Tottenham Hotspur?") == []
    assert relations_asked(s, "Who is the manager of Tottenham Hotspur?") == [["head coach"]]


def test_a_possessive_said_with_the_name_still_leads_to_the_thing_it_owns(tmp_path):
    s = session(tmp_path, LEAGUE)
    question = "How many people fit in Tottenham's stadium?"
    assert relations_asked(s, question) == [["home ground", "maximum capacity"]]
    assert "62850" in s.user_turn(question).shown_reply


CLUB = """
@prefix f: <http://league.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
f:headCoach rdfs:label "head coach" .
f:homeGround rdfs:label "home ground" .
f:kitSponsor rdfs:label "kit sponsor" .
f:founded rdfs:label "founding year" .
f:arsenal rdfs:label "Arsenal" ; f:headCoach f:arteta ; f:homeGround f:emirates ; f:kitSponsor f:fly ; f:founded "1886" .
f:arteta rdfs:label "Mikel Arteta" .
f:emirates rdfs:label "Emirates Stadium" .
f:fly rdfs:label "Fly Emirates" .
"""


def auto_session(tmp_path, turtle: str, replies: list[str]) -> Session:
    path = tmp_path / "kg.ttl"
    path.write_text(turtle, encoding="utf-8")
    config = Config(kg=[str(path)], memory=True, demo="none", scorer="learned", refine_steps=0)
    return Session.open(config, llm=ScriptedLLM(replies))


TRAIL = """
@prefix t: <http://trails.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
t:length rdfs:label "length km" .
t:gain rdfs:label "elevation gain m" .
t:difficulty rdfs:label "difficulty" .
t:start rdfs:label "trailhead" .
t:maintainer rdfs:label "maintained by" .
t:ridge rdfs:label "Ridge Trail" ; t:length "14.5" ; t:gain "820" ; t:difficulty "hard" ; t:start t:pass ; t:maintainer t:club .
t:pass rdfs:label "Kettle Pass" .
t:club rdfs:label "Upland Walkers Club" .
"""


def test_a_relation_the_entity_lacks_is_not_found_and_what_it_has_is_named(tmp_path):
    # after a question about the trail, the relevance scorer rates its difficulty high for an
    # age; no relation of it reads like one
    s = auto_session(tmp_path, TRAIL, ["The Ridge Trail permit costs 20 dollars."] * 5)
    assert s.user_turn("How much does a permit for the Ridge Trail cost?").answer_source == "not_found"
    state = s.user_turn("What is the minimum age for the Ridge Trail?")
    assert state.answer_source == "not_found", state.shown_reply
    assert "difficulty" in state.shown_reply and "maintained by" in state.shown_reply
    assert s.user_turn("How long is the Ridge Trail?").answer_source != "not_found"


def test_a_relation_the_entity_has_in_other_words_is_answered(tmp_path):
    s = auto_session(tmp_path, CLUB, ["Fly Emirates sponsors Arsenal's kit."] * 3)
    state = s.user_turn("Who sponsors Arsenal's kit?")
    assert state.answer_source != "not_found" and "Fly Emirates" in state.shown_reply


CHOIR = """
@prefix c: <http://choir.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
c:formedIn rdfs:label "formed in" .
c:conductor rdfs:label "conductor" .
c:Person rdfs:label "person" .
c:City rdfs:label "city" .
c:choir rdfs:label "Lindenfeld Chamber Choir" ; c:formedIn c:bergen ; c:conductor c:ada .
c:ada a c:Person ; rdfs:label "Ada Lind" .
c:ivo a c:Person ; rdfs:label "Ivo Berg" .
c:bergen a c:City ; rdfs:label "Bergen" .
c:oslo a c:City ; rdfs:label "Oslo" .
"""


@needs_wordnet
def test_a_relation_read_from_other_words_with_a_value_of_another_kind_is_no_contradiction(tmp_path):
    kg = from_turtle(tmp_path, CHOIR)
    # "produced" is a kind of forming to WordNet, but a person is no place the choir was formed in
    said, reason = verdict(kg, "The Lindenfeld Chamber Choir was produced by Ivo Berg.")
    assert said == "nei", reason
    assert verdict(kg, "The Lindenfeld Chamber Choir was formed in Oslo.")[0] == "contradicted"
    assert verdict(kg, "Ivo Berg conducts the Lindenfeld Chamber Choir.")[0] == "contradicted"
