"""Replies the project did not write: an out-of-generator set for `kgchat eval factcheck`.

Written apart from the planted-claim generator (harness.eval.planted), with its own
templates, in the ways larger models answer: several values in one clause, vocatives and
discourse markers ("Sure Mei,", "Alright,", "Well,"), hedges ("I believe"), bullet lists under a
topic line, reordered clauses, pronoun subjects, values spelled many ways, and relations said in
other words than the KG's ("fronts", "came out in", "is running", "pulls in ... listeners").
Every value said carries its gold verdict: supported, contradicted (another value of a
single-valued relation; a value the KG holds under another relation; a thing of the wrong kind,
such as a room as an organizer) or nei (what the KG does not say).

Domains: office worlds (the demo office and benchmark worlds), the Wikidata-style demo KG, and
two small custom-predicate KGs kept next to this module (kgs/bands.ttl: camelCase local names
without labels; kgs/campus.ttl: snake_case names, some labelled).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

KG_DIR = Path(__file__).parent / "kgs"
WD = "http://www.wikidata.org/prop/direct/"
OPENERS = ("Sure", "Of course", "Alright", "Absolutely", "Good question", "Happy to help")
MARKERS = ("Well, ", "Alright, ", "So, ", "Okay, ", "")
HEDGES = ("I believe ", "If I'm not mistaken, ", "As far as I know, ", "")
INVENTED = ("Quentin Ashdown", "Marisol Quayle", "Tobias Wrenfield", "Odile Brackett", "Casimir Thorne")


@dataclass
class Gold:
    text: str  # the value as the reply says it (a substring of the reply)
    verdict: str  # supported | contradicted | nei
    relation: str
    kind: str = "value"  # value | wrong-relation | wrong-type | paraphrase | not-in-kg


@dataclass
class Reply:
    domain: str
    kg: str  # a KG file, or "world:<dialogue id>" for a benchmark world
    text: str
    gold: list[Gold]
    addressed: list[str] = field(default_factory=list)  # vocatives and markers the reply opens with
    now: str = "2026-03-02T09:00"


# -- how values are said ---------------------------------------------------------------------
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def say_day(iso: str, rng: random.Random) -> str:
    d = date.fromisoformat(iso)
    ordinal = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(d.day, "th")
    return rng.choice((WEEKDAYS[d.weekday()], f"{WEEKDAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]}",
                       f"{MONTHS[d.month - 1]} {d.day}{ordinal}", f"{WEEKDAYS[d.weekday()][:3]}, {MONTHS[d.month - 1][:3]} {d.day}"))


def say_clock(hhmm: str, rng: random.Random) -> str:
    h, m = (int(x) for x in hhmm.split(":")[:2])
    twelve = h % 12 or 12
    suffix = "am" if h < 12 else "pm"
    forms = [f"{h:02d}:{m:02d}", f"{twelve}:{m:02d} {suffix}", f"{twelve}:{m:02d}{suffix[0]}.m."]
    if m == 0:
        forms += [f"{twelve} {suffix}", f"{twelve}{suffix}"]
    if m == 30:
        forms.append(f"half past {twelve}" + (" in the afternoon" if h >= 13 else ""))
    return rng.choice(forms)


def shift(hhmm: str, minutes: int) -> str:
    h, m = (int(x) for x in hhmm.split(":")[:2])
    t = (h * 60 + m + minutes) % (24 * 60)
    return f"{t // 60:02d}:{t % 60:02d}"


def say_year_date(iso: str, rng: random.Random) -> str:
    d = date.fromisoformat(iso[:10])
    return rng.choice((f"{d.day} {MONTHS[d.month - 1]} {d.year}", f"{MONTHS[d.month - 1]} {d.day}, {d.year}",
                       f"{MONTHS[d.month - 1]} {d.year}"))


def say_count(n: int, rng: random.Random, hedged: bool) -> str:
    if not hedged:
        return rng.choice((f"{n:,}", str(n)))
    if n >= 1_000_000:
        return rng.choice((f"about {n / 1e6:.1f} million", f"roughly {round(n, -5):,}"))
    if n >= 10_000:
        return rng.choice((f"around {round(n, -3):,}", f"about {round(n, -3) // 1000}k".replace("k", " thousand")))
    return f"about {round(n, -1)}" if n >= 100 else str(n)


def off_by(n: int, rng: random.Random) -> int:
    """A count clearly wrong at any rounding a reply may use."""
    return int(n * rng.choice((0.5, 0.6, 1.7, 2.2))) + rng.choice((3, 7))


# -- office worlds ---------------------------------------------------------------------------
def office_replies(data: dict, kg: str, now: str, rng: random.Random, n: int) -> list[Reply]:
    counts: dict[str, int] = {}
    for e in data["events"]:
        counts[e["name"]] = counts.get(e["name"], 0) + 1
    events = [e for e in data["events"] if counts[e["name"]] == 1]
    people = data["people"]
    rooms = sorted({e["location"] for e in data["events"]})
    days = sorted({e["date"] for e in data["events"]})
    makers = (_office_chain, _office_range, _office_bullets, _office_pronoun, _office_organizer, _office_contact,
              _office_desk, _office_apposition, _office_nei, _office_fronted, _office_misplaced, _office_nei,
              _office_dash, _office_trailing, _office_its)
    out = []
    for i in range(n):
        e = rng.choice(events)
        p = rng.choice(people)
        reply = makers[i % len(makers)](e, p, rng, rooms=rooms, days=days, people=people, events=events)
        out.append(Reply("office", kg, reply[0], reply[1], reply[2] if len(reply) > 2 else [], now))
    return out


def _wrong(true: str, pool, rng: random.Random) -> str:
    return rng.choice([x for x in pool if x != true])


def _pick(rng: random.Random, p_wrong: float = 0.45) -> bool:
    return rng.random() < p_wrong


def _office_chain(e, p, rng, *, rooms, days, **_):
    first = rng.choice(p["name"].split()[:1])
    day_ok, time_ok, room_ok = (not _pick(rng) for _ in range(3))
    day = e["date"] if day_ok else _wrong(e["date"], days, rng)
    start = e["start_time"] if time_ok else shift(e["start_time"], rng.choice((60, 90, 120, -60)))
    room = e["location"] if room_ok else _wrong(e["location"], rooms, rng)
    d, t = say_day(day, rng), say_clock(start, rng)
    opener = rng.choice(OPENERS)
    verb = rng.choice(("scheduled", "planned", "set", "booked"))
    text = f"{opener} {first}, the {e['name']} is {verb} for {d} at {t} in {room}."
    gold = [Gold(d, _v(day_ok), "date"), Gold(t, _v(time_ok), "start_time"), Gold(room, _v(room_ok), "location")]
    return text, gold, [opener, first]


def _v(ok: bool) -> str:
    return "supported" if ok else "contradicted"


def _office_range(e, p, rng, *, days, **_):
    s_ok, e_ok, d_ok = (not _pick(rng, 0.35) for _ in range(3))
    start = e["start_time"] if s_ok else shift(e["start_time"], -60)
    end = e["end_time"] if e_ok else shift(e["end_time"], 90)
    day = e["date"] if d_ok else _wrong(e["date"], days, rng)
    marker = rng.choice(MARKERS)
    s_txt, e_txt, d_txt = say_clock(start, rng), say_clock(end, rng), say_day(day, rng)
    text = f"{marker}{e['name']} runs from {s_txt} to {e_txt} on {d_txt}."
    gold = [Gold(s_txt, _v(s_ok), "start_time"), Gold(e_txt, _v(e_ok), "end_time"), Gold(d_txt, _v(d_ok), "date")]
    return text, gold, [marker.strip(", ")] if marker else []


def _office_bullets(e, p, rng, *, rooms, people, **_):
    r_ok, o_ok, s_ok = (not _pick(rng, 0.4) for _ in range(3))
    room = e["location"] if r_ok else _wrong(e["location"], rooms, rng)
    org = e["organizer"] if o_ok else _wrong(e["organizer"], [x["name"] for x in people], rng)
    start = e["start_time"] if s_ok else shift(e["start_time"], 120)
    t = say_clock(start, rng)
    first = p["name"].split()[0]
    text = (f"Hi {first}! Here's what I found for **{e['name']}**:\n\n- **Room:** {room}\n- **Starts:** {t}\n"
            f"- **Organizer:** {org}\n\nLet me know if you need anything else.")
    gold = [Gold(room, _v(r_ok), "location"), Gold(t, _v(s_ok), "start_time"), Gold(org, _v(o_ok), "organizer")]
    return text, gold, ["Hi", first]


def _office_pronoun(e, p, rng, *, rooms, **_):
    r_ok, s_ok, e_ok = (not _pick(rng, 0.4) for _ in range(3))
    room = e["location"] if r_ok else _wrong(e["location"], rooms, rng)
    start = e["start_time"] if s_ok else shift(e["start_time"], 30 if e["start_time"] != "08:00" else 60)
    end = e["end_time"] if e_ok else shift(e["end_time"], 60)
    if start == end:  # a wrong start that lands on the end would be said twice
        start = shift(e["start_time"], -60)
    s_txt, e_txt = say_clock(start, rng), say_clock(end, rng)
    go = rng.choice(("kicks off", "starts", "begins"))
    stop = rng.choice(("wraps up", "ends", "finishes"))
    text = f"The {e['name']} takes place in {room}. It {go} at {s_txt} and {stop} at {e_txt}."
    gold = [Gold(room, _v(r_ok), "location"), Gold(s_txt, _v(s_ok), "start_time"), Gold(e_txt, _v(e_ok), "end_time")]
    return text, gold


def _office_organizer(e, p, rng, *, events, people, **_):
    others = [a for a in e["attendees"] if a != e["organizer"]]
    case = rng.choice(("true", "true", "attendee", "stranger", "room", "event"))
    if case == "attendee" and others:
        who, verdict, kind = rng.choice(others), "contradicted", "wrong-relation"
    elif case == "stranger":
        who = _wrong(e["organizer"], [x["name"] for x in people if x["name"] not in e["attendees"]], rng)
        verdict, kind = "contradicted", "value"
    elif case == "room":
        who, verdict, kind = e["location"], "contradicted", "wrong-type"
    elif case == "event":
        who, verdict, kind = _wrong(e["name"], [x["name"] for x in events], rng), "contradicted", "wrong-type"
    else:
        who, verdict, kind = e["organizer"], "supported", "paraphrase"
    shape = rng.choice((f"{who} is running the {e['name']}.", f"The {e['name']} is hosted by {who}.",
                        f"{rng.choice(HEDGES)}the {e['name']} is being organised by {who}.",
                        f"The person in charge of the {e['name']} is {who}."))
    text = shape[0].upper() + shape[1:]
    return text, [Gold(who, verdict, "organizer", kind)]


def _office_contact(e, p, rng, *, people, **_):
    m_ok, t_ok = not _pick(rng), not _pick(rng)
    other = _wrong(p["name"], [x["name"] for x in people], rng)
    o = next(x for x in people if x["name"] == other)
    mail = p["email"] if m_ok else o["email"]
    phone = p["phone"] if t_ok else o["phone"]
    phone = phone if rng.random() < 0.5 else phone.replace(" ", "-", 1)
    text = f"{rng.choice(MARKERS)}you can reach {p['name']} at {mail} or on {phone}."
    text = text[0].upper() + text[1:]
    return text, [Gold(mail, _v(m_ok), "email"), Gold(phone, _v(t_ok), "phone")]


def _office_desk(e, p, rng, *, people, **_):
    o_ok, g_ok = not _pick(rng), not _pick(rng)
    office = p["office"] if o_ok else _wrong(p["office"], sorted({x["office"] for x in people}), rng)
    group = p["group"] if g_ok else _wrong(p["group"], sorted({x["group"] for x in people}), rng)
    text = rng.choice((f"{p['name']}'s office is {office}, and they're part of the {group} group.",
                       f"{p['name']} is a member of the {group} group; their office is {office}."))
    return text, [Gold(office, _v(o_ok), "office"), Gold(group, _v(g_ok), "member_of")]


def _office_apposition(e, p, rng, *, rooms, days, **_):
    r_ok, d_ok = not _pick(rng), not _pick(rng)
    room = e["location"] if r_ok else _wrong(e["location"], rooms, rng)
    day = e["date"] if d_ok else _wrong(e["date"], days, rng)
    d = say_day(day, rng)
    text = f"Your next one is the {e['name']} ({room}, {d}), organized by {e['organizer']}."
    return text, [Gold(room, _v(r_ok), "location"), Gold(d, _v(d_ok), "date"),
                  Gold(e["organizer"], "supported", "organizer")]


def _office_fronted(e, p, rng, *, rooms, days, **_):
    """A reordered clause: the day first, then the event and its time."""
    d_ok, t_ok = not _pick(rng), not _pick(rng)
    day = e["date"] if d_ok else _wrong(e["date"], days, rng)
    start = e["start_time"] if t_ok else shift(e["start_time"], 150)
    d, t = say_day(day, rng), say_clock(start, rng)
    text = f"On {d}, the {e['name']} {rng.choice(('starts', 'begins', 'kicks off'))} at {t}."
    return text, [Gold(d, _v(d_ok), "date"), Gold(t, _v(t_ok), "start_time")]


def _office_misplaced(e, p, rng, *, rooms, **_):
    """A value the KG holds under another relation, or a thing of the wrong kind."""
    case = rng.choice(("organizer-as-room", "end-as-start", "room-true", "attendee-as-organizer"))
    others = [a for a in e["attendees"] if a != e["organizer"]]
    if case == "organizer-as-room":
        text, gold = f"The {e['name']} is held in {e['organizer']}.", Gold(e["organizer"], "contradicted", "location",
                                                                             "wrong-type")
    elif case == "end-as-start" and e["end_time"] != e["start_time"]:
        t = say_clock(e["end_time"], rng)
        text, gold = f"The {e['name']} starts at {t}.", Gold(t, "contradicted", "start_time", "wrong-relation")
    elif case == "attendee-as-organizer" and others:
        who = rng.choice(others)
        text, gold = f"{who} organizes the {e['name']}.", Gold(who, "contradicted", "organizer", "wrong-relation")
    else:
        text, gold = f"The {e['name']} is held in {e['location']}.", Gold(e["location"], "supported", "location")
    return text, [gold]


def _office_dash(e, p, rng, *, rooms, days, **_):
    """A verbless line: "Poster Session — Monday, 8 am, Meeting Room Delta"."""
    d_ok, t_ok, r_ok = (not _pick(rng, 0.4) for _ in range(3))
    d = say_day(e["date"] if d_ok else _wrong(e["date"], days, rng), rng)
    t = say_clock(e["start_time"] if t_ok else shift(e["start_time"], 120), rng)
    room = e["location"] if r_ok else _wrong(e["location"], rooms, rng)
    dash = rng.choice(("—", "–", ":"))
    text = f"{e['name']} {dash} {d}; {t}; {room}."
    return text, [Gold(d, _v(d_ok), "date"), Gold(t, _v(t_ok), "start_time"), Gold(room, _v(r_ok), "location")]


def _office_trailing(e, p, rng, *, rooms, days, **_):
    """The user addressed at the end: "..., Mei!"."""
    r_ok, d_ok = not _pick(rng), not _pick(rng)
    room = e["location"] if r_ok else _wrong(e["location"], rooms, rng)
    d = say_day(e["date"] if d_ok else _wrong(e["date"], days, rng), rng)
    first = p["name"].split()[0]
    text = f"The {e['name']} is in {room} on {d}, {first}!"
    return text, [Gold(room, _v(r_ok), "location"), Gold(d, _v(d_ok), "date")], [first]


def _office_its(e, p, rng, *, rooms, people, **_):
    """A possessive pronoun and a contraction: "Its organizer is X, and it's in Room B"."""
    o_ok, r_ok = not _pick(rng), not _pick(rng)
    org = e["organizer"] if o_ok else _wrong(e["organizer"], [x["name"] for x in people], rng)
    room = e["location"] if r_ok else _wrong(e["location"], rooms, rng)
    text = f"You asked about the {e['name']}. Its organizer is {org}, and it's in {room}."
    return text, [Gold(org, _v(o_ok), "organizer"), Gold(room, _v(r_ok), "location")]


def _office_nei(e, p, rng, **_):
    invented = rng.choice(INVENTED)
    budget = rng.choice((250, 400, 1200))
    text = rng.choice((f"Well, the {e['name']} will also be attended by {invented}.",
                       f"The {e['name']} has a budget of {budget} euros.",
                       f"{p['name']} has a dog called {invented.split()[0]}."))
    said = invented if invented in text else (str(budget) if str(budget) in text else invented.split()[0])
    return text, [Gold(said, "nei", "not in the KG", "not-in-kg")], (["Well"] if text.startswith("Well") else [])


# -- KGs read through the store --------------------------------------------------------------
class Facts:
    """The (subject, object) pairs of each predicate of a loaded KG, and labels."""

    def __init__(self, store):
        self.store = store
        self._cache: dict[str, list[tuple[str, str]]] = {}

    def pairs(self, p: str) -> list[tuple[str, str]]:
        if p not in self._cache:
            rows = self.store.query(f"SELECT ?s ?o WHERE {{ GRAPH ?g {{ ?s <{p}> ?o }} }}")
            self._cache[p] = sorted((r["s"], r["o"]) for r in rows)
        return self._cache[p]

    def of(self, p: str) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for s, o in self.pairs(p):
            out.setdefault(s, []).append(o)
        return out

    def label(self, iri: str) -> str:
        return self.store.label(iri)


def wikidata_replies(store, kg: str, rng: random.Random, n: int) -> list[Reply]:
    f = Facts(store)
    director, published, minutes = f.of(WD + "P57"), f.of(WD + "P577"), f.of(WD + "P2047")
    cast, origin = f.of(WD + "P161"), f.of(WD + "P495")
    films = sorted(set(director) & set(published) & set(minutes) & set(cast))
    born_in, born_on = f.of(WD + "P19"), f.of(WD + "P569")
    people = sorted(set(born_in) & set(born_on))
    capital, population = f.of(WD + "P36"), f.of(WD + "P1082")
    countries = sorted(c for c, caps in capital.items() if caps[0] in population)
    all_directors = sorted({d for ds in director.values() for d in ds})
    cities = sorted({c for cs in born_in.values() for c in cs} | {c for cs in capital.values() for c in cs})
    out = []
    for i in range(n):
        case = i % 6
        if case in (0, 1):
            film = rng.choice(films)
            name, year = f.label(film), int(published[film][0][:4])
            y_ok, d_ok, m_ok = (not _pick(rng, 0.4) for _ in range(3))
            y = year if y_ok else year + rng.choice((-3, -1, 2, 4))
            d = director[film][0] if d_ok else _wrong(director[film][0], all_directors, rng)
            mins = int(float(minutes[film][0]))
            m = mins if m_ok else mins + rng.choice((-25, 17, 31))
            d_name = f.label(d)
            if case == 0:
                text = f"{name} came out in {y}, was directed by {d_name}, and runs {m} minutes."
            else:
                text = f"{rng.choice(OPENERS)}! {name} ({y}) was directed by {d_name}. It runs {m} minutes."
            gold = [Gold(str(y), _v(y_ok), "publication date", "paraphrase"), Gold(d_name, _v(d_ok), "director"),
                    Gold(f"{m} minutes", _v(m_ok), "duration")]
        elif case == 2:
            film = rng.choice(films)
            case2 = rng.choice(("cast", "country", "true"))
            if case2 == "cast":
                who, verdict, kind = f.label(rng.choice(cast[film])), "contradicted", "wrong-relation"
            elif case2 == "country" and film in origin:
                who, verdict, kind = f.label(origin[film][0]), "contradicted", "wrong-type"
            else:
                who, verdict, kind = f.label(director[film][0]), "supported", "value"
            text = f"{rng.choice(HEDGES)}{f.label(film)} was directed by {who}."
            gold = [Gold(who, verdict, "director", kind)]
        elif case == 3:
            person = rng.choice(people)
            c_ok, b_ok = not _pick(rng), not _pick(rng)
            city = born_in[person][0] if c_ok else _wrong(born_in[person][0], cities, rng)
            iso = born_on[person][0][:10]
            when = iso if b_ok else f"{int(iso[:4]) + rng.choice((-2, 3))}{iso[4:]}"
            said = say_year_date(when, rng)
            text = f"{rng.choice(MARKERS)}{f.label(person)} was born in {f.label(city)} on {said}."
            text = text[0].upper() + text[1:]
            gold = [Gold(f.label(city), _v(c_ok), "place of birth"), Gold(said, _v(b_ok), "date of birth")]
        elif case == 4:
            country = rng.choice(countries)
            c_ok, p_ok = not _pick(rng), not _pick(rng)
            cap = capital[country][0] if c_ok else _wrong(capital[country][0], cities, rng)
            pop = int(float(population[capital[country][0]][0]))
            said = say_count(pop if p_ok else off_by(pop, rng), rng, hedged=True)
            text = (f"The capital of {f.label(country)} is {f.label(cap)}. {f.label(capital[country][0])} has "
                    f"{said} inhabitants.")
            gold = [Gold(said, _v(p_ok), "population"), Gold(f.label(cap), _v(c_ok), "capital")]
        else:
            film = rng.choice(films)
            invented = rng.choice(INVENTED)
            text = f"{f.label(film)} was scored by {invented}, who also wrote its theme song."
            gold = [Gold(invented, "nei", "composer", "not-in-kg")]
        out.append(Reply("wikidata", kg, text, gold, _addressed(text)))
    return out


def _addressed(text: str) -> list[str]:
    head = text.split("!")[0].split(",")[0]
    return [head] if head in OPENERS or head + ", " in MARKERS else []


BANDS = "http://example.org/bands/"


def bands_replies(store, kg: str, rng: random.Random, n: int) -> list[Reply]:
    f = Facts(store)
    singer, drummer, hometown, debut = (f.of(BANDS + k) for k in ("leadSinger", "drummer", "hometown", "debutYear"))
    label, listeners, by_band = f.of(BANDS + "recordLabel"), f.of(BANDS + "monthlyListeners"), f.of(BANDS + "byBand")
    released, tracks, producer = f.of(BANDS + "releaseDate"), f.of(BANDS + "trackCount"), f.of(BANDS + "producedBy")
    born, born_year, plays = f.of(BANDS + "bornIn"), f.of(BANDS + "birthYear"), f.of(BANDS + "playsInstrument")
    bands, albums, musicians = sorted(singer), sorted(by_band), sorted(born)
    cities = sorted({c for cs in list(born.values()) + list(hometown.values()) for c in cs})
    labels_ = sorted({x for xs in label.values() for x in xs})
    producers = sorted({x for xs in producer.values() for x in xs})
    out = []
    for i in range(n):
        case = i % 6
        if case == 0:
            band = rng.choice(bands)
            s_ok, h_ok = not _pick(rng), not _pick(rng)
            who = singer[band][0] if s_ok else drummer[band][0]
            town = hometown[band][0] if h_ok else _wrong(hometown[band][0], cities, rng)
            text = f"{f.label(who)} fronts {f.label(band)}, who come from {f.label(town)}."
            gold = [Gold(f.label(who), _v(s_ok), "lead singer", "paraphrase" if s_ok else "wrong-relation"),
                    Gold(f.label(town), _v(h_ok), "hometown", "paraphrase")]
        elif case == 1:
            band = rng.choice(bands)
            l_ok, n_ok = not _pick(rng), not _pick(rng)
            lab = label[band][0] if l_ok else _wrong(label[band][0], labels_, rng)
            count = int(float(listeners[band][0]))
            said = say_count(count if n_ok else off_by(count, rng), rng, hedged=True)
            text = f"{rng.choice(MARKERS)}{f.label(band)} is signed to {f.label(lab)} and pulls in {said} monthly listeners."
            text = text[0].upper() + text[1:]
            gold = [Gold(f.label(lab), _v(l_ok), "record label"), Gold(said, _v(n_ok), "monthly listeners", "paraphrase")]
        elif case == 2:
            album = rng.choice(albums)
            d_ok, t_ok = not _pick(rng), not _pick(rng)
            iso = released[album][0]
            when = say_year_date(iso if d_ok else f"{int(iso[:4]) + rng.choice((-2, 1, 3))}{iso[4:]}", rng)
            count = int(float(tracks[album][0]))
            k = count if t_ok else count + rng.choice((-3, 2, 5))
            text = f"{f.label(album)} came out in {when} and has {k} tracks."
            gold = [Gold(when, _v(d_ok), "release date", "paraphrase"), Gold(f"{k} tracks", _v(t_ok), "track count")]
        elif case == 3:
            album = rng.choice(albums)
            case2 = rng.choice(("true", "wrong", "city", "member"))
            members = [m for m, bs in f.of(BANDS + "member").items() if by_band[album][0] in bs] or \
                [x for x in f.of(BANDS + "member").get(by_band[album][0], [])]
            if case2 == "city":
                who, verdict, kind = rng.choice(cities), "contradicted", "wrong-type"
            elif case2 == "member" and members:
                who, verdict, kind = rng.choice(members), "contradicted", "wrong-relation"
            elif case2 == "wrong":
                who, verdict, kind = _wrong(producer[album][0], producers, rng), "contradicted", "value"
            else:
                who, verdict, kind = producer[album][0], "supported", "value"
            text = f"{rng.choice(HEDGES)}{f.label(album)} was produced by {f.label(who)}."
            text = text[0].upper() + text[1:]
            gold = [Gold(f.label(who), verdict, "produced by", kind)]
        elif case == 4:
            m = rng.choice(musicians)
            c_ok, y_ok = not _pick(rng), not _pick(rng)
            city = born[m][0] if c_ok else _wrong(born[m][0], cities, rng)
            year = int(born_year[m][0][:4])
            y = year if y_ok else year + rng.choice((-4, 2, 6))
            inst = f.label(plays[m][0])
            text = f"Sure! {f.label(m)} was born in {f.label(city)} in {y} and plays the {inst}."
            gold = [Gold(f.label(city), _v(c_ok), "born in"), Gold(str(y), _v(y_ok), "birth year"),
                    Gold(inst, "supported", "plays instrument")]
        elif i % 12 == 5:
            band = rng.choice(bands)
            invented = rng.choice(INVENTED)
            text = f"{f.label(band)} toured with {invented} last spring."
            gold = [Gold(invented, "nei", "toured with", "not-in-kg")]
        else:
            band = rng.choice(bands)
            town = hometown[band][0]
            text = f"Well, {f.label(band)} is signed to {f.label(town)}."
            gold = [Gold(f.label(town), "contradicted", "record label", "wrong-type")]
        out.append(Reply("bands", kg, text, gold, ["Sure"] if text.startswith("Sure") else _addressed(text)))
    return out


CAMPUS = "http://example.org/campus/"


def campus_replies(store, kg: str, rng: random.Random, n: int) -> list[Reply]:
    f = Facts(store)
    taught, credits, held, enrol = (f.of(CAMPUS + k) for k in ("taught_by", "credit_points", "held_in", "enrolment"))
    room, email, head, located = (f.of(CAMPUS + k) for k in ("office_room", "email", "head_of", "located_in"))
    member = f.of(CAMPUS + "member_of")
    courses, lecturers, depts = sorted(taught), sorted(room), sorted(head)
    buildings = sorted({b for bs in held.values() for b in bs})
    rooms = sorted({r for rs in room.values() for r in rs})
    out = []
    for i in range(n):
        case = i % 5
        if case == 0:
            c = rng.choice(courses)
            t_ok, b_ok, k_ok = (not _pick(rng, 0.4) for _ in range(3))
            who = taught[c][0] if t_ok else _wrong(taught[c][0], lecturers, rng)
            where = held[c][0] if b_ok else _wrong(held[c][0], buildings, rng)
            cp = int(float(credits[c][0]))
            k = cp if k_ok else cp + 5
            text = (f"{rng.choice(MARKERS)}{f.label(c)} is taught by {f.label(who)} in the {f.label(where)} "
                    f"and is worth {k} credits.")
            text = text[0].upper() + text[1:]
            gold = [Gold(f.label(who), _v(t_ok), "taught by"), Gold(f.label(where), _v(b_ok), "held in"),
                    Gold(f"{k} credits", _v(k_ok), "credit points", "paraphrase")]
        elif case == 1:
            lec = rng.choice(lecturers)
            r_ok, m_ok = not _pick(rng), not _pick(rng)
            r = room[lec][0] if r_ok else _wrong(room[lec][0], rooms, rng)
            mail = email[lec][0] if m_ok else email[_wrong(lec, lecturers, rng)][0]
            text = f"{f.label(lec)}'s office is {f.label(r)}; their e-mail address is {mail}."
            gold = [Gold(f.label(r), _v(r_ok), "office room"), Gold(mail, _v(m_ok), "email")]
        elif case == 2:
            c = rng.choice(courses)
            ok = not _pick(rng)
            count = int(float(enrol[c][0]))
            said = str(count if ok else off_by(count, rng))
            text = rng.choice((f"Around {said} students are enrolled in {f.label(c)}.",
                               f"{f.label(c)} has {said} students enrolled."))
            gold = [Gold(said, _v(ok), "enrolment", "paraphrase")]
        elif case == 3:
            d = rng.choice(depts)
            case2 = rng.choice(("true", "member", "building"))
            members = [x for x, ds in member.items() if d in ds and x != head[d][0]]
            if case2 == "member" and members:
                who, verdict, kind = rng.choice(members), "contradicted", "wrong-relation"
            elif case2 == "building":
                who, verdict, kind = located[d][0], "contradicted", "wrong-type"
            else:
                who, verdict, kind = head[d][0], "supported", "paraphrase"
            b_ok = not _pick(rng)
            where = located[d][0] if b_ok else _wrong(located[d][0], buildings, rng)
            text = f"The {f.label(d)} department is headed by {f.label(who)} and is based in {f.label(where)}."
            gold = [Gold(f.label(who), verdict, "head of department", kind),
                    Gold(f.label(where), _v(b_ok), "located in", "paraphrase")]
            if who == where:
                gold = gold[:1]
        elif i % 10 == 4:
            lec = rng.choice(lecturers)
            invented = rng.choice(INVENTED)
            text = f"Well, {f.label(lec)} co-wrote a textbook with {invented}."
            gold = [Gold(invented, "nei", "co-author", "not-in-kg")]
        else:
            c = rng.choice(courses)
            who = taught[c][0]
            text = f"{f.label(c)} is held in {f.label(who)}."
            gold = [Gold(f.label(who), "contradicted", "held in", "wrong-type")]
        out.append(Reply("campus", kg, text, gold, ["Well"] if text.startswith("Well") else _addressed(text)))
    return out
