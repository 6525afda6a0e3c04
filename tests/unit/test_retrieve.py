"""Retrieval end to end: selection, the `kgchat retrieve --json` contract, and bad input."""

import json

import pytest

from engine.stages.retrieve import select_pcst, select_topk
from engine.state import Candidate
from kgstore.terms import Fact
from kgstore.vocab import RDF_TYPE

P = "urn:p:"


def _c(s, p, o, score, literal=False):
    return Candidate(fact=Fact(s, P + p if p != "type" else RDF_TYPE, o, o_literal=literal), score=score)


def test_pcst_keeps_a_bridging_node_and_maps_node_facts_to_nodes():
    cands = [_c("urn:omar", "attendee_of", "urn:ev", 0.9), _c("urn:ev", "location", "urn:beta", 0.9),
             _c("urn:omar", "phone", "+47", 0.05, literal=True), _c("urn:ev", "date", "2026-03-02", 0.05, literal=True),
             _c("urn:omar", "type", "urn:Person", 0.8), _c("urn:beta", "type", "urn:Room", 0.7),
             _c("urn:ev", "type", "urn:Event", 0.0)]
    sel = select_pcst(cands, k=5, cap=25, prizes={"threshold": 0.5, "scale": 2.0})
    assert {c.fact.key for c in sel.facts if c.fact.p != RDF_TYPE} == {
        ("urn:omar", P + "attendee_of", "urn:ev"), ("urn:ev", P + "location", "urn:beta")}
    assert set(sel.nodes) == {"urn:omar", "urn:ev", "urn:beta"}
    assert sel.bridging == ["urn:ev"]
    assert "+47" not in sel.nodes


def test_pcst_rank_prizes_and_the_size_cap():
    cands = [_c("urn:h", "knows", f"urn:n{i}", 1.0 - i / 100) for i in range(40)]
    sel = select_pcst(cands, k=5, cap=3, prizes=None)
    edges = [c for c in sel.facts if c.fact.p != RDF_TYPE]
    assert len(edges) == 3 and [c.fact.o for c in edges] == ["urn:n0", "urn:n1", "urn:n2"]


def _pcst_edges(cands, prizes, k=5):
    sel = select_pcst(cands, k=k, cap=25, prizes=prizes)
    return {c.fact.p[len(P):] for c in sel.facts if c.fact.p != RDF_TYPE}


def test_pcst_with_all_low_probabilities_still_gets_the_facts_topk_gets():
    # A film actor: every cast-member fact under the prize threshold.
    cands = [_c("urn:actor", f"cast_member_{i}", f"urn:film{i}", 0.14 + i / 100) for i in range(4)]
    cands += [_c("urn:actor", "given_name", "urn:name", 0.05), _c("urn:actor", "type", "urn:Human", 0.3)]
    edges = _pcst_edges(cands, {"threshold": 0.6, "scale": 3.0, "ratio": 0.7, "top": 1}, k=4)
    top = {c.fact.p[len(P):] for c in select_topk(cands, 4).facts}
    assert top == {f"cast_member_{i}" for i in range(4)} and top <= edges


def test_pcst_noise_nodes_do_not_pull_noise_edges_in():
    # "male" and "Wikipedia" score high as nodes, their edges low: only the asked fact comes.
    player = _c("urn:p", "type", "urn:Human", 0.9)
    player.hop = 0
    cands = [_c("urn:p", "place_of_birth", "urn:ealing", 0.75), _c("urn:p", "sex_or_gender", "urn:male", 0.05),
             _c("urn:p", "described_by_source", "urn:wikipedia", 0.04), player,
             _c("urn:male", "type", "urn:Sex", 0.81), _c("urn:wikipedia", "type", "urn:Work", 0.72),
             _c("urn:ealing", "type", "urn:Town", 0.6)]
    for c in cands[4:]:
        c.hop = 1
    prizes = {"threshold": 0.5, "scale": 2.0, "ratio": 1.0, "top": 1}
    assert _pcst_edges(cands, prizes) == {"place_of_birth"}


def test_pcst_keeps_both_parts_of_a_compound_question():
    ev = _c("urn:ev", "type", "urn:Event", 0.9)
    ev.hop = 0
    cands = [_c("urn:ev", "location", "urn:delta", 0.92), _c("urn:ev", "organizer", "urn:fatima", 0.55),
             _c("urn:ev", "attendee", "urn:x", 0.2), _c("urn:ev", "attendee", "urn:y", 0.15), ev]
    assert _pcst_edges(cands, {"threshold": 0.7, "scale": 2.0, "ratio": 0.5, "top": 1}) == {"location", "organizer"}


def test_the_gate_narrows_a_focused_turn_only():
    # One fact far ahead of four weak ones: on a focused turn (one question about a named entity)
    # the weak ones stay out; on any other turn the best five still all enter.
    cands = [_c("urn:club", "stadium", "urn:park", 0.95)] + [
        _c("urn:club", f"weak_{i}", f"urn:w{i}", 0.08 - i / 100) for i in range(4)]
    prizes = {"threshold": 0.4, "scale": 1.5, "ratio": 0.5, "top": 5, "gate": 0.2}
    assert {c.fact.p[len(P):] for c in select_pcst(cands, 5, 25, prizes, focus=True).facts} == {"stadium"}
    assert len(select_pcst(cands, 5, 25, prizes, focus=False).facts) == 5


def test_the_gate_lets_by_what_goes_on_from_the_best_fact_or_has_the_asked_type():
    prizes = {"threshold": 0.4, "scale": 1.5, "ratio": 0.5, "top": 5, "gate": 0.2}
    # "Where should I go to watch them?": the stadium's city goes on from the best fact's value.
    cands = [_c("urn:club", "stadium", "urn:park", 0.99), _c("urn:park", "located_in", "urn:town", 0.15),
             _c("urn:club", "league", "urn:league", 0.1)]
    assert {c.fact.p[len(P):] for c in select_pcst(cands, 5, 25, prizes, focus=True).facts} == {
        "stadium", "located_in"}
    # "In what year was it created?": the best fact is no date, the founding date is.
    cands = [_c("urn:house", "founded_by", "urn:ines", 0.8), _c("urn:house", "founded_on", "1922", 0.1, True),
             _c("urn:house", "seat", "urn:town", 0.1)]
    cands[1].features = {"atype_match": 1.0}
    assert {c.fact.p[len(P):] for c in select_pcst(cands, 5, 25, prizes, focus=True).facts} == {
        "founded_by", "founded_on"}
    # When the best fact has the asked type, the rest of that type stay behind the gate.
    cands[0].features = {"atype_match": 1.0}
    assert {c.fact.p[len(P):] for c in select_pcst(cands, 5, 25, prizes, focus=True).facts} == {"founded_by"}


def _turn(text, entity, cands):
    from datetime import datetime

    from engine.state import Mention, TurnState

    state = TurnState("s", 1, text, datetime(2026, 1, 1))
    state.mentions = [Mention("x", 0, 1, "name", entity=entity)]
    state.candidates = cands
    return state


def test_a_list_question_gets_every_value_of_the_relation_it_asks_for():
    # A film actor: the best cast edges far ahead of the others; the gate of a
    # focused turn keeps one, the list question wants all of them.
    from engine.stages.retrieve import select

    cands = [_c(f"urn:film{i}", "cast_member", "urn:actor", 0.9 if i == 0 else 0.1 - i / 100) for i in range(4)]
    cands += [_c("urn:actor", "given_name", "urn:name", 0.02), _c("urn:film9", "director", "urn:other", 0.05)]
    prizes = {"threshold": 0.4, "scale": 1.5, "ratio": 0.5, "top": 5, "gate": 0.5}

    def got(text):
        return sorted(c.fact.s for c in select(_turn(text, "urn:actor", cands), "pcst", 5, 25, prizes).facts)

    assert got("Which film is Ann Lee in?") == ["urn:film0"]
    assert got("What films is Ann Lee in?") == [f"urn:film{i}" for i in range(4)]
    # Only at an entity of the turn: a list question about someone else takes nothing more.
    assert len(select(_turn("What films is Bo in?", "urn:bo", cands), "pcst", 5, 25, prizes).facts) == 1


def _group_turn(count: str, noun: str = "members", count_score: float = 0.95):
    """A group with three members and five events, and a derived count of its members: the
    count and the events score well, the members far behind (as a relevance model scores them)."""
    count_fact = Candidate(fact=Fact("urn:chess", "urn:derived:member_count", count, o_literal=True),
                           p_label="member count", text=f"the Chess group has {count} {noun}", derived=True,
                           score=count_score)
    members = [_c(f"urn:m{i}", "member_of", "urn:chess", 0.3 - i / 100) for i in range(3)]
    events = [_c(f"urn:ev{i}", "group", "urn:chess", 0.7 - i / 100) for i in range(5)]
    for c in members:
        c.p_label = "member of"
    for c in events:
        c.p_label = "group"
    return [count_fact, *members, *events]


PRIZES = {"threshold": 0.4, "scale": 1.5, "ratio": 0.5, "top": 5, "gate": 0.2}


def test_a_count_brings_the_facts_it_counts():
    # "Who can I contact in the Chess group?" -> "It has 3 members: ...": the count's prize goes
    # to the three member facts, which then enter beside it however low they score.
    sel = select_pcst(_group_turn("3"), 5, 25, PRIZES, focus=True)
    assert {c.fact.s for c in sel.facts if c.fact.p.endswith("member_of")} == {"urn:m0", "urn:m1", "urn:m2"}


@pytest.mark.parametrize("count, noun, count_score", [
    ("2", "members", 0.95),  # fewer than the member facts: it does not count these
    ("8", "rooms", 0.95),  # it counts another relation: its noun names no "member of"
    ("3", "members", 0.05),  # the count itself has no prize
])
def test_a_count_brings_nothing_it_does_not_count(count, noun, count_score):
    sel = select_pcst(_group_turn(count, noun, count_score), 5, 25, PRIZES, focus=True)
    assert not any(c.fact.p.endswith("member_of") for c in sel.facts)


def _rooms_turn(text: str = "Which rooms are free?"):
    """A type request over five rooms: the rules say each one is available now, and the
    relevance model scores those facts one by one, far apart, under the events held in them."""
    from datetime import datetime

    from engine.state import Mention, TurnState

    state = TurnState("s", 1, text, datetime(2026, 1, 1))
    state.mentions = [Mention("rooms", 6, 11, "type", value="urn:Room")]
    rooms = [f"urn:room{i}" for i in range(5)]
    state.candidates = [_c(r, "type", "urn:Room", 0.2) for r in rooms]
    state.candidates += [_c(f"urn:ev{i}", "location", rooms[i], 0.3 - i / 100) for i in range(5)]
    state.candidates += [_c(f"urn:ev{i}", "organizer", f"urn:p{i}", 0.25 - i / 100) for i in range(5)]
    for i, r in enumerate(rooms):
        fact = Fact(r, "urn:derived:room_available", "now (13:45)", o_literal=True)
        state.candidates.append(Candidate(fact=fact, text=f"Room {i} is available now (13:45)", derived=True,
                                          p_label="room available", score=0.2 - i * 0.04))
    return state


def _sure_of_two(state) -> None:
    """The model sure of two rooms' availability (meeting rooms), sure against the three others."""
    for c in state.candidates:
        if c.derived:
            c.score = 0.95 if c.fact.s in ("urn:room0", "urn:room1") else 0.05


def test_the_answers_of_a_type_request_are_kept_together():
    # "Which rooms are free?": every room's availability, not the best-scored one or two.
    from engine.stages.retrieve import select

    sel = select(_rooms_turn(), "pcst", 5, 25, PRIZES)
    assert {c.fact.s for c in sel.facts if c.derived} == {f"urn:room{i}" for i in range(5)}
    assert sel.note == ""


def test_a_sure_model_tells_the_answers_of_a_type_request_from_the_rest():
    # Two meeting rooms score high, three offices low: the model's scores decide, the request
    # gives no shared prize that would pull the offices in.
    from engine.stages.retrieve import request_answers

    state = _rooms_turn()
    assert len(request_answers(state, PRIZES["threshold"])) == 5
    _sure_of_two(state)
    assert request_answers(state, PRIZES["threshold"]) == []


def test_the_options_of_the_meeting_being_arranged_are_every_answer_however_sure_the_model_is():
    # While a meeting is arranged, "which rooms are free then?" asks for its options: every room
    # free at its time, not the two the model is surest of.
    from engine.stages.retrieve import select

    state = _rooms_turn("Which rooms are free then?")
    _sure_of_two(state)
    assert len({c.fact.s for c in select(state, "pcst", 5, 25, PRIZES).facts if c.derived}) < 5
    state.meeting = {"iri": "urn:meeting1", "name": "", "day": "2026-01-02", "start": "10:00"}
    sel = select(state, "pcst", 5, 25, PRIZES)
    assert {c.fact.s for c in sel.facts if c.derived} == {f"urn:room{i}" for i in range(5)}


def test_the_options_at_a_time_the_turn_names_are_every_answer_however_sure_the_model_is():
    # "Is any room free tomorrow morning?" before any meeting: the options at that time, all of them.
    from datetime import date

    from engine.nlp.timeexpr import TimeValue
    from engine.stages.retrieve import select
    from engine.state import Mention

    state = _rooms_turn("Which rooms are free tomorrow morning?")
    _sure_of_two(state)
    assert len({c.fact.s for c in select(state, "pcst", 5, 25, PRIZES).facts if c.derived}) < 5
    state.mentions.append(Mention("tomorrow morning", 21, 37, "time", value=TimeValue(date(2026, 1, 2), 480, 660, "morning")))
    sel = select(state, "pcst", 5, 25, PRIZES)
    assert {c.fact.s for c in sel.facts if c.derived} == {f"urn:room{i}" for i in range(5)}


def test_a_request_cut_by_the_cap_says_how_many_of_its_answers_it_kept():
    from engine.stages.retrieve import select

    sel = select(_rooms_turn(), "pcst", 5, 3, PRIZES)
    assert "kept 3 of the 5 answers the request asked for" in sel.note


def test_a_subgraph_cut_by_its_cap_says_so():
    from engine.stages.retrieve import select

    sel = select(_rooms_turn(), "pcst", 5, 3, PRIZES)
    assert len([c for c in sel.facts if c.fact.p != RDF_TYPE]) == 3
    assert "kept 3 of its" in sel.note


def test_entities_no_fact_joins_are_each_kept():
    # "Book Delta" from a speaker the KG does not know: two named nodes and no edge between them.
    cands = [_c("urn:speaker", "type", "urn:Person", 0.98), _c("urn:delta", "type", "urn:Room", 0.9)]
    cands[0].hop = cands[1].hop = 0
    sel = select_pcst(cands, k=5, cap=25, prizes={"threshold": 0.4, "scale": 1.5})
    assert set(sel.nodes) == {"urn:speaker", "urn:delta"}


@pytest.mark.parametrize("text, kinds, expected", [
    ("Where does Orrin Falls United play?", ["name"], True),
    ("How many seats does Foundry Arena have and in which city is it located?", ["name"], False),
    ("Where do they play?", ["pronoun"], True),
    ("And her e-mail?", ["pronoun"], True),
    ("Where do they play?", ["type"], False),
    ("What are the population and the area of Warsaw?", ["name"], False),
])
def test_a_focused_turn_asks_one_question_about_an_entity_it_names(text, kinds, expected):
    from datetime import datetime

    from engine.focus import focused
    from engine.state import Mention, TurnState

    state = TurnState("s", 1, text, datetime(2026, 1, 1))
    state.mentions = [Mention("x", 0, 1, kind, entity="urn:e") for kind in kinds]
    assert focused(state) is expected


def test_topk_returns_the_k_best_facts_and_their_nodes():
    cands = [_c("urn:a", "r", "urn:b", 0.2), _c("urn:a", "r", "urn:c", 0.9), _c("urn:a", "type", "urn:T", 1.0),
             _c("urn:a", "name", "x", 0.5, literal=True)]
    sel = select_topk(cands, 2)
    assert [c.fact.o for c in sel.facts] == ["urn:c", "x"]
    assert set(sel.nodes) == {"urn:a", "urn:c", "x"}


def test_empty_candidates_select_nothing():
    assert select_pcst([], 5, 25, None).facts == [] and select_topk([], 5).facts == []


TTL = """
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix o: <urn:kgchat:office:> .
<urn:kgchat:kg:w:person:omar> rdfs:label "Omar Haddad" ; a o:Person ; o:phone "+47 555 01 234" ;
    o:email "omar@example.org" ; o:member_of <urn:kgchat:kg:w:group:eng> ; o:office <urn:kgchat:kg:w:room:r1> .
<urn:kgchat:kg:w:group:eng> rdfs:label "Engineering" ; a o:Group .
<urn:kgchat:kg:w:room:r1> rdfs:label "Office 101" ; a o:Room .
"""
NO_LABELS = """
<http://example.org/people/omar_haddad> <http://example.org/rel/works_in> <http://example.org/place/office_101> .
<http://example.org/people/omar_haddad> <http://example.org/rel/phone> "+47 555 01 234" .
"""


def _retrieve(tmp_path, capsys, kg_text, turns, *extra):
    from cli.retrieve import main

    kg = tmp_path / "kg.ttl"
    kg.write_text(kg_text, encoding="utf-8")
    dialogue = tmp_path / "d.json"
    dialogue.write_text(json.dumps(turns), encoding="utf-8")
    rc = main(["--kg", str(kg), "--dialogue", str(dialogue), "--json", "--now", "2026-03-02T09:00:00", *extra],
              command="retrieve")
    out = capsys.readouterr().out
    assert rc == 0
    return json.loads(out)


def test_retrieve_json_has_the_contract_shape(tmp_path, capsys):
    doc = _retrieve(tmp_path, capsys, TTL, [
        {"speaker": "user", "text": "Hello!"},
        {"speaker": "system", "text": "Hi, how can I help?"},
        {"speaker": "user", "text": "What is Omar Haddad's phone number?"},
        {"speaker": "system", "text": "It is +47 555 01 234."},
        {"speaker": "user", "text": "And his office?"},
    ])
    assert list(doc) == ["turns"] and len(doc["turns"]) == 3
    greeting, ask, follow = doc["turns"]
    for t in doc["turns"]:
        assert list(t) == ["turn", "speaker", "text", "rewritten", "mentions", "derived", "retrieved", "paths",
                           "paths_note", "timings_ms", "meeting"]
        assert t["meeting"] is None  # no meeting arranged in this dialogue
        assert t["speaker"] == "user"
    assert greeting["retrieved"] == []
    assert ask["turn"] == 3
    assert any(m["entity"] == "urn:kgchat:kg:w:person:omar" for m in ask["mentions"])
    r = ask["retrieved"]
    # the keys of docs/design.md, "Headless interface", plus the derived facts merged into each fact (additions are allowed)
    assert r and set(r[0]) == {"s", "p", "o", "s_label", "p_label", "o_label", "text", "score", "derived",
                               "also_derived"}
    assert all(isinstance(f["also_derived"], list) for f in r)
    assert any(f["p"] == "urn:kgchat:office:phone" and f["o"] == "+47 555 01 234" for f in r)
    assert {"candidates", "verbalize", "score", "retrieve"} <= set(ask["timings_ms"])
    assert any(f["p"] == "urn:kgchat:office:office" for f in follow["retrieved"])


@pytest.mark.parametrize("retriever,scorer", [("topk", "bm25"), ("pcst", "sbert")])
def test_retrieve_options_pick_retriever_and_scorer(tmp_path, capsys, retriever, scorer):
    doc = _retrieve(tmp_path, capsys, TTL, [{"speaker": "user", "text": "What is Omar Haddad's e-mail?"}],
                    "--retriever", retriever, "--scorer", scorer, "--k", "2")
    facts = [f for f in doc["turns"][0]["retrieved"] if f["p"] != "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"]
    assert facts and (len(facts) <= 2 if retriever == "topk" else True)


def test_bad_input_kg_without_labels_empty_kg_no_mentions_non_english(tmp_path, capsys):
    doc = _retrieve(tmp_path, capsys, NO_LABELS, [
        {"speaker": "user", "text": "What is the phone of omar haddad?"},
        {"speaker": "user", "text": "Hmm, something unrelated about the weather."},
        {"speaker": "user", "text": "¿Cuál es el teléfono de Omar Haddad? 電話番号"},
    ])
    assert len(doc["turns"]) == 3
    for t in doc["turns"]:
        for f in t["retrieved"]:
            assert f["s_label"] and "http" not in f["s_label"]  # local names, not IRIs

def test_empty_kg_retrieves_nothing(tmp_path, capsys):
    from cli.retrieve import main

    dialogue = tmp_path / "d.json"
    dialogue.write_text(json.dumps([{"speaker": "user", "text": "Who is Omar?"}]), encoding="utf-8")
    assert main(["--demo", "none", "--dialogue", str(dialogue), "--json"], command="retrieve") == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["turns"][0]["retrieved"] == [] and doc["turns"][0]["mentions"] == []


def test_retrieve_bad_dialogue_file_exits_2(tmp_path, capsys):
    from cli import main

    kg = tmp_path / "kg.ttl"
    kg.write_text(TTL, encoding="utf-8")
    bad = tmp_path / "d.json"
    bad.write_text('[{"speaker": "robot", "text": "hi"}]', encoding="utf-8")
    assert main(["retrieve", "--kg", str(kg), "--dialogue", str(bad), "--json"]) == 2
    assert "speaker" in capsys.readouterr().err


@pytest.mark.parametrize("question, wanted", [
    ("Who organizes the Poster Session?", {"organizer"}),
    ("Who organizes the Poster Session and where is it?", {"organizer", "location"}),
])
def test_demo_office_organizer_question_retrieves_the_organizer(tmp_path, capsys, question, wanted):
    """On the demo KG with the default retriever and scorer, the organizer fact must be retrieved:
    scored 0.51 and ranked 7th it was left out, and the model then named a group as the organizer."""
    from cli.retrieve import main

    dialogue = tmp_path / "d.json"
    dialogue.write_text(json.dumps([{"speaker": "user", "text": question}]), encoding="utf-8")
    assert main(["--dialogue", str(dialogue), "--json", "--now", "2026-03-02T07:30:00"], command="retrieve") == 0
    facts = json.loads(capsys.readouterr().out)["turns"][0]["retrieved"]
    texts = " || ".join(f["text"] for f in facts)
    assert "Fatima Walker" in texts, texts
    said = {f["p"].rsplit(":", 1)[-1] for f in facts if f["s_label"] == "Poster Session"}
    said |= {"location" for f in facts if f["p"].endswith("event_place")}
    assert wanted <= said, texts
