"""One generated organisation: people, groups, rooms and a week of events, in GraphWOZ `data` form.

Everything is drawn from a `random.Random(seed)`, so the same seed gives the same world on every
machine and Python version (only `random` methods with documented stable sequences are used:
`random`, `randrange`, `choice`, `shuffle`, `sample`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta

# The fixed week every world lives in (Monday to Friday) and its working hours.
WEEK_START = date(2026, 3, 2)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
DAY_START_MIN = 8 * 60
DAY_END_MIN = 17 * 60

MEETING_ROOMS = tuple(f"Meeting Room {n}" for n in
                      ("Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Sigma", "Omega"))

GROUPS = ("Administration", "Engineering", "Biology", "Philosophy", "Chemistry", "Marketing",
          "Linguistics", "Mathematics", "Finance", "Human Resources")

# First name -> pronoun set ("she", "he", "they"). A few carry accents, hyphens or apostrophes,
# as real staff lists do, so linking and matching must cope with them.
FIRST_NAMES = {
    "Lisa": "she", "Maria": "she", "Anna": "she", "Zoë": "she", "Siobhán": "she", "Chloé": "she",
    "Anne-Marie": "she", "Priya": "she", "Fatima": "she", "Ingrid": "she", "Hannah": "she",
    "Grace": "she", "Mei": "she", "Sofia": "she", "Laura": "she", "Emma": "she", "Amara": "she",
    "Noor": "she", "Beatriz": "she", "Olga": "she", "Yuki": "she", "Rachel": "she",
    "Omar": "he", "Lars": "he", "Björn": "he", "José": "he", "Jean-Luc": "he", "Sean": "he",
    "David": "he", "Michael": "he", "Tomás": "he", "Kwame": "he", "Ravi": "he", "Erik": "he",
    "Daniel": "he", "Paul": "he", "Mark": "he", "Ahmed": "he", "Kenji": "he", "Lukas": "he",
    "Peter": "he", "Samuel": "he", "Sasha": "they", "Alex": "they", "Robin": "they", "Jordan": "they",
}
LAST_NAMES = (
    "Wilson", "Haddad", "Lopez", "O'Brien", "Müller", "Nguyen", "Smith-Jones", "Johansson",
    "Kowalski", "Okafor", "Fernández", "Dubois", "Rossi", "Tanaka", "Patel", "Andersen",
    "D'Angelo", "García", "Larsen", "Ivanova", "Chen", "Kim", "Schmidt", "Novak", "Brown",
    "Taylor", "MacLeod", "Hansen", "Berg", "Eriksen", "Moreau", "Santos", "Ahmed", "Singh",
    "Walker", "Fischer", "Costa", "Yilmaz", "Byrne", "Lindqvist", "Nakamura", "Osei",
)

EVENT_NAMES = (
    "Weekly Sync", "Budget Review", "Content Status Update", "Journal Club", "Project Kickoff",
    "Design Review", "Lab Meeting", "Reading Group", "Sprint Planning", "Hiring Committee",
    "Safety Briefing", "Quarterly Planning", "Seminar", "Code Review", "Grant Writing Workshop",
    "Onboarding Session", "Strategy Meeting", "Coffee Chat", "Research Colloquium", "Retrospective",
    "Data Club", "Teaching Committee", "Board Meeting", "Thesis Defense Rehearsal",
    "Product Demo", "Ethics Panel", "Writing Retreat", "Infrastructure Review",
    "Outreach Planning", "Methods Workshop", "Staff Meeting", "Poster Session",
)
# Names that recur on different days of the week (a weekly meeting), so references need the day.
RECURRING = ("Weekly Sync", "Staff Meeting", "Lab Meeting", "Coffee Chat")

DURATIONS_MIN = (30, 60, 60, 60, 90, 120)


@dataclass
class Person:
    id: str
    name: str
    first: str
    last: str
    pronoun: str  # "she" | "he" | "they"
    email: str
    phone: str
    group: str
    office: str
    calendar: list[str] = field(default_factory=list)

    def as_data(self) -> dict:
        return {"name": self.name, "id": self.id, "email": self.email, "phone": self.phone,
                "group": self.group, "office": self.office, "calendar": list(self.calendar)}


@dataclass
class Event:
    id: str
    name: str
    day: int  # 0..4, Monday..Friday of WEEK_START's week
    start: int  # minutes after midnight
    end: int
    location: str
    organizer: str  # person id
    attendees: list[str]  # person ids, organizer included
    group: str

    @property
    def date(self) -> date:
        return WEEK_START + timedelta(days=self.day)

    def overlaps(self, day: int, start: int, end: int) -> bool:
        return self.day == day and self.start < end and start < self.end

    def as_data(self, people: dict[str, Person]) -> dict:
        return {"id": self.id, "name": self.name, "date": self.date.isoformat(),
                "start_time": hhmm(self.start), "end_time": hhmm(self.end),
                "location": self.location, "organizer": people[self.organizer].name,
                "attendees": [people[a].name for a in self.attendees], "group": self.group}


@dataclass
class World:
    seed: int
    domain: str
    people: list[Person]
    events: list[Event]
    groups: list[str]
    offices: list[str]

    def person(self, pid: str) -> Person:
        return self._people_by_id[pid]

    def __post_init__(self) -> None:
        self._people_by_id = {p.id: p for p in self.people}

    def data(self) -> dict:
        return {"people": [p.as_data() for p in self.people],
                "events": [e.as_data(self._people_by_id) for e in self.events]}

    def events_of(self, pid: str, day: int | None = None) -> list[Event]:
        return sorted((e for e in self.events if pid in e.attendees and (day is None or e.day == day)),
                      key=lambda e: (e.day, e.start))

    def events_in(self, room: str, day: int | None = None) -> list[Event]:
        return sorted((e for e in self.events if e.location == room and (day is None or e.day == day)),
                      key=lambda e: (e.day, e.start))

    def members(self, group: str) -> list[Person]:
        return [p for p in self.people if p.group == group]

    def busy(self, pid: str, day: int, start: int, end: int) -> list[Event]:
        return [e for e in self.events_of(pid, day) if e.overlaps(day, start, end)]

    def room_free(self, room: str, day: int, start: int, end: int) -> bool:
        return not any(e.overlaps(day, start, end) for e in self.events_in(room, day))


def hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _ascii(text: str) -> str:
    table = str.maketrans({"ë": "e", "á": "a", "é": "e", "ö": "o", "ü": "u", "í": "i", "ó": "o",
                           "ñ": "n", "ç": "c", "ã": "a"})
    return "".join(ch for ch in text.lower().translate(table) if ch.isalnum() or ch == "-")


def make_world(seed: int) -> World:
    rng = random.Random(seed)
    domain = rng.choice(("uni-example.org", "office.example.com", "institute.example.net", "lab.example.org"))
    n_people = rng.randrange(25, 36)
    n_events = rng.randrange(55, 66)
    groups = rng.sample(GROUPS, rng.randrange(4, 7))
    if "Administration" not in groups:
        groups[0] = "Administration"

    # A few people share a first name (two "Maria"s): full names stay unique.
    firsts = rng.sample(sorted(FIRST_NAMES), n_people - 3)
    firsts += rng.sample(firsts, 3)
    rng.shuffle(firsts)
    lasts = rng.sample(LAST_NAMES, n_people)
    floor = rng.choice((1, 2, 3))
    office_numbers = rng.sample(range(floor * 100 + 1, floor * 100 + 60), n_people)
    people: list[Person] = []
    for i, (first, last) in enumerate(zip(firsts, lasts, strict=False)):
        pid = f"person_{i + 1:02d}"
        # Everyone has an office; a few share one (two to a room), as in a real corridor.
        number = office_numbers[i] if i < n_people - 4 else office_numbers[rng.randrange(n_people - 4)]
        local = f"{_ascii(first)}.{_ascii(last).replace('-', '')}"
        phone = f"+47 {rng.randrange(400, 999)} {rng.randrange(10, 99)} {rng.randrange(100, 999)}"
        people.append(Person(pid, f"{first} {last}", first, last, FIRST_NAMES[first], f"{local}@{domain}",
                             phone, groups[i % len(groups)] if i < len(groups) else rng.choice(groups),
                             f"Office {number}"))
    offices = sorted({p.office for p in people})

    events: list[Event] = []
    names = list(EVENT_NAMES)
    rng.shuffle(names)
    recurring = rng.sample(RECURRING, 2)
    plan: list[str] = []
    for name in recurring:  # each on two or three days
        plan += [name] * rng.randrange(2, 4)
    plan += [n for n in names if n not in RECURRING]
    while len(plan) < n_events:  # more events than names: reuse names on other days
        plan.append(rng.choice(names))
    plan = plan[:n_events]
    rooms = list(MEETING_ROOMS)
    for i, name in enumerate(plan):
        used_days = {e.day for e in events if e.name == name}
        for _attempt in range(200):
            day = rng.randrange(5)
            if day in used_days:
                continue
            dur = rng.choice(DURATIONS_MIN)
            start = rng.randrange(DAY_START_MIN, DAY_END_MIN - dur + 1, 30)
            end = start + dur
            organizer = rng.choice(people)
            in_office = rng.random() < 0.12 and not any(
                e.overlaps(day, start, end) for e in events if e.location == organizer.office)
            location = organizer.office if in_office else rng.choice(rooms)
            if any(e.location == location and e.overlaps(day, start, end) for e in events):
                continue
            if any(organizer.id in e.attendees and e.overlaps(day, start, end) for e in events):
                continue
            free = [p for p in people if p is not organizer and not any(
                p.id in e.attendees and e.overlaps(day, start, end) for e in events)]
            group = organizer.group if rng.random() < 0.7 else rng.choice(groups)
            same_group = [p for p in free if p.group == group]
            others = [p for p in free if p.group != group]
            k = rng.randrange(1, 1 + (2 if in_office else 6))
            chosen = rng.sample(same_group, min(len(same_group), k))
            if len(chosen) < k and others:
                chosen += rng.sample(others, min(len(others), k - len(chosen)))
            attendees = [organizer.id] + [p.id for p in sorted(chosen, key=lambda p: p.id)]
            events.append(Event(f"event_{i + 1:02d}", name, day, start, end, location, organizer.id,
                                attendees, group))
            break
    events.sort(key=lambda e: (e.day, e.start, e.location))
    for i, e in enumerate(events):
        e.id = f"event_{i + 1:02d}"
    by_id = {p.id: p for p in people}
    for e in events:
        for a in e.attendees:
            by_id[a].calendar.append(e.id)
    return World(seed, domain, people, events, groups, offices)
