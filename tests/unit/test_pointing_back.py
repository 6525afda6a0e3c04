"""What "those <class>", "the two <class>" and "that <noun>" take up after a reply, on a small
observatory KG: the things of that class the reply listed (not an operator whose name holds the
same word), a thing whose class only a relation's range gives, and the thing a question asked
for, called by the relation it asked."""

from __future__ import annotations

import pytest

from engine.config import Config
from engine.session import Session

O = "http://example.org/observatory/"
KG = f"""@prefix o: <{O}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
o:Telescope rdfs:label "telescope" . o:Operator rdfs:label "operator" . o:Dome rdfs:label "observing dome" .
o:operatedBy rdfs:label "operated by" . o:housedIn rdfs:label "housed in" ; rdfs:range o:Dome .
o:engineer rdfs:label "chief engineer" . o:firstLight rdfs:label "first light" . o:built rdfs:label "year built" .
o:born rdfs:label "year of birth" .
o:trust a o:Operator ; rdfs:label "Northfell Telescopes Trust" ; o:built "1950"^^xsd:gYear .
o:kestrel a o:Telescope ; rdfs:label "Kestrel Reflector" ; o:operatedBy o:trust ; o:firstLight "1961"^^xsd:gYear ;
    o:housedIn o:westdome ; o:engineer o:ilse .
o:merlin a o:Telescope ; rdfs:label "Merlin Refractor" ; o:operatedBy o:trust ; o:firstLight "1978"^^xsd:gYear ;
    o:housedIn o:eastdome .
o:westdome rdfs:label "West Cupola" ; o:built "1959"^^xsd:gYear .
o:eastdome rdfs:label "Copper Cupola" ; o:built "1976"^^xsd:gYear .
o:ilse rdfs:label "Ilse Marwick" ; o:born "1931"^^xsd:gYear .
"""


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    path = tmp_path_factory.mktemp("observatory") / "kg.ttl"
    path.write_text(KG, encoding="utf-8")
    return str(path)


def follow_up(kg: str, question: str, reply: str, turn: str):
    s = Session.open(Config(kg=[kg], memory=True, demo="none", reason_timeout_ms=20000))
    s.user_turn(question, answer=False)
    s.system_turn(reply)
    return s.user_turn(turn, answer=False).mentions


@pytest.mark.parametrize("turn,said", [("When did those telescopes see first light?", "those telescopes"),
                                       ("When did the two telescopes see first light?", "the two telescopes")])
def test_a_plural_class_noun_takes_up_the_things_of_that_class_the_reply_listed(kg, turn, said):
    mentions = follow_up(kg, "Which telescopes does Northfell Telescopes Trust operate?",
                         "Northfell Telescopes Trust operates the Kestrel Reflector and the Merlin Refractor.", turn)
    m = next(m for m in mentions if m.text == said)
    assert sorted(m.together) == [O + "kestrel", O + "merlin"]


def test_that_class_takes_up_a_thing_only_a_relations_range_says_is_one(kg):
    # nothing types the West Cupola; "housed in" ranges over observing domes
    mentions = follow_up(kg, "Where is the Kestrel Reflector housed?", "It is housed in the West Cupola.",
                         "When was that dome built?")
    assert next(m for m in mentions if m.text == "that dome").entity == O + "westdome"


def test_that_noun_of_the_relation_asked_takes_up_its_answer(kg):
    mentions = follow_up(kg, "Who is the chief engineer of the Kestrel Reflector?",
                         "The chief engineer is Ilse Marwick.", "When was that engineer born?")
    assert next(m for m in mentions if m.text == "that engineer").entity == O + "ilse"


LIGHT = """@prefix o: <http://example.org/lights/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
o:Keeper rdfs:label "lighthouse keeper" . o:Light rdfs:label "lighthouse" .
o:keeper rdfs:label "keeper" . o:born rdfs:label "year of birth" . o:gender rdfs:label "gender" .
o:rock a o:Light ; rdfs:label "Skerrymore Light" ; o:keeper o:zora, o:bram .
o:zora a o:Keeper ; rdfs:label "Zora Quill" ; o:gender "female" ; o:born 1950 .
o:bram a o:Keeper ; rdfs:label "Bram Oyelaran" ; o:born 1948 .
"""


def test_she_is_the_one_the_kg_calls_a_woman_not_one_whose_gender_it_does_not_say(tmp_path):
    # a tie between the two would go to Bram, whose IRI sorts first
    path = tmp_path / "lights.ttl"
    path.write_text(LIGHT, encoding="utf-8")
    mentions = follow_up(str(path), "Who kept Skerrymore Light?", "Bram Oyelaran and Zora Quill kept it.",
                         "When was she born?")
    assert next(m for m in mentions if m.text == "she").entity == "http://example.org/lights/zora"
