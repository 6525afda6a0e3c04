"""The claim splitter reads a sentence's grammar: each predicate (coordinated verbs, relative
clauses, participle phrases, appositions, adverbial clauses, a phrase set off after the subject)
is a claim with its own subject, made of the reply's words. Replies over a small botanical-garden
and harbour KG, in wordings the splitter has no list for."""

from __future__ import annotations

import logging
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.factcheck import clauses
from engine.factcheck.split import split_claims
from engine.nlp import dependency
from tests.support.kb import checks_of, from_turtle

pytestmark = pytest.mark.skipif(clauses.parser() is None, reason="spaCy's English pipeline is not installed")

GARDEN = """
@prefix g: <http://example.org/garden/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
g:plantedBy rdfs:label "planted by" .
g:locatedIn rdfs:label "located in" .
g:runBy rdfs:label "run by" .
g:tends rdfs:label "tends" .
g:bornIn rdfs:label "born in" .
g:Tree rdfs:label "tree" .
g:ash a g:Tree ; rdfs:label "Velvet Ash" ; g:plantedBy g:ida ; g:locatedIn g:rosewalk .
g:ida rdfs:label "Ida Reyes" ; g:tends g:rosewalk , g:fernhouse ; g:bornIn g:tarnow .
g:tobias rdfs:label "Tobias Grell" ; g:bornIn g:dunmere .
g:rosewalk rdfs:label "Rose Walk" .
g:fernhouse rdfs:label "Fern House" .
g:mill rdfs:label "Harrow Mill" ; g:runBy g:tobias ; g:locatedIn g:dunmere .
g:dunmere rdfs:label "Dunmere" .
g:tarnow rdfs:label "Tarnow" .
"""

NAMES = ("Velvet Ash", "Ida Reyes", "Tobias Grell", "Rose Walk", "Fern House", "Harrow Mill", "Dunmere", "Tarnow",
         "Kell Harbour", "Marrow Fern", "Greenhouse 4", "Quill & Ladle", "Brackwater Regatta")


def protect(sentence: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for name in NAMES for m in re.finditer(re.escape(name), sentence)]


@pytest.fixture(scope="module")
def garden(tmp_path_factory):
    return from_turtle(tmp_path_factory.mktemp("garden"), GARDEN)


@pytest.mark.parametrize("reply, claims", [
    # a participle on what the subject is said to be
    ("Marrow Fern is a fern kept in Greenhouse 4.", ["Marrow Fern is a fern.", "Marrow Fern is kept in Greenhouse 4."]),
    # an apposition holding a participle, between the subject and its verb
    ("Velvet Ash, a tree planted by Ida Reyes, stands in the Rose Walk.",
     ["Velvet Ash stands in the Rose Walk.", "Velvet Ash is a tree.", "Velvet Ash is planted by Ida Reyes."]),
    # a participle phrase with no comma after a name
    ("Quill & Ladle based in Dunmere also sponsors the Brackwater Regatta.",
     ["Quill & Ladle also sponsors the Brackwater Regatta.", "Quill & Ladle is based in Dunmere."]),
    # a phrase set off after the subject
    ("Harrow Mill, in the village of Dunmere, is run by Tobias Grell.",
     ["Harrow Mill is run by Tobias Grell.", "Harrow Mill is in the village of Dunmere."]),
    # a relative clause, "who" standing for the name
    ("Tobias Grell, who was born in Tarnow, runs Harrow Mill.",
     ["Tobias Grell runs Harrow Mill.", "Tobias Grell was born in Tarnow."]),
    # an adverbial clause with no subject of its own takes the sentence's
    ("Tobias Grell rebuilt Harrow Mill after leaving Kell Harbour.",
     ["Tobias Grell rebuilt Harrow Mill.", "Tobias Grell was leaving Kell Harbour."]),
    # a verb coordinated with a passive borrows its auxiliary
    ("Velvet Ash was planted by Ida Reyes and pruned by Tobias Grell.",
     ["Velvet Ash was planted by Ida Reyes.", "Velvet Ash was pruned by Tobias Grell."]),
    # a verb coordinated with one in a clause on a noun takes the subject of the verb above
    ("Harrow Mill takes about an hour to play and needs Rose Walk and Fern House.",
     ["Harrow Mill takes about an hour to play.", "Harrow Mill needs Rose Walk.", "Harrow Mill needs Fern House."]),
    # the name of the thing the apposition describes, not the subject of the sentence
    ("The keeper of the Rose Walk is Ida Reyes, a botanist from Tarnow.",
     ["The keeper of the Rose Walk is Ida Reyes.", "Ida Reyes is a botanist from Tarnow."]),
])
def test_each_predicate_is_a_claim_with_its_own_subject(reply, claims):
    assert split_claims(reply, protect) == claims


@pytest.mark.parametrize("reply, claims", [
    ("Ida Reyes tends the Rose Walk, the Fern House and the herb beds.",
     ["Ida Reyes tends the Rose Walk.", "Ida Reyes tends the Fern House.", "Ida Reyes tends the herb beds."]),
    ("Ida Reyes and Tobias Grell are gardeners.", ["Ida Reyes is gardeners.", "Tobias Grell is gardeners."]),
    # "only" belongs to the "as" phrase: one claim
    ("Ida Reyes works only as a gardener.", ["Ida Reyes works only as a gardener."]),
    # a description ("the man who ...") tells which man: the checker reads it through the KG
    ("The man who runs Harrow Mill was born in Dunmere.", ["The man who runs Harrow Mill was born in Dunmere."]),
    ("Hi Tobias! Is Harrow Mill open on Sundays?", ["Hi Tobias!", "Is Harrow Mill open on Sundays?"]),
])
def test_lists_questions_and_descriptions(reply, claims):
    assert split_claims(reply, protect) == claims


def test_each_clause_gets_its_own_verdict(garden):
    got = [(c.claim, str(c.verdict)) for c in checks_of(garden, "Harrow Mill, in Dunmere, is run by Ida Reyes.")]
    assert got == [("Harrow Mill is run by Ida Reyes.", "contradicted"), ("Harrow Mill is in Dunmere.", "supported")]
    got = [(c.claim, str(c.verdict)) for c in checks_of(garden, "Velvet Ash, a tree planted by Ida Reyes, grows well.")]
    assert ("Velvet Ash is planted by Ida Reyes.", "supported") in got and ("Velvet Ash is a tree.", "supported") in got
    got = [(c.claim, str(c.verdict)) for c in checks_of(garden, "Ida Reyes, who was born in Dunmere, tends the Fern House.")]
    assert got == [("Ida Reyes tends the Fern House.", "supported"), ("Ida Reyes was born in Dunmere.", "contradicted")]


def test_without_the_parser_the_word_list_splitter_runs_and_says_so_once(monkeypatch, caplog):
    monkeypatch.setattr(dependency, "MODEL", "no_such_pipeline")
    dependency.parser.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger=dependency.__name__):
            assert split_claims("Tobias Grell, who was born in Tarnow, runs Harrow Mill.", protect) == [
                "Tobias Grell runs Harrow Mill.", "Tobias Grell was born in Tarnow."]
            assert split_claims("Harrow Mill is in Dunmere and opens at 9.", protect) == [
                "Harrow Mill is in Dunmere.", "Harrow Mill opens at 9."]
        assert [r.getMessage().count("word-list splitter") for r in caplog.records] == [1]
    finally:
        dependency.parser.cache_clear()


WORD = st.sampled_from("Ida Reyes|Tobias Grell|Harrow Mill|Velvet Ash|the mill|a gardener|Dunmere|the old tree".split("|"))
VERB = st.sampled_from(["runs", "was planted by", "is", "tends", "stands in", "was born in", "left"])
MODIFIER = st.sampled_from(["", ", who was born in Tarnow,", ", a tree planted in 1990,", " based in Dunmere",
                            ", in the village of Dunmere,", " after leaving Kell Harbour"])


@st.composite
def replies(draw) -> str:
    sentences = []
    for _ in range(draw(st.integers(1, 3))):
        subject, mod, verb, obj = draw(WORD), draw(MODIFIER), draw(VERB), draw(WORD)
        tail = draw(st.sampled_from(["", f" and {draw(VERB)} {draw(WORD)}", f", {draw(WORD)} and {draw(WORD)}"]))
        sentences.append(f"{subject[0].upper()}{subject[1:]}{mod} {verb} {obj}{tail}.")
    return " ".join(sentences)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(replies())
def test_every_claim_is_made_of_the_replys_words(reply):
    # the only words a claim may add: the copula of a clause with no finite verb, a possessive
    allowed = set(re.findall(r"[\w']+", reply.lower())) | {"is", "was", "are", "were", "s"}
    claims = split_claims(reply, protect)
    assert claims
    for claim in claims:
        assert set(re.findall(r"[\w']+", claim.lower().replace("'s", " s"))) <= allowed, (reply, claim)
        assert not any(name not in claim and name.split()[0] in claim.split() for name in NAMES), (reply, claim)


LANGUAGES = """
@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:mira rdfs:label "Mira Castell" ; ex:lang ex:catalan, ex:occitan ; ex:livesIn ex:valdoro .
ex:catalan rdfs:label "Catalan" . ex:occitan rdfs:label "Occitan" . ex:valdoro rdfs:label "Valdoro" .
ex:lang rdfs:label "languages spoken, written or signed" . ex:livesIn rdfs:label "lives in" .
"""


def test_a_relation_label_with_a_comma_and_an_or_is_one_term(tmp_path):
    kb = from_turtle(tmp_path, LANGUAGES)
    got = [(c.claim, str(c.verdict)) for c in checks_of(
        kb, "Mira Castell's languages spoken, written or signed are Catalan and Occitan.")]
    assert got == [("Mira Castell's languages spoken, written or signed are Catalan.", "supported"),
                   ("Mira Castell's languages spoken, written or signed are Occitan.", "supported")]


def test_a_list_cut_short_is_its_named_items_not_the_count_of_the_rest(tmp_path):
    kb = from_turtle(tmp_path, LANGUAGES)
    got = [(c.claim, str(c.verdict)) for c in checks_of(kb, "Mira Castell lives in Valdoro. Her languages spoken, "
                                                          "written or signed are Catalan, Occitan and 3 more.")]
    assert got[1:] == [("Her languages spoken, written or signed are Catalan.", "supported"),
                       ("Her languages spoken, written or signed are Occitan.", "supported")]
