"""One value per claim, relation first: replies with several values per clause, a custom-predicate KG,
and the out-of-generator reply set."""

from __future__ import annotations

import json
import re
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.factcheck import check_reply, scores
from engine.factcheck.split import first_verb, split_claims
from kgstore import demo_path
from kgstore.terms import Fact
from tests.support.kb import loaded


@pytest.fixture(scope="module")
def office():
    return loaded(demo_path("office"))


@pytest.fixture(scope="module")
def wikidata():
    return loaded(demo_path("wikidata"))


@pytest.fixture(scope="module")
def bands():
    from harness.eval.replies import KG_DIR

    return loaded(str(KG_DIR / "bands.ttl"))


def verifier(kb, now=datetime(2026, 3, 1, 9)):
    from engine.factcheck.verify import Verifier

    return Verifier(kb[0], kb[1], now=now)


def test_sure_mei_reply_shows_every_wrong_value_with_its_own_evidence(office):
    reply = ("Sure Mei, the Poster Session is planned for Tuesday at 3 pm in Meeting Room Beta. "
             "Fatima Walker runs it.")
    checks = check_reply(reply, verifier(office))
    assert [c.verdict for c in checks] == ["contradicted", "contradicted", "contradicted", "supported"]
    assert not any(c.claim.startswith(("Sure", "Mei")) for c in checks)
    assert [c.evidence.p.rsplit("/", 1)[-1].rsplit(":", 1)[-1] for c in checks[:3]] == [
        "date", "start_time", "location"]
    assert "Tuesday" in checks[0].reason and "3 pm" in checks[1].reason and "Meeting Room Beta" in checks[2].reason
    assert checks[3].evidence.o_label == "Fatima Walker"
    assert scores(checks)[0] == 0.25  # the fact score counts atomic claims


def test_a_value_under_another_relation_is_no_support(office):
    checks = check_reply("The Poster Session is organized by the Poster Session and the meeting room Delta.",
                         verifier(office))
    assert [c.verdict for c in checks] == ["contradicted", "contradicted"]
    assert all(c.evidence.o_label == "Fatima Walker" for c in checks)  # the organizer, not the room


def test_a_bridge_of_three_entities_is_not_contradicted_by_its_own_triple(office):
    # "X and Y are both connected to Z" is kept as (X, connected via, Y); its split claims
    # about Z were read against Y and contradicted the system's own composed answer.
    from engine.factcheck.verify import Verifier
    from engine.stages.candidates import derived_candidate
    from engine.state import Derived

    base = "urn:kgchat:kg:office-demo:"
    fatima, delta, poster = base + "person:person_24", base + "room:Meeting_Room_Delta", base + "event:event_01"
    bridge = derived_candidate(Derived("connected_via", [fatima, poster, delta], 0.9, rule="connected_via",
                                       text="Fatima Walker and Meeting Room Delta are both connected to Poster Session",
                                       fact=Fact(fatima, "urn:kgchat:derived:connected_via", delta)))
    checks = check_reply(bridge.text + ".", Verifier(office[0], office[1], now=datetime(2026, 3, 1, 9),
                                                     retrieved=[bridge]))
    assert checks and not any(c.verdict == "contradicted" for c in checks)


def test_a_title_with_its_article_is_not_the_title_without(tmp_path):
    from tests.support.kb import from_turtle

    kb = from_turtle(tmp_path, '@prefix ex: <http://example.org/> .\n'
                               '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n'
                               'ex:ignacio rdfs:label "Ignacio Pasternak" . ex:jarek rdfs:label "Jarek Halvorsen" .\n'
                               'ex:author rdfs:label "author" .\n'
                               'ex:b1 rdfs:label "The Hidden Cartographer" ; ex:author ex:ignacio .\n'
                               'ex:b2 rdfs:label "Hidden Cartographer" ; ex:author ex:jarek .\n')
    checks = check_reply("The author of The Hidden Cartographer is Ignacio Pasternak.", verifier(kb))
    assert [c.verdict for c in checks] == ["supported"]


def test_wrong_relation_and_wrong_kind_for_a_single_valued_relation(wikidata):
    checks = check_reply("Titanic was directed by Leonardo DiCaprio. Titanic was directed by James Cameron.",
                         verifier(wikidata))
    assert [c.verdict for c in checks] == ["contradicted", "supported"]


def test_a_year_is_never_compared_with_a_running_time(wikidata):
    checks = check_reply("Titanic (1997) was directed by James Cameron.", verifier(wikidata))
    year = next(c for c in checks if "1997" in c.claim)
    assert year.verdict == "supported" and "lasts" not in year.reason


def test_custom_predicates_matched_by_meaning(bands):
    checks = check_reply("Inga Holm fronts Saltmarsh Choir and was born in Bristol. Obi Nwosu fronts Saltmarsh "
                         "Choir. Saltmarsh Choir pulls in about 500,000 monthly listeners and debuted in 2011.",
                         verifier(bands))
    got = [(c.claim, c.verdict) for c in checks]
    assert got == [("Inga Holm fronts Saltmarsh Choir.", "supported"),
                   ("Inga Holm was born in Bristol.", "contradicted"),
                   ("Obi Nwosu fronts Saltmarsh Choir.", "contradicted"),
                   ("Saltmarsh Choir pulls in about 500,000 monthly listeners.", "contradicted"),
                   ("Saltmarsh Choir debuted in 2011.", "supported")]
    assert "leadSinger" in checks[0].evidence.p  # not memberOf: the relation the claim states
    hedged = check_reply("Saltmarsh Choir has about 240,000 monthly listeners.", verifier(bands))
    assert hedged[0].verdict == "supported"


def test_bullets_under_a_topic_line_are_claims_about_the_topic(office):
    reply = ("Hi Mei! Here are the details for the Poster Session:\n- **Date:** Tuesday\n- **Time:** 08:00\n"
             "- Location: Meeting Room Delta\n- Organizer: Fatima Walker")
    checks = check_reply(reply, verifier(office))
    assert [c.verdict for c in checks] == ["contradicted", "supported", "supported", "supported"]
    assert all(c.claim.startswith("Poster Session") for c in checks)


OPENERS = ["Sure", "Sure thing", "Alright", "Of course", "Well", "Okay", "Good question", "Happy to help", "Hi"]
NAMES = ["Mei", "Ravi", "Jean-Luc", "Siobhán", "Olga"]
CLAUSES = ["the Poster Session is planned for Tuesday at 3 pm in Meeting Room Beta.",
           "it starts at 10 and ends at 11.", "Fatima Walker runs the Poster Session.",
           "the seminar (Room Alpha, 2 pm) is organized by Ravi Patel."]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(OPENERS), st.sampled_from(NAMES + [""]), st.sampled_from([",", "!", " —"]),
       st.sampled_from(CLAUSES))
def test_vocatives_and_markers_are_never_subjects(opener, name, mark, clause):
    reply = f"{opener}{' ' + name if name else ''}{mark} {clause}"
    for claim in split_claims(reply):
        verb = first_verb(claim)
        subject = claim[:verb] if verb else ""
        assert not re.match(rf"\s*(?:{re.escape(opener)}|{re.escape(name) if name else '$^'})\b", subject), claim


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["on Monday", "at 3 pm", "in Room B", "from 10", "to 11", "with Ravi"]),
                min_size=1, max_size=4, unique=True))
def test_a_chain_of_values_gives_one_claim_per_value_with_the_reply_words(chain):
    reply = f"The Poster Session is scheduled {' '.join(chain)}."
    claims = split_claims(reply)
    assert len(claims) == len(chain)
    for claim, part in zip(claims, chain, strict=False):
        assert claim == f"The Poster Session is scheduled {part}."


def test_out_of_generator_replies_are_well_formed():
    from harness.eval.replies_score import build

    pairs = build("dev")
    gold = [g for reply, _ in pairs for g in reply.gold]
    assert len(gold) >= 300
    assert {g.verdict for g in gold} == {"supported", "contradicted", "nei"}
    assert {"wrong-relation", "wrong-type", "paraphrase"} <= {g.kind for g in gold}
    for reply, _ in pairs:
        for g in reply.gold:
            assert g.text in reply.text, (g.text, reply.text)
    assert {r.domain for r, _ in pairs} == {"office", "wikidata", "bands", "campus"}


def test_value_scoring_uses_the_claim_that_holds_the_value():
    from engine.state import Check
    from harness.eval.replies_score import addressed_subject, own_claim

    checks = [Check("The Poster Session is planned for Tuesday.", "contradicted"),
              Check("The Poster Session is planned at 3 pm in Room B.", "contradicted")]
    assert own_claim("Tuesday", checks, ["Tuesday", "3 pm", "Room B"]) == (checks[0], True)
    assert own_claim("3 pm", checks, ["Tuesday", "3 pm", "Room B"]) == (checks[1], False)
    assert own_claim("Friday", checks, ["Friday"]) == (None, False)
    assert addressed_subject("Sure Mei is planned for Tuesday.", ["Sure", "Mei"])
    assert not addressed_subject("The Poster Session is planned for Tuesday.", ["Sure", "Mei"])
    assert not addressed_subject("Hi Mei!", ["Hi", "Mei"])  # a greeting states nothing


def test_eval_reports_both_sets(monkeypatch, capsys):
    """`kgchat eval factcheck --set replies` prints the out-of-generator block (scores stubbed:
    the real run is the command itself)."""
    from harness.eval import factcheck as eval_factcheck
    from harness.eval import replies_score

    fake = replies_score.summarize([{"domain": "office", "kind": "value", "relation": "date", "value": "Tuesday",
                                     "expected": "contradicted", "got": "contradicted", "alone": True,
                                     "claim": "X is on Tuesday.", "reason": "", "reply": "X is on Tuesday."}],
                                   [], "dev", 1)
    monkeypatch.setattr(replies_score, "run", lambda split: fake)
    assert eval_factcheck.main(["--set", "replies", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["out_of_generator"]["contradiction_recall"] == 1.0


@pytest.fixture(scope="module")
def weekly(tmp_path_factory):
    """A benchmark world with three Poster Sessions (Tue 13:00 Alpha, Wed 10:00 Alpha, Thu 11:30 Epsilon)."""
    from harness.office import load_split

    did = "dev-01-5"
    path = tmp_path_factory.mktemp("weekly") / "world.json"
    path.write_text(json.dumps({did: load_split("dev")[did]}, ensure_ascii=False), encoding="utf-8")
    return loaded(str(path))


def test_a_weekly_meeting_told_apart_by_one_atom_stays_that_meeting(weekly):
    v = verifier(weekly, now=datetime(2026, 3, 3, 8, 45))
    checks = check_reply("The Poster Session starts at 11:30 in Meeting Room Alpha.", v)
    # 11:30 is Thursday's session, which is in Epsilon: the room is wrong for it, though another
    # Poster Session is in Alpha
    assert [c.verdict for c in checks] == ["supported", "contradicted"]
    listed = check_reply("Björn organizes Poster Session on Tuesday, Code Review on Wednesday, Poster Session on "
                         "Thursday and Quarterly Planning on Thursday.", verifier(weekly, now=datetime(2026, 3, 3, 8, 45)))
    assert "contradicted" not in [c.verdict for c in listed]  # each claim's own day picks its session


def test_single_valued_is_read_from_the_kg_and_years_may_be_integers(tmp_path):
    path = tmp_path / "uni.ttl"
    path.write_text(
        '@prefix u: <http://example.org/uni/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n'
        'u:amara rdfs:label "Amara Okonkwo" ; u:teaches u:ml ; u:headOfDepartment u:cs .\n'
        'u:henrik rdfs:label "Henrik Lindqvist" ; u:teaches u:algo , u:db ; u:office u:tb205 .\n'
        'u:ml rdfs:label "Machine Learning" . u:algo rdfs:label "Algorithms" . u:db rdfs:label "Databases" .\n'
        'u:cs rdfs:label "Computer Science Department" ; u:founded 1965 .\n'
        'u:tb205 rdfs:label "TB 2.05" ; u:capacity 40 .\n', encoding="utf-8")
    kb = loaded(str(path))
    checks = check_reply("Amara Okonkwo teaches Databases. Henrik Lindqvist is head of the Computer Science "
                         "Department. The Computer Science Department was founded in 1972. TB 2.05 seats 40 people.",
                         verifier(kb))
    # teaches: Henrik holds two, so Amara's one is not all she may teach; a department has one head
    assert [c.verdict for c in checks] == ["nei", "contradicted", "contradicted", "supported"]


def test_a_lead_with_items_is_one_claim_per_item():
    # The composer's way of saying several facts of one entity ("X: relation value; ...").
    assert split_claims("Ashcombe Albion: founding year 1944; stadium Saltworks Arena.") == [
        "Ashcombe Albion: founding year 1944.", "Ashcombe Albion: stadium Saltworks Arena."]
