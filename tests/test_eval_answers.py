"""The judging of `kgchat eval answers` (engine/harness/eval/answers.py): when a reply says the
gold value, and how the shares are counted."""

from __future__ import annotations

from engine.harness.eval.answers import contains, figures, office_question, ood_question


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
