"""A claim naming two things the KG joins, read against the relations those things have rather
than one fixed score: the joining relation, ahead of the others for the claim's words, supports
it; another relation of theirs, clearly ahead and holding one other value of the same kind,
contradicts it; a word opposite to the label ("died" against "place of birth") never supports,
nor does the sentence encoder alone where other relations of the kind could be meant. Small KGs
of a shipping line and a theatre, with their own predicate names."""

from __future__ import annotations

import numpy as np
import pytest

from engine.factcheck import check_reply
from engine.factcheck.ranked import fit, opposite
from engine.factcheck.verify import Verifier
from engine.lexicon import lexicon
from tests.support.kb import checks_of, from_turtle

needs_wordnet = pytest.mark.skipif(lexicon() is None, reason="WordNet 3.0 is not installed (make wordnet)")

SHIPS = """
@prefix s: <http://fleet.example/def/> .
@prefix f: <http://fleet.example/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
s:captain rdfs:label "captain" . s:crewMember rdfs:label "crew member" . s:birthPlace rdfs:label "place of birth" .
s:employer rdfs:label "employer" . s:ceo rdfs:label "chief executive officer" . s:homePort rdfs:label "home port" .
s:Ship rdfs:label "ship" . s:Person rdfs:label "person" . s:Company rdfs:label "shipping company" . s:Port rdfs:label "port" .
f:gannet a s:Ship ; rdfs:label "Northern Gannet" ; s:captain f:ingrid ; s:crewMember f:tomas ; s:homePort f:ellery .
f:ingrid a s:Person ; rdfs:label "Ingrid Solheim" ; s:birthPlace f:ellery .
f:tomas a s:Person ; rdfs:label "Tomas Reyes" ; s:employer f:fjord .
f:maren a s:Person ; rdfs:label "Maren Dahl" .
f:fjord a s:Company ; rdfs:label "Blue Fjord Lines" ; s:ceo f:maren .
f:ellery a s:Port ; rdfs:label "Port Ellery" .
"""

PLAYS = """
@prefix t: <http://stage.example/def/> .
@prefix p: <http://stage.example/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
t:playwright rdfs:label "playwright" . t:director rdfs:label "director" . t:castMember rdfs:label "cast member" .
t:Play rdfs:label "play" . t:Person rdfs:label "person" .
p:salt a t:Play ; rdfs:label "Salt and Ember" ; t:playwright p:caspar ; t:director p:odile ; t:castMember p:nina .
p:odile a t:Person ; rdfs:label "Odile Ferrand" .
p:caspar a t:Person ; rdfs:label "Caspar Whitlow" .
p:nina a t:Person ; rdfs:label "Nina Albescu" .
"""


@pytest.fixture(scope="module")
def ships(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("ships"), SHIPS)


@pytest.fixture(scope="module")
def plays(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("plays"), PLAYS)


def verdict(kb, claim: str, encoder=None) -> tuple[str, str]:
    checks = checks_of(kb, claim) if encoder is None else check_reply(
        claim, Verifier(kb[0], kb[1], relation_encoder=encoder))
    assert len(checks) == 1, [c.claim for c in checks]
    return str(checks[0].verdict), checks[0].reason


@needs_wordnet
def test_a_verb_for_the_joining_relation_in_other_words_supports_it(ships):
    said, reason = verdict(ships, "Blue Fjord Lines is headed by Maren Dahl.")
    assert said == "supported", reason
    assert "chief executive officer" in reason


@needs_wordnet
def test_another_relation_clearly_ahead_with_one_other_value_contradicts(ships):
    # Tomas works for the line (its employee), and "headed" says its chief executive: Maren Dahl
    said, reason = verdict(ships, "Blue Fjord Lines is headed by Tomas Reyes.")
    assert said == "contradicted", reason
    assert "Maren Dahl" in reason


@needs_wordnet
def test_a_word_opposite_to_the_label_never_supports_nor_contradicts(ships):
    # the KG has where she was born, not where she died
    assert verdict(ships, "Ingrid Solheim died in Port Ellery.")[0] == "nei"
    assert verdict(ships, "Tomas Reyes died in Port Ellery.")[0] == "nei"


@needs_wordnet
def test_words_of_a_relation_no_one_has_support_nothing(ships):
    for claim in ("Tomas Reyes founded Blue Fjord Lines.", "Tomas Reyes owns the Northern Gannet.",
                  "Maren Dahl sold Blue Fjord Lines."):
        assert verdict(ships, claim)[0] != "supported", claim


class NearDirector:
    """A stand-in sentence encoder that puts "acted" (and every label of a director) on one side,
    all else on the other, as a short phrase's encoding may."""

    def encode(self, texts):
        return np.array([[1.0, 0.0] if ("act" in t or "director" in t) else [0.0, 1.0] for t in texts])


def test_the_encoder_alone_does_not_pick_among_relations_of_one_kind(plays):
    # a play has three relations to people; an encoder that reads "acted" as "director" is not
    # enough to support, or contradict, a claim of which of them joins the two
    said, reason = verdict(plays, "Odile Ferrand acted in Salt and Ember.", NearDirector())
    assert said == "nei", reason
    said, reason = verdict(plays, "Nina Albescu acted in Salt and Ember.", NearDirector())
    assert said != "contradicted", reason


@needs_wordnet
def test_fit_and_opposites_are_read_from_wordnet():
    assert fit("headed", "chief executive officer") > fit("headed", "employer")
    assert fit("founded", "employer") == 0.0
    assert opposite("died", "place of birth") and not opposite("born", "place of birth")


@needs_wordnet
def test_a_verb_naming_no_event_reads_as_the_one_relation_the_graph_leaves(ships):
    # no word of "home port", nor WordNet, says "sails out of"; the ship's only relation to a
    # port, and the port's only one to a ship, is what it can mean
    said, reason = verdict(ships, "The Northern Gannet sails out of Port Ellery.")
    assert said == "supported", reason
    assert "home port" in reason


@needs_wordnet
def test_an_event_or_a_role_the_graph_lacks_is_no_reading_of_its_one_relation(ships):
    # selling, founding: events the KG would record under relations of their own; a treasurer
    # is a role no label names; the ship has two relations to people, so "sails with" decides none
    for claim in ("Tomas Reyes sold Blue Fjord Lines.", "Tomas Reyes is the treasurer of Blue Fjord Lines.",
                  "Maren Dahl sails with the Northern Gannet."):
        assert verdict(ships, claim)[0] == "nei", claim


HIVES = """
@prefix b: <http://hives.example/def/> .
@prefix h: <http://hives.example/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
b:beekeeper rdfs:label "beekeeper" . b:hives rdfs:label "number of hives" . b:owner rdfs:label "operated by" .
b:Apiary rdfs:label "apiary" . b:Person rdfs:label "person" . b:Coop rdfs:label "cooperative" .
h:gorse a b:Apiary ; rdfs:label "Gorse Bank Apiary" ; b:beekeeper h:wenna ; b:hives 18 ; b:owner h:coop .
h:wenna a b:Person ; rdfs:label "Wenna Trelawny" .
h:coop a b:Coop ; rdfs:label "Heatherfold Cooperative" .
"""


@needs_wordnet
def test_a_verb_for_the_one_relation_beside_values_and_other_kinds(tmp_path):
    # the apiary's count of hives (a value) and its operator (a body, not a person) are no reading
    # of what a person does there
    kb = from_turtle(tmp_path, HIVES)
    said, reason = verdict(kb, "Wenna Trelawny looks after Gorse Bank Apiary.")
    assert said == "supported" and "beekeeper" in reason, reason
    assert verdict(kb, "Wenna Trelawny sold Gorse Bank Apiary.")[0] == "nei"



MEETINGS = """
@prefix o: <http://office.example/def/> .
@prefix x: <http://office.example/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
o:office rdfs:label "office" . o:organizer rdfs:label "organized by" . o:room rdfs:label "held in" .
o:Room rdfs:label "room" . o:Person rdfs:label "person" . o:Meeting rdfs:label "meeting" .
x:mark a o:Person ; rdfs:label "Mark Taylor" ; o:office x:o359 .
x:review a o:Meeting ; rdfs:label "Design Review" ; o:organizer x:mark ; o:room x:beta .
x:o359 a o:Room ; rdfs:label "Office 359" .
x:beta a o:Room ; rdfs:label "Meeting Room Beta" .
"""


@needs_wordnet
def test_a_described_subject_is_no_reading_of_the_one_relation_of_the_name_in_it(tmp_path):
    # the subject is the meeting Mark Taylor organizes, not Mark Taylor: his one relation to a
    # room (his office) says nothing of where it is held
    kb = from_turtle(tmp_path, MEETINGS)
    said, reason = verdict(kb, "The meeting Mark Taylor organizes is held in Office 359.")
    assert said != "supported", reason
