"""The replies kgchat shows read as sentences, and its own answers are what its checker
supports: the check `kgchat eval answers` reports per set (harness/eval/readable.py), and a small
evaluation over KGs of three naming styles (camelCase, snake_case, Wikidata ids) on which every
composed claim is supported and no shown reply has a "<relation label>: <value>" form or two
sentences in a row opening with the same entity."""

from __future__ import annotations

import json

import pytest

from harness.eval.answers import figures, handwritten, replay
from harness.eval.readable import label_colons, same_openings, totals
from tests.support.fakes import ScriptedLLM

FOOTBALL = """
@prefix f: <http://football.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
f:Club rdfs:label "football club" .
f:saka rdfs:label "Bukayo Saka" ; f:playsFor f:arsenal ; f:position "winger" .
f:saliba rdfs:label "William Saliba" ; f:playsFor f:arsenal ; f:position "centre-back" .
f:maddison rdfs:label "James Maddison" ; f:playsFor f:spurs .
f:arsenal a f:Club ; rdfs:label "Arsenal" ; f:headCoach f:arteta ; f:clubColours "red and white" ; f:inception "1886"^^xsd:gYear ; f:homeGround f:emirates .
f:spurs a f:Club ; rdfs:label "Tottenham Hotspur" ; f:headCoach f:ange ; f:inception "1882"^^xsd:gYear ; f:homeGround f:thsp .
f:arteta rdfs:label "Mikel Arteta" .
f:ange rdfs:label "Ange Postecoglou" .
f:emirates rdfs:label "Emirates Stadium" ; f:maximumCapacity "60704"^^xsd:integer .
f:thsp rdfs:label "Tottenham Hotspur Stadium" ; f:maximumCapacity "62850"^^xsd:integer .
"""
RECIPES = """
@prefix r: <http://recipes.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
r:lentil_soup rdfs:label "Lentil Soup" ; r:has_ingredient r:lentils, r:onion, r:cumin ; r:cooking_time_minutes "45"^^xsd:integer ; r:cuisine r:turkish ; r:created_by r:ayla .
r:pilaf rdfs:label "Bulgur Pilaf" ; r:has_ingredient r:bulgur, r:onion ; r:cooking_time_minutes "30"^^xsd:integer ; r:cuisine r:turkish .
r:lentils rdfs:label "red lentils" .
r:onion rdfs:label "onion" .
r:cumin rdfs:label "cumin" .
r:bulgur rdfs:label "bulgur" .
r:turkish rdfs:label "Turkish cuisine" .
r:ayla rdfs:label "Ayla Demir" .
"""
LIBRARY = """
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
wdt:P50 rdfs:label "author" .
wdt:P577 rdfs:label "publication date" .
wdt:P136 rdfs:label "genre" .
wdt:P123 rdfs:label "publisher" .
wd:Q901 rdfs:label "The Salt Road" ; wdt:P50 wd:Q902 ; wdt:P577 "2011-03-14"^^xsd:date ; wdt:P136 wd:Q903 ; wdt:P123 wd:Q904 .
wd:Q905 rdfs:label "Winter Orchard" ; wdt:P50 wd:Q902 ; wdt:P577 "2015-09-02"^^xsd:date ; wdt:P136 wd:Q903 .
wd:Q902 rdfs:label "Maren Holt" .
wd:Q903 rdfs:label "historical novel" .
wd:Q904 rdfs:label "Greyhaven Press" .
"""

QUESTIONS = {
    "football": [
        ("single", "Who is the head coach of Arsenal?", ["Mikel Arteta"]),
        ("two_hop", "Who coaches the club Bukayo Saka plays for?", ["Mikel Arteta"]),
        ("compound", "When was Tottenham Hotspur founded and who is its head coach?", ["1882", "Ange Postecoglou"]),
        ("multi", "Which players play for Arsenal?", ["Bukayo Saka", "William Saliba"]),
        ("absent", "Who is the goalkeeping coach of Arsenal?", []),
        ("single", "What are the club colours of Arsenal?", ["red and white"]),
        ("other", "Tell me about Emirates Stadium.", []),
    ],
    "recipes": [
        ("single", "How long does Lentil Soup take to cook?", ["45"]),
        ("multi", "What are the ingredients of Lentil Soup?", ["red lentils", "onion", "cumin"]),
        ("single", "Who created Lentil Soup?", ["Ayla Demir"]),
        ("absent", "How many calories does Bulgur Pilaf have?", []),
        ("other", "What do you know about Bulgur Pilaf?", []),
    ],
    "library": [
        ("single", "Who wrote The Salt Road?", ["Maren Holt"]),
        ("single", "When was Winter Orchard published?", ["2015"]),
        ("single", "Who published The Salt Road?", ["Greyhaven Press"]),
        ("absent", "Who translated Winter Orchard?", []),
        ("other", "Tell me about Winter Orchard.", []),
    ],
}


def test_a_relation_label_before_a_colon_is_found_but_not_in_a_name_or_a_time() -> None:
    relations = {"head coach", "headCoach", "starts at"}
    assert label_colons("Arsenal: head coach: Mikel Arteta.", relations, {"Arsenal"}) == ["head coach: Mikel Arteta."]
    assert label_colons("Arsenal's head coach is Mikel Arteta.", relations, {"Arsenal"}) == []
    assert label_colons("The talk starts at 13:00.", relations, set()) == []
    assert label_colons("Head Coach: The Story is a film.", relations, {"Head Coach: The Story"}) == []


def test_two_sentences_in_a_row_opening_with_one_entity_are_found() -> None:
    entities = {"Arsenal", "Arsenal Women", "Mikel Arteta"}
    assert same_openings("Arsenal's head coach is Mikel Arteta. Arsenal plays in London.", entities) == [
        "Arsenal … Arsenal"]
    assert same_openings("Arsenal's head coach is Mikel Arteta. Its home is London.", entities) == []
    assert same_openings("Arsenal is in London. Arsenal Women is too.", entities) == []  # the longest label
    rows = [{"answer_source": "facts", "composed_not_supported": ["x (nei)"], "label_colons": [],
             "same_openings": ["Arsenal … Arsenal"]},
            {"answer_source": "llm", "composed_not_supported": [], "label_colons": ["a: b"], "same_openings": []}]
    assert totals(rows) == {"composed_claims_not_supported": 1, "label_colons_shown": {"own": 0, "llm": 1},
                            "same_openings_shown": {"own": 1, "llm": 0}}


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory) -> list[dict]:
    """The small evaluation, the model answering nothing, so that every answer is kgchat's own."""
    root = tmp_path_factory.mktemp("sets")
    for domain, kg in (("football", FOOTBALL), ("recipes", RECIPES), ("library", LIBRARY)):
        (root / domain).mkdir()
        (root / domain / "kg.ttl").write_text(kg, encoding="utf-8")
        lines = [{"id": f"{domain}-{n}", "kind": kind, "dialogue": [{"speaker": "user", "text": text}],
                  "answer_contains": gold} for n, (kind, text, gold) in enumerate(QUESTIONS[domain])]
        (root / domain / "questions.jsonl").write_text("\n".join(map(json.dumps, lines)) + "\n", encoding="utf-8")
    rows = []
    for domain, dialogues in handwritten(str(root)).items():
        rows += replay(f"hand:{domain}", dialogues, {"llm": ScriptedLLM(["I do not know."])}, None, {},
                       lambda _: None)
    return rows


def test_a_small_evaluation_reads_as_sentences_the_checker_supports(evaluation) -> None:
    found = {r["dialogue"]: {k: r[k] for k in ("composed_not_supported", "label_colons", "same_openings") if r[k]}
             for r in evaluation}
    assert {d: f for d, f in found.items() if f} == {}
    assert figures(evaluation)["readable"] == {"composed_claims_not_supported": 0,
                                               "label_colons_shown": {"own": 0, "llm": 0},
                                               "same_openings_shown": {"own": 0, "llm": 0}}
    # and the answers still say what was asked
    assert all(r["gold_auto"] for r in evaluation if r["values"]), [r["shown"] for r in evaluation]
    assert all(r["not_found"] for r in evaluation if r["kind"] == "absent")
