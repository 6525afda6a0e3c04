"""The judging of `kgchat eval answers` (harness/eval/answers.py): when a reply says the
gold value, and how the shares are counted."""

from __future__ import annotations

import json

import pytest

from harness.eval.answers import (
    computed,
    contains,
    figures,
    first_clause,
    first_number,
    hand_question,
    handwritten,
    office_question,
    ood_question,
    said,
)
from kgstore.errors import BadInput


def test_a_value_is_said_as_words_a_time_as_hh_mm_a_date_as_the_verbalizations_say_it():
    assert contains("The employee count of Granite Foods is 4821.", "4821")
    assert not contains("The count is 48210.", "4821")
    assert contains("The Journal Club ends at 16:30.", "16:30:00")
    assert contains("He was born on Wednesday 20 February 1957.", "1957-02-20")
    assert contains("Write to omar.haddad@lab.example.org, please.", "omar.haddad@lab.example.org")
    assert contains("Her phone number is +47 400 82 254", "+47 400 82 254")
    assert contains("Lars Nguyen's phone number is 4765725921", "+47 657 25 921")
    assert not contains("It is 2024.", "1957-02-20")
    assert not contains("", "Zagreb")


def test_what_a_turn_asks():
    entry = {"intents": ['request_entity_attribute(entity="Coffee Chat", attribute="organizer")'],
             "gold": {"edges": [["urn:e", "urn:kgchat:office:organizer", "urn:p"]]}}

    class Store:
        def label(self, iri):
            return {"urn:p": "Olga Hansen"}[iri]

    assert office_question(entry, None, Store()) == ("single", ["Olga Hansen"])
    assert office_question({"intents": ["a()", "b()"]}, None, Store()) == ("other", [])
    assert ood_question({"gold": {"answer": {"kind": "absent"}}}) == ("absent", [])
    assert ood_question({"gold": {"answer": {"kind": "compound", "strings": ["x"]}}}) == ("other", [])
    assert ood_question({"gold": {"answer": {"kind": "asr", "strings": ["Zagreb"]}}}) == ("single", ["Zagreb"])


def test_shares_count_only_their_own_turns():
    rows = [
        {"kind": "single", "shown": "a", "model": "b", "gold_auto": True, "gold_llm": False, "not_found": False,
         "contradicted_shown": False, "contradicted_llm": True, "answer_source": "facts"},
        {"kind": "absent", "shown": "nothing", "model": "", "gold_auto": None, "gold_llm": None, "not_found": True,
         "contradicted_shown": False, "contradicted_llm": False, "answer_source": "not_found"},
    ]
    f = figures(rows)
    assert f["gold_in_reply_auto"] == {"value": 1.0, "n": 1, "hits": 1}
    assert f["gold_in_reply_llm"]["value"] == 0.0
    assert f["contradicted_shown_llm"] == {"value": 1.0, "n": 1, "hits": 1}  # the turn without a model reply is out
    assert f["absent_not_found_auto"]["value"] == 1.0
    assert f["answerable_not_found_auto"] == {"value": 0.0, "n": 1, "hits": 0}


def test_a_hand_written_set_is_read_as_dialogues_whose_last_user_turn_is_judged(tmp_path):
    music = tmp_path / "music"
    music.mkdir()
    (music / "kg.ttl").write_text("", encoding="utf-8")
    lines = [
        {"id": "m-1", "kind": "pronoun", "dialogue": [{"speaker": "user", "text": "Who sings in Kestrel Lane?"},
                                                     {"speaker": "system", "text": "Eleanor Voss."},
                                                     {"speaker": "user", "text": "Where was she born?"}],
         "answer_contains": ["Bergen"], "answer_fact": None},
        {"id": "m-2", "kind": "absent", "dialogue": [{"speaker": "user", "text": "Who plays drums?"}],
         "answer_contains": [], "answer_fact": None},
    ]
    (music / "questions.jsonl").write_text("\n".join(json.dumps(q) for q in lines) + "\n", encoding="utf-8")
    more = {"id": "m-m1", "kind": "list_followup",
            "dialogue": [{"speaker": "user", "text": "Tell me about Kestrel Lane."},
                         {"speaker": "system", "text": "Kestrel Lane has two members."},
                         {"speaker": "user", "text": "Who are they?"}],
            "answer_contains": ["Fraser Reid", "Ida Moss"], "answer_fact": None}
    (music / "questions_more.jsonl").write_text(json.dumps(more) + "\n", encoding="utf-8")
    sets = handwritten(str(tmp_path))
    assert list(sets) == ["music"]
    assert list(sets["music"]) == ["m-1", "m-2", "m-m1"]  # both question files
    first, second, third = sets["music"]["m-1"], sets["music"]["m-2"], sets["music"]["m-m1"]
    assert first["kg_file"] == str(music / "kg.ttl") and first["replies"] == "written"
    # The written system turn is replayed as said; only the last user turn is judged.
    assert first["log"][:2] == [{"manual_transcription": "Who sings in Kestrel Lane?"}, {"system_text": "Eleanor Voss."}]
    assert first["log"][-1]["manual_transcription"] == "Where was she born?"
    assert hand_question(first["log"][-1]) == ("pronoun", ["Bergen"], [])
    assert hand_question(second["log"][-1]) == ("absent", [], [])
    assert hand_question(third["log"][-1]) == ("list_followup", ["Fraser Reid", "Ida Moss"], [])


def test_questions_that_compute_are_read_with_the_candidates_they_weigh(tmp_path):
    shop = tmp_path / "shop"
    shop.mkdir()
    (shop / "kg.ttl").write_text("", encoding="utf-8")
    (shop / "questions.jsonl").write_text(json.dumps(
        {"id": "s-1", "kind": "single", "dialogue": [{"speaker": "user", "text": "Who owns Bolt?"}],
         "answer_contains": ["Ada"]}) + "\n", encoding="utf-8")
    lines = [
        {"id": "s-c1", "kind": "compare", "dialogue": [{"speaker": "user", "text": "Which is heavier, Bolt or Nut?"}],
         "answer_contains": ["Bolt"], "check": {"op": "compare", "a": "Nut", "b": "Bolt", "p": "mass"}},
        {"id": "s-c2", "kind": "superlative", "dialogue": [{"speaker": "user", "text": "Which part is lightest?"}],
         "answer_contains": ["Nut"], "answer_fact": [{"s": "Nut", "p": "mass", "o": "2"},
                                                     {"s": "Bolt", "p": "mass", "o": "9"},
                                                     {"s": "Gear", "p": "mass", "o": "5"}]},
    ]
    (shop / "questions_compute.jsonl").write_text("\n".join(json.dumps(q) for q in lines) + "\n", encoding="utf-8")
    dialogues = handwritten(str(tmp_path))["shop"]
    assert list(dialogues) == ["s-1", "s-c1", "s-c2"]
    assert hand_question(dialogues["s-c1"]["log"][-1]) == ("compare", ["Bolt"], ["Nut"])
    assert hand_question(dialogues["s-c2"]["log"][-1]) == ("superlative", ["Nut"], ["Bolt", "Gear"])


def test_each_computed_kind_is_judged_as_it_asks():
    # yes/no by the first word
    assert computed("No. Ada was born in Leeds.", "yesno", ["no", "Leeds"], []) is True
    assert computed("Ada was not born in York.", "yesno", ["no"], []) is False
    # compare and superlative: the first clause names the gold and no other candidate
    assert computed("Bolt is heavier: 9 g, Nut 2 g.", "compare", ["Bolt"], ["Nut"]) is True
    assert computed("Bolt and Nut weigh 9 g and 2 g.", "compare", ["Bolt"], ["Nut"]) is False
    assert computed("Nut is lightest (2 g); next is Gear (5 g).", "superlative", ["Nut"], ["Gear", "Bolt"]) is True
    # count by the first number, a number word as its digits
    assert computed("3 parts: Bolt, Nut and Gear.", "count", ["3"], []) is True
    assert computed("Three parts.", "count", ["3"], []) is True
    assert computed("In 2020, 3 parts came out.", "count", ["3"], []) is False
    # filter: the candidates the first sentence names are the gold set
    assert computed("Bolt and Gear weigh over 4 g. Nut weighs 2 g.", "filter", ["Bolt", "Gear"], ["Nut"]) is True
    assert computed("Bolt, Gear and Nut.", "filter", ["Bolt", "Gear"], ["Nut"]) is False
    assert computed("Bolt weighs over 4 g.", "filter", ["Bolt", "Gear"], ["Nut"]) is False
    assert computed("The owner's city is Leeds.", "three_hop", ["Leeds"], []) is True
    assert computed("", "count", ["3"], []) is False
    assert first_clause("Dr. Ada is 1.5 m tall: taller") == "Dr"  # a dot before a space ends a clause
    assert first_number("It has 1,200 members") == "1200"


def test_computed_turns_are_reported_apart_and_leave_the_totals_alone():
    base = {"shown": "x", "model": "", "gold_llm": None, "not_found": False, "contradicted_shown": True,
            "contradicted_llm": False, "answer_source": "facts"}
    rows = [{**base, "kind": "single", "gold_auto": True},
            {**base, "kind": "count", "gold_auto": False, "computed": True},
            {**base, "kind": "count", "gold_auto": True, "computed": True}]
    f = figures(rows)
    assert f["turns"] == 1 and f["contradicted_shown_auto"]["n"] == 1
    assert "count" not in f["by_kind"]
    assert f["computed_by_kind"] == {"count": {"value": 0.5, "n": 2, "hits": 1}}


def test_each_kind_is_judged_as_its_questions_ask():
    assert said("It is Fraser Reid.", "two_hop", ["Fraser Reid", "Ida Moss"]) is True
    assert said("It is Fraser Reid.", "multi", ["Fraser Reid", "Ida Moss"]) is False
    assert said("Fraser Reid and Ida Moss.", "list_followup", ["Fraser Reid", "Ida Moss"]) is True
    assert said("Formed in 2011 in Leeds.", "compound", ["2011", "Leeds"]) is True
    assert said("Formed in 2011.", "compound", ["2011", "Leeds"]) is False
    assert said("anything", "absent", []) is None
    rows = [{"kind": k, "shown": "x", "model": "", "gold_auto": g, "gold_llm": None, "not_found": nf,
             "contradicted_shown": False, "contradicted_llm": False, "answer_source": "not_found" if nf else "facts"}
            for k, g, nf in (("two_hop", True, False), ("multi", False, True), ("absent", None, True),
                             ("absent", None, False))]
    f = figures(rows)
    assert f["by_kind"]["two_hop"]["value"] == 1.0 and f["by_kind"]["multi"]["value"] == 0.0
    assert f["by_kind"]["absent"] == {"value": 0.5, "n": 2, "hits": 1}
    assert f["gold_in_reply_auto"] == {"value": 0.5, "n": 2, "hits": 1}
    assert f["answerable_not_found_auto"] == {"value": 0.5, "n": 2, "hits": 1}


@pytest.mark.parametrize("files, says", [
    ({}, "has no */questions.jsonl"),
    ({"a/questions.jsonl": "{}\n", "a/kg.ttl": ""}, "a/questions.jsonl:1: not a question line"),
    ({"a/questions.jsonl": '{"kind": "single", "dialogue": []}\n', "a/kg.ttl": ""}, "no user turn"),
    ({"a/questions.jsonl": "", "a/kg.ttl": "", "a/kg.csv": ""}, "needs one kg.* file, has 2"),
])
def test_a_hand_written_set_that_cannot_be_read_is_named_in_one_line(tmp_path, files, says):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(BadInput, match=r"^--handwritten: .*" + says.replace("*", r"\*")):
        handwritten(str(tmp_path))
    with pytest.raises(BadInput, match="is not a folder"):
        handwritten(str(tmp_path / "nope"))


def test_a_generated_question_is_replayed_and_judged(tmp_path):
    from engine.config import AnswerMode
    from harness.eval.answers import replay

    kg = tmp_path / "kg.ttl"
    kg.write_text('@prefix ex: <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n'
                  'ex:fen rdfs:label "Fenwick Mill" ; ex:builtIn "1821" . ex:builtIn rdfs:label "built in" .\n',
                  encoding="utf-8")
    dialogue = {"kg_file": str(kg), "log": [{"manual_transcription": "When was Fenwick Mill built?",
                                             "gold": {"answer": {"kind": "single", "strings": ["1821"]}}}]}
    rows = list(replay("ood", {"d1": dialogue}, {}, None, {"answer": AnswerMode.FACTS}, lambda _: None))
    assert len(rows) == 1 and rows[0]["kind"] == "single" and rows[0]["gold_auto"]
