"""A check a user can trust on a KG of its own: support needs the claim's relation, "only" is a
claim about the whole list, places contain places, claims reach a thing through a description,
units convert, partial lists are incomplete, and the user's words are no evidence for the KG's
world. One small orchestra KG with its own predicate names."""

from __future__ import annotations

import json

import pytest

from engine.factcheck import check_reply, scores
from engine.factcheck.lists import mark_incomplete
from engine.factcheck.split import split_claims
from engine.state import Check, Evidence, Verdict
from tests.support.kb import checks_of, from_turtle, verifier_of

ORCHESTRA = """
@prefix o: <http://orchestra.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
o:speaks rdfs:label "speaks" .
o:memberOf rdfs:label "member of" .
o:conductor rdfs:label "conductor" .
o:bornIn rdfs:label "born in" .
o:locatedIn rdfs:label "located in" .
o:durationMinutes rdfs:label "duration in minutes" .
o:hallLengthMetres rdfs:label "length in metres" .
o:composedBy rdfs:label "composed by" .
o:lena rdfs:label "Lena Holt" ; o:speaks o:danish, o:german ; o:memberOf o:nordic ; o:bornIn o:frb .
o:aksel rdfs:label "Aksel Berg" ; o:speaks o:danish ; o:bornIn o:aarhus .
o:mette rdfs:label "Mette Dahl" ; o:memberOf o:nordic ; o:bornIn o:aarhus .
o:founded rdfs:label "founded" .
o:mode rdfs:label "mode" .
o:nordic rdfs:label "Nordic Symphony" ; o:conductor o:aksel ; o:hallLengthMetres 1230 ; o:founded 1962 .
o:suite rdfs:label "Fjord Suite" ; o:durationMinutes 58 ; o:composedBy o:aksel ; o:mode "minor" .
o:saga rdfs:label "Harbour Saga" ; o:mode "major" .
o:danish rdfs:label "Danish" .
o:german rdfs:label "German" .
o:frb rdfs:label "Frederiksberg" ; o:locatedIn o:cph .
o:cph rdfs:label "Copenhagen" .
o:aarhus rdfs:label "Aarhus" .
"""


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("orchestra"), ORCHESTRA)


def verdicts(kg, reply, history=()):
    return [(c.claim, str(c.verdict)) for c in checks_of(kg, reply, history)]


def test_only_is_a_claim_about_the_whole_list(kg):
    assert verdicts(kg, "Lena Holt speaks only Danish.") == [("Lena Holt speaks only Danish.", "contradicted")]
    assert verdicts(kg, "Aksel Berg speaks only Danish.") == [("Aksel Berg speaks only Danish.", "supported")]
    assert verdicts(kg, "Lena Holt speaks Danish.") == [("Lena Holt speaks Danish.", "supported")]
    assert verdicts(kg, "Lena Holt speaks not only Danish.")[0][1] != "contradicted"


def test_support_needs_the_relation_the_claim_states(kg):
    # Lena is a member of the orchestra, not its conductor: that fact supports nothing here
    assert verdicts(kg, "The conductor of Nordic Symphony is Lena Holt.")[0][1] == "contradicted"
    # a relation the KG has for no one: another fact between the two makes it nei, never supported
    assert verdicts(kg, "The sponsor of Nordic Symphony is Lena Holt.")[0][1] == "nei"


def test_a_coarser_true_place_is_supported(kg):
    assert verdicts(kg, "Lena Holt was born in Copenhagen.") == [("Lena Holt was born in Copenhagen.", "supported")]
    assert verdicts(kg, "Lena Holt was born in Aarhus.")[0][1] == "contradicted"


def test_a_thing_given_by_a_description_is_reached_through_the_kg(kg):
    assert verdicts(kg, "The conductor of the orchestra Lena Holt belongs to is Aksel Berg.")[0][1] == "supported"
    assert verdicts(kg, "The composer of the Fjord Suite was born in Aarhus.")[0][1] == "supported"
    assert verdicts(kg, "The man who composed the Fjord Suite was born in Copenhagen.")[0][1] == "contradicted"


def test_units_convert_and_about_rounds_at_the_last_digit(kg):
    assert verdicts(kg, "The Fjord Suite lasts about an hour.")[0][1] == "supported"
    assert verdicts(kg, "The Fjord Suite lasts about two hours.")[0][1] == "contradicted"
    assert verdicts(kg, "The Fjord Suite lasts 58 minutes.")[0][1] == "supported"
    assert verdicts(kg, "Nordic Symphony's hall is about 1.2 km long.")[0][1] == "supported"


def test_a_value_the_kg_holds_in_words(kg):
    assert verdicts(kg, "The Fjord Suite's mode is minor.")[0][1] == "supported"
    assert verdicts(kg, "The Fjord Suite's mode is major.")[0][1] == "contradicted"


def test_a_place_or_a_year_of_another_relation_decides_nothing(kg):
    # born in Aarhus, no place of death: "died in Aarhus" is nei, not a birth place
    assert verdicts(kg, "Mette Dahl died in Aarhus.")[0][1] == "nei"
    # the one year the orchestra has is its founding: a prize year is not compared with it
    assert verdicts(kg, "Nordic Symphony won a prize in 1970.")[0][1] == "nei"
    assert verdicts(kg, "Nordic Symphony was founded in 1970.")[0][1] == "contradicted"
    assert verdicts(kg, "Nordic Symphony was founded in 1962.")[0][1] == "supported"


def test_what_the_user_said_is_no_evidence_for_the_kg(kg):
    history = [("user", "Was the Fjord Suite composed by Mette Dahl in Aarhus?")]
    got = verdicts(kg, "The Fjord Suite was composed in Aarhus.", history)
    assert got[0][1] == "nei"
    # what the user said of themselves still counts for a claim about them
    said = verdicts(kg, "You want to hear the Fjord Suite.", [("user", "I want to hear the Fjord Suite.")])
    assert said[0][1] == "supported"


def test_a_partial_list_is_incomplete_not_wrong(kg):
    v = verifier_of(kg)
    checks = check_reply("Lena Holt speaks Danish.", v)
    found = mark_incomplete(checks, v.kg)
    assert checks[0].verdict == Verdict.SUPPORTED
    assert found is not None and (found.named, found.total, found.missing) == (1, 2, ["German"])
    assert checks[0].incomplete is found
    assert scores(checks) == (1.0, 0.0)  # not a verdict: the scores do not see it
    full = check_reply("Lena Holt speaks Danish and German.", v)
    assert mark_incomplete(full, v.kg) is None


@pytest.mark.parametrize("reply, claims", [
    ("Aksel Berg conducts Nordic Symphony, I believe.", ["I believe Aksel Berg conducts Nordic Symphony."]),
    ("As far as I know, Lena Holt speaks Danish and she was born in Frederiksberg.",
     ["As far as I know, Lena Holt speaks Danish.", "As far as I know, she was born in Frederiksberg."]),
    ("I'm not completely sure, but I think Mette Dahl was born in Aarhus.",
     ["I'm not completely sure, but I think Mette Dahl was born in Aarhus."]),
    ("Copenhagen, Denmark's capital, is home to Lena Holt.",
     ["Copenhagen is home to Lena Holt.", "Copenhagen is Denmark's capital."]),
    ("Nordic Symphony, founded in 1962, is conducted by Aksel Berg.",
     ["Nordic Symphony is conducted by Aksel Berg.", "Nordic Symphony is founded in 1962."]),
    ("Lena Holt plays for Nordic Symphony as a violinist.",
     ["Lena Holt plays for Nordic Symphony.", "Lena Holt plays as a violinist."]),
    ("The Fjord Suite was composed by Aksel Berg and premiered in Aarhus.",
     ["The Fjord Suite was composed by Aksel Berg.", "The Fjord Suite premiered in Aarhus."]),
    ("The suite is performed as a finale.", ["The suite is performed as a finale."]),
])
def test_splitting_keeps_subjects_and_hedges(reply, claims):
    assert split_claims(reply) == claims


def test_a_hedged_claim_is_checked_as_stated(kg):
    assert verdicts(kg, "I think Mette Dahl was born in Copenhagen.")[0][1] == "contradicted"


def test_check_json_keeps_its_shape():
    c = Check("Lena Holt speaks Danish.", Verdict.SUPPORTED,
              Evidence(text="Lena Holt — speaks — Danish", source="kg", s="urn:a", p="urn:p", o="urn:b"))
    out = json.loads(json.dumps(c.to_json()))
    assert out["verdict"] == "supported" and set(out) == {"claim", "verdict", "evidence", "reason"}
    assert out["evidence"] == {"s": "urn:a", "p": "urn:p", "o": "urn:b", "text": "Lena Holt — speaks — Danish",
                               "source": "kg"}
    assert Check("x", Verdict.NEI).to_json()["evidence"] == {}


def test_seven_bare_digits_are_a_number_where_the_thing_holds_one_and_a_phone_where_it_holds_that(tmp_path):
    town = from_turtle(tmp_path, """@prefix t: <http://town.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
t:population rdfs:label "population" . t:phone rdfs:label "phone number" .
t:harwick rdfs:label "Harwick" ; t:population 3755251 .
t:office rdfs:label "Harwick Town Office" ; t:phone "5550142" .
""")
    assert verdicts(town, "Harwick has a population of 3755251.") == [
        ("Harwick has a population of 3755251.", "supported")]
    assert verdicts(town, "Harwick has a population of 3755250.")[0][1] == "contradicted"
    assert verdicts(town, "The phone number of Harwick Town Office is 5550142.")[0][1] == "supported"
