"""Task-oriented dialogues over one generated world, each user turn with its gold annotation.

A template plays one task (availability and booking, event details, group contacts, a free
room, a person's day, a person's profile) over 3–6 user turns with pronouns, definite noun
phrases and follow-ups; it writes the user's words (tracking every mention's span), the ASR
n-best list, the GraphWOZ `entities`/`intents` strings, the system reply stating the right
facts, and the gold nodes, edges and links.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from harness.office.gold import Gold, WorldFacts
from harness.office.world import (
    DAY_END_MIN,
    DAY_START_MIN,
    MEETING_ROOMS,
    WEEK_START,
    WEEKDAYS,
    Event,
    Person,
    World,
    hhmm,
)

PRONOUNS = {"she": ("she", "her", "her"), "he": ("he", "him", "his"), "they": ("they", "them", "their")}


def subj(p: Person) -> str:
    return PRONOUNS[p.pronoun][0]


def obj(p: Person) -> str:
    return PRONOUNS[p.pronoun][1]


def poss(p: Person) -> str:
    return PRONOUNS[p.pronoun][2]


def is_(p: Person) -> str:
    return "are" if p.pronoun == "they" else "is"


def say_time(minutes: int, rng: random.Random) -> str:
    """A clock time the way people say it: "10:00", "10", "2 pm", "half past ten"."""
    h, m = divmod(minutes, 60)
    style = rng.randrange(4)
    if style == 0:
        return hhmm(minutes)
    h12 = h - 12 if h > 12 else h
    suffix = "am" if h < 12 else "pm"
    if style == 1 and m == 0:
        return f"{h12} {suffix}"
    if style == 2 and m == 30:
        return f"half past {h12}"
    if style == 3:
        return f"{h12}:{m:02d} {suffix}" if m else f"{h12} o'clock"
    return hhmm(minutes)


def long_date(day: int) -> str:
    d = WEEK_START + timedelta(days=day)
    return f"{WEEKDAYS[day]}, {d.strftime('%B')} {d.day}"


@dataclass
class Utterance:
    """A user turn being written: its text and the spans of its mentions."""

    text: str = ""
    links: list[dict] = field(default_factory=list)

    def say(self, text: str) -> Utterance:
        self.text += text
        return self

    def mention(self, text: str, kind: str, entity: str | None, label: str) -> Utterance:
        start = len(self.text)
        self.text += text
        if entity is not None:
            self.links.append({"mention": text, "start": start, "end": len(self.text), "kind": kind,
                               "entity": entity, "label": label})
        return self


# ASR-like misspellings of names: sounds-alike swaps first, then a dropped letter.
PHONETIC = (("ph", "f"), ("Zoë", "Zoey"), ("Sean", "Shawn"), ("ck", "k"), ("ch", "sh"), ("ë", "e"),
            ("é", "e"), ("á", "a"), ("ö", "o"), ("ü", "ue"), ("O'B", "O B"), ("D'A", "Da"), ("th", "t"),
            ("ee", "ea"), ("y", "i"), ("ie", "y"), ("c", "k"), ("v", "w"), ("-", " "), ("ou", "u"))


def asr_variant(text: str, links: list[dict], rng: random.Random) -> str:
    """The transcription as a recognizer might hear it: a named mention misspelt, maybe lowercased
    without punctuation."""
    names = [link for link in links if link["kind"] == "name"]
    out = text
    if names:
        link = rng.choice(names)
        name = link["mention"]
        noisy = name
        swaps = [(a, b) for a, b in PHONETIC if a in name]
        if swaps and rng.random() < 0.7:
            a, b = rng.choice(swaps)
            noisy = name.replace(a, b, 1)
        else:
            letters = [i for i, ch in enumerate(name) if ch.isalpha() and i > 0]
            if letters:
                i = rng.choice(letters)
                noisy = name[:i] + name[i + 1:]
        out = out[:link["start"]] + noisy + out[link["end"]:]
    if rng.random() < 0.5:
        out = "".join(ch for ch in out.lower() if ch.isalnum() or ch in " '")
    return out


@dataclass
class Turn:
    utterance: Utterance
    response: str
    intents: list[str]
    gold: Gold


class Writer:
    """Writes one dialogue: the speaker, the session clock, and the turns."""

    def __init__(self, world: World, facts: WorldFacts, rng: random.Random, speaker: Person, now_day: int,
                 now_min: int):
        self.world, self.facts, self.rng = world, facts, rng
        self.speaker = speaker
        self.introduced = False
        self.now_day, self.now_min = now_day, now_min
        self.turns: list[Turn] = []

    # -- mentions -------------------------------------------------------------------------
    def name(self, u: Utterance, p: Person, *, first_only: bool = False) -> Utterance:
        unique_first = sum(q.first == p.first for q in self.world.people) == 1
        text = p.first if first_only and unique_first else p.name
        return u.mention(text, "name", self.facts.person(p.id), p.name)

    def pronoun(self, u: Utterance, p: Person, form: str) -> Utterance:
        return u.mention(form, "pronoun", self.facts.person(p.id), p.name)

    def me(self, u: Utterance, form: str) -> Utterance:
        """A first-person reference; linked once the speaker has said who they are."""
        entity = self.facts.person(self.speaker.id) if self.introduced else None
        return u.mention(form, "first_person", entity, self.speaker.name)

    def event_name(self, u: Utterance, e: Event, kind: str = "name", text: str | None = None) -> Utterance:
        return u.mention(text or e.name, kind, self.facts.event(e.id), e.name)

    def room(self, u: Utterance, room: str, kind: str = "name", text: str | None = None) -> Utterance:
        return u.mention(text or room, kind, self.facts.room(room), room)

    def group(self, u: Utterance, group: str, kind: str = "name", text: str | None = None) -> Utterance:
        return u.mention(text or group, kind, self.facts.group(group), group)

    def dayref(self, day: int) -> str:
        if day == self.now_day:
            return "today"
        if day == self.now_day + 1:
            return "tomorrow"
        return f"on {WEEKDAYS[day]}"

    def add(self, u: Utterance, response: str, intents: list[str], gold: Gold) -> None:
        self.turns.append(Turn(u, response, intents, gold))

    def gold(self) -> Gold:
        return Gold(self.facts)

    def introduce(self, u: Utterance) -> Utterance:
        """ "my name is X" / "I'm X": the speaker becomes known from here on."""
        self.introduced = True
        if self.rng.random() < 0.5:
            self.me(u, "my")
            u.say(" name is ")
        else:
            self.me(u, "I")
            u.say("'m ")
        return self.name(u, self.speaker)

    # -- gold helpers ----------------------------------------------------------------------
    def schedule_gold(self, g: Gold, p: Person, day: int) -> Gold:
        """Who attends what on a day, and when: the attendee edges of the person's events
        that day with each event's date and times."""
        g.node(self.facts.person(p.id))
        for e in self.world.events_of(p.id, day):
            ev = self.facts.event(e.id)
            g.edge_of(ev, "attendee", self.facts.person(p.id))
            for pred in ("date", "start_time", "end_time"):
                g.edge_of(ev, pred)
        return g

    def room_day_gold(self, g: Gold, room: str, day: int) -> Gold:
        """A room with its bookings on one day: location edges and those events' times."""
        r = self.facts.room(room)
        g.node(r)
        for e in self.world.events_in(room, day):
            ev = self.facts.event(e.id)
            g.edge_of(ev, "location", r)
            for pred in ("date", "start_time", "end_time"):
                g.edge_of(ev, pred)
        return g

    def free_slot(self, p: Person, day: int) -> int | None:
        slots = [m for m in range(9 * 60, 16 * 60 + 1, 30) if not self.world.busy(p.id, day, m, m + 60)]
        return self.rng.choice(slots) if slots else None


def describe_events(events: list[Event]) -> str:
    parts = [f"{e.name} from {hhmm(e.start)} to {hhmm(e.end)} in {e.location}" for e in events]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# -- templates -------------------------------------------------------------------------------
# Each returns the task text, or None when the world offers no fitting case for it.

def availability_booking(w: Writer) -> str | None:
    world, rng = w.world, w.rng
    people = [p for p in world.people if p is not w.speaker and world.events_of(p.id, w.now_day + 1 if w.now_day < 4 else w.now_day)]
    if not people:
        return None
    p = rng.choice(people)
    day = w.now_day + 1 if w.now_day < 4 else w.now_day
    pe = world.events_of(p.id, day)
    slot = w.free_slot(p, day)
    if slot is None:
        return None
    busy_at = rng.choice(pe).start
    rooms = [r for r in MEETING_ROOMS if world.room_free(r, day, slot, slot + 60)]
    if not rooms:
        return None
    room = rng.choice(rooms)
    fa = w.facts
    if rng.random() < 0.6:
        u = Utterance().say(rng.choice(("Hi, ", "Hello, ", "Good morning, ")))
        w.introduce(u).say(".")
        w.add(u, f"Hello {w.speaker.first}, how can I help you?", ["inform_name()"],
              w.gold().entity(fa.person(w.speaker.id)))
    u = Utterance().say(rng.choice(("Is ", "Can you check if ")))
    w.name(u, p, first_only=rng.random() < 0.4).say(f" is available {w.dayref(day)} at {say_time(busy_at, rng)}")
    u.say("?" if u.text.startswith("Is") else ", please?")
    busy = world.busy(p.id, day, busy_at, busy_at + 1)
    w.add(u, f"No, {p.name} {is_(p)} busy then: {subj(p)} "
             f"{'have' if p.pronoun == 'they' else 'has'} {describe_events(busy)} on {long_date(day)}.",
          [f'request_availability(entity="{p.name}", time="{hhmm(busy_at)}")'],
          w.schedule_gold(w.gold(), p, day))
    u = Utterance().say("And what about ")
    u.say(f"{say_time(slot, rng)}? Is ")
    w.pronoun(u, p, subj(p)).say(" free then?")
    w.add(u, f"Yes, {p.first} is free at {hhmm(slot)} on {WEEKDAYS[day]}.",
          [f'request_availability(entity="{p.name}", time="{hhmm(slot)}")'], w.schedule_gold(w.gold(), p, day))
    u = Utterance().say("Great, please book a meeting with ")
    w.pronoun(u, p, obj(p)).say(" in ")
    w.room(u, room).say(" at that time.")
    g = w.room_day_gold(w.gold(), room, day).node(fa.person(p.id))
    w.add(u, f"Done: {room} is booked for a meeting with {p.name} on {long_date(day)} from "
             f"{hhmm(slot)} to {hhmm(slot + 60)}.",
          [f'book_room(room="{room}", time="{hhmm(slot)}", attendee="{p.name}")'], g)
    if rng.random() < 0.5:
        u = Utterance().say(rng.choice(("Thank you, bye!", "Thanks, that's all.", "Perfect, thanks.")))
        w.add(u, "You're welcome. Goodbye!", ["goodbye()"], w.gold())
    return f"Find out when {p.name} is free {w.dayref(day)} and book a meeting room for the two of you."


def event_details(w: Writer) -> str | None:
    world, rng, fa = w.world, w.rng, w.facts
    e = rng.choice(world.events)
    organizer = world.person(e.organizer)
    ev = fa.event(e.id)
    recurring = sum(x.name == e.name for x in world.events) > 1
    prefix, suffix = rng.choice((("Where is the ", ""), ("Where does the ", " take place"),
                                 ("Where will the ", " be held")))
    w.event_name(u := Utterance().say(prefix), e).say(suffix)
    u.say(f" {w.dayref(e.day)}?" if recurring else "?")
    w.add(u, f"{e.name} {'on ' + WEEKDAYS[e.day] + ' ' if recurring else ''}is in {e.location}.",
          [f'request_entity_attribute(entity="{e.name}", attribute="location")'],
          w.gold().edge_of(ev, "location"))
    u = Utterance().say("When does ")
    w.event_name(u, e, "pronoun", "it").say(" start?")
    w.add(u, f"It starts at {hhmm(e.start)} on {long_date(e.day)} and ends at {hhmm(e.end)}.",
          [f'request_entity_attribute(entity="{e.name}", attribute="start_time")'],
          w.gold().edge_of(ev, "start_time").edge_of(ev, "date"))
    u = Utterance().say("Who is organizing ")
    ref = rng.choice(("that meeting", "the meeting", "it"))
    w.event_name(u, e, "pronoun" if ref == "it" else "definite", ref).say("?")
    w.add(u, f"{organizer.name} organizes {e.name}.",
          [f'request_entity_attribute(entity="{e.name}", attribute="organizer")'],
          w.gold().edge_of(ev, "organizer"))
    u = Utterance().say("Can I get ")
    w.pronoun(u, organizer, poss(organizer)).say(" e-mail address?")
    o = fa.person(organizer.id)
    w.add(u, f"{organizer.first}'s e-mail address is {organizer.email}.",
          [f'request_entity_attribute(entity="{organizer.name}", attribute="email")'], w.gold().edge_of(o, "email"))
    if rng.random() < 0.6:
        u = Utterance().say("And ")
        w.pronoun(u, organizer, poss(organizer)).say(" phone number?")
        w.add(u, f"{poss(organizer).capitalize()} phone number is {organizer.phone}.",
              [f'request_entity_attribute(entity="{organizer.name}", attribute="phone")'],
              w.gold().edge_of(o, "phone"))
    return f"Find out where and when {e.name} is, and get the organizer's e-mail address."


def group_contact(w: Writer) -> str | None:
    world, rng, fa = w.world, w.rng, w.facts
    groups = [g for g in world.groups if len(world.members(g)) >= 2]
    group = rng.choice(groups)
    members = world.members(group)
    m = rng.choice(members)
    gi = fa.group(group)
    u = Utterance().say(rng.choice(("Who works in the ", "Who is in the ", "Which people are in the ")))
    w.group(u, group).say(" group?")
    w.add(u, f"The {group} group has {len(members)} members: {join([p.name for p in members])}.",
          [f'request_members(group="{group}")'], w.gold().edge_of(gi, "member_of"))
    u = Utterance().say("What is ")
    w.name(u, m, first_only=rng.random() < 0.3).say("'s phone number?")
    mi = fa.person(m.id)
    w.add(u, f"{m.name}'s phone number is {m.phone}.",
          [f'request_entity_attribute(entity="{m.name}", attribute="phone")'], w.gold().edge_of(mi, "phone"))
    u = Utterance().say("Where is ")
    w.pronoun(u, m, poss(m)).say(" office?")
    w.add(u, f"{poss(m).capitalize()} office is {m.office}.",
          [f'request_entity_attribute(entity="{m.name}", attribute="office")'], w.gold().edge_of(mi, "office"))
    u = Utterance().say("And ")
    w.pronoun(u, m, poss(m)).say(" e-mail?")
    w.add(u, f"{m.first}'s e-mail is {m.email}.",
          [f'request_entity_attribute(entity="{m.name}", attribute="email")'], w.gold().edge_of(mi, "email"))
    if rng.random() < 0.5:
        u = Utterance().say("How many people are in ")
        w.group(u, group, "definite", "that group").say("?")
        w.add(u, f"There are {len(members)} people in the {group} group.",
              [f'request_member_count(group="{group}")'], w.gold().edge_of(gi, "member_of"))
    return f"Get the phone number, office and e-mail of someone in the {group} group."


def free_room(w: Writer) -> str | None:
    world, rng, fa = w.world, w.rng, w.facts
    day = w.now_day
    start = max(DAY_START_MIN, (w.now_min // 30 + 2) * 30)
    times = [t for t in range(start, DAY_END_MIN - 60 + 1, 30)
             if any(world.room_free(r, day, t, t + 60) for r in MEETING_ROOMS)
             and not all(world.room_free(r, day, t, t + 60) for r in MEETING_ROOMS)]
    if not times:
        return None
    t = rng.choice(times)
    free = [r for r in MEETING_ROOMS if world.room_free(r, day, t, t + 60)]
    taken = [r for r in MEETING_ROOMS if r not in free]
    u = Utterance()
    w.me(u, "I").say(f" need a meeting room {w.dayref(day)} at {say_time(t, rng)}. ")
    u.say(rng.choice(("Which rooms are free?", "Which meeting rooms are available?")))
    g = w.gold().type_request([fa.room(r) for r in MEETING_ROOMS if fa.touching(fa.room(r))])  # rooms the KG has
    w.add(u, f"At {hhmm(t)} {w.dayref(day)}, {join(free)} {'is' if len(free) == 1 else 'are'} free.",
          [f'request_available_rooms(time="{hhmm(t)}")'], g)
    r_busy = rng.choice(taken)
    e = next(e for e in world.events_in(r_busy, day) if e.overlaps(day, t, t + 60))
    org = world.person(e.organizer)
    u = Utterance().say("Who has booked ")
    w.room(u, r_busy).say(" then?")
    ev = fa.event(e.id)
    g = w.gold().edge_of(ev, "location", fa.room(r_busy)).edge_of(ev, "organizer")
    g.edge_of(ev, "start_time").edge_of(ev, "end_time")
    w.add(u, f"{org.name} has it for {e.name} from {hhmm(e.start)} to {hhmm(e.end)}.",
          [f'request_room_booking(room="{r_busy}", time="{hhmm(t)}")'], g)
    room = rng.choice(free)
    u = Utterance().say("OK, is ")
    w.room(u, room).say(" free all afternoon?" if t >= 12 * 60 else " free the whole morning?")
    later = world.events_in(room, day)
    w.add(u, f"{room} has {describe_events(later)} {w.dayref(day)}." if later else f"Yes, {room} has no bookings {w.dayref(day)}.",
          [f'request_room_availability(room="{room}")'], w.room_day_gold(w.gold(), room, day))
    u = Utterance().say(rng.choice(("OK. ", "Good. ", "")))
    w.introduce(u).say(". Please book ")
    w.room(u, room, "pronoun", "it").say(" for ")
    w.me(u, "me").say(".")
    g = w.room_day_gold(w.gold(), room, day).entity(fa.person(w.speaker.id))
    w.add(u, f"Done, {w.speaker.first}: {room} is booked for you {w.dayref(day)} from {hhmm(t)} to {hhmm(t + 60)}.",
          [f'book_room(room="{room}", time="{hhmm(t)}")', f'inform_name(name="{w.speaker.name}")'], g)
    return f"Find a meeting room that is free {w.dayref(day)} at {hhmm(t)} and book it."


def my_day(w: Writer) -> str | None:
    world, rng, fa = w.world, w.rng, w.facts
    mine = world.events_of(w.speaker.id, w.now_day)
    if not mine:
        return None
    u = Utterance().say(rng.choice(("Hi, ", "Hello, ", "")))
    w.introduce(u).say(". What meetings do ")
    w.me(u, "I").say(" have today?")
    g = w.schedule_gold(w.gold(), w.speaker, w.now_day)
    w.add(u, f"Today you have {describe_events(mine)}." if len(mine) > 1 else
             f"Today you have one meeting: {describe_events(mine)}.",
          [f'inform_name(name="{w.speaker.name}")', 'request_events(entity="@speaker", date="today")'], g)
    e1 = mine[0]
    u = Utterance().say("Who else is going to ")
    w.event_name(u, e1, "definite", "the first one" if len(mine) > 1 else "that meeting").say("?")
    others = [world.person(a).name for a in e1.attendees if a != w.speaker.id]
    ev = fa.event(e1.id)
    w.add(u, f"{join(others)} {'is' if len(others) == 1 else 'are'} also attending {e1.name}." if others
             else f"Nobody else is attending {e1.name}.",
          [f'request_entity_attribute(entity="{e1.name}", attribute="attendees")'], w.gold().edge_of(ev, "attendee"))
    u = Utterance().say("Who organizes ")
    w.event_name(u, e1, "pronoun", "it").say("?")
    org = world.person(e1.organizer)
    w.add(u, ("You organize it yourself." if org is w.speaker else f"{org.name} organizes {e1.name}."),
          [f'request_entity_attribute(entity="{e1.name}", attribute="organizer")'], w.gold().edge_of(ev, "organizer"))
    if len(mine) > 1:
        e2 = mine[-1]
        u = Utterance().say("And when does the ")
        w.event_name(u, e2).say(" end?")
        w.add(u, f"{e2.name} ends at {hhmm(e2.end)}.",
              [f'request_entity_attribute(entity="{e2.name}", attribute="end_time")'],
              w.gold().edge_of(fa.event(e2.id), "end_time"))
    return "Find out what meetings you have today, who else attends the first one, and who organizes it."


def profile(w: Writer) -> str | None:
    world, rng, fa = w.world, w.rng, w.facts
    p = rng.choice([q for q in world.people if q is not w.speaker])
    pi = fa.person(p.id)
    u = Utterance().say(rng.choice(("Can you tell me about ", "What do you know about ", "I'm looking for ")))
    if u.text.startswith("I'm"):
        u = Utterance().say("Tell me about ")
    w.name(u, p).say("?" if not u.text.startswith("Tell") else ".")
    w.add(u, f"{p.name} is a member of the {p.group} group, {poss(p)} office is {p.office}, "
             f"{poss(p)} e-mail is {p.email} and {poss(p)} phone number is {p.phone}.",
          [f'request_entity(entity="{p.name}")'], w.gold().entity(pi))
    others = [q.name for q in world.members(p.group) if q is not p]
    u = Utterance().say("Who else is in ")
    w.pronoun(u, p, poss(p)).say(" group?")
    g = w.gold().edge_of(pi, "member_of")
    g.edge_of(fa.group(p.group), "member_of")
    w.add(u, f"{join(others)} {'is' if len(others) == 1 else 'are'} also in {p.group}." if others
             else f"{p.first} is the only member of {p.group}.",
          [f'request_members(group="{p.group}")'], g)
    day = rng.randrange(5)
    u = Utterance().say("What meetings does ")
    w.pronoun(u, p, subj(p)).say(f" have {w.dayref(day)}?")
    evs = world.events_of(p.id, day)
    verb = "have" if p.pronoun == "they" else "has"
    w.add(u, f"{subj(p).capitalize()} {verb} {describe_events(evs)} on {WEEKDAYS[day]}." if evs else
             f"{subj(p).capitalize()} {verb} no meetings on {WEEKDAYS[day]}.",
          [f'request_events(entity="{p.name}", date="{(WEEK_START + timedelta(days=day)).isoformat()}")'],
          w.schedule_gold(w.gold(), p, day))
    organized = [e for e in world.events if e.organizer == p.id]
    u = Utterance().say("Which meetings does ")
    w.name(u, p, first_only=True).say(" organize this week?")
    g = w.gold().edge_of(pi, "organizer")
    w.add(u, f"{p.first} organizes {join([f'{e.name} on {WEEKDAYS[e.day]}' for e in organized])}." if organized
             else f"{p.first} organizes no meetings this week.",
          [f'request_events(organizer="{p.name}")'], g)
    return f"Find out about {p.name}: contact details, group, meetings."


TEMPLATES = {"availability_booking": availability_booking, "event_details": event_details,
             "group_contact": group_contact, "free_room": free_room, "my_day": my_day, "profile": profile}


# Requests whose gold edges are the facts a reply must state (answer-fact recall); "tell me
# about X" and "which rooms are free" ask for whole neighbourhoods, not for facts, and are left out.
SINGLE_REQUESTS = ("request_entity_attribute",)
LIST_REQUESTS = ("request_members", "request_member_count", "request_events", "request_room_booking",
                 "request_availability", "request_room_availability")


def answer_of(intents: list[str], gold: dict) -> dict | None:
    """The answer facts of a turn in the out-of-domain benchmark's `answer` shape (kind "single"
    for one attribute asked, "list" for the other fact requests), or None."""
    names = [i.split("(", 1)[0] for i in intents]
    requests = [n for n in names if n in SINGLE_REQUESTS + LIST_REQUESTS]
    if not requests or not gold["edges"]:
        return None
    kind = "single" if requests == ["request_entity_attribute"] else "list"
    return {"facts": gold["edges"], "strings": [], "kind": kind, "relations": sorted({e[1] for e in gold["edges"]}),
            "asks_name": False}


def entities_string(links: list[dict]) -> str:
    """GraphWOZ's `entities` field: "mention : entity, ..." with @speaker for the user."""
    return ", ".join(f"{link['mention']} : {'@speaker' if link['kind'] == 'first_person' else link['label']}"
                     for link in links)


def write_dialogue(world: World, dialogue_id: str, templates: list[str], rng: random.Random) -> dict | None:
    """One dialogue in GraphWOZ form (with `gold` per log entry and the session clock `now`),
    playing the given task templates one after another with the same speaker; None when the
    world has no fitting case for one of them."""
    facts = WorldFacts(world, dialogue_id)
    speaker = rng.choice(world.people)
    now_day = rng.randrange(4)  # Monday..Thursday, so "tomorrow" stays in the week
    if "my_day" in templates:
        days = sorted({e.day for e in world.events_of(speaker.id) if e.day < 4})
        if days:
            now_day = rng.choice(days)
    now_min = rng.randrange(8 * 60, 12 * 60, 15)
    w = Writer(world, facts, rng, speaker, now_day, now_min)
    tasks = []
    for template in templates:
        task = TEMPLATES[template](w)
        if task is None:
            return None
        tasks.append(task)
    log = []
    for i, turn in enumerate(w.turns, start=1):
        u = turn.utterance
        alternatives = [{"transcript": u.text, "confidence": round(0.85 + 0.1 * rng.random(), 3)}]
        for _ in range(rng.randrange(1, 3)):
            heard = asr_variant(u.text, u.links, rng)
            if all(heard != a["transcript"] for a in alternatives):
                alternatives.append({"transcript": heard, "confidence": round(0.3 + 0.4 * rng.random(), 3)})
        gold = turn.gold.as_json()
        gold["links"] = [{k: link[k] for k in ("mention", "start", "end", "kind", "entity")} for link in u.links]
        answer = answer_of(turn.intents, gold)
        if answer:
            gold["answer"] = answer
        log.append({"turn": i, "manual_transcription": u.text, "alternative": alternatives,
                    "entities": entities_string(u.links), "intents": turn.intents,
                    "agent_response": turn.response, "gold": gold})
    now = datetime.combine(WEEK_START + timedelta(days=now_day), datetime.min.time()) + timedelta(minutes=now_min)
    return {"task": " Then: ".join(tasks), "template": "+".join(templates), "now": now.isoformat(),
            "speaker": speaker.name, "data": world.data(), "log": log}
