"""Typed values of a claim against an entity's literal facts: dates, times, contacts, counts and
numbers with a unit, and availability in a calendar."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Set as AbstractSet
from datetime import datetime

from engine.factcheck import values as V
from engine.factcheck.kg import KGView
from engine.factcheck.names import FUNCTION_WORDS, blank_out
from engine.factcheck.ranked import FLOOR, fit
from engine.factcheck.relations import (
    COUNT_NOUNS,
    TIME_SLOTS,
    cued,
    custom,
    functional,
    label_words,
    said_as_modifier,
)
from engine.factcheck.slots import Judgement, KFact, Reading, Slot
from engine.nlp.timeexpr import hhmm
from engine.nlp.units import unit_of
from engine.relations import Relation, RelationMatcher, content_stems, glosses, relation_kind
from engine.state import Evidence, Verdict

FREE = re.compile(r"\b(?:free|available|open)\b", re.IGNORECASE)
NOTHING_ON = re.compile(r"\b(?:(?:has|have) no (?:bookings|meetings|events|appointments)|has nothing (?:booked|scheduled|planned)|"
                        r"(?:is|are) free all day|(?:is|are) free the whole day)\b", re.IGNORECASE)
BUSY = re.compile(r"\b(?:busy|occupied|taken|unavailable|booked up|in a meeting)\b", re.IGNORECASE)
THEN = re.compile(r"\b(?:then|at that time|at that hour)\b", re.IGNORECASE)
# Words a claim uses around a relation that say nothing of its value.
STATED_FILLER = content_stems("main usual usually typical typically kind type sort style dish course one thing made")
# Literal kinds no other kind of value can stand for.
CONTACT_KINDS = ("phone", "email")
# "X is a professor", "X worked as a chef": the whole claim after its subject gives one noun.
A_NOUN = re.compile(r"^\s*(?:is|was|works as|worked as)\s+an?\s+([^\W\d_](?:[^\W\d_]|['’ -]){1,40}?)\s*[.!]?\s*$",
                    re.IGNORECASE)


def _years(slot: Slot) -> bool:
    """Integers that read as years ("founded 1965", "opened 2004")."""
    return slot.kind == "number" and all(float(n).is_integer() and 1000 <= n <= 2100
                                         for n in (V.number_value(kf.value) for kf in slot.facts))


def whole_words(phrase: str, text: str) -> bool:
    """Does `text` say `phrase` word for word (case and accents aside)?"""
    def fold(s: str) -> str:
        s = unicodedata.normalize("NFKD", s.casefold())
        return "".join(c for c in s if not unicodedata.combining(c))
    return bool(re.search(r"(?<!\w)" + re.escape(fold(phrase).strip()) + r"(?!\w)", fold(text)))


# A comparison word before a value makes it a bound, not the value: "under 45 minutes".
_BOUND_BEFORE = re.compile(r"\b(under|over|below|above|before|after|since|least|most)\s*$", re.I)
_BELOW = frozenset(("under", "below", "before", "most"))


class ValueChecks:
    """The value half of a judgement: dates, times, contacts, counts and measures of a claim
    against the literal facts of the things it names, and availability in a calendar."""

    def __init__(self, kg: KGView, matcher: RelationMatcher, now: datetime | None = None, times=()):
        self.kg = kg
        self.matcher = matcher
        self.now = now
        self.times = list(times)  # times the user's turn named, for a reply's "then" ("X is busy then")

    def _numbered(self, v: V.Value, ents: list[str], cues: set[str]) -> tuple[list[KFact], bool] | None:
        """"Her office is 323": a number that stands for a named thing ("Office 323")."""
        if v.kind != "number":
            return None
        for a in ents:
            for slot in self.kg.slots(a).values():
                if slot.direction != "out" or slot.literal or slot.key not in cues:
                    continue
                numbered = [kf for kf in slot.facts if re.search(r"\d", self.kg.label(kf.other))]
                if numbered:
                    said = f"{V.number_of(v)[0]:g}"
                    hits = [kf for kf in numbered if said in re.findall(r"\d+", self.kg.label(kf.other))]
                    return (hits or numbered), bool(hits)
        return None

    def _same_unit(self, v: V.Value, slot: Slot, r: Reading) -> bool:
        """A year is compared only with dates and with years, a number with a unit ("194
        minutes", "500,000 listeners") only with relations that speak of that unit."""
        words = label_words(slot.facts[0].p_label) + " " + slot.key.lower()
        if slot.key in r.said:
            return True  # "seats 180 people": the claim names the relation (capacity) itself
        if v.kind == "year" and not (slot.kind == "date" or "year" in words or _years(slot)):
            return False
        if v.kind not in ("number", "year"):
            return True
        if v.unit is not None:
            # "about an hour" is a duration: not a count of calories, not a year
            holds = relation_kind(slot.facts[0].p_label or slot.key, slot.facts[0].fact.o, slot.facts[0].fact.datatype)
            if holds == v.unit.kind:
                r.unit_said.add(slot.key)
                return True
            if holds != "number":
                return False
        after = re.findall(r"[a-z]+", r.blank[v.end:v.end + 40].lower())[:2]
        unit = [w for w in after if w not in FUNCTION_WORDS]
        if not unit:
            return True
        said = " ".join(unit) + " " + glosses(" ".join(unit))
        if any(w[:5] in words for w in said.split() if len(w) >= 4) or cued(slot.key, "", " ".join(unit)):
            r.unit_said.add(slot.key)
            return True
        return False

    def _literal_slots(self, v: V.Value, a: str, cues: set[str], r: Reading) -> list[Slot]:
        """The relations of `a` that the value may be a value of: those the claim names, else the
        one the relation matcher finds the claim's words closest to; every relation of the
        value's kind only when the claim has no words of a relation ("Seminar: Monday, 11 am")."""
        rivals = [s for s in self.kg.slots(a).values() if s.literal and s.direction == "out" and V.comparable(v, s.kind)
                  and self._same_unit(v, s, r)]
        if v.kind == "time" and v.slot:
            timed = [s for s in rivals if s.key in TIME_SLOTS[v.slot]]
            if timed:
                return timed
        named = [s for s in rivals if s.key in cues]
        if named or not rivals or not r.phrase:
            return named or rivals
        if len(rivals) == 1:
            # "booked for Monday 2 March": the one relation of the value's kind, unless the claim's
            # words name a relation of another notion ("won a prize in 2019" is no founding year)
            notion = content_stems(glosses(r.phrase))
            said = rivals[0].facts[0].p_label or label_words(rivals[0].key)
            if said_as_modifier(said, r.blank):
                return []  # "population density" is another notion than population
            if v.kind in ("date", "year") and custom(rivals[0].key) and not self._tied(r.phrase, said):
                return []  # "acquired in 1989" of a work whose one date is its creation: another event
            if v.unit is not None:
                return rivals  # "runs for three hours": the unit names the measure, whatever the verb calls up
            return rivals if not notion or notion & content_stems(said) else []
        labels = [Relation(s.facts[0].p_label or label_words(s.key), s.key) for s in rivals]
        best = self.matcher.best(r.phrase, labels)
        if best is None or said_as_modifier(best.relation.label, r.blank):
            return []
        return [s for s in rivals if s.key == best.relation.key]

    @staticmethod
    def _tied(phrase: str, label: str) -> bool:
        """Do the claim's relation words say the label, in its words or others (`fit`,
        WordNet's included)? A claim with no such words ("X, 1998") says nothing against it. The
        one date a thing has is no reading of a verb that names another event ("renamed",
        "bought", "closed"): what a user's KG records is not all that happens to a thing. (A
        unit names its measure: "lasted 678 days" is a duration whatever its verb.)"""
        return not phrase or fit(phrase, label_words(label)) >= FLOOR

    def value_support(self, v: V.Value, ents: list[str], cues: set[str], r: Reading) -> list[KFact]:
        for a in ents:
            for slot in self._literal_slots(v, a, cues, r):
                said = V.in_unit(v, unit_of(slot.facts[0].p_label or slot.key) or V.literal_unit(slot.facts[0].fact.o))
                for kf in slot.facts:
                    if V.matches(said, kf.kind, kf.value):
                        return [kf]
        counted = self._count(v, ents, r.blank) or self._numbered(v, ents, cues)
        return counted[0][:1] if counted and counted[1] else []

    def bound(self, v: V.Value, ents: list[str], cues: set[str], r: Reading) -> tuple[list[KFact], KFact | None] | None:
        """A value said as a bound ("have a playing time under 45 minutes", "came out after 2021"):
        None when it is no bound; else (the facts whose values are on the bound's side, the first
        one that is not) over the relations the value may be a value of, compared as what they
        are (engine/compute: dates as dates, units converted)."""
        from engine.compute.values import compare, read

        said = _BOUND_BEFORE.search(r.text[:v.start]) or _BOUND_BEFORE.search(r.blank[:v.start])
        if said is None:
            return None
        below = said.group(1).lower() in _BELOW
        held: list[KFact] = []
        for a in ents:
            slots = self._literal_slots(v, a, cues, r)
            # "a date of birth before 1900": the relation the claim states, not every date a cue
            # word ("date") may stand for (a death date after the bound is no clash)
            for slot in [s for s in slots if s.key in r.said] or slots:
                for kf in slot.facts:
                    side = compare(read(kf.other, kf.p_label), read(v.text.strip(), kf.p_label))
                    if side is None:
                        continue
                    if side < 0 if below else side > 0:
                        held.append(kf)
                    else:
                        return held, kf
        return held, None

    def value_clash(self, v: V.Value, ents: list[str], cues: set[str], r: Reading,
                     said: AbstractSet[str] = frozenset()) -> tuple[KFact, str] | None:
        counted = self._count(v, ents, r.blank)
        if counted and not counted[1]:
            facts = counted[0]
            return facts[0], f"the KG lists {len(facts)}, not {v.text}"
        numbered = self._numbered(v, ents, cues)
        if numbered and not numbered[1] and all(functional(kf.key, len(numbered[0])) for kf in numbered[0]):
            kf = numbered[0][0]
            return kf, f"the KG says {self.kg.say(kf)}, not {v.text}"
        for a in ents:
            slots = self._literal_slots(v, a, cues, r)
            if slots and all(self.kg.single(s, said | r.unit_said) for s in slots):
                kf = slots[0].facts[0]
                return kf, f"the KG says {self.kg.say(kf)}, not {v.text.strip()}"
            # "Her phone number is 09:30": a contact attribute named outright and given a value
            # that cannot be one. Dates and times stay out: "starts on Tuesday" is a fine claim.
            named = [s for s in self.kg.slots(a).values() if s.literal and s.direction == "out" and s.key in cues
                     and s.kind in CONTACT_KINDS and not V.comparable(v, s.kind) and functional(s.key, len(s.facts))]
            if len(named) == 1:
                kf = named[0].facts[0]
                return kf, f"the KG says {self.kg.say(kf)}, not {v.text.strip()}"
        return None

    def text_value(self, ents: list[str], r: Reading) -> tuple[list[KFact], tuple[KFact, str] | None]:
        """A value the KG holds as words ("medium", "stir-fried", "main course") said in the
        claim: (the facts whose words it says, a clash when it states a one-valued relation of
        words and says other words than the KG's)."""
        spans = [span for spans in r.where.values() for span in spans]
        plain = blank_out(r.text, spans)
        said = content_stems(plain)  # the claim's words, its names out
        found, clash = [], None
        for a in ents:
            for slot in self.kg.slots(a).values():
                if slot.direction != "out" or (slot.literal and slot.kind != "text"):
                    continue
                partly = False
                for kf in slot.facts:
                    # an entity named in lower case ("ambient", "medium") is said by its label,
                    # as whole words ("filmed" does not say "film")
                    words = content_stems(self.kg.value_label(kf))
                    if words and kf.other not in ents and whole_words(self.kg.value_label(kf), plain):
                        found.append(kf)
                    # "maître d'" for "maître d'hôtel": the value's first word said, no clash
                    first = content_stems(self.kg.value_label(kf).split(" ")[0])
                    partly = partly or bool(first and first <= said)
                if clash is None and not found and not partly and slot.key in r.said and self.kg.single(slot, r.said) and (
                        slot.literal or not self.kg.category(slot.facts[0].other) & {"person"}):
                    # "Pad Thai's main technique is deep-frying": words after the relation's own
                    # label words give another value; a relation said only through a synonym, or
                    # no words after it, give none
                    label = content_stems(slot.facts[0].p_label or label_words(slot.key))
                    tokens = re.findall(r"[\w'’-]+", r.blank)
                    at = max((i for i, w in enumerate(tokens) if content_stems(w) & label), default=None)
                    after = content_stems(" ".join(tokens[at + 1:])) if at is not None else frozenset()
                    # a part of the KG's own words ("40 Brunswick Street" of an address that
                    # goes on after a comma) is no other value
                    held = frozenset().union(*(content_stems(self.kg.value_label(kf)) for kf in slot.facts))
                    if after - label - STATED_FILLER - held:
                        kf = slot.facts[0]
                        clash = kf, f"the KG says {self.kg.say(kf)}"
        return found, (None if found else clash)

    def said_whole(self, iri: str, sentence: str) -> list[tuple[int, int]]:
        """A value the KG holds in words for a thing the sentence names, said whole there, when
        it has an "and" or a comma of its own ("club colours: red and white")."""
        spans = []
        for slot in self.kg.slots(iri).values():
            if slot.direction != "out" or not slot.literal or slot.kind != "text":
                continue
            for kf in slot.facts:
                value = self.kg.value_label(kf)
                if re.search(r"\band\b|,", value):
                    spans += [(x.start(), x.end()) for x in re.finditer(re.escape(value), sentence, re.IGNORECASE)]
        return spans

    def class_word(self, ents: list[str], r: Reading) -> tuple[KFact, str] | None:
        """"Sofia Lindqvist is a professor": a noun that the KG holds as words as another
        subject's value of a relation (a title) where this thing holds one other value of it."""
        said = A_NOUN.match(r.blank)
        if said is None or len(ents) != 1:
            return None
        noun = said.group(1)
        for slot in self.kg.slots(ents[0]).values():
            if (slot.direction == "out" and slot.literal and slot.kind == "text" and len(slot.facts) == 1
                    and not self.kg.many_valued(slot) and self.kg.holds_text(slot.facts[0].fact.p, noun)):
                kf = slot.facts[0]
                return kf, f"the KG says {self.kg.say(kf)}, not {noun}"
        return None

    def _count(self, v: V.Value, ents: list[str], blank: str) -> tuple[list[KFact], bool] | None:
        """"has 4 members": the number of values of one relation, in a closed-world calendar."""
        if v.kind != "number":
            return None
        after = re.match(r"\s*(?:other\s+)?(\w+)", blank[v.end:])
        noun = after.group(1).lower() if after else ""
        if noun not in COUNT_NOUNS:
            return None
        key, direction = COUNT_NOUNS[noun]
        for a in ents:
            slot = self.kg.slots(a).get((key, direction))
            if slot is not None:
                return slot.facts, V.matches(v, "number", float(len(slot.facts)))
        return None

    def unknown_clash(self, name: str, ents: list[str], cues: set[str], r: Reading,
                       said: AbstractSet[str] = frozenset()) -> tuple[KFact, str] | None:
        # An invented name stands in for a person, or for a room when it says so; for a
        # relation of one's own KG that the claim states and that holds one thing here ("formed
        # in Toronto"), for that thing, whatever its kind.
        looks_like = {"room"} if re.search(r"\b(room|office)\b", name, re.I) else None
        for a in ents:
            for slot in self.kg.slots(a).values():
                if (slot.direction == "out" and not slot.literal and slot.key in cues
                        and self.kg.single(slot, said | r.unit_said)):
                    stated_here = slot.key in said and custom(slot.key)
                    if not stated_here and not self.kg.slot_category(slot) & (looks_like or {"person"}):
                        continue
                    kf = slot.facts[0]
                    return kf, f"the KG says {self.kg.say(kf)}; it knows no {name}"
                # "runs in the Spring semester" where the KG's semester is the word "Autumn"
                if (slot.direction == "out" and slot.literal and slot.kind == "text" and slot.key in said
                        and custom(slot.key) and self.kg.single(slot, said)
                        and whole_words(label_words(slot.facts[0].p_label or slot.key), r.text)
                        and not any(whole_words(name, self.kg.value_label(kf)) for kf in slot.facts)):
                    kf = slot.facts[0]
                    return kf, f"the KG says {self.kg.say(kf)}, not {name}"
        return None

    # -- availability ------------------------------------------------------------------------

    def availability(self, text: str, blank: str, ents: list[str], values: list[V.Value]) -> Judgement | None:
        whole_day = bool(NOTHING_ON.search(blank))  # "has no bookings today"
        says_free, says_busy = bool(FREE.search(blank)) or whole_day, bool(BUSY.search(blank))
        times = [v for v in values if v.kind == "time"]
        if not times and self.times and THEN.search(blank):
            said = self.times[-1]
            d = said.day
            times = [V.Value("time", frozenset({said.start}), 0, 0, "then")]
            values = values + [V.Value("date", (d.year, d.month, d.day, d.weekday()), 0, 0, "then")]
        if not (says_free or says_busy) or not (times or whole_day):
            return None
        who = next((e for e in ents if self.kg.category(e) & {"person", "room"}), None)
        if who is None:
            return None
        dates = [v for v in values if v.kind == "date"]
        if dates:
            day = V.date_of(dates[0].value)
        elif whole_day and not times:
            return None  # "has no meetings" without a day says nothing about one calendar day
        elif self.now is not None:
            d = self.now.date()
            day = (d.year, d.month, d.day, d.weekday())
        else:
            return None
        slots = self.kg.slots(who)
        keys = [("attendee", "in"), ("organizer", "in")] if "person" in self.kg.category(who) else [("location", "in")]
        events = {f.other for k in keys if k in slots for f in slots[k].facts}
        moments = V.minutes_of(times[0].value) if times else frozenset(range(0, 24 * 60))
        if len(moments) > 1 and times:  # "at 3": the working-hours reading
            moments = frozenset(x for x in moments if 7 * 60 <= x <= 19 * 60) or moments
        busy_with: list[KFact] = []
        for e in sorted(events):
            es = self.kg.slots(e)
            date_f = es.get(("date", "out"))
            start_f, end_f = es.get(("start_time", "out")), es.get(("end_time", "out"))
            if not (date_f and start_f and end_f):
                continue
            if not V.same_date(day, V.date_of(date_f.facts[0].value)):
                continue
            start, end = min(V.minutes_of(start_f.facts[0].value)), min(V.minutes_of(end_f.facts[0].value))
            if any(start <= t < end for t in moments):
                busy_with = [start_f.facts[0], end_f.facts[0]]
                break
        name = self.kg.label(who)
        when = hhmm(min(moments)) if times else ""
        if busy_with:
            ev = self.kg.say(busy_with[0])
            verdict = Verdict.SUPPORTED if says_busy and not says_free else Verdict.CONTRADICTED
            busy = f"is busy at {when}" if times else "has something that day"
            return Judgement(verdict, busy_with, reason=f"the KG says {ev}, so {name} {busy}")
        verdict = Verdict.SUPPORTED if says_free else Verdict.CONTRADICTED
        return Judgement(verdict, reason=f"{name} has nothing in the calendar at {when} that day" if times
                         else f"{name} has nothing in the calendar that day",
                         extra=Evidence(text=f"{name} has no event {'at ' + when + ' ' if times else ''}that day", s=who,
                                        source="kg"))
