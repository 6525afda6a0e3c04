"""Claims about two things the KG has, joined in the KG by another relation than the one the
claim states: the verdict is "not enough info", and the reason says that the KG has both and
names the relation it does have between them (never "the KG has nothing on" them). A verb of a
relation whose values are dates or numbers ("founded" of a founding year), said with no such
value, is the claim's word for how its two things are joined. One small KG of a rowing club,
with its own predicate names."""

from __future__ import annotations

import pytest

from tests.support.kb import checks_of, from_turtle

CLUB = """
@prefix c: <http://club.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
c:rowsFor rdfs:label "rows for" .
c:chairperson rdfs:label "chairperson" .
c:foundingYear rdfs:label "founding year" .
c:boathouse rdfs:label "boathouse" .
c:club rdfs:label "Kelp Harbour Rowing Club" ; c:chairperson c:ines ; c:foundingYear "1921" ; c:boathouse c:shed .
c:ines rdfs:label "Ines Mora" .
c:tomas rdfs:label "Tomas Vik" ; c:rowsFor c:club .
c:shed rdfs:label "North Shed" .
"""


@pytest.fixture(scope="module")
def kg(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("club"), CLUB)


def check(kg, claim):
    checks = checks_of(kg, claim)
    assert len(checks) == 1, [c.claim for c in checks]
    return checks[0]


def test_another_relation_between_the_two_is_named_in_the_reason(kg):
    c = check(kg, "Tomas Vik sponsors Kelp Harbour Rowing Club.")
    assert str(c.verdict) == "nei"
    assert "nothing on" not in c.reason
    assert "rows for" in c.reason and "Tomas Vik" in c.reason


def test_a_date_relation_s_verb_without_a_date_is_no_licence_for_any_relation(kg):
    # "founded" is the club's founding year; said of a rower and the club, it is how they are joined
    c = check(kg, "Tomas Vik founded Kelp Harbour Rowing Club.")
    assert str(c.verdict) == "nei", c.reason
    assert "rows for" in c.reason


def test_the_relation_the_claim_states_still_supports_it(kg):
    assert str(check(kg, "Tomas Vik rows for Kelp Harbour Rowing Club.").verdict) == "supported"
    assert str(check(kg, "Kelp Harbour Rowing Club was founded in 1921.").verdict) == "supported"
    assert str(check(kg, "Kelp Harbour Rowing Club was founded in 1930.").verdict) == "contradicted"


TRAILS = """
@prefix t: <http://trails.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
t:trailhead rdfs:label "trailhead" .
t:warden rdfs:label "warden" .
t:crosses rdfs:label "crosses" .
t:salt rdfs:label "Salt Road" ; t:trailhead t:kell ; t:warden t:yara ; t:crosses t:moor .
t:kell rdfs:label "Kell Bridge" .
t:yara rdfs:label "Yara Osei" .
t:moor rdfs:label "Harrow Moor" .
t:ansel rdfs:label "Ansel Brook" .
"""


@pytest.fixture(scope="module")
def trails(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("trails"), TRAILS)


def test_the_reason_says_each_fact_the_kg_has_between_the_claims_things(trails):
    # three things, two facts between them: the reason says which relation joins which pair
    c = check(trails, "Yara Osei mapped Salt Road from Kell Bridge.")
    assert str(c.verdict) == "nei", c.reason
    assert "Salt Road — warden — Yara Osei" in c.reason, c.reason
    assert "Salt Road — trailhead — Kell Bridge" in c.reason, c.reason


def test_things_the_kg_never_joins_are_said_to_have_no_relation_at_all(trails):
    c = check(trails, "Ansel Brook mapped Harrow Moor.")
    assert str(c.verdict) == "nei", c.reason
    assert "nothing on" not in c.reason
    assert c.reason.endswith("no relation between them"), c.reason
