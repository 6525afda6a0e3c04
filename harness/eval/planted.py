"""Replies with planted claims of known truth, for `kgchat eval factcheck`.

Office: over the generated benchmark's dialogues (dev/test), at a user turn of each dialogue,
claims about the entities that turn is about — true ones in varied spellings, contradicted ones
(wrong start/end times, swapped rooms, wrong dates, phones, e-mails, offices, groups,
organizers, invented organizers, availability flipped) and unverifiable ones (opinions,
invented people, facts the KG does not hold, questions). Wikidata-style demo KG: the same for
films, people and places. Replies combine one to three claims, some coordinated with a shared
subject, so the splitter is tested together with the verifier.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from harness.office.world import FIRST_NAMES, MEETING_ROOMS

INVENTED = ("Quentin Blackwood", "Ottilie Farrow", "Bartholomew Finch", "Ysolde Marchetti", "Cornelius Vane",
            "Imogen Thistle", "Ezekiel Harrow", "Philippa Crane", "Leopold Ashdown", "Wilhelmina Stroud",
            "Horatio Pembury", "Clementine Vasquez-Orr", "Barnaby Quill", "Seraphina Holt")
OPINIONS_EVENT = ("{s} is a really interesting meeting.", "I think {s} is the most useful meeting of the week.",
                  "{s} sounds like a lot of fun.", "{s} is definitely worth attending.")
OPINIONS_PERSON = ("{s} is a wonderful colleague.", "I believe {s} is the best organizer in the building.",
                   "{s} is really nice to work with.")
UNKNOWN_EVENT = ("{s} always has coffee and cake.", "{s} is recorded for people who cannot come.",
                 "{s} usually runs late.")
UNKNOWN_PERSON = ("{s} speaks four languages.", "{s} likes to cycle to work.", "{s} has two cats.")
QUESTIONS = ("Would you like me to book a room for {s}?", "Shall I send a reminder about {s}?",
             "Do you want the details of {s}?")
WEEKDAY = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTH = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
         "November", "December")


@dataclass
class Planted:
    claim: str  # the claim as the splitter should give it
    verdict: str  # "supported" | "contradicted" | "nei"
    kind: str  # what was planted: "true_time", "wrong_time", "swapped_room", "invented_person", "opinion", ...
    marker: str = ""  # when set, the planted claim is the one containing this text


@dataclass
class Item:
    domain: str  # "office" | "wikidata"
    key: str  # dialogue id (office) or "wikidata"
    turn: int  # the user turn (1-based) the reply answers; 0 for no dialogue
    reply: str
    planted: list[Planted] = field(default_factory=list)


# -- spelling variety ---------------------------------------------------------------------------

def say_time(hhmm: str, rng: random.Random) -> str:
    h, m = int(hhmm[:2]), int(hhmm[3:5])
    h12 = h % 12 or 12
    ampm = "am" if h < 12 else "pm"
    forms = [f"{h:02d}:{m:02d}", f"{h}:{m:02d}" if h > 12 else f"{h:02d}:{m:02d}", f"{h12}.{m:02d} {ampm}",
             f"{h12}:{m:02d} {ampm}"]
    if m == 0:
        forms += [f"{h12} {ampm}", f"{h12}{ampm}"]
    if m == 30:
        forms.append(f"half past {h12} {'in the morning' if h < 12 else 'in the afternoon'}")
    return rng.choice(forms)


def say_date(iso: str, rng: random.Random) -> str:
    d = date.fromisoformat(iso)
    return rng.choice((f"{WEEKDAY[d.weekday()]}", f"{MONTH[d.month - 1]} {d.day}", f"{d.day} {MONTH[d.month - 1]}",
                       d.isoformat(), f"{WEEKDAY[d.weekday()]}, {MONTH[d.month - 1]} {d.day}",
                       f"{MONTH[d.month - 1][:3]} {d.day:02d}"))


def say_phone(phone: str, rng: random.Random) -> str:
    digits = "".join(ch for ch in phone if ch.isdigit())
    return rng.choice((phone, "+" + digits, digits[2:], f"{digits[2:5]} {digits[5:7]} {digits[7:]}",
                       f"+{digits[:2]}-{digits[2:5]}-{digits[5:]}"))


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:5])


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


# -- office -------------------------------------------------------------------------------------

def office_claims(data: dict, focus_events: list[dict], focus_people: list[dict], rng: random.Random) -> list[tuple[str, str, str, str]]:
    """(subject, predicate, verdict, kind) candidates about the turn's events and people."""
    people = data["people"]
    events = data["events"]
    out: list[tuple[str, str, str, str]] = []
    for e in focus_events:
        name = e["name"]
        same_name = [x for x in events if x["name"] == name]
        on = f" on {WEEKDAY[date.fromisoformat(e['date']).weekday()]}" if len(same_name) > 1 else ""
        subj = ("The " if rng.random() < 0.3 else "") + name + on
        start, end = _minutes(e["start_time"]), _minutes(e["end_time"])
        out += [(subj, f"starts at {say_time(e['start_time'], rng)}", "supported", "true_time"),
                (subj, f"ends at {say_time(e['end_time'], rng)}", "supported", "true_time"),
                (subj, f"{rng.choice(('is held in', 'takes place in', 'is in'))} {e['location']}", "supported", "true_room"),
                (subj, f"is organized by {e['organizer']}", "supported", "true_organizer")]
        if not on:
            out.append((subj, f"takes place on {say_date(e['date'], rng)}", "supported", "true_date"))
        others = [a for a in e["attendees"] if a != e["organizer"]]
        if others:
            out.append((rng.choice(others), f"attends {name}{on}", "supported", "true_attendee"))
        wrong = [m for m in range(8 * 60, 17 * 60, 30) if abs(m - start) >= 60 and m != end]
        out.append((subj, f"starts at {say_time(_hhmm(rng.choice(wrong)), rng)}", "contradicted", "wrong_time"))
        wrong_end = [m for m in range(9 * 60, 17 * 60 + 1, 30) if abs(m - end) >= 60 and m != start]
        out.append((subj, f"ends at {say_time(_hhmm(rng.choice(wrong_end)), rng)}", "contradicted", "wrong_time"))
        rooms = [r for r in MEETING_ROOMS if r != e["location"]]
        out.append((subj, f"{rng.choice(('is held in', 'takes place in', 'is in'))} {rng.choice(rooms)}",
                    "contradicted", "swapped_room"))
        if not on:
            other_day = (date.fromisoformat(e["date"]) + timedelta(days=rng.choice((1, 2, -1)))).isoformat()
            out.append((subj, f"takes place on {say_date(other_day, rng)}", "contradicted", "wrong_date"))
        not_org = [p["name"] for p in people if p["name"] != e["organizer"]]
        out.append((subj, f"is organized by {rng.choice(not_org)}", "contradicted", "wrong_organizer"))
        out.append((subj, f"is organized by {rng.choice(INVENTED)}", "contradicted", "invented_organizer"))
        out.append((rng.choice(INVENTED), f"attends {name}{on}", "nei", "invented_person"))
        out.append(("", rng.choice(OPINIONS_EVENT).format(s=name), "nei", "opinion"))
        out.append(("", rng.choice(UNKNOWN_EVENT).format(s=name), "nei", "not_in_kg"))
        out.append(("", rng.choice(QUESTIONS).format(s=name), "nei", "question"))
    for p in focus_people:
        name = p["name"]
        out += [(name, f"'s phone number is {say_phone(p['phone'], rng)}", "supported", "true_phone"),
                (name, f"'s e-mail address is {p['email']}", "supported", "true_email"),
                (name, f"'s office is {p['office']}", "supported", "true_office"),
                (name, f"is a member of the {p['group']} group", "supported", "true_group")]
        digits = list("".join(ch for ch in p["phone"] if ch.isdigit()))
        i = rng.randrange(4, len(digits))
        digits[i] = str((int(digits[i]) + rng.randrange(1, 9)) % 10)
        fake = "+" + "".join(digits)
        out.append((name, f"'s phone number is {say_phone(fake, rng)}", "contradicted", "wrong_phone"))
        other = rng.choice([q for q in people if q["name"] != name and q["email"] != p["email"]])
        out.append((name, f"'s e-mail address is {other['email']}", "contradicted", "wrong_email"))
        offices = sorted({q["office"] for q in people if q["office"] != p["office"]})
        out.append((name, f"'s office is {rng.choice(offices)}", "contradicted", "wrong_office"))
        groups = sorted({q["group"] for q in people if q["group"] != p["group"]})
        if groups:
            out.append((name, f"is a member of the {rng.choice(groups)} group", "contradicted", "wrong_group"))
        mine = [e for e in events if name in e["attendees"]]
        if mine:
            e = rng.choice(mine)
            t = _minutes(e["start_time"]) + rng.choice((0, 30)) if _minutes(e["end_time"]) - _minutes(e["start_time"]) > 30 else _minutes(e["start_time"])
            day = f"on {WEEKDAY[date.fromisoformat(e['date']).weekday()]}"
            out.append((name, f"is busy at {say_time(_hhmm(t), rng)} {day}", "supported", "true_availability"))
            out.append((name, f"is free at {say_time(_hhmm(t), rng)} {day}", "contradicted", "wrong_availability"))
        out.append(("", rng.choice(OPINIONS_PERSON).format(s=name), "nei", "opinion"))
        out.append(("", rng.choice(UNKNOWN_PERSON).format(s=name), "nei", "not_in_kg"))
        out.append((rng.choice(INVENTED), f"'s phone number is +47 {rng.randrange(400, 999)} {rng.randrange(10, 99)} "
                    f"{rng.randrange(100, 999)}", "nei", "invented_person"))
    return out


def _sentence(subject: str, predicate: str) -> str:
    if not subject:
        return predicate
    text = f"{subject}{predicate}" if predicate.startswith("'s") else f"{subject} {predicate}"
    return text[0].upper() + text[1:] + "."


def compose(claims: list[tuple[str, str, str, str]], rng: random.Random, n_replies: int,
            pronouns: dict[str, tuple[str, str]] | None = None) -> list[tuple[str, list[Planted]]]:
    """Replies of one to three claims, balanced over the three verdicts; two claims about the
    same subject are sometimes coordinated ("X starts at 10 and is held in Room B"), and the
    first sentence sometimes refers to what the user just asked about by a pronoun ("It starts
    at 10", "Her office is ..."), which only the dialogue context resolves."""
    by_verdict: dict[str, list] = {"supported": [], "contradicted": [], "nei": []}
    for c in claims:
        by_verdict[c[2]].append(c)
    for pool in by_verdict.values():
        rng.shuffle(pool)
    replies = []
    order = ["supported", "contradicted", "nei"]
    for r in range(n_replies):
        k = rng.choice((1, 2, 2, 3))
        picked = []
        for j in range(k):
            pool = by_verdict[order[(r + j) % 3]]
            if pool:
                picked.append(pool.pop())
        if not picked:
            break
        parts, planted = [], []
        i = 0
        if pronouns and picked[0][0] in pronouns and rng.random() < 0.4:
            subj, own = pronouns[picked[0][0]]
            picked = [(subj if not c[1].startswith("'s") else own, c[1][3:] if c[1].startswith("'s") else c[1], c[2], c[3])
                      if c[0] == picked[0][0] else c for c in picked]
        while i < len(picked):
            a = picked[i]
            b = picked[i + 1] if i + 1 < len(picked) else None
            if (b is not None and a[0] and a[0] == b[0] and not a[1].startswith("'s") and not b[1].startswith("'s")
                    and rng.random() < 0.6):
                parts.append(_sentence(a[0], f"{a[1]} and {b[1]}"))
                planted += [Planted(_sentence(a[0], a[1]), a[2], a[3]), Planted(_sentence(b[0], b[1]), b[2], b[3])]
                i += 2
                continue
            parts.append(_sentence(a[0], a[1]))
            planted.append(Planted(_sentence(a[0], a[1]), a[2], a[3]))
            i += 1
        replies.append((" ".join(parts), planted))
    return replies


def office_items(split: dict[str, dict], seed: int, per_dialogue: int = 3) -> list[Item]:
    rng = random.Random(seed)
    items = []
    for did, d in split.items():
        data = d["data"]
        by_iri_kind: dict[str, tuple[str, dict]] = {}
        for p in data["people"]:
            by_iri_kind[p["id"]] = ("person", p)
        for e in data["events"]:
            by_iri_kind[e["id"]] = ("event", e)
        log = d["log"]
        turn = rng.randrange(len(log))
        links = log[turn]["gold"]["links"]
        events, people = [], []
        for link in links:
            key = link["entity"].rsplit(":", 1)[-1]
            kind, obj = by_iri_kind.get(key, (None, None))
            if kind == "event" and obj not in events:
                events.append(obj)
            elif kind == "person" and obj not in people:
                people.append(obj)
        in_turn = bool(events or people)  # pronouns only for what the user's turn named
        if not in_turn:
            people = [rng.choice(data["people"])]
            events = [rng.choice(data["events"])]
        claims = office_claims(data, events[:1], people[:1], rng)
        pronouns: dict[str, tuple[str, str]] = {}
        for subject in {c[0] for c in claims} if in_turn else ():
            if events and subject.removeprefix("The ").startswith(events[0]["name"]):
                pronouns[subject] = ("It", "Its")
            elif people and subject == people[0]["name"] and FIRST_NAMES.get(subject.split()[0]) in ("he", "she"):
                pronouns[subject] = ("He", "His") if FIRST_NAMES[subject.split()[0]] == "he" else ("She", "Her")
        for reply, planted in compose(claims, rng, per_dialogue, pronouns):
            items.append(Item("office", did, turn + 1, reply, planted))
    return items


# -- Wikidata-style demo --------------------------------------------------------------------------

def wikidata_items(store, seed: int, n_entities: int = 30) -> list[Item]:
    """Planted claims about the demo KG's films, people and cities, read from the store."""
    from kgstore.vocab import WD, WDT

    rng = random.Random(seed)

    def objects(s: str, pid: str) -> list[str]:
        return [r["o"] for r in store.query(f"SELECT ?o WHERE {{ GRAPH ?g {{ <{s}> <{WDT}{pid}> ?o }} }}")]

    def of_type(q: str) -> list[str]:
        return sorted(r["s"] for r in store.query(f"SELECT DISTINCT ?s WHERE {{ GRAPH ?g {{ ?s <{WDT}P31> <{WD}{q}> }} }}"))

    films, humans, cities = of_type("Q11424"), of_type("Q5"), of_type("Q515") + of_type("Q5119")
    directors = sorted({d for f in films for d in objects(f, "P57")})
    label = store.label
    claims: list[list[tuple[str, str, str, str]]] = []
    for f in rng.sample(films, min(len(films), n_entities // 3)):
        t = label(f)
        out = []
        ds = objects(f, "P57")
        if len(ds) == 1:
            out.append((t, f"was directed by {label(ds[0])}", "supported", "true_director"))
            others = [label(d) for d in directors if d not in ds]
            if others:
                out.append((t, f"was directed by {rng.choice(others)}", "contradicted", "wrong_director"))
        years = [o[:4].lstrip("+") for o in objects(f, "P577")]
        if years:
            y = int(years[0])
            out.append((t, f"was released in {y}", "supported", "true_year"))
            out.append((t, f"was released in {y + rng.choice((-7, -4, -2, 3, 5, 9))}", "contradicted", "wrong_year"))
        cast = objects(f, "P161")
        if cast:
            out.append((t, f"stars {label(rng.choice(cast))}", "supported", "true_cast"))
        out.append((t, f"stars {rng.choice(INVENTED)}", "nei", "invented_person"))
        out.append(("", rng.choice(("{s} is the best film of its decade.", "I think {s} is a beautiful film.",
                                    "{s} is worth watching twice.")).format(s=t), "nei", "opinion"))
        out.append(("", rng.choice(("{s} was filmed in the winter.", "{s} had a very small budget.")).format(s=t),
                    "nei", "not_in_kg"))
        claims.append(out)
    for h in rng.sample(humans, min(len(humans), n_entities // 3)):
        n = label(h)
        out = []
        born = objects(h, "P569")
        if born:
            d = date.fromisoformat(born[0].lstrip("+")[:10])
            out.append((n, f"was born on {MONTH[d.month - 1]} {d.day}, {d.year}", "supported", "true_birth_date"))
            out.append((n, f"was born in {d.year}", "supported", "true_birth_date"))
            out.append((n, f"was born on {MONTH[d.month - 1]} {d.day}, {d.year + rng.choice((-3, -1, 2, 6))}",
                        "contradicted", "wrong_birth_date"))
        place = objects(h, "P19")
        if place:
            out.append((n, f"was born in {label(place[0])}", "supported", "true_birthplace"))
            others = [label(c) for c in cities if c != place[0]]
            if others:
                out.append((n, f"was born in {rng.choice(others)}", "contradicted", "wrong_birthplace"))
        out.append(("", rng.choice(("{s} is the greatest of all time.", "{s} is really fun to watch.")).format(s=n),
                    "nei", "opinion"))
        out.append(("", rng.choice(("{s} has two cats.", "{s} enjoys playing chess.")).format(s=n), "nei", "not_in_kg"))
        claims.append(out)
    for c in rng.sample(cities, min(len(cities), n_entities // 3)):
        n = label(c)
        out = []
        pop = objects(c, "P1082")
        if pop:
            v = int(float(pop[0]))
            out.append((n, f"has a population of {v:,}", "supported", "true_population"))
            out.append((n, f"has a population of about {v / 1e6:.1f} million" if v >= 1e6 else f"has {v:,} inhabitants",
                        "supported", "true_population"))
            out.append((n, f"has a population of {int(v * rng.choice((0.5, 1.6, 2.5))):,}", "contradicted", "wrong_population"))
        out.append(("", rng.choice(("{s} is a beautiful city.", "I think {s} is the best place to live.")).format(s=n),
                    "nei", "opinion"))
        out.append((rng.choice(INVENTED), f"was born in {n}", "nei", "invented_person"))
        claims.append(out)
    items = []
    for group in claims:
        for reply, planted in compose(group, rng, 3):
            items.append(Item("wikidata", "wikidata", 0, reply, planted))
    return items


# -- the benchmark's own replies with one value changed ------------------------------------------

_TIME = re.compile(r"\b([01]\d|2[0-3]):([0-5]\d)\b")
_ROOM = re.compile(r"\bMeeting Room (Alpha|Beta|Gamma|Delta|Epsilon|Zeta|Sigma|Omega)\b")
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_PHONE = re.compile(r"\+47 \d{3} \d{2} \d{3}")
# Sentences about availability or a booking just made: changing their time changes no KG fact.
_NOT_A_FACT = re.compile(r"\b(free|busy|available|booked|book|bookings|no meetings)\b", re.IGNORECASE)


def perturbed_items(split: dict[str, dict], seed: int, per_dialogue: int = 2) -> list[Item]:
    """The benchmark's own true replies with one value replaced (a time, a room, an e-mail, a
    phone number): the claim that carries the new value must come out contradicted."""
    rng = random.Random(seed + 7)
    items = []
    for did, d in split.items():
        emails = sorted({p["email"] for p in d["data"]["people"]})
        made = 0
        turns = list(enumerate(d["log"], start=1))
        rng.shuffle(turns)
        for turn, entry in turns:
            if made >= per_dialogue:
                break
            reply = entry["agent_response"]
            sentences = [x for x in re.split(r"(?<=[.!?])\s+", reply) if not _NOT_A_FACT.search(x)]
            options = []
            for sent in sentences:
                options += [("time", m, sent) for m in _TIME.finditer(sent)]
                options += [("room", m, sent) for m in _ROOM.finditer(sent)]
                options += [("email", m, sent) for m in _EMAIL.finditer(sent)]
                options += [("phone", m, sent) for m in _PHONE.finditer(sent)]
            if not options:
                continue
            kind, m, sent = rng.choice(options)
            old = m.group(0)
            if kind == "time":
                minutes = int(m.group(1)) * 60 + int(m.group(2)) + rng.choice((-120, -90, 90, 120, 180))
                if not 7 * 60 <= minutes <= 18 * 60:
                    continue
                new = _hhmm(minutes)
            elif kind == "room":
                new = rng.choice([r for r in MEETING_ROOMS if r != old])
            elif kind == "email":
                new = rng.choice([e for e in emails if e != old])
            else:
                digits = list(old)
                i = rng.choice([k for k, ch in enumerate(digits) if ch.isdigit() and k > 4])
                digits[i] = str((int(digits[i]) + rng.randrange(1, 9)) % 10)
                new = "".join(digits)
            if new in sent:  # the same value elsewhere in the sentence would make the change moot
                continue
            changed = sent[:m.start()] + new + sent[m.end():]
            items.append(Item("office", did, turn, reply.replace(sent, changed, 1),
                              [Planted(changed, "contradicted", f"reply_{kind}", marker=new)]))
            made += 1
    return items
