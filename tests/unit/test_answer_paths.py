"""The answer of relation paths: one sentence per asked relation, lists counted and cut with their
count, two hops said with their chain, and a model reply that leaves values out replaced."""

from __future__ import annotations

from datetime import datetime

from engine.config import Config
from engine.context import TurnContext
from engine.stages import answer
from engine.stages.answer.paths import Labels, missing_from, path_text
from engine.state import (
    AnswerSource,
    Candidate,
    Check,
    Mention,
    PathStep,
    RelationPath,
    TurnState,
)
from kgstore import KGStore
from kgstore.terms import Fact

EX = "http://example.org/f/"
KG = f"""@prefix ex: <{EX}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:jon rdfs:label "Jon Ek" . ex:nord rdfs:label "FC Nord" . ex:ida rdfs:label "Ida Berg" .
ex:arena rdfs:label "Nord Arena" . ex:plays_for rdfs:label "plays for" . ex:head_coach rdfs:label "head coach" .
ex:jon ex:plays_for ex:nord . ex:nord ex:head_coach ex:ida . ex:nord ex:stadium ex:arena .
"""


def cand(s, p, o, s_label, p_label, o_label, text="") -> Candidate:
    return Candidate(Fact(EX + s, EX + p, EX + o), s_label=s_label, p_label=p_label, o_label=o_label, text=text)


PLAYS = cand("jon", "plays_for", "nord", "Jon Ek", "plays for", "FC Nord", "Jon Ek plays for FC Nord")
COACH = cand("nord", "head_coach", "ida", "FC Nord", "head coach", "Ida Berg", "FC Nord's head coach is Ida Berg")


def turn(text: str, candidates: list[Candidate], paths: list[RelationPath]) -> TurnState:
    state = TurnState("s", 1, text, datetime(2026, 3, 2, 9))
    state.mentions = [Mention("Jon Ek", 0, 0, "name", entity=EX + "jon", label="Jon Ek", p=1.0)]
    state.candidates = state.retrieved = candidates
    state.paths = paths
    state.plan = "background"
    return state


def two_hops() -> RelationPath:
    return RelationPath(EX + "jon", "Jon Ek", [PathStep(EX + "plays_for", "plays for"),
                                               PathStep(EX + "head_coach", "head coach")],
                        score=0.9, chains=[[PLAYS.fact, COACH.fact]], total=1)


def members(n: int, asks_all: bool = True) -> tuple[RelationPath, list[Candidate]]:
    cands = [cand(f"p{i}", "member_of", "band", f"Player {i}", "member of", "The Band", f"Player {i} is a member of "
                  "The Band") for i in range(n)]
    path = RelationPath(EX + "band", "The Band", [PathStep(EX + "member_of", "member of", forward=False)],
                        score=0.8, asks_all=asks_all, chains=[[c.fact] for c in cands], total=n)
    return path, cands


def test_two_hops_are_said_with_their_chain():
    text, facts = path_text(turn("Who is the manager of the team Jon Ek plays for?", [PLAYS, COACH], [two_hops()]),
                            None)
    assert text == "FC Nord's head coach is Ida Berg. Jon Ek plays for FC Nord."
    assert facts == ["Jon Ek plays for FC Nord", "FC Nord's head coach is Ida Berg"]


def test_two_chains_through_one_middle_step_say_it_once():
    stadium = cand("nord", "stadium", "arena", "FC Nord", "stadium", "Nord Arena", "FC Nord's stadium is Nord Arena")
    home = RelationPath(EX + "jon", "Jon Ek", [PathStep(EX + "plays_for", "plays for"), PathStep(EX + "stadium", "stadium")],
                        score=0.9, chains=[[PLAYS.fact, stadium.fact]], total=1)
    text, _ = path_text(turn("Who coaches the team Jon Ek plays for, and where?", [PLAYS, COACH, stadium],
                             [two_hops(), home]), None)
    assert text.count("Jon Ek plays for FC Nord") == 1 and "Nord Arena" in text and "Ida Berg" in text


def test_a_list_says_every_value_with_its_count():
    path, cands = members(3)
    text, _ = path_text(turn("Who is in The Band?", cands, [path]), None)
    assert text == "Player 0, Player 1 and Player 2 are members of The Band."
    # An incoming relation whose label reads as a noun says who the start entity is to them.
    films = [cand(f"f{i}", "director", "ida", f"Film {i}", "director", "Ida Berg") for i in range(2)]
    directed = RelationPath(EX + "ida", "Ida Berg", [PathStep(EX + "director", "director", forward=False)], 0.8,
                            asks_all=True, chains=[[c.fact] for c in films], total=2)
    text, _ = path_text(turn("Which films did Ida Berg direct?", films, [directed]), None)
    assert text == "Ida Berg is a director of Film 0 and Film 1."


def test_a_compound_question_gets_one_sentence_per_asked_relation():
    stadium = cand("nord", "stadium", "arena", "FC Nord", "stadium", "Nord Arena", "FC Nord's stadium is Nord Arena")
    coach = RelationPath(EX + "nord", "FC Nord", [PathStep(EX + "head_coach", "head coach")], 0.9,
                         chains=[[COACH.fact]], total=1)
    home = RelationPath(EX + "nord", "FC Nord", [PathStep(EX + "stadium", "stadium")], 0.8, chains=[[stadium.fact]],
                        total=1)
    text, _ = path_text(turn("Who coaches FC Nord and where do they play?", [COACH, stadium], [coach, home, coach]),
                        None)
    assert text == "FC Nord's head coach is Ida Berg. Its stadium is Nord Arena."


def test_a_person_said_again_takes_the_pronoun_of_the_gender_the_kg_gives(tmp_path):
    from engine.config import Config
    from engine.context import TurnContext
    from engine.nlp.kinds import possessive

    people = tmp_path / "people.ttl"
    people.write_text(f"""@prefix ex: <{EX}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:gender rdfs:label "sex or gender" . ex:born rdfs:label "date of birth" . ex:died rdfs:label "date of death" .
ex:female rdfs:label "female" .
ex:ida rdfs:label "Ida Berg" ; ex:gender ex:female ; ex:born "1901-02-03" ; ex:died "1970-04-05" .
ex:ola rdfs:label "Ola Dahl" ; ex:born "1911-02-03" ; ex:died "1980-04-05" .
ex:nord rdfs:label "FC Nord" ; ex:stadium ex:arena .
""", encoding="utf-8")
    store = KGStore()
    store.load(str(people))
    ctx = TurnContext(config=Config(demo="none"), store=store, background=store)
    assert [possessive(ctx, EX + e) for e in ("ida", "ola", "nord")] == ["her", "their", "its"]

    def dates(who: str, name: str) -> TurnState:
        steps = [RelationPath(EX + who, name, [PathStep(EX + p, label)], 0.9, total=1,
                              chains=[[Fact(EX + who, EX + p, day, o_literal=True)]])
                 for p, label, day in (("born", "date of birth", "1901-02-03"), ("died", "date of death", "1970-04-05"))]
        return turn(f"When was {name} born and when did she die?", [], steps)

    said = path_text(dates("ida", "Ida Berg"), store, lambda iri: possessive(ctx, iri))[0]
    assert said.split(". ")[1].startswith("Her date of death is")
    said = path_text(dates("ola", "Ola Dahl"), store, lambda iri: possessive(ctx, iri))[0]
    assert said.split(". ")[1].startswith("Their date of death is")


def test_a_fact_without_a_sentence_is_said_from_its_labels():
    fact = Fact(EX + "nord", EX + "founded", "1921", o_literal=True)
    labels = Labels(turn("?", [COACH], []), None)
    labels.known[EX + "founded"] = "founded"
    assert labels.said(fact) == "FC Nord was founded in 1921"


def test_a_reply_that_leaves_values_out_is_incomplete():
    path, cands = members(3)
    state = turn("Who are the members of The Band?", cands, [path])
    assert "incomplete: it names 1 of the 3" in missing_from("Player 1 is a member.", state, None)
    assert missing_from("Player 0, Player 1 and Player 2.", state, None) == ""
    single = turn("Who coaches the team Jon Ek plays for?", [PLAYS, COACH], [two_hops()])
    assert "does not name the plays for / head coach of Jon Ek (Ida Berg)" in missing_from("FC Nord.", single, None)
    assert missing_from("Ida Berg coaches them.", single, None) == ""


def test_the_answer_stage_shows_the_paths_answer_over_an_incomplete_model_reply(tmp_path):
    kg = tmp_path / "kg.ttl"
    kg.write_text(KG, encoding="utf-8")
    store = KGStore()
    store.load(str(kg))
    ctx = TurnContext(config=Config(answer="auto", refine_steps=0), store=store, background=store)
    state = turn("Who is the manager of the team Jon Ek plays for?", [PLAYS, COACH], [two_hops()])
    # The model says the first hop only: supported, and not the answer.
    state.response = "The manager of the team Jon Ek plays for is FC Nord."
    state.checks = [Check("Jon Ek plays for FC Nord", "supported", {"s": PLAYS.fact.s, "p": PLAYS.fact.p,
                                                                    "o": PLAYS.fact.o, "text": PLAYS.text})]
    answer.run(state, ctx)
    assert state.answer_source == AnswerSource.FACTS
    assert state.shown_reply == "FC Nord's head coach is Ida Berg. Jon Ek plays for FC Nord."
    assert "does not name" in state.composed.reason
    # Its claims are the facts it says, each supported (not the counted or parenthesised wording).
    assert [c.verdict for c in state.composed.checks] == ["supported", "supported"]
    # A reply that names the value is shown as it is.
    state = turn("Who is the manager of the team Jon Ek plays for?", [PLAYS, COACH], [two_hops()])
    state.response = "It is Ida Berg."
    state.checks = [Check("It is Ida Berg", "supported", {"s": COACH.fact.s, "p": COACH.fact.p, "o": COACH.fact.o,
                                                          "text": COACH.text})]
    answer.run(state, ctx)
    assert state.answer_source == AnswerSource.LLM and state.shown_reply == "It is Ida Berg."


def test_not_found_names_what_the_kg_has_about_the_entity():
    from engine.stages.answer.missing import missing_text, relations_of

    genre = cand("band", "genre", "rock", "The Band", "genre", "rock", "The Band: genre rock")
    given = cand("band", "given_name", "x", "The Band", "given name", "X", "The Band: given name X")
    label = cand("band", "label", "basalt", "The Band", "record label", "Basalt", "The Band: record label Basalt")
    assert relations_of({EX + "band"}, [given, genre, label, genre]) == ["genre", "record label", "given name"]
    text = missing_text("price", ["The Band"], "", ["genre", "record label"])
    assert text == ("I found no fact on “price” about The Band in the knowledge graph. "
                    "For The Band it has facts of “genre” and “record label”.")
    many = missing_text("price", ["The Band"], "", [f"r{i}" for i in range(9)])
    assert many.endswith("“r0”, “r1”, “r2”, “r3”, “r4”, “r5” and 3 more.")


def test_a_list_of_a_relation_named_by_a_verb_reads_as_a_sentence():
    courses = [cand("jon", "teaches", f"c{i}", "Jon Ek", "teaches", f"Course {i}") for i in range(3)]
    teaches = RelationPath(EX + "jon", "Jon Ek", [PathStep(EX + "teaches", "teaches")], 0.8, asks_all=True,
                           chains=[[c.fact] for c in courses], total=3)
    text, _ = path_text(turn("What does Jon Ek teach?", courses, [teaches]), None)
    assert text == "Jon Ek teaches Course 0, Course 1 and Course 2."
    offered = [cand("jon", "offered_by", f"d{i}", "Jon Ek", "offered by", f"Dept {i}") for i in range(2)]
    by = RelationPath(EX + "jon", "Jon Ek", [PathStep(EX + "offered_by", "offered by")], 0.8, asks_all=True,
                      chains=[[c.fact] for c in offered], total=2)
    assert path_text(turn("Who offers it?", offered, [by]), None)[0] == "Jon Ek is offered by Dept 0 and Dept 1."


def test_a_hop_about_the_thing_the_hop_before_opened_with_says_it_by_its_pronoun():
    won = cand("lamp", "award", "crown", "Moth Lamp", "award received", "Duo Crown", "Moth Lamp's award received is Duo Crown")
    pub = cand("lamp", "publisher", "kettle", "Moth Lamp", "publisher", "Kettle Press", "Moth Lamp's publisher is Kettle Press")
    hq = cand("kettle", "hq", "leeds", "Kettle Press", "headquarters", "Leeds", "Kettle Press's headquarters is Leeds")
    path = RelationPath(EX + "crown", "Duo Crown", [PathStep(EX + "award", "award received", forward=False),
                                                    PathStep(EX + "publisher", "publisher"), PathStep(EX + "hq", "headquarters")],
                        score=0.9, chains=[[won.fact, pub.fact, hq.fact]], total=1)
    text, _ = path_text(turn("Where is the publisher of the game that won the Duo Crown based?", [won, pub, hq], [path]),
                        None)
    assert text == ("Kettle Press's headquarters is Leeds. Moth Lamp's publisher is Kettle Press. "
                    "Its award received is Duo Crown.")
