"""Writes arranging.json (GraphWOZ format) from the hand-written office and dialogues below.

The office (a ship design firm) and every turn are written by hand; this script only expands
them into the published file's shape: each person's and room's calendar from the events, each
group's members as person records, the recognizer's hypotheses as lower-case unpunctuated text
unless a turn gives what the recognizer heard. Run: python harness/graphwoz_more/build.py
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from pathlib import Path

GROUPS = ("Hull Design", "Acoustics", "Procurement", "Logistics")
# name, group, office
PEOPLE = (
    ("Ingrid Solberg", "Hull Design", "210"), ("Tomas Berg", "Hull Design", "211"),
    ("Priya Nandakumar", "Hull Design", "212"), ("Oliver Quist", "Hull Design", "213"),
    ("Henrike Stahl", "Acoustics", "305"), ("Mateo Ferreira", "Acoustics", "306"),
    ("Yuki Tanabe", "Acoustics", "307"),
    ("Darnell Okafor", "Procurement", "120"), ("Sofia Lindqvist", "Procurement", "121"),
    ("Rafael Duarte", "Procurement", "122"),
    ("Agnes Whitlock", "Logistics", "140"), ("Bruno Castellan", "Logistics", "141"),
    ("Leona Marsh", "Logistics", "142"),
)
ROOMS = ("Birch", "Cedar", "Maple", "Willow", "Oak")
# name, date, start, end, room, organizer, other attendees, group
EVENTS = (
    ("hull fairing review", "2022-05-10", "10:00", "11:00", "Birch", "Ingrid Solberg", ["Tomas Berg"], "Hull Design"),
    ("supplier audit", "2022-05-10", "13:00", "14:00", "Cedar", "Darnell Okafor", ["Sofia Lindqvist", "Agnes Whitlock"],
     "Procurement"),
    ("vibration workshop", "2022-05-10", "15:00", "16:30", "Oak", "Yuki Tanabe", ["Henrike Stahl", "Ingrid Solberg"],
     "Acoustics"),
    ("noise budget sync", "2022-05-11", "09:00", "10:00", "Maple", "Henrike Stahl", ["Yuki Tanabe", "Priya Nandakumar"],
     "Acoustics"),
    ("freight planning", "2022-05-11", "10:00", "11:30", "Cedar", "Agnes Whitlock", ["Bruno Castellan", "Rafael Duarte"],
     "Logistics"),
    ("propeller trials debrief", "2022-05-11", "14:00", "15:00", "Birch", "Mateo Ferreira",
     ["Oliver Quist", "Tomas Berg"], "Acoustics"),
    ("quarterly sourcing", "2022-05-11", "14:00", "16:00", "Willow", "Sofia Lindqvist",
     ["Rafael Duarte", "Darnell Okafor"], "Procurement"),
    ("dock schedule", "2022-05-11", "15:00", "16:00", "Oak", "Leona Marsh", ["Bruno Castellan"], "Logistics"),
    ("ballast study", "2022-05-12", "11:00", "12:00", "Maple", "Priya Nandakumar", ["Oliver Quist", "Yuki Tanabe"],
     "Hull Design"),
)
PHONES = {name: f"+47900{i:05d}" for i, (name, _, _) in enumerate(PEOPLE, start=11210)}
START = datetime(2022, 5, 10, 8, 40, tzinfo=UTC).timestamp()  # Tuesday morning: "tomorrow" is Wednesday

# Each dialogue: speaker, task, turns. A turn: (user said, entities, intents, wizard actions,
# wizard reply), and optionally what the recognizer heard and the entities on its words.
DIALOGUES = {
    "ARRANGE_01": ("Ingrid Solberg", "You are Ingrid Solberg. Set up a meeting with Priya Nandakumar tomorrow at 10 in a "
                   "free room, give it a name, and get Priya's e-mail address.", [
        ("Hi, this is Ingrid Solberg. I'd like to set up a meeting tomorrow at 10 with Priya Nandakumar.",
         "Ingrid Solberg : @speaker, Priya Nandakumar : Priya Nandakumar",
         "provide_entity_attribute(entity=@speaker, name=\"Ingrid Solberg\"), request_create_event(time=10:00, "
         "attendees=[\"Priya Nandakumar\"])",
         "Greet(name=\"Ingrid\"), CreateEvent(), InformAvailability(entity=\"Birch\", time=10:00), "
         "SuggestSetLocation(event=@newevent, location=\"Birch\")",
         "Hi Ingrid. Priya Nandakumar is free tomorrow at 10, and the Birch room is available then. Shall I book it?"),
        ("Yes, book it.", "", "affirm()",
         "SetLocation(event=@newevent, location=\"Birch\"), AddAttendees(event=@newevent, attendees=[\"Priya "
         "Nandakumar\"]), RequestEntityAttribute(entity=@newevent, attribute=\"name\")",
         "Done. I've booked Birch tomorrow from 10 to 11 and invited Priya Nandakumar. What should the meeting be "
         "called?", "yes book it"),
        ("Call it keel layout check.", "keel layout check : @newevent",
         "provide_entity_attribute(entity=@newevent, name=\"keel layout check\")",
         "SetName(event=@newevent, name=\"keel layout check\"), RequestConfirm(event=@newevent)",
         "Sure. \"keel layout check\" is set for tomorrow at 10:00 in Birch with Priya Nandakumar. Is that right?",
         "call it heel layout check", "heel layout check : @newevent"),
        ("That's right. What's her e-mail address?", "her : Priya Nandakumar",
         "affirm(), request_entity_attribute(entity=\"Priya Nandakumar\", attribute=\"email\")",
         "Confirm(event=@newevent), InformEntityAttribute(entity=\"Priya Nandakumar\", attribute=\"email\")",
         "Priya's e-mail address is priya.nandakumar@shipyard.email."),
        ("Thanks, bye.", "", "thanks(), goodbye()", "Goodbye()", "Goodbye!"),
    ]),
    "ARRANGE_02": ("Tomas Berg", "You are Tomas Berg. Book a room for a meeting tomorrow afternoon with Henrike "
                   "Stahl; if you are busy then, move it to the morning.", [
        ("Hello, my name is Tomas Berg. Can you book a meeting room for me tomorrow at 2 in the afternoon?",
         "Tomas Berg : @speaker", "provide_entity_attribute(entity=@speaker, name=\"Tomas Berg\"), "
         "request_create_event(time=14:00)",
         "Greet(name=\"Tomas\"), CreateEvent(), InformCalendarEvents(entity=@speaker, time=14:00)",
         "Hi Tomas. At 2 tomorrow you are in propeller trials debrief in Birch. Do you still want a room then?"),
        ("Oh, right. Let's make it 10 instead.", "", "provide_entity_attribute(entity=@newevent, time=10:00)",
         "SetTime(event=@newevent, start_time=10:00), RequestEntityAttribute(entity=@newevent, attribute=\"location\")",
         "OK, I've moved it to 10:00 tomorrow. Would you like a room?", "oh right let's make it 10 instead"),
        ("Which rooms are free then?", "", "request_availability(entity=@rooms, time=10:00)",
         "InformAvailability(entity=[\"Birch\", \"Maple\", \"Willow\", \"Oak\"], time=10:00)",
         "At 10 tomorrow Birch, Maple, Willow and Oak are free. Cedar is taken by freight planning.",
         "which rooms are three then"),
        ("Maple, please. And invite Henrike Stahl.", "Maple : Maple, Henrike Stahl : Henrike Stahl",
         "request_set_location(event=@newevent, location=\"Maple\"), request_invite_attendee(event=@newevent, "
         "attendee=\"Henrike Stahl\")",
         "SetLocation(event=@newevent, location=\"Maple\"), AddAttendees(event=@newevent, attendees=[\"Henrike "
         "Stahl\"]), RequestEntityAttribute(entity=@newevent, attribute=\"name\")",
         "I've booked Maple for tomorrow at 10:00 and invited Henrike Stahl. What would you like to call it?",
         "maple please and invite Henrike steel", "maple : Maple, Henrike steel : Henrike Stahl"),
        ("Hull noise follow-up.", "Hull noise follow-up : @newevent",
         "provide_entity_attribute(entity=@newevent, name=\"hull noise follow-up\")",
         "SetName(event=@newevent, name=\"hull noise follow-up\")",
         "Alright, \"hull noise follow-up\" with Henrike Stahl is booked in Maple tomorrow at 10:00.",
         "whole noise follow up", "whole noise follow up : @newevent"),
    ]),
    "ARRANGE_03": ("Darnell Okafor", "You are Darnell Okafor. On Thursday at 9, meet Tomas Berg and the whole "
                   "Acoustics group in a free room; then get the e-mail addresses of the Acoustics members.", [
        ("Hi, I'm Darnell Okafor. I want to arrange a meeting with Tomas Berg and the acoustics team on Thursday at 9.",
         "Darnell Okafor : @speaker, Tomas Berg : Tomas Berg, acoustics team : Acoustics",
         "provide_entity_attribute(entity=@speaker, name=\"Darnell Okafor\"), request_create_event(time=09:00, "
         "attendees=[\"Tomas Berg\", \"Acoustics\"])",
         "Greet(name=\"Darnell\"), CreateEvent(), SuggestAddAttendees(event=@newevent, attendees=[\"Tomas Berg\", "
         "\"Henrike Stahl\", \"Mateo Ferreira\", \"Yuki Tanabe\"])",
         "Hi Darnell. Tomas Berg, Henrike Stahl, Mateo Ferreira and Yuki Tanabe are all free on Thursday at 9. Shall I "
         "invite all four of them?", "hi I'm Darnell okafor I want to arrange a meeting with Thomas Berg and the "
         "acoustics team on Thursday at 9", "Darnell okafor : @speaker, Thomas Berg : Tomas Berg, acoustics team : "
         "Acoustics"),
        ("Yes, all of them.", "", "affirm()",
         "AddAttendees(event=@newevent, attendees=[\"Tomas Berg\", \"Henrike Stahl\", \"Mateo Ferreira\", \"Yuki "
         "Tanabe\"]), RequestEntityAttribute(entity=@newevent, attribute=\"location\")",
         "Done, I've invited Tomas Berg, Henrike Stahl, Mateo Ferreira and Yuki Tanabe. Which room should it be in?"),
        ("Is Oak free then?", "Oak : Oak", "request_availability(entity=\"Oak\", time=09:00)",
         "InformAvailability(entity=\"Oak\", time=09:00), SuggestSetLocation(event=@newevent, location=\"Oak\")",
         "Yes, Oak is free on Thursday at 9. Shall I book it?", "is oak free then", "oak : Oak"),
        ("Yes please, and call the meeting sonar bracket review.", "the meeting : @newevent, sonar bracket review : "
         "@newevent", "affirm(), provide_entity_attribute(entity=@newevent, name=\"sonar bracket review\")",
         "SetLocation(event=@newevent, location=\"Oak\"), SetName(event=@newevent, name=\"sonar bracket review\")",
         "I've booked Oak and named the meeting \"sonar bracket review\".",
         "yes please and call the meeting sonar racket review", "the meeting : @newevent, sonar racket review : "
         "@newevent"),
        ("What are the e-mail addresses of the acoustics people?", "acoustics people : Acoustics",
         "request_entity_attribute(entity=\"Acoustics\", attribute=\"email\")",
         "InformEntityAttribute(entity=[\"Henrike Stahl\", \"Mateo Ferreira\", \"Yuki Tanabe\"], attribute=\"email\")",
         "Henrike Stahl: henrike.stahl@shipyard.email, Mateo Ferreira: mateo.ferreira@shipyard.email, Yuki Tanabe: "
         "yuki.tanabe@shipyard.email.", "what are the email addresses of the acoustics people",
         "acoustics people : Acoustics"),
    ]),
    "ARRANGE_04": ("Sofia Lindqvist", "You are Sofia Lindqvist. Find who organizes the ballast study, then meet "
                   "the organizer and one attendee tomorrow at 11, and get their phone numbers.", [
        ("Hi, this is Sofia Lindqvist. Who is organizing the ballast study?",
         "Sofia Lindqvist : @speaker, ballast study : ballast study",
         "provide_entity_attribute(entity=@speaker, name=\"Sofia Lindqvist\"), request_entity_attribute(entity="
         "\"ballast study\", attribute=\"organizer\")",
         "Greet(name=\"Sofia\"), InformEntityAttribute(entity=\"ballast study\", attribute=\"organizer\")",
         "Hi Sofia. The ballast study is organized by Priya Nandakumar. Oliver Quist and Yuki Tanabe attend it too.",
         "hi this is Sofia Lindqvist who is organizing the ballast study"),
        ("I need to meet Priya and Oliver. Can you set up a meeting with the two of them tomorrow at 11?",
         "Priya : Priya Nandakumar, Oliver : Oliver Quist",
         "request_create_event(time=11:00, attendees=[\"Priya Nandakumar\", \"Oliver Quist\"])",
         "CreateEvent(), AddAttendees(event=@newevent, attendees=[\"Priya Nandakumar\", \"Oliver Quist\"]), "
         "InformAvailability(entity=[\"Birch\", \"Maple\", \"Willow\", \"Oak\"], time=11:00)",
         "Priya Nandakumar and Oliver Quist are both free tomorrow at 11. Birch, Maple, Willow and Oak are available "
         "then. Which room would you like?",
         "I need to meet Priya and Oliver can you set up a meeting with the two of them tomorrow at 11"),
        ("Willow is fine.", "Willow : Willow", "provide_entity_attribute(entity=@newevent, location=\"Willow\")",
         "SetLocation(event=@newevent, location=\"Willow\"), RequestEntityAttribute(entity=@newevent, "
         "attribute=\"name\")",
         "OK, Willow tomorrow at 11 with Priya Nandakumar and Oliver Quist. What should I call it?",
         "willow is fine", "willow : Willow"),
        ("Ballast sourcing.", "Ballast sourcing : @newevent",
         "provide_entity_attribute(entity=@newevent, name=\"ballast sourcing\")",
         "SetName(event=@newevent, name=\"ballast sourcing\"), CreateEvent(event=@newevent)",
         "I've created \"ballast sourcing\" in Willow tomorrow at 11 and sent the invitations to Priya Nandakumar and "
         "Oliver Quist.", "ballot sourcing", "ballot sourcing : @newevent"),
        ("And their phone numbers?", "their : Priya Nandakumar",
         "request_entity_attribute(entity=[\"Priya Nandakumar\", \"Oliver Quist\"], attribute=\"phone\")",
         "InformEntityAttribute(entity=[\"Priya Nandakumar\", \"Oliver Quist\"], attribute=\"phone\")",
         f"Priya Nandakumar's phone is {PHONES['Priya Nandakumar']} and Oliver Quist's is {PHONES['Oliver Quist']}.",
         "and their phone numbers", "their : Priya Nandakumar"),
    ]),
    "ARRANGE_05": ("Henrike Stahl", "You are Henrike Stahl. Meet somebody from the Logistics group tomorrow at 3 "
                   "in any free room, and name the meeting.", [
        ("Hello, Henrike Stahl here. Is anyone from the logistics team free tomorrow at 3?",
         "Henrike Stahl : @speaker, logistics team : Logistics",
         "provide_entity_attribute(entity=@speaker, name=\"Henrike Stahl\"), request_availability(entity="
         "\"Logistics\", time=15:00)",
         "Greet(name=\"Henrike\"), InformAvailability(entity=\"Agnes Whitlock\", time=15:00), "
         "InformCalendarEvents(entity=[\"Bruno Castellan\", \"Leona Marsh\"], time=15:00)",
         "Hi Henrike. Agnes Whitlock is free tomorrow at 3. Bruno Castellan and Leona Marsh are in dock schedule then.",
         "hello Henrike steel here is anyone from the logistics team free tomorrow at 3",
         "Henrike steel : @speaker, logistics team : Logistics"),
        ("Then set up a meeting with Agnes at 3.", "Agnes : Agnes Whitlock",
         "request_create_event(time=15:00, attendees=[\"Agnes Whitlock\"])",
         "CreateEvent(), AddAttendees(event=@newevent, attendees=[\"Agnes Whitlock\"]), InformAvailability(entity="
         "[\"Birch\", \"Cedar\", \"Maple\"], time=15:00)",
         "Sure, a meeting with Agnes Whitlock tomorrow at 3. Birch, Cedar and Maple are free then. Which one would "
         "you like?", "then set up a meeting with agnes at 3", "agnes : Agnes Whitlock"),
        ("The first one.", "", "provide_entity_attribute(entity=@newevent, location=\"Birch\")",
         "SetLocation(event=@newevent, location=\"Birch\"), RequestEntityAttribute(entity=@newevent, "
         "attribute=\"name\")",
         "Booked Birch tomorrow at 15:00 with Agnes Whitlock. What's the meeting called?", "the first one"),
        ("Shipping the test rig.", "Shipping the test rig : @newevent",
         "provide_entity_attribute(entity=@newevent, name=\"shipping the test rig\")",
         "SetName(event=@newevent, name=\"shipping the test rig\")",
         "\"shipping the test rig\" is set for tomorrow at 15:00 in Birch, with Agnes Whitlock invited.",
         "shipping the test rig", "shipping the test rig : @newevent"),
        ("Great, thanks.", "", "thanks()", "Goodbye()", "You're welcome!"),
    ]),
    "ARRANGE_06": ("Oliver Quist", "You are Oliver Quist. Arrange a meeting about hull plates with somebody from "
                   "Procurement on Thursday at 2 in a free room, and get their phone number.", [
        ("Hi, my name is Oliver Quist.", "Oliver Quist : @speaker",
         "provide_entity_attribute(entity=@speaker, name=\"Oliver Quist\")",
         "Greet(name=\"Oliver\"), UpdateSpeaker(name=\"Oliver Quist\")", "Hi Oliver, how can I help?",
         "hi my name is Oliver twist", "Oliver twist : @speaker"),
        ("I'd like a meeting with someone from Procurement about the hull plates on Thursday at 2.",
         "Procurement : Procurement", "request_create_event(time=14:00, attendees=@any, group=\"Procurement\")",
         "CreateEvent(), InformAvailability(entity=[\"Darnell Okafor\", \"Sofia Lindqvist\", \"Rafael Duarte\"], "
         "time=14:00)",
         "Darnell Okafor, Sofia Lindqvist and Rafael Duarte from Procurement are all free on Thursday at 2. Who would "
         "you like to invite?",
         "I'd like a meeting with someone from procurement about the whole plates on Thursday at 2",
         "procurement : Procurement"),
        ("Rafael Duarte, please.", "Rafael Duarte : Rafael Duarte",
         "request_invite_attendee(event=@newevent, attendee=\"Rafael Duarte\")",
         "AddAttendees(event=@newevent, attendees=[\"Rafael Duarte\"]), SuggestSetLocation(event=@newevent, "
         "location=\"Cedar\")",
         "I've invited Rafael Duarte. Cedar is free on Thursday at 2, shall I book it?", "Rafael do arte please",
         "Rafael do arte : Rafael Duarte"),
        ("Yes, book it, and call it plate thickness review.", "plate thickness review : @newevent",
         "affirm(), provide_entity_attribute(entity=@newevent, name=\"plate thickness review\")",
         "SetLocation(event=@newevent, location=\"Cedar\"), SetName(event=@newevent, name=\"plate thickness review\")",
         "Done: \"plate thickness review\" on Thursday at 14:00 in Cedar with Rafael Duarte.",
         "yes book it and call it plate thickness review", "plate thickness review : @newevent"),
        ("What is his phone number?", "his : Rafael Duarte",
         "request_entity_attribute(entity=\"Rafael Duarte\", attribute=\"phone\")",
         "InformEntityAttribute(entity=\"Rafael Duarte\", attribute=\"phone\")",
         f"Rafael Duarte's phone number is {PHONES['Rafael Duarte']}.", "what is his phone number", "his : Rafael Duarte"),
    ]),
    "ARRANGE_07": ("Leona Marsh", "You are Leona Marsh. Find who is in the Hull Design group and their phone numbers, "
                   "then meet two of them on Thursday morning in Oak and name the meeting.", [
        ("Hi, I'm Leona Marsh. Who is in the hull design group?", "Leona Marsh : @speaker, hull design group : "
         "Hull Design", "provide_entity_attribute(entity=@speaker, name=\"Leona Marsh\"), request_group_members("
         "group=\"Hull Design\")", "Greet(name=\"Leona\"), InformEntityAttribute(entity=\"Hull Design\", "
         "attribute=\"members\")",
         "Hi Leona. The Hull Design group has Ingrid Solberg, Tomas Berg, Priya Nandakumar and Oliver Quist.",
         "hi I'm Leona marsh who is in the whole design group", "Leona marsh : @speaker, whole design group : "
         "Hull Design"),
        ("Could I get their phone numbers?", "their : Hull Design",
         "request_entity_attribute(entity=\"Hull Design\", attribute=\"phone\")",
         "InformEntityAttribute(entity=[\"Ingrid Solberg\", \"Tomas Berg\", \"Priya Nandakumar\", \"Oliver "
         "Quist\"], attribute=\"phone\")",
         f"Ingrid Solberg {PHONES['Ingrid Solberg']}, Tomas Berg {PHONES['Tomas Berg']}, Priya Nandakumar "
         f"{PHONES['Priya Nandakumar']}, Oliver Quist {PHONES['Oliver Quist']}.",
         "could I get their phone numbers", "their : Hull Design"),
        ("Set up a meeting with Ingrid and Tomas on Thursday at 10 in Oak.",
         "Ingrid : Ingrid Solberg, Tomas : Tomas Berg, Oak : Oak",
         "request_create_event(time=10:00, location=\"Oak\", attendees=[\"Ingrid Solberg\", \"Tomas Berg\"])",
         "CreateEvent(), SetLocation(event=@newevent, location=\"Oak\"), AddAttendees(event=@newevent, attendees="
         "[\"Ingrid Solberg\", \"Tomas Berg\"]), RequestEntityAttribute(entity=@newevent, attribute=\"name\")",
         "I've booked Oak on Thursday at 10:00 with Ingrid Solberg and Tomas Berg. What should it be called?",
         "set up a meeting with Ingrid and Thomas on Thursday at 10 in oak",
         "Ingrid : Ingrid Solberg, Thomas : Tomas Berg, oak : Oak"),
        ("Actually, make it 9 instead, and call it deck crane layout.", "deck crane layout : @newevent",
         "provide_entity_attribute(entity=@newevent, time=09:00, name=\"deck crane layout\")",
         "SetTime(event=@newevent, start_time=09:00), SetName(event=@newevent, name=\"deck crane layout\"), "
         "RequestConfirm(event=@newevent)",
         "OK: \"deck crane layout\" on Thursday at 09:00 in Oak with Ingrid Solberg and Tomas Berg. Is that right?",
         "actually make it 9 instead and call it deck crane layout", "deck crane layout : @newevent"),
        ("Yes, thanks.", "", "affirm(), thanks()", "Confirm(event=@newevent)",
         "You're welcome. The meeting is set: Oak, Thursday at 09:00, with Ingrid Solberg and Tomas Berg.",
         "yes thanks"),
    ]),
}


def _id(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()[:10]


def _heard(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w' ]", " ", text)).strip().lower()


def office() -> dict:
    events = [{"id": _id(name), "name": name, "date": day, "start_time": f"{start}:00", "end_time": f"{end}:00",
               "location": room, "organizer": organizer, "attendees": [organizer, *others], "group": group}
              for name, day, start, end, room, organizer, others, group in EVENTS]
    people = []
    for index, (name, group, room) in enumerate(PEOPLE):
        people.append({"name": name, "index": index, "id": _id(name) * 3, "email": name.lower().replace(" ", ".")
                       + "@shipyard.email", "phone": PHONES[name], "group": group, "office": room,
                       "calendar": [e for e in events if name in e["attendees"]]})
    return {"events": events, "people": people,
            "rooms": {room: {"id": _id(room) * 3, "calendar": [e for e in events if e["location"] == room]}
                      for room in ROOMS},
            "groups": {group: {"id": _id(group) * 3, "members": [p for p in people if p["group"] == group]}
                       for group in GROUPS}}


def dialogue(speaker: str, task: str, turns: list, offset: int) -> dict:
    log = []
    at = START + offset * 3600
    for number, turn in enumerate(turns, start=1):
        said, entities, intents, actions, reply = turn[:5]
        heard = turn[5] if len(turn) > 5 else _heard(said)
        heard_entities = turn[6] if len(turn) > 6 else entities
        log.append({"alternative": [{"transcript": heard, "confidence": 0.9}, {"transcript": _heard(said)}],
                    "start_timestamp": at, "end_timestamp": at + 6, "turn": number, "wav_id": f"{offset}{number:02d}.0",
                    "manual_transcription": said, "entities": entities, "intents": intents,
                    "asr_entities": heard_entities, "agent_entities": "", "entity_spans": "",
                    "agent_actions": actions, "agent_response": reply})
        at += 40
    return {"speaker": 1, "log": log, "task": task, "data": office(), "success": 1}


def main() -> None:
    doc = {did: dialogue(speaker, task, turns, i) for i, (did, (speaker, task, turns)) in enumerate(DIALOGUES.items())}
    Path(__file__).with_name("arranging.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
