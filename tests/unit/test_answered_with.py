"""What a pronoun or "the/that <class>" takes up after a reply, on a small veterinary-clinic KG:
the entity the reply answered the question with (what the question's relation path reached), or
what the question was about, by gender and by the KG's classes, not whatever the reply named
last. The questions run through the retrieval stages, as in the app and in a replayed dialogue."""

from __future__ import annotations

import pytest

from engine.config import Config
from engine.nlp.deixis import points_back
from engine.nlp.mentions import detect, label_index
from engine.recent import asked_for
from engine.session import Session
from tests.support.fakes import ScriptedLLM

V = "http://example.org/vet/"
# Names sort so that a tie between two candidates goes to the wrong one ("berg" < "vance").
VET = f"""@prefix v: <{V}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix schema: <http://schema.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
v:Clinic rdfs:label "veterinary clinic" . v:Room rdfs:label "room" . v:Company rdfs:label "company" .
v:City rdfs:label "city" . schema:Person rdfs:label "person" .
v:director rdfs:label "director" . v:headNurse rdfs:label "head nurse" . v:founder rdfs:label "founded by" .
v:founding rdfs:label "founding year" . v:location rdfs:label "located in" . v:hasRoom rdfs:label "has room" .
v:partOf rdfs:label "part of" . v:floor rdfs:label "floor" . v:ceo rdfs:label "chief executive" .
v:harbourside a v:Clinic ; rdfs:label "Harbourside Veterinary Clinic" ; v:director v:idris ;
    v:headNurse v:berg ; v:founder v:vance ; v:founding "2004"^^xsd:gYear ; v:location v:portsmouth ;
    v:hasRoom v:suite ; v:partOf v:paws .
v:idris a schema:Person ; rdfs:label "Amal Idris" ; schema:gender "female" ; schema:birthDate "1971-03-14"^^xsd:date .
v:berg a schema:Person ; rdfs:label "Tomas Berg" ; schema:gender "male" ; schema:birthDate "1985-07-02"^^xsd:date .
v:vance a schema:Person ; rdfs:label "Peter Vance" ; schema:gender "male" ; schema:birthDate "1948-11-30"^^xsd:date .
v:suite a v:Room ; rdfs:label "Surgery Suite B" ; v:floor 2 .
v:portsmouth a v:City ; rdfs:label "Portsmouth" .
v:paws a v:Company ; rdfs:label "Paws Veterinary Group" ; v:founding "1999"^^xsd:gYear ; v:ceo v:fenwick .
v:fenwick a schema:Person ; rdfs:label "Nadia Fenwick" ; schema:gender "female" .
"""


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    path = tmp_path_factory.mktemp("vet") / "kg.ttl"
    path.write_text(VET, encoding="utf-8")
    return str(path)


def session(kg: str, **resources) -> Session:
    return Session.open(Config(kg=[kg], memory=True, demo="none", reason_timeout_ms=20000), **resources)


def referent(kg: str, question: str, reply: str, follow_up: str, said: str) -> str | None:
    """What `said` of the follow-up refers to after a question and a written reply."""
    s = session(kg)
    s.user_turn(question, answer=False)
    s.system_turn(reply)
    state = s.user_turn(follow_up, answer=False)
    return next(m for m in state.mentions if m.text == said).entity


def test_he_is_the_man_the_question_asked_for_not_another_the_reply_named(kg):
    # both men are related to the clinic; only the founder is what "Who founded" reached
    assert referent(kg, "Who founded Harbourside Veterinary Clinic?",
                    "It was founded by Peter Vance. Tomas Berg is the head nurse today.",
                    "When was he born?", "he") == V + "vance"


def test_it_is_the_clinic_asked_about_not_the_room_the_reply_named_by_the_way(kg):
    assert referent(kg, "Who runs Harbourside Veterinary Clinic?",
                    "Its director is Amal Idris, who works from Surgery Suite B.",
                    "When was it founded?", "it") == V + "harbourside"


def test_that_class_word_takes_up_a_thing_whose_class_label_ends_with_it(kg):
    # the KG's class is "veterinary clinic"; the user says "clinic"
    assert referent(kg, "Which clinic does Amal Idris direct?",
                    "Amal Idris directs Harbourside Veterinary Clinic in Portsmouth, where Surgery Suite B is.",
                    "When was that clinic founded?", "that clinic") == V + "harbourside"


def test_the_class_takes_up_the_answer_of_that_class(kg):
    assert referent(kg, "What is Harbourside Veterinary Clinic part of?", "Paws Veterinary Group.",
                    "When was the company founded?", "the company") == V + "paws"


def test_the_question_records_what_its_relation_reached(kg):
    s = session(kg)
    s.user_turn("Who founded Harbourside Veterinary Clinic?", answer=False)
    reached = asked_for(s.ctx, s.session_id, 1)
    assert V + "vance" in reached and V + "berg" not in reached


def test_in_a_live_session_he_is_what_the_shown_reply_answered_with(kg):
    s = session(kg, llm=ScriptedLLM(["Peter Vance founded it; Tomas Berg is the head nurse today."] * 4))
    first = s.user_turn("Who founded Harbourside Veterinary Clinic?")
    assert "Peter Vance" in first.shown_reply and V + "vance" in asked_for(s.ctx, s.session_id, 1)
    state = s.user_turn("When was he born?", answer=False)
    assert next(m for m in state.mentions if m.text == "he").entity == V + "vance"


@pytest.mark.parametrize("text", ["Who is the chief executive of the company Paws Veterinary Group?",
                                  "Which is the city with the most clinics?", "Who runs the company of Nadia Fenwick?",
                                  "Who is the company secretary at Paws Veterinary Group?",
                                  "Who founded Paws Veterinary Group and when was the company founded?"])
def test_the_class_noun_that_a_name_or_a_description_follows_points_at_nothing(kg, text):
    s = session(kg)
    assert not [m for m in detect(text, label_index(s.ctx)) if m.kind == "definite"]


@pytest.mark.parametrize(("text", "noun", "points"), [
    ("When did the airport open?", "airport", True), ("When was the company founded?", "company", True),
    ("How many seats does the hall have?", "hall", True), ("Who conducts the orchestra?", "orchestra", True),
    ("What is the airline's fleet size?", "airline", True), ("Who is the station manager at Ayr?", "station", False),
    ("Who was the flight director of Lumen-1?", "flight", False), ("Where is the city of Leeds?", "city", False),
    ("When was that airline founded", "airline", True)])
def test_a_class_noun_after_the_points_back_only_where_its_noun_phrase_ends(text, noun, points):
    end = text.index(" " + noun + " ") + 1 + len(noun) if " " + noun + " " in text else text.index(noun) + len(noun)
    start = text.rfind(" ", 0, end - len(noun) - 1) + 1
    assert points_back(text, start, end) is points
