"""Candidates: neighbourhoods of linked entities, derived facts, type requests, caps, focus."""

from datetime import datetime

import pytest

from engine.config import Config
from engine.context import TurnContext
from engine.nlp.sentences import is_node_fact
from engine.stages import candidates, plan
from engine.state import Derived, Focus, Mention, TurnState
from kgstore import KGStore
from kgstore.vocab import RDF_TYPE, RDFS_LABEL

TTL = """
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix o: <urn:kgchat:office:> .
<urn:e:omar> rdfs:label "Omar Haddad" ; a o:Person ; o:phone "+47 555 01 234" ; o:member_of <urn:e:eng> .
<urn:e:lisa> rdfs:label "Lisa Wilson" ; a o:Person ; o:member_of <urn:e:eng> ; o:office <urn:e:r1> .
<urn:e:eng> rdfs:label "Engineering" ; a o:Group .
<urn:e:r1> rdfs:label "Office 101" ; a o:Room .
<urn:e:r2> rdfs:label "Meeting Room Beta" ; a o:Room .
"""


def _ctx(tmp_path, text=TTL, **cfg):
    store = KGStore()
    if text:
        path = tmp_path / "kg.ttl"
        path.write_text(text, encoding="utf-8")
        store.load(str(path))
    return TurnContext(config=Config(**cfg), store=store, background=store)


def _turn(text, mentions=(), turn=1, derived=(), focus=None):
    state = TurnState(session_id="s", turn=turn, text=text, now=datetime(2026, 3, 2, 9), focus=focus or Focus())
    state.mentions = list(mentions)
    state.derived = list(derived)
    state.plan = plan.choose_plan(text, [m.kind for m in state.mentions])
    return state


def test_neighbourhood_of_a_linked_entity_with_node_facts(tmp_path):
    ctx = _ctx(tmp_path, hops=1)
    state = _turn("What is Omar Haddad's phone?", [Mention("Omar Haddad", 8, 19, "name", entity="urn:e:omar", p=0.9)])
    candidates.run(state, ctx)
    keys = {c.fact.key for c in state.candidates}
    assert ("urn:e:omar", "urn:kgchat:office:phone", "+47 555 01 234") in keys
    assert ("urn:e:omar", "urn:kgchat:office:member_of", "urn:e:eng") in keys
    nodes = {c.fact.s: c for c in state.candidates if is_node_fact(c.fact)}
    assert nodes["urn:e:omar"].fact.p == RDF_TYPE and nodes["urn:e:omar"].hop == 0
    # the group's type fact is 2 hops away: with hops=1 it gets a label node fact
    assert nodes["urn:e:eng"].fact.p == RDFS_LABEL
    assert not any(c.fact.s == "urn:e:lisa" for c in state.candidates)


def test_type_request_brings_every_entity_of_the_type(tmp_path):
    ctx = _ctx(tmp_path)
    state = _turn("Which rooms are there?", [Mention("rooms", 6, 11, "type", value="urn:kgchat:office:Room")])
    candidates.run(state, ctx)
    subjects = {c.fact.s for c in state.candidates}
    assert {"urn:e:r1", "urn:e:r2"} <= subjects
    assert ("urn:e:lisa", "urn:kgchat:office:office", "urn:e:r1") in {c.fact.key for c in state.candidates}


def test_derived_facts_are_candidates_with_their_probability(tmp_path):
    ctx = _ctx(tmp_path)
    d = Derived("group_of", ["urn:e:omar", "urn:e:eng"], 0.8, text="Omar Haddad is in the Engineering group")
    state = _turn("Which group is he in?", [Mention("he", 15, 17, "pronoun", entity="urn:e:omar", p=0.7)],
                  derived=[d])
    candidates.run(state, ctx)
    derived = [c for c in state.candidates if c.derived]
    assert len(derived) == 1 and derived[0].p == 0.8 and derived[0].hop == 0
    assert derived[0].text == "Omar Haddad is in the Engineering group"


def test_follow_up_without_mentions_keeps_the_previous_focus(tmp_path):
    ctx = _ctx(tmp_path, hops=1)
    session_focus = Focus()
    first = _turn("Tell me about Lisa Wilson", [Mention("Lisa Wilson", 14, 25, "name", entity="urn:e:lisa", p=1.0)],
                  focus=session_focus)
    candidates.run(first, ctx)
    follow = _turn("and the office?", turn=3, focus=session_focus)
    candidates.run(follow, ctx)
    assert ("urn:e:lisa", "urn:kgchat:office:office", "urn:e:r1") in {c.fact.key for c in follow.candidates}


def test_greeting_plans_no_retrieval_and_no_candidates(tmp_path):
    ctx = _ctx(tmp_path)
    state = _turn("Hello there! Thanks a lot.")
    assert state.plan == "none"
    candidates.run(state, ctx)
    assert state.candidates == []


def test_planner_kinds():
    assert plan.choose_plan("thank you so much!", []) == "none"
    assert plan.choose_plan("Where is the Staff Meeting?", ["name"]) == "background"
    assert plan.choose_plan("Where is her office?", ["pronoun"]) == "both"
    assert plan.choose_plan("What did I just ask you?", ["first_person"]) == "dialogue"
    assert plan.choose_plan("Hi, where is Omar?", ["name"]) == "background"


@pytest.mark.parametrize("text, asked, expected", [
    ("Yes.", "Ok, Rachael Hebert. You wished to have her phone number, is that correct?", "both"),
    ("yes please", "Would you like me to cancel the budget review?", "both"),
    ("Yes.", "Here is her phone number.", "none"),  # nothing was offered
    ("Thanks!", "Anything else I can do for you?", "none"),
    ("No.", "Would you like me to cancel the budget review?", "none"),
])
def test_a_bare_yes_takes_up_what_the_system_asked(text, asked, expected):
    assert plan.choose_plan(text, [], asked) == expected


def test_empty_kg_and_no_mentions_give_no_candidates(tmp_path):
    ctx = _ctx(tmp_path, text="")
    state = _turn("Where is the meeting with Omar?")
    candidates.run(state, ctx)
    assert state.candidates == [] and state.candidates_note == ""


def test_entity_with_50000_neighbours_is_capped_and_says_so(tmp_path):
    lines = [f'<urn:e:hub> <urn:p:knows> <urn:e:n{i}> .' for i in range(50_000)]
    lines.append('<urn:e:hub> <http://www.w3.org/2000/01/rdf-schema#label> "Hub" .')
    path = tmp_path / "big.nt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store = KGStore()
    store.load(str(path))
    ctx = TurnContext(config=Config(candidate_cap=500), store=store, background=store)
    state = _turn("Who does Hub know?", [Mention("Hub", 9, 12, "name", entity="urn:e:hub", p=1.0)])
    candidates.run(state, ctx)
    edges = [c for c in state.candidates if not is_node_fact(c.fact)]
    assert 0 < len(edges) <= 500
    assert "capped" in state.candidates_note
