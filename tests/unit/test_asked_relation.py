"""A relation asked by a noun or a verb that the entity lacks is "not found", naming what the KG
has (engine/stages/answer/asked.py): near relations, another kind of the asked noun, and a
relation the KG lists only the other way round are no answer. Small KGs written for the test."""

from __future__ import annotations

import numpy as np
import pytest

from engine.config import Config
from engine.lexicon import lexicon
from engine.relations import RelationMatcher
from engine.session import Session
from engine.stages.answer.asked import Side, judge, right_side
from tests.support.fakes import ScriptedLLM
from tests.support.office import NOW

needs_wordnet = pytest.mark.skipif(lexicon() is None, reason="WordNet 3.0 is not installed (make wordnet)")


def session(path, turtle: str, reply: str) -> Session:
    path.write_text(turtle, encoding="utf-8")
    config = Config(kg=[str(path)], memory=True, demo="none", scorer="learned", now=NOW, reason_timeout_ms=60_000,
                    refine_steps=0)
    return Session.open(config, llm=ScriptedLLM([reply] * 12))


CLUBS = """
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:head rdfs:label "head coach" . ex:keeper rdfs:label "goalkeeping coach" . ex:captain rdfs:label "captain" .
ex:ground rdfs:label "home ground" .
ex:harrow rdfs:label "Harrowgate Athletic" ; ex:head ex:varga ; ex:captain ex:pryce ; ex:ground ex:millbrook .
ex:castle rdfs:label "Castleford Rovers" ; ex:head ex:okafor ; ex:keeper ex:melis ; ex:captain ex:whitlow .
ex:varga rdfs:label "Tomas Varga" . ex:pryce rdfs:label "Owen Pryce" . ex:okafor rdfs:label "Ruth Okafor" .
ex:melis rdfs:label "Dario Melis" . ex:whitlow rdfs:label "Jonas Whitlow" . ex:millbrook rdfs:label "Millbrook Park" .
"""


def test_another_kind_of_a_noun_the_kg_has_is_not_answered_by_a_near_relation(tmp_path):
    s = session(tmp_path / "clubs.ttl", CLUBS, "Jonas Whitlow.")
    # every coach of the KG is another kind: the captain, close in meaning, is no answer either
    state = s.user_turn("Who is the fitness coach of Castleford Rovers?")
    assert state.answer_source == "not_found" and "fitness coach" in state.shown_reply
    assert "Ruth Okafor" in state.shown_reply  # what it has: its head coach
    state = s.user_turn("Who is Harrowgate Athletic's goalkeeping coach?")
    assert state.answer_source == "not_found" and "Tomas Varga" in state.shown_reply
    # what the entity has is answered, in its words or in others
    for question, value in (("Who is the goalkeeping coach of Castleford Rovers?", "Dario Melis"),
                            ("Who is Castleford Rovers' captain?", "Jonas Whitlow"),
                            ("What is the home ground of Harrowgate Athletic?", "Millbrook Park")):
        state = s.user_turn(question)
        assert state.answer_source != "not_found" and value in state.shown_reply, question


def test_a_noun_no_label_of_the_kg_says_needs_a_relation_that_reads_like_it(tmp_path):
    s = session(tmp_path / "clubs.ttl", CLUBS, "Owen Pryce.")
    state = s.user_turn("Who is the club doctor of Harrowgate Athletic?")
    assert state.answer_source == "not_found" and "club doctor" in state.shown_reply
    assert "the knowledge graph" in state.composed.reason or "reads like" in state.composed.reason


FAMILY = """
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:hasChild rdfs:label "has child" . ex:spouse rdfs:label "spouse" .
ex:edmund rdfs:label "Edmund Harcourt" ; ex:hasChild ex:agnes , ex:walter ; ex:spouse ex:margaret .
ex:margaret rdfs:label "Margaret Lyle" ; ex:hasChild ex:agnes , ex:walter .
ex:agnes rdfs:label "Agnes Harcourt" ; ex:hasChild ex:clara .
ex:walter rdfs:label "Walter Harcourt" . ex:clara rdfs:label "Clara Bellamy" .
"""


@needs_wordnet
def test_a_relation_asked_from_the_side_the_kg_lacks_is_not_found_naming_the_other_side(tmp_path):
    s = session(tmp_path / "family.ttl", FAMILY, "Margaret Lyle.")
    for question in ("Who was Edmund Harcourt's father?", "Who was the mother of Margaret Lyle?"):
        state = s.user_turn(question)
        assert state.answer_source == "not_found", question
        assert "has child" in state.shown_reply and "Agnes Harcourt" in state.shown_reply  # what it has instead
        assert "other way round" in state.composed.reason
    # from the side the KG has, it answers, with that side alone
    state = s.user_turn("Who was Clara Bellamy's mother?")
    assert state.answer_source != "not_found" and "Agnes Harcourt" in state.shown_reply
    state = s.user_turn("Who was Agnes Harcourt's father?")
    assert "Edmund Harcourt" in state.shown_reply and "Clara" not in state.shown_reply


MISSIONS = """
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:op rdfs:label "operated by" . ex:hq rdfs:label "headquarters location" . ex:fd rdfs:label "flight director" .
ex:cmd rdfs:label "mission commander" .
ex:corvid rdfs:label "Corvid-3" ; ex:op ex:tessaly ; ex:cmd ex:ilse .
ex:halcyon rdfs:label "Halcyon Relay" ; ex:op ex:tessaly ; ex:fd ex:ruth ; ex:cmd ex:pavel .
ex:tessaly rdfs:label "Tessaly Space Agency" ; ex:hq ex:varnholm .
ex:ilse rdfs:label "Ilse Marchetti" . ex:ruth rdfs:label "Ruth Amsel" . ex:pavel rdfs:label "Pavel Odrowaz" .
ex:varnholm rdfs:label "Varnholm" .
"""


@needs_wordnet
def test_what_the_entity_does_is_not_who_does_it_to_the_entity(tmp_path):
    s = session(tmp_path / "missions.ttl", MISSIONS, "Corvid-3.")
    # the agency operates missions: what it operates is not who directs it
    state = s.user_turn("Who is the director of Tessaly Space Agency?")
    assert state.answer_source == "not_found" and "director" in state.shown_reply
    state = s.user_turn("Who was the backup commander of Halcyon Relay?")
    assert state.answer_source == "not_found" and "Pavel Odrowaz" in state.shown_reply
    state = s.user_turn("Who was the flight director of Halcyon Relay?")
    assert state.answer_source != "not_found" and "Ruth Amsel" in state.shown_reply


def test_judge_reads_words_sides_and_other_kinds():
    words_only = RelationMatcher()  # no encoder: what no label says in words is lacking
    labels = ["head coach", "goalkeeping coach", "captain", "operated by", "mentor of"]
    assert judge("head coach", False, [Side("head coach", True)], labels, words_only)[0]
    has, reason, near = judge("goalkeeping coach", False, [Side("head coach", True), Side("captain", True)], labels,
                              words_only)
    assert not has and near == [Side("head coach", True)] and "goalkeeping coach" in reason
    # the head coach's team is no one's head coach
    assert not judge("head coach", False, [Side("head coach", False)], labels, words_only)[0]
    assert not judge("club doctor", False, [Side("captain", True)], labels, words_only)[0]


class Alike:
    """An encoder to which every text means the same."""

    def encode(self, texts):
        return np.ones((len(texts), 4)) / 2.0


def test_the_encoder_decides_only_for_a_noun_no_label_says_in_words():
    sure = RelationMatcher(Alike())
    labels = ["creator", "captain", "flight director", "operated by", "goalkeeping coach", "head coach"]
    assert judge("club doctor", False, [Side("captain", True)], labels, sure)[0]
    # a verb no label says names another deed, however alike the encoder finds them
    assert not judge("commissioned", True, [Side("creator", True)], labels, sure)[0]
    assert not judge("goalkeeping coach", False, [Side("head coach", True)], labels, sure)[0]


@needs_wordnet
def test_a_label_of_the_kg_that_says_the_words_better_is_the_one_asked():
    words_only = RelationMatcher()
    labels = ["operated by", "flight director", "mission commander"]
    assert judge("director", False, [Side("operated by", True)], ["operated by"], words_only)[0]
    has, reason, _ = judge("flight director", False, [Side("operated by", True)], labels, words_only)
    assert not has and "“flight director”, which it does not have" in reason
    # no label of the KG says "flight director": "operated by" says a director only in other words
    assert not judge("flight director", False, [Side("operated by", True)], ["operated by"], words_only)[0]
    assert judge("total area", False, [Side("area", True)], ["area"], words_only)[0]


def test_which_side_of_a_label_the_entity_owns():
    assert right_side("head coach", True, False) and not right_side("head coach", False, False)
    assert right_side("operated by", True, False) and not right_side("operated by", False, True)
    assert right_side("mentor of", False, False) and not right_side("mentor of", True, False)
    assert right_side("plays for", False, False) and right_side("plays for", True, False)
    # "X head of department Y": whose head, or whose department, the label does not say
    assert right_side("head of department", False, False) and right_side("head of department", True, False)


def test_a_label_said_whole_or_by_the_head_alone_and_a_paraphrase_that_is_another_relation():
    words_only, sure = RelationMatcher(), RelationMatcher(Alike())
    labels = ["birth place", "date of birth", "email", "office address", "head of department"]
    # "born" calls up a birth date and a birth place; the label's paraphrases say no date of birth
    assert not judge("date of birth", False, [Side("birth place", True)], labels, words_only)[0]
    # "email" said whole in "email address", which means it: no other address is asked
    assert judge("email address", False, [Side("email", True)], labels, sure)[0]
    assert judge("head", False, [Side("head of department", False)], labels, words_only)[0]


@needs_wordnet
def test_who_is_answered_by_no_relation_of_a_place_or_a_time():
    words_only = RelationMatcher()
    labels = ["manufacturer", "made in", "weight in kilograms"]
    sides = [Side(label, True) for label in labels]
    # WordNet reads designing as a way of making: "made in" says it, but gives where
    assert judge("designed", True, sides, labels, words_only)[0]
    has, reason, _ = judge("designed", True, sides, labels, words_only, who=True)
    assert not has and "made in" not in reason, reason
    # a relation of a place asked of the other side ("Who is made in Taichung?" reads no further)
    assert judge("designed", True, [Side("made in", False)], labels, words_only, who=True)[0]
