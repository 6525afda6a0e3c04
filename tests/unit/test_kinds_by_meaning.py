"""A class the KG names in its own words holds people when WordNet says its noun is a kind of
person ("playwright", "vintner"), though nothing else about its members tells: "he" can take up
one of them. Without WordNet the class stays a thing and kgchat still runs."""

from __future__ import annotations

import pytest

from engine.config import Config
from engine.lexicon import lexicon
from engine.session import Session

T = "http://example.org/stage/"
STAGE = f"""@prefix t: <{T}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
t:Playwright rdfs:label "playwright" . t:Production rdfs:label "production" .
t:writtenBy rdfs:label "written by" . t:bornIn rdfs:label "born in" . t:stagedAt rdfs:label "staged at" .
t:lanterns a t:Production ; rdfs:label "Paper Lanterns" ; t:writtenBy t:rafe ; t:stagedAt t:kiln .
t:rafe a t:Playwright ; rdfs:label "Rafe Okonkwo" ; t:bornIn t:lagos .
t:lagos rdfs:label "Lagos" . t:kiln rdfs:label "Kiln Playhouse" .
"""


@pytest.mark.skipif(lexicon() is None, reason="WordNet 3.0 is not installed (make wordnet)")
def test_he_takes_up_a_member_of_a_class_whose_noun_names_people(tmp_path):
    kg = tmp_path / "stage.ttl"
    kg.write_text(STAGE, encoding="utf-8")
    s = Session.open(Config(kg=[str(kg)], memory=True, demo="none", reason_timeout_ms=20000))
    s.user_turn("Who wrote Paper Lanterns?", answer=False)
    s.system_turn("Paper Lanterns is written by Rafe Okonkwo.")
    state = s.user_turn("Where was he born?", answer=False)
    assert next(m for m in state.mentions if m.text == "he").entity == T + "rafe"
