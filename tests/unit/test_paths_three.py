"""Paths of three relations (engine/stages/route/third.py): each relation read on its own span of
the question, the third step's facts read from the background for the likeliest two-step paths
only, bounded and said so, and the answer that says every hop. Small KGs of their own domains;
the label scorer is the word-sharing one of test_paths."""

from __future__ import annotations

from datetime import datetime

from engine.stages.answer.paths import path_text
from engine.stages.route import third
from engine.state import TurnState
from tests.support.kb import checks_of, from_turtle
from tests.unit.test_paths import ask, kg, matcher, steps

WN = "http://example.org/wine/"
WINE = f"""@prefix ex: <{WN}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:lantern rdfs:label "Lantern Reserve" ; ex:producedBy ex:harrow ; ex:grape ex:syrah .
ex:ember rdfs:label "Ember Cask" ; ex:producedBy ex:harrow ; ex:grape ex:merlot .
ex:harrow rdfs:label "Harrow Estate" ; ex:ownedBy ex:mira ; ex:region ex:northvale .
ex:mira rdfs:label "Mira Castell" ; ex:birthPlace ex:valdoro ; ex:speaks ex:catalan , ex:occitan .
ex:valdoro rdfs:label "Valdoro" . ex:syrah rdfs:label "Syrah" . ex:merlot rdfs:label "Merlot" .
ex:northvale rdfs:label "Northvale" . ex:catalan rdfs:label "Catalan" . ex:occitan rdfs:label "Occitan" .
ex:producedBy rdfs:label "produced by" . ex:ownedBy rdfs:label "owner" . ex:birthPlace rdfs:label "place of birth" .
ex:region rdfs:label "region" . ex:grape rdfs:label "grape" . ex:speaks rdfs:label "languages spoken" .
"""

LB = "http://example.org/library/"
LIBRARY = f"""@prefix ex: <{LB}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:tide rdfs:label "The Salt Tide" ; ex:translatedBy ex:oona ; ex:publishedIn "1971" .
ex:reef rdfs:label "Reef Lights" ; ex:translatedBy ex:oona ; ex:publishedIn "1984" .
ex:dune rdfs:label "Dune Songs" ; ex:translatedBy ex:oona ; ex:publishedIn "1990" .
ex:moss rdfs:label "Moss Hours" ; ex:translatedBy ex:piet ; ex:publishedIn "2001" .
ex:oona rdfs:label "Oona Lark" . ex:piet rdfs:label "Piet Hal" .
ex:translatedBy rdfs:label "translated by" . ex:publishedIn rdfs:label "publication year" .
"""


def test_a_third_relation_asked_is_walked_and_not_when_two_or_one_are_asked(tmp_path):
    store = kg(tmp_path, "kg.ttl", WINE)
    three = ask(store, WN + "lantern", "Where was the owner of the estate that produced Lantern Reserve born?",
                background=store)
    assert steps(three.paths[0]) == [("produced by", True), ("owner", True), ("place of birth", True)]
    assert three.paths[0].values == ["Valdoro"]
    assert [[f.o for f in chain] for chain in three.paths[0].chains] == [[WN + "harrow", WN + "mira", WN + "valdoro"]]
    assert not three.notes
    # the candidates reach two hops: the birthplace, three away, needs the ends' facts read
    alone = ask(store, WN + "lantern", "Where was the owner of the estate that produced Lantern Reserve born?")
    assert all(len(p.steps) < 3 for p in alone.paths)
    spoken = ask(store, WN + "lantern", "Which languages does the owner of the estate that produced Lantern Reserve "
                 "speak?", background=store)
    assert steps(spoken.paths[0])[-1] == ("languages spoken", True)
    assert sorted(spoken.paths[0].values) == ["Catalan", "Occitan"]
    two = ask(store, WN + "lantern", "Who is the owner of the estate that produced Lantern Reserve?", background=store)
    assert steps(two.paths[0]) == [("produced by", True), ("owner", True)] and two.paths[0].values == ["Mira Castell"]
    one = ask(store, WN + "lantern", "Which estate produced Lantern Reserve?", background=store)
    assert steps(one.paths[0]) == [("produced by", True)]


def test_a_relation_out_and_back_then_a_third_never_returns_to_the_start(tmp_path):
    store = kg(tmp_path, "kg.ttl", LIBRARY)
    for question in ("In which years were the books translated by the translator of The Salt Tide published?",
                     "The books that share a translator with The Salt Tide were published in which years?"):
        found = ask(store, LB + "tide", question, background=store)
        assert steps(found.paths[0]) == [("translated by", True), ("translated by", False),
                                         ("publication year", True)], question
        assert sorted(found.paths[0].values) == ["1984", "1990"], question  # not 1971, The Salt Tide's own


def test_the_entities_read_for_a_third_step_are_bounded_and_the_cut_said(tmp_path, monkeypatch):
    store = kg(tmp_path, "kg.ttl", LIBRARY)
    monkeypatch.setattr(third, "ENDS", 1)
    found = ask(store, LB + "tide", "In which years were the books translated by the translator of The Salt Tide "
                "published?", background=store)
    assert "third relations read from 1 of 2 entities" in found.notes
    assert len(found.paths[0].values) == 1


def test_the_answer_of_three_hops_says_every_hop(tmp_path):
    store = kg(tmp_path, "kg.ttl", WINE)
    question = "Where was the owner of the estate that produced Lantern Reserve born?"
    found = ask(store, WN + "lantern", question, background=store)
    state = TurnState("s", 1, question, datetime(2026, 3, 2, 9))
    state.paths = found.paths
    text, facts = path_text(state, store)
    assert text.startswith("Mira Castell's place of birth is Valdoro")
    assert "Harrow Estate" in text and "Lantern Reserve" in text and len(facts) == 3
    # each hop is a sentence of its own, so the checker reads each as one claim and supports it
    checks = checks_of(from_turtle(tmp_path, WINE), text)
    assert len(checks) == 3 and {str(c.verdict) for c in checks} == {"supported"}, [c.claim for c in checks]
    spoken = ask(store, WN + "lantern", "Which languages does the owner of the estate that produced Lantern Reserve "
                 "speak?", background=store)
    state.paths = spoken.paths
    text = path_text(state, store)[0]
    assert text.startswith("Mira Castell's languages spoken are Catalan and Occitan")  # said of the one owner by name
    assert "Harrow Estate's owner is Mira Castell" in text
    grapes = ask(store, WN + "lantern", "Which grapes are in the wines produced by the producer of Lantern Reserve?",
                 background=store)
    assert steps(grapes.paths[0]) == [("produced by", True), ("produced by", False), ("grape", True)]
    state.paths = grapes.paths
    assert path_text(state, store)[0].startswith("Ember Cask's grape is Merlot")


ILLUSTRATED = LIBRARY + f"""@prefix ex: <{LB}> .
ex:reef ex:illustratedBy ex:ivo . ex:dune ex:illustratedBy ex:ivo . ex:tide ex:illustratedBy ex:ria .
ex:moss ex:illustratedBy ex:ria .
ex:ivo rdfs:label "Ivo Brandt" . ex:ria rdfs:label "Ria Moen" . ex:illustratedBy rdfs:label "illustrated by" .
"""


def test_the_second_relation_is_read_in_the_phrase_around_the_first(tmp_path):
    """An encoder may read "translator" as near an illustrator as a translator: the relation
    walked back from the translator is said in "the books translated by", so "illustrated" after
    the name is the third relation, not the second."""
    def blurred(labels, spans):
        out = matcher(labels, spans)
        for i, label in enumerate(labels):
            for j, span in enumerate(spans):
                if span == "translator":
                    out[i, j] = {"illustrated by": 0.8, "translated by": 0.6}.get(label, out[i, j])
        return out

    store = kg(tmp_path, "kg.ttl", ILLUSTRATED)
    found = ask(store, LB + "tide", "The books translated by the translator of The Salt Tide were illustrated by whom?",
                background=store, m=blurred)
    assert steps(found.paths[0]) == [("translated by", True), ("translated by", False), ("illustrated by", True)]
    assert found.paths[0].values == ["Ivo Brandt"]


def test_the_noun_that_opens_the_phrase_is_no_relation_walked_out_and_back(tmp_path):
    """"the books translated by X": an encoder reads "books" near "translated by", but the noun
    names what the relation reaches; two relations are asked, not the books of X's co-translators."""
    def blurred(labels, spans):
        out = matcher(labels, spans)
        for i, label in enumerate(labels):
            for j, span in enumerate(spans):
                if span == "books" and label == "translated by":
                    out[i, j] = 0.84
        return out

    more = f"@prefix ex: <{LB}> .\nex:reef ex:translatedBy ex:piet .\nex:moss ex:illustratedBy ex:piet .\n"
    store = kg(tmp_path, "kg.ttl", ILLUSTRATED + more)
    found = ask(store, LB + "oona", "Who illustrated the books translated by Oona Lark?", background=store, m=blurred)
    assert steps(found.paths[0]) == [("translated by", False), ("illustrated by", True)]


LU = "http://example.org/luthiers/"
LUTHIERS = f"""@prefix ex: <{LU}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:aria rdfs:label "Aria Solenne" ; ex:teacher ex:bruno ; ex:played ex:strad ; ex:bornIn ex:lyon .
ex:strad rdfs:label "Lark Violin" ; ex:maker ex:vessel ; ex:bornIn ex:lyon .
ex:vessel rdfs:label "Vessel Workshop" ; ex:headquarters ex:cremona ; ex:basedIn ex:cremona ; ex:member ex:guild .
ex:guild rdfs:label "Bowmakers Guild" ; ex:basedIn ex:mantua .
ex:bruno rdfs:label "Bruno Tal" ; ex:bornIn ex:parma .
ex:parma rdfs:label "Parma" ; ex:country ex:italy . ex:cremona rdfs:label "Cremona" ; ex:country ex:italy .
ex:lyon rdfs:label "Lyon" ; ex:country ex:france . ex:mantua rdfs:label "Mantua" .
ex:italy rdfs:label "Italy" . ex:france rdfs:label "France" .
ex:teacher rdfs:label "teacher" . ex:played rdfs:label "played" . ex:maker rdfs:label "maker" .
ex:headquarters rdfs:label "headquarters" . ex:member rdfs:label "member" . ex:basedIn rdfs:label "based in" .
ex:bornIn rdfs:label "birth" . ex:country rdfs:label "country" .
"""


def test_each_of_three_relations_is_read_where_the_clause_around_the_one_before_says_it(tmp_path):
    store = kg(tmp_path, "kg.ttl", LUTHIERS)
    # a noun after a possessive, then a verb: the noun qualifies no verb, it is a span of its own
    owned = ask(store, LU + "aria", "In which country was Aria Solenne's teacher born?", background=store)
    assert steps(owned.paths[0]) == [("teacher", True), ("birth", True), ("country", True)]
    assert owned.paths[0].values == ["Italy"]
    # the verb after the inner phrase ("headquartered") is the second relation, the asked noun the third
    around = ask(store, LU + "strad", "In which country is the maker of Lark Violin headquartered?", background=store)
    assert steps(around.paths[0]) == [("maker", True), ("headquarters", True), ("country", True)]
    assert around.paths[0].values == ["Italy"]
    # a clause whose verb follows the entity holds that verb only: "based" is the clause around
    based = ask(store, LU + "aria", "Where is the maker of the violin Aria Solenne played based?", background=store)
    assert steps(based.paths[0]) == [("played", True), ("maker", True), ("based in", True)]
    assert based.paths[0].values == ["Cremona"]


def test_a_common_noun_described_by_what_follows_it_is_no_start():
    from datetime import datetime as dt

    from engine.stages.route import starts_of
    from engine.state import Mention

    text = "Where was the curator of the exhibition that featured Glass Orchard born?"
    state = TurnState(session_id="s", turn=1, text=text, now=dt(2026, 1, 1))
    state.mentions = [Mention("curator", 14, 21, "name", entity="urn:occupation", label="curator", p=0.9),
                      Mention("Glass Orchard", 54, 67, "name", entity="urn:work", label="Glass Orchard", p=0.9)]
    assert list(starts_of(state, None)) == ["urn:work"]
    # said alone, the noun is what the turn is about
    state.mentions = state.mentions[:1]
    assert list(starts_of(state, None)) == ["urn:occupation"]


def test_the_noun_asked_for_ends_before_a_verb_the_parser_reads():
    from engine.nlp.dependency import parser
    from engine.stages.route.clauses import asked_words, stems

    if parser() is None:
        return
    assert asked_words("Which gallery hosted the exhibition curated by xentity?") == stems("gallery")
    assert asked_words("Which game nights were hosted by xentity?") == stems("game nights")


def test_where_the_things_are_looked_up_describes_none_of_them():
    from engine.stages.route.clauses import described, masked

    text = masked("How many people in the graph were born in Lisbon?", ["Lisbon"])
    assert text == "How many people were born in xentity?"
    assert not described(text)  # one relation asked, not a second read on "people"
