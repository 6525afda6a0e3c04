"""What "that <noun>" takes up when the noun is no class the KG names, or a more general one
than its class ("that tree" of a pear tree, "that company" of a corporation, "that firm" of an
orchard operator); codes said as a letter and a number, or ending in a letter ("ex twenty one",
"seven a"); a typed name beside a word only a class label has. A small orchard KG; the
questions run through the retrieval stages as in the app."""

from __future__ import annotations

import pytest

from engine.config import Config
from engine.lexicon import lexicon
from engine.nlp.mentions import LabelIndex, detect, detect_names
from engine.session import Session
from kgstore.terms import LabelEntry

O = "http://example.org/orchard/"
ORCHARD = f"""@prefix o: <{O}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
o:Orchard rdfs:label "orchard" . o:PearTree rdfs:label "pear tree" . o:Operator rdfs:label "orchard operator" .
o:Holding rdfs:label "holding company" . o:Corporation rdfs:label "corporation" . o:Grower rdfs:label "grower" .
o:managedBy rdfs:label "managed by" . o:ownedBy rdfs:label "owned by" . o:founded rdfs:label "founded" .
o:planted rdfs:label "planted" . o:grows rdfs:label "grows" . o:plantedBy rdfs:label "planted by" .
o:ridgeway a o:Orchard ; rdfs:label "Ridgeway Orchard" ; o:managedBy o:pippin ; o:ownedBy o:russet ;
    o:grows o:warden ; o:planted "1931"^^xsd:gYear .
o:pippin a o:Operator ; rdfs:label "Pippin Growers" ; o:founded "1988"^^xsd:gYear .
o:russet a o:Corporation ; rdfs:label "Russet Corporation" ; o:founded "1962"^^xsd:gYear .
o:bramley a o:Holding ; rdfs:label "Bramley Holdings" ; o:founded "1990"^^xsd:gYear .
o:warden a o:PearTree ; rdfs:label "Old Warden" ; o:planted "1921"^^xsd:gYear ; o:plantedBy o:quill .
o:quill a o:Grower ; rdfs:label "Ada Quill" .
"""
wordnet = pytest.mark.skipif(lexicon() is None, reason="WordNet is not installed")


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    path = tmp_path_factory.mktemp("orchard") / "kg.ttl"
    path.write_text(ORCHARD, encoding="utf-8")
    return str(path)


def referent(kg: str, question: str, reply: str, follow_up: str, said: str) -> str | None:
    """What `said` of the follow-up refers to after a question and a written reply."""
    s = Session.open(Config(kg=[kg], memory=True, demo="none", reason_timeout_ms=20000))
    s.user_turn(question, answer=False)
    s.system_turn(reply)
    state = s.user_turn(follow_up, answer=False)
    return next(m for m in state.mentions if m.text == said).entity


@wordnet
def test_a_noun_no_class_is_named_by_takes_up_what_the_reply_answered_with(kg):
    # "firm" is none of the KG's classes, nor what WordNet makes of "orchard operator"; the
    # orchard was asked about, and has no founding year
    assert referent(kg, "Who manages Ridgeway Orchard?", "Ridgeway Orchard is managed by Pippin Growers.",
                    "When was that firm founded?", "that firm") == O + "pippin"


@wordnet
def test_a_more_general_noun_than_the_class_takes_up_a_thing_of_that_class(kg):
    # a pear tree is a tree; Ada Quill, named by the reply, is none
    assert referent(kg, "Who planted Old Warden?", "Old Warden was planted by Ada Quill.",
                    "When was that tree planted?", "that tree") == O + "warden"


@wordnet
def test_a_class_ending_that_fits_nothing_spoken_of_gives_way_to_a_kindred_class(kg):
    # "company" ends the label "holding company" (Bramley Holdings, never spoken of); the
    # corporation the reply answered with is a company of a sort
    assert referent(kg, "Who owns Ridgeway Orchard?", "Ridgeway Orchard is owned by Russet Corporation.",
                    "Who founded that company?", "that company") == O + "russet"


@wordnet
@pytest.mark.parametrize("text", ["Who owns the company that runs Ridgeway Orchard?", "That works for me.",
                                  "Can we meet on that date?", "Is that way shorter?", "I know that Tom grows pears."])
def test_that_before_a_verb_a_name_or_an_abstract_noun_points_at_nothing(text):
    assert [m.text for m in detect(text, LabelIndex([])) if m.kind == "definite"] == []


@wordnet
def test_that_before_a_common_noun_points_back_at_a_person_or_a_thing():
    found = {m.text: m.value for m in detect("Did that woman sell that firm?", LabelIndex([]))}
    assert found == {"that woman": ("person",), "that firm": ("thing", "group", "room")}


CODES = LabelIndex([LabelEntry("Route X21", "b:x21"), LabelEntry("Route 7A", "b:7a"), LabelEntry("Route 54", "b:54")])


@pytest.mark.parametrize("heard, iri", [("who runs route ex twenty one", "b:x21"),
                                        ("where does route seven a end", "b:7a"),
                                        ("who runs route fifty four", "b:54")])
def test_a_code_said_as_a_letter_and_a_number_or_ending_in_a_letter(heard, iri):
    assert [m.candidates[0][0] for m in detect_names(heard, CODES)] == [iri]


def test_a_typed_name_that_goes_on_with_a_word_only_a_class_label_has_is_another_name():
    index = LabelIndex([LabelEntry("Mossgate Holdings", "v:mossgate"),
                        LabelEntry("Larchfield Veterinary Clinic", "v:larchfield"),
                        LabelEntry("veterinary clinic", "v:Clinic")], classes={"veterinary clinic": "v:Clinic"})
    assert "Mossgate" not in [m.text for m in detect_names("Who founded Mossgate Veterinary Group?", index)]
    assert [m.candidates[0][0] for m in detect_names("Who founded Mossgate Holdings?", index)] == ["v:mossgate"]
