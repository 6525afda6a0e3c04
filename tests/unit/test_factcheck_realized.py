"""Claims as kgchat's realizer says them, judged as the facts they say. A word of the relation
label a claim states is no class the claim puts a thing in: "Petrel 4's mission commander is
Mikael Strand" says nothing of the class "space mission" (small KGs of several domains, each with
a class whose name shares a word with one of its relations). A value the KG holds in words with an
"and" of its own is one value, not a list ("red and white")."""

from __future__ import annotations

import pytest

from tests.support.kb import checks_of, from_turtle

KGS = {
    "space": """
@prefix s: <http://space.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
s:SpaceMission rdfs:label "space mission" .
s:missionCommander rdfs:label "mission commander" .
s:launchSite rdfs:label "launch site" .
s:petrel rdfs:label "Petrel 4" ; rdf:type s:SpaceMission ; s:missionCommander s:mikael ; s:launchSite s:kiruna .
s:mikael rdfs:label "Mikael Strand" .
s:kiruna rdfs:label "Kiruna" .
""",
    "lab": """
@prefix l: <http://lab.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
l:Project rdfs:label "project" .
l:project_lead rdfs:label "project lead" .
l:funded_by rdfs:label "funded by" .
l:atlas rdfs:label "Atlas Survey" ; rdf:type l:Project ; l:project_lead l:ida ; l:funded_by l:fund .
l:ida rdfs:label "Ida Berg" .
l:fund rdfs:label "Nordic Science Fund" .
""",
    "museum": """
@prefix m: <http://museum.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
m:ArtExhibition rdfs:label "art exhibition" .
m:exhibitionCurator rdfs:label "exhibition curator" .
m:blue rdfs:label "Blue Hours" ; rdf:type m:ArtExhibition ; m:exhibitionCurator m:lea .
m:lea rdfs:label "Lea Moss" .
m:tom rdfs:label "Tom Vik" .
""",
    "clubs": """
@prefix c: <http://clubs.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
c:club_colours rdfs:label "club colours" .
c:hammarby rdfs:label "Hammarby IF" ; c:club_colours "green and white" .
""",
}

CLAIMS = [
    ("space", "Petrel 4's mission commander is Mikael Strand.", "supported"),
    ("space", "The mission commander of Petrel 4 is Mikael Strand.", "supported"),
    ("space", "Petrel 4 is a space mission.", "supported"),
    ("space", "Petrel 4's mission commander is Kiruna.", "contradicted"),
    ("museum", "Blue Hours's exhibition curator is Lea Moss.", "supported"),
    ("museum", "Blue Hours's exhibition curator is Tom Vik.", "contradicted"),
    ("clubs", "Hammarby IF's club colours are green and white.", "supported"),
    ("clubs", "Hammarby IF's club colours are blue.", "contradicted"),
    ("lab", "Atlas Survey's project lead is Ida Berg.", "supported"),
    ("lab", "Ida Berg is the project lead of Atlas Survey.", "supported"),
    ("lab", "Atlas Survey is a project.", "supported"),
]


@pytest.fixture(scope="module")
def kgs(tmp_path_factory):
    return {name: from_turtle(tmp_path_factory.mktemp(name), ttl) for name, ttl in KGS.items()}


@pytest.mark.parametrize("domain, claim, verdict", CLAIMS)
def test_a_realized_claim_is_judged_as_the_fact_it_says(kgs, domain: str, claim: str, verdict: str) -> None:
    assert [str(c.verdict) for c in checks_of(kgs[domain], claim)] == [verdict]
