"""A meeting the user arranges by voice: an entity of the session's dialogue graph with the name,
day, time, room and invitees the user and the system's confirmations give it; the words that
mean it link to it; plural reference to the people a reply named; published files with NaN."""

from __future__ import annotations

import json
import math

import pytest

from engine.config import Config
from engine.pipeline import run_stages
from engine.session import Session
from engine.stages import candidates, observe, reason
from kgstore import vocab

DID = "OPTICS_1"
NOW = "2022-03-28T09:00:00"


def world() -> dict:
    people = [{"name": "Nora Vance", "id": "p1", "email": "nora@optics.example", "phone": "+4712340001",
               "group": "Optics", "office": "Sigma", "calendar": []},
              {"name": "Tomas Reyes", "id": "p2", "email": "tomas@optics.example", "phone": "+4712340002",
               "group": "Optics", "office": "Sigma", "calendar": []},
              {"name": "Ines Karlsen", "id": "p3", "email": "ines@optics.example", "phone": "+4712340003",
               "group": "Acoustics", "office": "Delta", "calendar": ["e1"]}]
    events = [{"id": "e1", "name": "lens review", "date": "2022-03-29", "start_time": "10:00:00",
               "end_time": "11:00:00", "location": "Delta", "organizer": "p3", "attendees": ["p3"]},
              {"id": "e2", "name": "optics workshop", "date": "2022-03-30", "start_time": "13:00:00",
               "end_time": "14:00:00", "location": "Sigma", "organizer": "p1", "attendees": ["p1"]}]
    return {"people": people, "events": events, "rooms": ["Sigma", "Delta"], "groups": ["Optics", "Acoustics", "Philosophy"]}


def entry(turn: int, user, reply, **more) -> dict:
    return {"turn": turn, "manual_transcription": user, "agent_response": reply, "entities": "", **more}


@pytest.fixture
def kg(tmp_path):
    path = tmp_path / "optics.json"
    path.write_text(json.dumps({DID: {"data": world(), "log": [entry(1, "Hello.", "Hi.")]}}), encoding="utf-8")
    return str(path)


def open_session(path: str) -> Session:
    return Session.open(Config(kg=[path], dialogue_id=DID, memory=True, demo="none", reason_timeout_ms=20000,
                               now=NOW))


def turn(session: Session, text: str):
    state = session.new_state(text)
    run_stages(state, session.ctx, (observe.run, reason.run))
    session.history.append(("user", text))
    return state


def mention(state, text: str):
    return next(m for m in state.mentions if m.text == text)


def person(key: str) -> str:
    return vocab.office_entity(DID, "person", key)


def test_a_meeting_the_user_sets_up_is_an_entity_of_the_dialogue_graph_with_its_slots(kg):
    session = open_session(kg)
    background = session.ctx.store.count(vocab.bg_graph(DID))
    first = turn(session, "Hi, my name is Ines Karlsen. Can you set up a meeting with Nora Vance tomorrow?")
    meeting_iri = vocab.meeting_node(session.session_id, 1)
    assert mention(first, "a meeting").entity == meeting_iri
    session.system_turn("Sure. What would you like your meeting to be called?")
    named = turn(session, "Just call it optics sync.")
    assert mention(named, "it").entity == meeting_iri and mention(named, "optics sync").entity == meeting_iri
    timed = turn(session, "Can it be at 2 PM?")
    assert mention(timed, "it").entity == meeting_iri
    roomed = turn(session, "Please book it in Sigma.")
    assert mention(roomed, "it").entity == meeting_iri
    assert roomed.meeting == {"iri": meeting_iri, "name": "optics sync", "day": "2022-03-29", "start": "14:00",
                              "end": "15:00", "room": "Sigma", "invitees": ["Nora Vance"],
                              "organizer": "Ines Karlsen"}
    # SPARQL over the store sees it, in the session's dialogue graph; the background is untouched.
    rows = session.ctx.store.query(f"""SELECT ?name ?who WHERE {{ GRAPH <{vocab.dialogue_graph(session.session_id)}> {{
        ?m a <{vocab.OFFICE_CLASSES['event']}> ; <{vocab.RDFS_LABEL}> ?name ;
           <{vocab.office_predicate('attendee')}> ?who }} }}""")
    assert rows == [{"name": "optics sync", "who": person("p1")}]
    assert session.ctx.store.count(vocab.bg_graph(DID)) == background


def test_the_system_asking_what_to_call_the_event_starts_one_and_the_reply_is_its_name(kg):
    session = open_session(kg)
    turn(session, "Is Sigma free tomorrow morning?")
    session.system_turn("Sigma is free. I can book it from 9 to 11. What would you like your event to be called?")
    answer = turn(session, "Budget planning.")
    meeting_iri = vocab.meeting_node(session.session_id, 1)
    assert mention(answer, "Budget planning").entity == meeting_iri
    session.system_turn('Alright, I have booked "budget planning" in Sigma from 9 to 11 tomorrow.')
    later = turn(session, "Please invite Tomas Reyes to the meeting.")
    assert mention(later, "the meeting").entity == meeting_iri
    assert later.meeting["name"] == "budget planning" and later.meeting["room"] == "Sigma"
    assert later.meeting["start"] == "09:00" and later.meeting["invitees"] == ["Tomas Reyes"]


def test_a_day_the_reply_gives_another_meeting_is_not_the_arranged_ones(kg):
    session = open_session(kg)
    turn(session, "Can you set up a meeting at ten o'clock?")
    session.system_turn("Sure. What would you like your meeting to be called?")
    turn(session, "Call it optics sync.")
    session.system_turn("OK! I'll make sure the meeting is on your calendar. "
                        "You're attending a lens review organized by Ines Karlsen on March 30.")
    state = turn(session, "Which rooms are free?")
    assert state.meeting["day"] == "2022-03-28" and state.meeting["start"] == "10:00"


def test_a_length_the_reply_gives_a_meeting_whose_start_is_known_sets_its_end(kg):
    session = open_session(kg)
    turn(session, "Can you set up a meeting at ten o'clock?")
    session.system_turn("Sure. What would you like your meeting to be called?")
    turn(session, "Call it optics sync.")
    session.system_turn("Great, I'll add it to your calendar for 30 minutes.")
    state = turn(session, "Which rooms are free?")
    assert (state.meeting["start"], state.meeting["end"]) == ("10:00", "10:30")
    session.system_turn("Alright, I'll move your meeting to 11 o'clock.")  # a new start keeps the length
    state = turn(session, "Which rooms are free?")
    assert (state.meeting["start"], state.meeting["end"]) == ("11:00", "11:30")


def test_that_meeting_is_the_kg_event_spoken_of_since_and_not_call_it_anything(kg):
    session = open_session(kg)
    turn(session, "Can you arrange a meeting for me tomorrow?")
    session.system_turn("Sure. What would you like your meeting to be called?")
    nameless = turn(session, "You don't have to call the meeting anything.")
    assert nameless.meeting["name"] == ""
    asked = turn(session, "When is the lens review?")
    session.system_turn("The lens review is tomorrow at 10 in Delta.")
    followup = turn(session, "Who organizes that meeting?")
    assert mention(followup, "that meeting").entity == vocab.office_entity(DID, "event", "e1")
    assert asked.meeting["day"] == "2022-03-29" and asked.meeting["start"] == ""


def test_another_meeting_is_a_second_entity_and_the_previous_one_is_the_first(kg):
    session = open_session(kg)
    turn(session, "Can you set up a meeting with Nora Vance tomorrow?")
    turn(session, "And can you book another meeting with Tomas Reyes?")
    back = turn(session, "Please cancel the previous one.")
    assert mention(back, "the previous one").entity == vocab.meeting_node(session.session_id, 1)


def test_them_after_a_reply_that_named_two_people_means_both(kg):
    session = open_session(kg)
    turn(session, "Who is in the Optics group?")
    session.system_turn("The members of the Optics group are Nora Vance and Tomas Reyes.")
    state = turn(session, "What are their phone numbers?")
    their = mention(state, "their")
    assert their.together == [person("p1"), person("p2")]
    assert set(candidates.linked_now(state)) >= {person("p1"), person("p2")}


def test_them_after_a_reply_that_named_one_group_is_left_to_the_rules(kg):
    session = open_session(kg)
    turn(session, "I need someone from the optics group.")
    session.system_turn("There are two members of the Optics group.")
    state = turn(session, "Can you tell me their names?")
    assert mention(state, "their").together == []


def test_nan_null_and_numbers_where_text_belongs_warn_and_the_turn_goes_on(tmp_path):
    from harness.eval.graphwoz import replay, summary
    from kgstore.loaders.graphwoz_json import read_dialogue

    path = tmp_path / "published.json"
    log = [entry(1, "Hello, my name is Nora Vance.", math.nan, entities="Nora Vance : @ speaker"),
           entry(2, None, "Sorry?", alternative=[{"transcript": "what is her email"}]),
           entry(3, 45, None), entry(4, "Thanks.", "Bye.")]
    path.write_text(json.dumps({DID: {"data": world(), "log": log}}), encoding="utf-8")  # NaN as published
    assert "NaN" in path.read_text()
    warnings: list[str] = []
    turns = read_dialogue(str(path), DID, "manual", warnings)
    assert [(t["speaker"], t["text"]) for t in turns] == [
        ("user", "Hello, my name is Nora Vance."), ("user", "what is her email"), ("system", "Sorry?"),
        ("user", "45"), ("user", "Thanks."), ("system", "Bye.")]
    where = f"{path}: dialogue {DID}: "
    assert warnings == [where + "turn 1: 'agent_response' is NaN, not text: taken as empty, the turn goes on",
                        where + "turn 2: 'manual_transcription' is null, not text: taken as empty, the turn goes on",
                        where + "turn 3: 'manual_transcription' is the number 45, not text: read as text",
                        where + "turn 3: 'agent_response' is null, not text: taken as empty, the turn goes on"]
    result = summary(replay(str(path), [DID], "manual", retriever="topk", scorer="bm25", k=10,
                            reason_timeout_ms=20000))
    assert result["user_turns"] == 4
    assert result["linking"]["by_kind"]["speaker"] == {"gold": 1, "correct": 1, "accuracy": 1.0}


def test_eval_linking_counts_new_events_and_speakers_by_kind(tmp_path):
    from harness.eval.graphwoz import gold_pairs, replay, summary

    assert gold_pairs('my afternoon meetings : {type="events", organizer="Barbara Wright"}, my : @ speaker') == [
        ("my afternoon meetings", '{type="events", organizer="Barbara Wright"}'), ("my", "@speaker")]
    path = tmp_path / "arrange.json"
    log = [entry(1, "Hi, I am Nora Vance. Can you set up a meeting with Tomas Reyes?",
                 "Sure. What would you like your meeting to be called?",
                 entities="Nora Vance : @speaker, Tomas Reyes : Tomas Reyes, meeting : @newevent"),
           entry(2, "Call it optics sync.", "Done.", entities="it : @newevent, optics sync : @newevent")]
    path.write_text(json.dumps({DID: {"data": world(), "log": log}}), encoding="utf-8")
    linking = summary(replay(str(path), [DID], "manual", retriever="topk", scorer="bm25", k=10,
                             reason_timeout_ms=20000))["linking"]
    assert linking["by_kind"] == {"KG entity": {"gold": 1, "correct": 1, "accuracy": 1.0},
                                  "speaker": {"gold": 1, "correct": 1, "accuracy": 1.0},
                                  "new event": {"gold": 3, "correct": 3, "accuracy": 1.0}}


@pytest.mark.parametrize("evaluation", ["linking", "retrieval"])
def test_eval_help_lists_the_graphwoz_options(evaluation, capsys):
    from cli.eval import main

    with pytest.raises(SystemExit):
        main([evaluation, "--help"])
    out = capsys.readouterr().out
    assert "--graphwoz FILE" in out and "--transcript" in out


def test_self_introductions_with_corrections_repeats_and_titles(kg):
    from engine.nlp.speakers import introduced_name

    assert introduced_name("My name is Robert. Sorry, it's not Robert, it's Nora Vance.")[2] == "Nora Vance"
    assert introduced_name("my name is Vance, Nora Vance.")[2] == "Nora Vance"
    session = open_session(kg)
    assert turn(session, "Hello, I'm Professor Karlsen.").speaker_entity == person("p3")
    corrected = open_session(kg)
    turn(corrected, "Hi, my name is Tomas Reyes.")
    assert turn(corrected, "Sorry, it's not Tomas, it's Nora Vance.").speaker_entity == person("p1")


def test_a_name_said_when_the_system_asked_for_it_is_the_speaker(kg):
    session = open_session(kg)
    turn(session, "Please check my calendar.")
    session.system_turn("Sure, can you confirm your name?")
    assert turn(session, "nora vance").speaker_entity == person("p1")


def test_the_adjective_form_of_a_group_name_links_to_the_group(kg):
    session = open_session(kg)
    state = turn(session, "is anyone from the philosophical group in today")
    assert vocab.office_entity(DID, "group", "Philosophy") in {m.entity for m in state.mentions}


def test_a_turn_without_a_subject_takes_the_entity_of_the_reply_before(kg):
    session = open_session(kg)
    turn(session, "Does the Acoustics group have any events?")
    session.system_turn("Yes, the lens review.")
    state = session.user_turn("What time?", answer=False)
    assert any(c.fact.o == "10:00:00" for c in state.candidates)


def test_my_office_is_the_speakers_office_not_the_speaker(kg):
    session = open_session(kg)
    state = turn(session, "Hello, my name is Ines Karlsen. Can you set up a meeting in my office?")
    assert mention(state, "my office").entity == vocab.office_entity(DID, "room", "Delta")
    assert state.meeting["room"] == "Delta"


def test_a_new_meeting_may_share_a_kg_events_name_and_the_reply_saying_it_means_the_meeting(kg):
    session = open_session(kg)
    turn(session, "Can you arrange a meeting with Nora Vance tomorrow?")
    session.system_turn("Sure. What would you like your meeting to be called?")
    named = turn(session, "Lens review.")
    meeting_iri = vocab.meeting_node(session.session_id, 1)
    assert mention(named, "Lens review").entity == meeting_iri
    session.system_turn('There is nothing else on your calendar at the time of "lens review".')
    assert mention(turn(session, "Who is invited to the meeting?"), "the meeting").entity == meeting_iri


def test_that_workshop_reaches_back_past_the_reply_that_named_a_person(kg):
    session = open_session(kg)
    turn(session, "When is the optics workshop?")
    session.system_turn("The optics workshop is on Wednesday at 13:00 in Sigma.")
    turn(session, "Who organizes it?")
    session.system_turn("Nora Vance organizes it.")
    state = turn(session, "Is Tomas Reyes going to that workshop?")
    assert mention(state, "that workshop").entity == vocab.office_entity(DID, "event", "e2")


def test_is_that_the_one_you_mean_asks_for_no_name_and_call_the_meeting_x_links_the_meeting(kg):
    session = open_session(kg)
    turn(session, "Do you know of a meeting called lens review?")
    session.system_turn('I see a meeting called "lens review" on the calendar, is that the one you mean?')
    assert turn(session, "Yes, that is the one I mean.").meeting is None
    turn(session, "Can you arrange a meeting with Nora Vance tomorrow?")
    session.system_turn("Sure.")
    named = turn(session, "Can you call the meeting lens review followup?")
    meeting_iri = vocab.meeting_node(session.session_id, 1)
    assert mention(named, "the meeting").entity == meeting_iri and named.meeting["name"] == "lens review followup"
