"""Claims whose verb names the relation the KG links their two things by, or another one: the
checker supports the first kind only where the relation matcher reads the verb as the label
(its own words, WordNet's derived words and more general verbs), and never the second. Small KGs
of breweries, ferries, concerts, hospitals, bridges, bakeries, books and plays.

The "way of doing" claims it still leaves "not enough info" are marked: neither WordNet (synonyms,
derived words, hypernym chains up to three verbs deep, path length between the words) nor the
shipped sentence encoder (cosine of the words, of the masked sentences, or the label ranked first
of the KG's by a margin) tells them apart from the claims of another relation below; each rule
tried supported some of those (a sale read as the owner, a star as the director)."""

from __future__ import annotations

import pytest

from engine.lexicon import lexicon
from tests.support.kb import checks_of, from_turtle

needs_wordnet = pytest.mark.skipif(lexicon() is None, reason="WordNet 3.0 is not installed (make wordnet)")

KG = """
@prefix x: <http://ways.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
x:producer rdfs:label "producer" . x:ingredient rdfs:label "ingredient" . x:abv rdfs:label "alcohol by volume" .
x:departurePort rdfs:label "departure port" . x:destinationPort rdfs:label "destination port" .
x:operator rdfs:label "operator" . x:composer rdfs:label "composer" . x:premiere rdfs:label "premiere venue" .
x:conductor rdfs:label "conductor" . x:employer rdfs:label "employer" . x:specialty rdfs:label "specialty" .
x:birthPlace rdfs:label "birth place" . x:architect rdfs:label "architect" . x:crosses rdfs:label "crosses" .
x:owner rdfs:label "owner" . x:translator rdfs:label "translator" . x:author rdfs:label "author" .
x:venue rdfs:label "venue" . x:director rdfs:label "director" .
x:ale rdfs:label "Harbour Ale" ; x:producer x:saltmarsh ; x:ingredient x:cascade ; x:abv "4.2" .
x:saltmarsh rdfs:label "Saltmarsh Brewery" . x:cascade rdfs:label "Cascade hops" .
x:ferry rdfs:label "Morning Star ferry" ; x:departurePort x:portree ; x:destinationPort x:uig ; x:operator x:isles .
x:portree rdfs:label "Portree" . x:uig rdfs:label "Uig" . x:isles rdfs:label "Isles Shipping" .
x:sym rdfs:label "Tidal Symphony" ; x:composer x:ada ; x:premiere x:hall .
x:ada rdfs:label "Ada Lind" . x:hall rdfs:label "Granite Hall" .
x:orch rdfs:label "Lindholm Orchestra" ; x:conductor x:ivo . x:ivo rdfs:label "Ivo Berg" .
x:okafor rdfs:label "Nkem Okafor" ; x:employer x:brigid ; x:specialty x:cardio ; x:birthPlace x:lagos .
x:brigid rdfs:label "St Brigid Hospital" . x:cardio rdfs:label "cardiology" . x:lagos rdfs:label "Lagos" .
x:bridge rdfs:label "Kelp Bridge" ; x:architect x:mara ; x:crosses x:river .
x:mara rdfs:label "Mara Quist" . x:river rdfs:label "River Dee" .
x:bakery rdfs:label "Lantern Bakery" ; x:owner x:tomas . x:tomas rdfs:label "Tomas Reyes" .
x:novel rdfs:label "The Salt Road" ; x:translator x:pia ; x:author x:jon .
x:pia rdfs:label "Pia Holm" . x:jon rdfs:label "Jon Vik" .
x:play rdfs:label "Night Harbour" ; x:venue x:corn ; x:director x:lea .
x:corn rdfs:label "Corn Exchange" . x:lea rdfs:label "Lea Marsh" .
"""

WAYS = [
    "Harbour Ale contains Cascade hops.",
    "The Morning Star ferry is run by Isles Shipping.",
    "The Tidal Symphony was written by Ada Lind.",
    "The Tidal Symphony premiered at Granite Hall.",
    "The Lindholm Orchestra is led by Ivo Berg.",
    "Nkem Okafor works at St Brigid Hospital.",
    "The Kelp Bridge was designed by Mara Quist.",
    "The Salt Road was translated by Pia Holm.",
    "Night Harbour was directed by Lea Marsh.",
    "The Kelp Bridge spans the River Dee.",
    "The Morning Star ferry sails from Portree.",
    "The Morning Star ferry sails to Uig.",
]
WAYS_NOT_READ = [
    "Harbour Ale is brewed by Saltmarsh Brewery.",
    "Harbour Ale is brewed with Cascade hops.",
    "The Lantern Bakery belongs to Tomas Reyes.",
    "Night Harbour was staged at the Corn Exchange.",
]
OTHER_RELATIONS = [
    "Harbour Ale was bought by Saltmarsh Brewery.",
    "Saltmarsh Brewery sold Harbour Ale.",
    "The Morning Star ferry was built in Portree.",
    "The Morning Star ferry sank near Uig.",
    "The Morning Star ferry was insured by Isles Shipping.",
    "The Tidal Symphony was performed by Ada Lind.",
    "The Tidal Symphony was recorded at Granite Hall.",
    "Ivo Berg founded the Lindholm Orchestra.",
    "Nkem Okafor was treated at St Brigid Hospital.",
    "Mara Quist demolished the Kelp Bridge.",
    "Tomas Reyes sold the Lantern Bakery.",
    "Pia Holm reviewed The Salt Road.",
    "Night Harbour was banned at the Corn Exchange.",
    "Lea Marsh starred in Night Harbour.",
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("ways"), KG)


def verdicts(kb, claim: str) -> list[str]:
    return [str(c.verdict) for c in checks_of(kb, claim)]


@needs_wordnet
@pytest.mark.parametrize("claim", WAYS)
def test_a_verb_that_names_the_relation_supports_it(kb, claim):
    assert verdicts(kb, claim) == ["supported"]


@pytest.mark.xfail(strict=True, reason="no general reading of these verbs as the label found (module docstring)")
@pytest.mark.parametrize("claim", WAYS_NOT_READ)
def test_a_verb_that_names_a_way_of_the_relation_not_read_yet(kb, claim):
    assert verdicts(kb, claim) == ["supported"]


@pytest.mark.parametrize("claim", OTHER_RELATIONS)
def test_a_verb_of_another_relation_between_the_same_things_is_never_support(kb, claim):
    said = verdicts(kb, claim)
    assert "supported" not in said, said
