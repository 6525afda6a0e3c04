"""Computed claims as kgchat's realizer says them (a comparison, a superlative, a tie, a count, a
lack, an open-world "does not list"), judged by computing them again over small KGs of domains the
dev sets do not have: supported when the graph holds them, contradicted when it says otherwise.
Also a bound on one relation of several dates, and the chain sentence of an action relation."""

from __future__ import annotations

from datetime import datetime

import pytest

from engine.nlp.realize import Said, counted, graded_head, not_listed
from engine.stages.answer.paths import Labels, path_sentence
from engine.state import PathStep, RelationPath, TurnState
from kgstore.terms import Fact
from tests.support.kb import checks_of, from_turtle

SHIPS = """
@prefix s: <http://ships.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
s:Ship rdfs:label "ship" .
s:Shipyard rdfs:label "shipyard" .
s:launchYear rdfs:label "launch year" .
s:lengthMetres rdfs:label "length metres" .
s:crewSize rdfs:label "crew size" .
s:builtBy rdfs:label "built by" .
s:portOfCall rdfs:label "port of call" .
s:aurora rdfs:label "Aurora" ; rdf:type s:Ship ; s:launchYear 1901 ; s:lengthMetres 120 ; s:crewSize 40 ;
    s:builtBy s:harland ; s:portOfCall s:oslo, s:bergen, s:hull .
s:borealis rdfs:label "Borealis" ; rdf:type s:Ship ; s:launchYear 1895 ; s:lengthMetres 95 ; s:crewSize 40 ;
    s:builtBy s:harland ; s:portOfCall s:oslo .
s:cassiopeia rdfs:label "Cassiopeia" ; rdf:type s:Ship ; s:launchYear 1910 ; s:lengthMetres 150 ; s:crewSize 55 ;
    s:builtBy s:kestrel ; s:portOfCall s:hull, s:bergen .
s:dorado rdfs:label "Dorado" ; rdf:type s:Ship ; s:launchYear 1899 ; s:crewSize 30 ; s:builtBy s:harland .
s:ShipModel rdfs:label "ship model" .
s:kit rdfs:label "Aurora Kit" ; rdf:type s:ShipModel ; s:builtBy s:harland .
s:harland rdfs:label "Harland Yard" ; rdf:type s:Shipyard .
s:kestrel rdfs:label "Kestrel Yard" ; rdf:type s:Shipyard .
s:oslo rdfs:label "Oslo" . s:bergen rdfs:label "Bergen" . s:hull rdfs:label "Hull" .
"""

# Painters with a date of birth and a date of death: a bound on one is no bound on the other.
PAINTERS = """
@prefix p: <http://painters.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
p:born rdfs:label "date of birth" .
p:died rdfs:label "date of death" .
p:popularizedBy rdfs:label "popularized by" .
p:birthYear rdfs:label "birth year" .
p:vela rdfs:label "Ines Vela" ; p:born "1871-04-02"^^xsd:date ; p:died "1934-09-12"^^xsd:date .
p:oran rdfs:label "Tomas Oran" ; p:born "1889-11-20"^^xsd:date ; p:died "1950-01-05"^^xsd:date .
"""

CLAIMS = [
    ("Borealis is older: Borealis's launch year is 1895; Aurora's launch year is 1901.", "supported"),
    # a noun no label says ("people"): the one relation holding a count
    ("Cassiopeia has the most people.", "supported"),
    ("Dorado has the most people.", "contradicted"),
    ("Borealis is older; Borealis's launch year is 1895; Aurora's launch year is 1901.", "supported"),
    ("Aurora is older; Aurora's launch year is 1901; Borealis's launch year is 1895.", "contradicted"),
    ("Aurora is older: Aurora's launch year is 1901; Borealis's launch year is 1895.", "contradicted"),
    ("Borealis is first: Borealis's launch year is 1895; Aurora's launch year is 1901.", "supported"),
    ("Aurora is first: Aurora's launch year is 1901; Borealis's launch year is 1895.", "contradicted"),
    ("Cassiopeia is the most recent: Cassiopeia's launch year is 1910; next is Aurora.", "supported"),
    ("Cassiopeia is the longest: Cassiopeia's length metres is 150; next is Aurora.", "supported"),
    ("Aurora is the longest: Aurora's length metres is 120.", "contradicted"),
    ("Cassiopeia is the longest: Cassiopeia's length metres is 150; next is Borealis.", "contradicted"),
    ("Aurora has the most ports of call: Aurora's ports of call are Oslo, Bergen and Hull.", "supported"),
    ("Borealis has the most ports of call.", "contradicted"),
    ("Dorado has the fewest crew size.", "supported"),
    ("Aurora and Borealis are tied: Aurora's crew size is 40; Borealis's crew size is 40.", "supported"),
    ("Aurora and Dorado are tied: Aurora's crew size is 40; Dorado's crew size is 30.", "contradicted"),
    ("Aurora and Borealis are tied for the most crew size.", "contradicted"),
    ("3 ships are built by Harland Yard.", "supported"),
    ("4 ships are built by Harland Yard.", "contradicted"),
    ("Oslo is the port of call of 2 ships.", "supported"),
    ("1 of the 4 have no length metres: Dorado.", "supported"),
    ("1 of the 4 have no length metres: Aurora.", "contradicted"),
    ("The KG has no length for Dorado.", "supported"),
    ("The KG has no length for Aurora.", "contradicted"),
    ("The KG does not list Dorado among those port of call Oslo.", "supported"),
    ("The KG does not list Aurora among those port of call Oslo.", "contradicted"),
    # a comparison with "than", as a model writes one: the thing after it is the rival
    ("Borealis is older than Aurora.", "supported"),
    ("Aurora is older than Borealis.", "contradicted"),
    ("Cassiopeia is longer than Aurora.", "supported"),
    ("Aurora is longer than Cassiopeia.", "contradicted"),
    ("Aurora has more ports of call than Borealis.", "supported"),
    ("Borealis has more ports of call than Cassiopeia.", "contradicted"),
    ("Cassiopeia visits more ports than Borealis.", "supported"),
]


@pytest.fixture(scope="module")
def ships(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("ships"), SHIPS)


@pytest.fixture(scope="module")
def painters(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("painters"), PAINTERS)


@pytest.mark.parametrize("reply, verdict", CLAIMS)
def test_a_computed_claim_is_computed_again(ships, reply: str, verdict: str) -> None:
    got = checks_of(ships, reply)
    verdicts = {str(c.verdict) for c in got}
    # a right one is supported in every claim; a wrong one is contradicted, never let through
    assert verdicts == {"supported"} if verdict == "supported" else "contradicted" in verdicts, \
        [(c.claim, str(c.verdict), c.reason) for c in got]


def test_the_realizer_says_computed_answers_the_checker_supports(ships) -> None:
    built = Said("Harland Yard", "built by", ("Aurora", "Borealis", "Dorado"), forward=False)
    calls = Said("Oslo", "port of call", ("Aurora", "Borealis"), forward=False)
    replies = [counted(3, "ships", built), not_listed("Dorado", calls),
               graded_head(("Aurora", "Borealis"), "older") + ": Aurora's crew size is 40; Borealis's crew size is 40."]
    for reply in replies:
        got = checks_of(ships, reply)
        assert got and all(str(c.verdict) == "supported" for c in got), [(c.claim, str(c.verdict), c.reason) for c in got]


def test_a_bound_is_judged_on_the_relation_the_claim_states(painters) -> None:
    right = checks_of(painters, "Ines Vela and Tomas Oran have a date of birth before 1900.")
    assert [str(c.verdict) for c in right] == ["supported", "supported"]
    wrong = checks_of(painters, "Ines Vela has a date of birth after 1900.")
    assert [str(c.verdict) for c in wrong] == ["contradicted"]


def test_a_chain_through_an_action_relation_says_the_hop_as_a_clause() -> None:
    ex = "http://dishes.example/"
    chains = [[Fact(ex + "laksa", ex + "popularizedBy", ex + "mira"), Fact(ex + "mira", ex + "hometown", ex + "penang")],
              [Fact(ex + "laksa", ex + "popularizedBy", ex + "jon"), Fact(ex + "jon", ex + "hometown", ex + "ipoh")]]
    path = RelationPath(ex + "laksa", "Laksa", [PathStep(ex + "popularizedBy", "popularized by"),
                                                PathStep(ex + "hometown", "hometown")], 1.0, chains=chains, total=2)
    labels = Labels(TurnState("s", 1, "Where are the people who popularized Laksa from?", datetime(2026, 1, 5)), None)
    labels.known.update({ex + "laksa": "Laksa", ex + "mira": "Mira Tan", ex + "jon": "Jon Lee",
                         ex + "penang": "Penang", ex + "ipoh": "Ipoh", ex + "popularizedBy": "popularized by",
                         ex + "hometown": "hometown"})
    said = path_sentence(path, labels)
    assert "popularized by's" not in said
    assert "Mira Tan's hometown is Penang" in said and "Jon Lee's hometown is Ipoh" in said


CHOIR = """
@prefix c: <http://choir.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
c:member rdfs:label "members" . c:memberOf rdfs:label "member of" .
c:fenwick rdfs:label "Fenwick Singers" ; c:member c:ada, c:bo, c:cy .
c:ada rdfs:label "Ada Lund" ; c:memberOf c:fenwick . c:bo rdfs:label "Bo Vik" ; c:memberOf c:fenwick .
c:cy rdfs:label "Cy Holm" ; c:memberOf c:fenwick .
"""


def test_a_count_of_a_relation_the_kg_states_from_both_sides_is_counted_once(tmp_path) -> None:
    choir = from_turtle(tmp_path, CHOIR)
    text = counted(3, "members", Said("Fenwick Singers", "members", ("Ada Lund", "Bo Vik", "Cy Holm")))
    assert text.startswith("Fenwick Singers has 3 members.")
    assert {str(c.verdict) for c in checks_of(choir, text)} == {"supported"}
    assert [str(c.verdict) for c in checks_of(choir, "Fenwick Singers has 4 members.")] == ["contradicted"]
