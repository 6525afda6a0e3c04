"""The published GraphWOZ format (tests/data/graphwoz_published_shape.json, written for these
tests in that shape): loading, replay from manual and ASR transcripts, introduced speakers the
KG lacks, weak names, system mentions and pronouns, and the GraphWOZ evaluation."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import Config
from engine.pipeline import run_stages
from engine.session import Session
from engine.stages import observe, reason
from kgstore import vocab
from kgstore.loaders.graphwoz import parse
from kgstore.loaders.graphwoz_json import read_dialogue
from kgstore.store import KGStore
from kgstore.terms import Fact

FIXTURE = str(Path(__file__).resolve().parents[1] / "data" / "graphwoz_published_shape.json")
P = vocab.office_predicate


def entity(did: str, kind: str, key: str) -> str:
    return vocab.office_entity(did, kind, key)


def open_session(did: str) -> Session:
    return Session.open(Config(kg=[FIXTURE], dialogue_id=did, memory=True, demo="none",
                               reason_timeout_ms=20000, now="2022-03-26T13:00:00"))


def link_turn(session: Session, text: str, alternatives: list[str] | None = None):
    state = session.new_state(text, alternatives)
    run_stages(state, session.ctx, (observe.run, reason.run))
    session.history.append(("user", text))
    return state


def mention(state, text: str):
    return next(m for m in state.mentions if m.text == text)


def test_published_shape_loads_rooms_and_groups_keyed_by_name_and_whole_event_calendars():
    s = KGStore()
    report = s.load(FIXTURE, dialogue_id="LAB_1")
    assert report.warnings == [f"{FIXTURE}: dialogue LAB_1: unknown key 'data.floors' skipped"]  # `index` is known
    lena, ravi = entity("LAB_1", "person", "p1"), entity("LAB_1", "person", "p2")
    kappa, room385 = entity("LAB_1", "room", "Kappa"), entity("LAB_1", "room", "385")
    assert s.label(kappa) == "Kappa" and s.label(room385) == "385"
    assert s.types(room385) == [vocab.OFFICE_CLASSES["room"]]
    # Group membership from the keyed `groups` object (Ravi's own `group` says Geology too).
    assert (ravi, P("member_of"), entity("LAB_1", "group", "Geology")) in {f.key for f in s.facts_about(ravi)}
    # "rock walk" is only in calendars (a person's and a room's): it becomes an event all the same.
    walk = entity("LAB_1", "event", "e2")
    facts = {(f.p, f.o) for f in s.facts_about(walk)}
    assert (P("location"), kappa) in facts and (P("attendee"), ravi) in facts and (P("start_time"), "14:00:00") in facts
    seminar = {(f.p, f.o) for f in s.facts_about(entity("LAB_1", "event", "e1"))}
    assert (P("location"), room385) in seminar and (P("attendee"), lena) in seminar


def test_the_generated_shape_with_lists_still_loads():
    parsed = parse(FIXTURE, "LAB_2")
    s = KGStore()
    s.load(FIXTURE, dialogue_id="LAB_2")
    mira = entity("LAB_2", "person", "p3")
    assert (P("attendee"), mira) in {(f.p, f.o) for f in s.facts_about(entity("LAB_2", "event", "e9"))}
    assert s.label(entity("LAB_2", "room", "385")) == "385" and parsed.warnings == []


def test_unknown_keys_of_dialogues_and_log_entries_are_reported_not_fatal():
    warnings: list[str] = []
    read_dialogue(FIXTURE, "LAB_1", "manual", warnings)
    assert warnings == [f"{FIXTURE}: dialogue LAB_1: unknown key 'rating' skipped",
                        f"{FIXTURE}: dialogue LAB_1: unknown key 'emotion' in log entries skipped"]


def test_asr_replay_takes_the_best_hypothesis_and_keeps_the_others():
    manual = read_dialogue(FIXTURE, "LAB_1", "manual")
    asr = read_dialogue(FIXTURE, "LAB_1", "asr")
    assert manual[0]["text"].startswith("Hi, my name is Ravi Tandon") and "alternatives" not in manual[0]
    assert asr[0]["text"] == "hi my name is Ravi Tandon and I need someone from the bottomy group"
    assert asr[0]["alternatives"][0].endswith("the botany group") and len(asr[0]["alternatives"]) == 3
    assert [t["text"] for t in asr if t["speaker"] == "system"] == [t["text"] for t in manual if t["speaker"] == "system"]
    warnings: list[str] = []
    lab2 = read_dialogue(FIXTURE, "LAB_2", "asr", warnings)
    assert lab2[0]["text"] == "Tell me about Mira Holt." and "replayed from 'manual_transcription'" in warnings[0]


def test_other_hypotheses_bring_back_a_name_the_best_one_lost():
    session = open_session("LAB_1")
    turns = read_dialogue(FIXTURE, "LAB_1", "asr")
    state = link_turn(session, turns[0]["text"], turns[0]["alternatives"])
    botany = next(m for m in state.mentions if state.text[m.start:m.end] == "bottomy")
    assert botany.entity == entity("LAB_1", "group", "Botany") and botany.text == "botany"
    # Without the n-best list the misheard group is not found.
    alone = link_turn(open_session("LAB_1"), turns[0]["text"])
    assert all(m.entity != entity("LAB_1", "group", "Botany") for m in alone.mentions)


def test_an_introduced_name_the_kg_lacks_is_a_new_speaker_not_the_nearest_employee():
    session = open_session("LAB_1")
    state = link_turn(session, "Hi, my name is Ravi Tandon and I need someone from the Botany group.")
    ravi_okafor = entity("LAB_1", "person", "p2")
    assert state.speaker_entity != ravi_okafor
    assert session.ctx.store.label(state.speaker_entity) == "Ravi Tandon"
    graph = vocab.dialogue_graph(session.session_id)
    assert session.ctx.store.query(f"ASK {{ GRAPH <{graph}> {{ <{state.speaker_entity}> <{vocab.RDF_TYPE}> "
                                   f"<{vocab.OFFICE_CLASSES['person']}> }} }}")
    assert mention(state, "Ravi Tandon").entity == state.speaker_entity
    assert mention(state, "I").entity == state.speaker_entity
    # The KG person who is named exactly stays the speaker ("my name is Lena Ostrova").
    other = open_session("LAB_1")
    assert link_turn(other, "Hello, my name is Lena Ostrova.").speaker_entity == entity("LAB_1", "person", "p1")
    typed = open_session("LAB_1")  # in lower case, only a KG person's name can say who speaks
    assert link_turn(typed, "hi i'm lena ostrova").speaker_entity == entity("LAB_1", "person", "p1")
    assert link_turn(open_session("LAB_1"), "hi i'm ravi").speaker_entity is None


def test_a_weak_name_link_is_a_proposal_that_stores_no_edge():
    from engine.stages.reason import apply_links
    from engine.state import Mention

    session = open_session("LAB_1")
    graph = vocab.dialogue_graph(session.session_id)
    ravi = entity("LAB_1", "person", "p2")
    weak = Mention("Ravi", 0, 4, "name", iri="urn:test:mention:weak")
    strong = Mention("Ravi Okafor", 0, 11, "name", iri="urn:test:mention:strong")
    apply_links(session.ctx, session.session_id, [weak, strong],
                {weak.iri: [(ravi, 0.4)], strong.iri: [(ravi, 0.95)]}, rule="test")
    assert weak.entity == ravi and strong.entity == ravi  # both shown
    assert session.ctx.store.probability(Fact(weak.iri, vocab.KGC_REFERS_TO, ravi), graph) is None
    assert session.ctx.store.probability(Fact(strong.iri, vocab.KGC_REFERS_TO, ravi), graph) == pytest.approx(0.95)


def test_the_one_person_the_reply_named_competes_with_the_topic_for_her():
    session = open_session("LAB_2")
    mira, lena = entity("LAB_2", "person", "p3"), entity("LAB_2", "person", "p1")
    link_turn(session, "Tell me about Mira Holt.")
    session.system_turn("Mira Holt works in the Geology group.")
    assert mention(link_turn(session, "What is her phone number?"), "her").entity == mira
    session.system_turn("You could also contact Lena Ostrova.")
    assert mention(link_turn(session, "What is her email address?"), "her").entity == lena


def test_graphwoz_evaluation_scores_gold_entities_and_answer_recall():
    from harness.eval.graphwoz import gold_pairs, replay, stated, summary

    assert gold_pairs("Mark Morris : @speaker, Philosophy group : Philosophy, Kevin") == [
        ("Mark Morris", "@speaker"), ("Philosophy group", "Philosophy")]
    values = {"lena ostrova": "name", "lena.ostrova@lab.example": "email", "385": "room", "10:30": "time"}
    assert sorted(stated("Lena Ostrova's email address is lena.ostrova@lab.example, room 385 at 10:30.", values)) == [
        "10:30", "385", "lena ostrova", "lena.ostrova@lab.example"]
    result = summary(replay(FIXTURE, ["LAB_1"], "manual", retriever="topk", scorer="bm25", k=10,
                            reason_timeout_ms=20000))
    assert {k: result["linking"][k] for k in ("gold", "correct", "accuracy")} == {"gold": 4, "correct": 4, "accuracy": 1.0}
    assert result["linking"]["by_kind"]["speaker"] == {"gold": 1, "correct": 1, "accuracy": 1.0}
    # Lena Ostrova, Botany; her name and e-mail; the soil seminar, 10:30, room 385.
    assert result["answer_recall"]["values"] == 7 and result["answer_recall"]["found"] >= 6


def test_retrieve_replays_the_asr_transcript_and_reports_unknown_keys(capsys):
    import json

    from cli.retrieve import main

    assert main(["--kg", FIXTURE, "--dialogue", FIXTURE, "--dialogue-id", "LAB_1", "--memory", "--demo", "none",
                 "--transcript", "asr", "--scorer", "bm25", "--retriever", "topk", "--json"]) == 0
    out = capsys.readouterr()
    turns = json.loads(out.out)["turns"]
    assert turns[0]["text"] == "hi my name is Ravi Tandon and I need someone from the bottomy group"
    assert any(m["label"] == "Botany" for m in turns[0]["mentions"])
    assert "unknown key 'emotion' in log entries skipped" in out.err and "unknown key 'data.floors'" not in out.out
