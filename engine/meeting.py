"""Meetings the user arranges, as entities of the session's dialogue graph.

A meeting being arranged is an office event of the dialogue graph (`vocab.meeting_node`, typed
`kgc:ArrangedMeeting` too) with what the user and the system's confirmations give it: its name
(`rdfs:label`), day and times (the office `date`, `start_time`, `end_time`), room (`location`),
invitees (`attendee`) and organizer (the speaker). The session points at the one being arranged
(`kgc:arranging`). The background KG is never written: SPARQL over the store sees the meeting
in the dialogue graph beside the turns that made it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from engine.nlp import arrange, timeexpr
from engine.nlp.deixis import FREE_WORDS
from engine.nlp.mentions import TYPE_NOUNS
from engine.recent import asks
from engine.state import Mention
from kgstore import vocab
from kgstore.errors import RemoteUnavailable
from kgstore.terms import Fact
from rules.similarity import NAME_WORD_ALIKE, norm, sound_alike, word_alike

UNNAMED = "the meeting being arranged"
# meeting -> a group or event the user asked to invite people from, until somebody is invited
INVITES_FROM = vocab.KGC + "invitesFrom"
SLOTS = ("date", "start_time", "end_time", "location", "attendee", "organizer")


@dataclass
class Meeting:
    iri: str
    name: str = ""
    day: str = ""  # ISO date
    start: str = ""  # HH:MM:SS
    end: str = ""
    room: str | None = None
    invitees: list[str] = field(default_factory=list)
    organizer: str | None = None
    turn: int = 0  # the turn that started it
    sources: list[str] = field(default_factory=list)  # groups and events to invite people from

    def summary(self, label) -> dict:
        """What the app shows and the JSON carries: readable values, `label` names the IRIs."""
        return {"iri": self.iri, "name": self.name, "day": self.day, "start": self.start[:5], "end": self.end[:5],
                "room": label(self.room) if self.room else "",
                "invitees": [label(p) for p in self.invitees],
                "organizer": label(self.organizer) if self.organizer else ""}

    def when(self) -> timeexpr.TimeValue | None:
        """Its day and hours, once both its day and its start are known (an hour without an end)."""
        if not (self.day and self.start):
            return None
        return timeexpr.TimeValue.from_iso(f"{self.day}T{self.start[:5]}" + (f"/{self.end[:5]}" if self.end else ""))


def _pred(name: str) -> str:
    return vocab.office_predicate(name)


def current(store, session_id: str) -> Meeting | None:
    """The meeting the session is arranging, None before the user starts one."""
    g = vocab.dialogue_graph(session_id)
    rows = store.query(f"SELECT ?m WHERE {{ GRAPH <{g}> {{ <{vocab.session_node(session_id)}> "
                       f"<{vocab.KGC_ARRANGING}> ?m }} }} LIMIT 1")
    return read(store, session_id, rows[0]["m"]) if rows else None


def all_meetings(store, session_id: str) -> list[Meeting]:
    """Every meeting arranged in the session, in the order they were started."""
    g = vocab.dialogue_graph(session_id)
    rows = store.query(f"SELECT ?m WHERE {{ GRAPH <{g}> {{ ?m a <{vocab.KGC_ARRANGED_MEETING}> }} }}")
    found = [read(store, session_id, r["m"]) for r in rows or []]
    return sorted(found, key=lambda m: (m.turn, m.iri))


def read(store, session_id: str, iri: str) -> Meeting:
    g = vocab.dialogue_graph(session_id)
    rows = store.query(f"SELECT ?p ?o WHERE {{ GRAPH <{g}> {{ <{iri}> ?p ?o }} }}")
    m = Meeting(iri)
    for row in rows or []:
        p, o = row["p"], row["o"]
        if p == vocab.RDFS_LABEL and o != UNNAMED:
            m.name = o
        elif p == _pred("date"):
            m.day = o
        elif p == _pred("start_time"):
            m.start = o
        elif p == _pred("end_time"):
            m.end = o
        elif p == _pred("location"):
            m.room = o
        elif p == _pred("attendee") and o not in m.invitees:
            m.invitees.append(o)
        elif p == _pred("organizer"):
            m.organizer = o
        elif p == INVITES_FROM and o not in m.sources:
            m.sources.append(o)
        elif p == vocab.KGC_ARRANGED_IN:
            m.turn = int(o.rsplit(":", 1)[-1])
    return m


def start(store, session_id: str, turn: int, organizer: str | None) -> Meeting:
    """A new meeting, now the one being arranged."""
    n = len(all_meetings(store, session_id)) + 1
    meeting = Meeting(vocab.meeting_node(session_id, n), organizer=organizer, turn=turn)
    g = vocab.dialogue_graph(session_id)
    session = vocab.session_node(session_id)
    store.update(f"DELETE WHERE {{ GRAPH <{g}> {{ <{session}> <{vocab.KGC_ARRANGING}> ?m }} }}")
    store.add([Fact(meeting.iri, vocab.RDF_TYPE, vocab.OFFICE_CLASSES["event"]),
               Fact(meeting.iri, vocab.RDF_TYPE, vocab.KGC_ARRANGED_MEETING),
               Fact(meeting.iri, vocab.KGC_ARRANGED_IN, vocab.turn_node(session_id, turn)),
               Fact(session, vocab.KGC_ARRANGING, meeting.iri)], g)
    save(store, session_id, meeting)
    return meeting


def save(store, session_id: str, meeting: Meeting) -> None:
    """Write the meeting's name and slots (replacing what was there)."""
    g = vocab.dialogue_graph(session_id)
    for p in (vocab.RDFS_LABEL, INVITES_FROM) + tuple(_pred(s) for s in SLOTS):
        store.update(f"DELETE WHERE {{ GRAPH <{g}> {{ <{meeting.iri}> <{p}> ?o }} }}")
    store.add([Fact(meeting.iri, vocab.RDFS_LABEL, meeting.name or UNNAMED, o_literal=True), *slot_facts(meeting),
               *(Fact(meeting.iri, INVITES_FROM, e) for e in meeting.sources)], g)


def slot_facts(meeting: Meeting) -> list[Fact]:
    """The meeting's day, times, room, invitees and organizer as facts of the dialogue graph."""
    xsd = vocab.XSD
    facts = []
    if meeting.day:
        facts.append(Fact(meeting.iri, _pred("date"), meeting.day, o_literal=True, datatype=xsd + "date"))
    for slot, value in (("start_time", meeting.start), ("end_time", meeting.end)):
        if value:
            facts.append(Fact(meeting.iri, _pred(slot), value, o_literal=True, datatype=xsd + "time"))
    if meeting.room:
        facts.append(Fact(meeting.iri, _pred("location"), meeting.room))
    facts += [Fact(meeting.iri, _pred("attendee"), p) for p in meeting.invitees]
    if meeting.organizer:
        facts.append(Fact(meeting.iri, _pred("organizer"), meeting.organizer))
    return facts


def known_facts(background, meeting: Meeting, kind_of, groups: bool = True) -> list[Fact]:
    """What is known of the meeting so far, as the turn's knowledge: its slots, and (`groups`)
    the groups its organizer and invitees belong to (a reply that restates it says whom it brings
    together)."""
    facts = slot_facts(meeting)
    if not groups:
        return facts
    for person in dict.fromkeys(p for p in (meeting.organizer, *meeting.invitees) if p):
        try:
            about = background.facts_about(person)
        except RemoteUnavailable:
            continue
        facts += [f for f in about if f.s == person and not f.o_literal and kind_of(f.o) == "group"]
    return facts


def about(state, before: Meeting | None, after: Meeting | None) -> bool:
    """Whether a user turn confirms, amends or asks about the meeting being arranged: a word of it
    points at the meeting, it starts or changes the meeting (a time, a room, an invitee, a name),
    it invites somebody (by a group: "add a member of the Healthcare group"),
    or it answers what the reply before it asked while the meeting was open ("Yes.", "That is
    correct.", "45 minutes."), asking nothing itself: the reply to such a turn restates the meeting."""
    if after is None:
        return False
    if before != after or arrange.invites(state.text) or any(m.entity == after.iri for m in state.mentions):
        return True
    return state.previous_system.rstrip().endswith("?") and "?" not in state.text and not asks(state.text)


# --- what a turn does to it ------------------------------------------------------------------

LINK_P = 0.95  # a word that points at the meeting being arranged, as sure as an exact name
# A question about others ("which rooms are free", "who is in it") gives the meeting nothing.
ASKS_ABOUT_OTHERS = re.compile(r"\b(?:who|which|is there|are there|list of|how many)\b", re.I)
DURATION = re.compile(r"\bfor\s+(?:(?P<min>\d+)\s*min\w*|(?P<hours>\d+|an|one|two)\s*hours?|half an hour)\b", re.I)


def _overlaps(a, b) -> bool:
    return a.start < b.end and b.start < a.end


def _spans(state, meeting_open: bool) -> dict:
    """The spans of a user turn's words that the meeting's rules read: the start ("a meeting"),
    the name and the word naming it ("call it X")."""
    text = state.text
    out: dict = {}
    match = arrange.starts(text)
    if match:
        out["start"] = arrange.start_mention(text, match)
    asked = arrange.asks_name(state.previous_system)
    if meeting_open or match or asked:
        named = arrange.named(text)
        if named:
            out["name"] = (named[0], named[1], named[2])
            if named[3]:
                out["object"] = named[3]
        elif not arrange.NAMING.search(text):  # "don't call it anything" names nothing
            answer = arrange.answered_name(text, asked, state.mentions)
            if answer:
                out["name"] = answer
                out["answered"] = True
    previous = arrange.PREVIOUS.search(text)
    if previous:
        out["previous"] = Mention(previous.group(0), previous.start(), previous.end(), "definite", value=("event",))
    return out


_WORD = re.compile(r"[\w']+")
# Heard words say a meeting's name when they read that alike as a whole, each one alike by its
# spelling or by its sound ("network workshop", "melt sink" for "melt sync").
SAID_NAME_ALIKE = 0.9


def said_names(text: str, meetings: list[Meeting]) -> list[tuple[int, int, Meeting]]:
    """(start, end, meeting) of the runs of words of a user turn that say the name of a meeting
    arranged in the session, the way a recognizer hears it: as many words as the name has, each
    alike to the name's word by spelling or by sound, the run as a whole alike to the name. A name
    given once is the meeting's afterwards, said right or misheard."""
    words = [(w.start(), w.end(), norm(w.group(0))) for w in _WORD.finditer(text)]
    out: list[tuple[int, int, Meeting]] = []
    for meeting in meetings:
        name = norm(meeting.name).split()
        if len(name) < 2:  # one word alike by sound is too often another word
            continue
        for i in range(len(words) - len(name) + 1):
            run = words[i:i + len(name)]
            said = [w for _, _, w in run]
            if all(a == b or word_alike(a, [b]) >= NAME_WORD_ALIKE or sound_alike(a, b) for a, b in zip(said, name, strict=True)) \
                    and word_alike(" ".join(said), [" ".join(name)]) >= SAID_NAME_ALIKE \
                    and not any(a < run[-1][1] and run[0][0] < b for a, b, _ in out):
                out.append((run[0][0], run[-1][1], meeting))
    return out


_OFFERING = frozenset({"a", "an", "another", "some", "any"})


def offered_kind(system_text: str) -> str | None:
    """The kind of thing a reply offers to find for the meeting: the first office noun it says
    without a definite determiner ("Would you like to book a conference room for your meeting?":
    a room; the meeting itself is "your meeting", "the meeting")."""
    words = re.findall(r"[\w']+", system_text.lower())
    for i, word in enumerate(words[:-1]):
        if word in _OFFERING:
            two = " ".join(words[i + 1:i + 3])
            noun = two if two in TYPE_NOUNS else words[i + 1]
            if noun in TYPE_NOUNS:
                return TYPE_NOUNS[noun]
    return None


def options_request(state) -> Mention | None:
    """While a meeting is arranged, a question for what is free that names no type nor anything
    else ("what's available?", "please what your thoughts are available" as a recognizer heard
    "what rooms are available") asks for the kind of thing the reply before it offered: a type
    request on the word that asks whether it is free."""
    if any(m.kind in ("type", "name") for m in state.mentions) or not (asks(state.text) or "?" in state.text):
        return None
    free = next((w for w in _WORD.finditer(state.text) if w.group(0).lower() in FREE_WORDS), None)
    kind = offered_kind(state.previous_system) if free else None
    if free is None or kind is None:
        return None
    return Mention(free.group(0), free.start(), free.end(), "type", value=vocab.OFFICE_CLASSES.get(kind), label=kind)


# A number said alone: the end of the sentence (or "instead") follows it, no unit nor noun.
_BARE_NUMBER = re.compile(r"\b(?P<h>\d{1,2})\b(?![:.]\d)(?=\s*(?:[.,!?;]|$|\s+instead\b))", re.I)


def amended_hour(state, meeting: Meeting) -> Mention | None:
    """While a meeting with a day is open, an hour said alone ("Let's make it 10 instead.",
    "9, please") in a turn that says no time otherwise is its new start: the meeting's day and
    the office hours read it as a clock time, as "at 10" would be."""
    if not meeting.day or any(m.kind == "time" for m in state.mentions):
        return None
    match = _BARE_NUMBER.search(state.text)
    if match is None or not 1 <= int(match.group("h")) <= 12:
        return None
    value = timeexpr.detect(f"at {match.group('h')}", datetime.fromisoformat(meeting.day))
    if not value or not isinstance(value[0].value, timeexpr.TimeValue):
        return None
    return Mention(match.group(0), match.start(), match.end(), "time", value=value[0].value)


def wanted_types(state, before: Meeting | None, kind_of) -> list[str]:
    """The rooms, when the turn sets the time of a meeting that has no room yet (starting it, or
    moving it): where it can be held at that time is then the question of the reply, so the
    rooms free then are reasoned about, as if the user had asked for them. A room the turn
    names is its answer already."""
    return [vocab.OFFICE_CLASSES["room"]] if _needs_room(state, before, kind_of) else []


def _needs_room(state, before: Meeting | None, kind_of) -> bool:
    if before is not None and before.room:
        return False
    if before is None and not (_spans(state, False).get("start") or arrange.books_room(state.text)):
        return False
    if not any(m.kind == "time" and isinstance(m.value, timeexpr.TimeValue) and m.value.start is not None
               and m.value.part is None for m in state.mentions):
        return False
    return not any(m.kind == "type" or (m.kind == "name" and m.candidates and kind_of(m.candidates[0][0]) == "room")
                   for m in state.mentions)


def add_mentions(store, state) -> None:
    """Observe: the words that start or name a meeting become mentions of the turn (their links
    are set by `link_and_fill` once the rules have run), and so do the words that say the name of
    one arranged before (`said_names`); while one is open, a question for what is free asks for
    what the reply before it offered (`options_request`)."""
    arranging = current(store, state.session_id)
    meeting_open = arranging is not None
    hour = amended_hour(state, arranging) if arranging is not None else None
    if hour is not None and not any(_overlaps(hour, m) for m in state.mentions):
        state.mentions.append(hour)
    request = options_request(state) if meeting_open else None
    if request is not None and not any(_overlaps(request, m) for m in state.mentions):
        state.mentions.append(request)
    spans = _spans(state, meeting_open)
    if "name" not in spans:
        for s, e, m in said_names(state.text, [x for x in all_meetings(store, state.session_id) if x.name]):
            said = Mention(state.text[s:e], s, e, "name", label=m.name)
            state.mentions = [x for x in state.mentions if not _overlaps(x, said)] + [said]
    start_mention = spans.get("start")
    if start_mention and not any(_overlaps(start_mention, m) for m in state.mentions):
        state.mentions.append(start_mention)
    previous = spans.get("previous")
    if previous and not any(_overlaps(previous, m) for m in state.mentions):
        state.mentions.append(previous)
    if "name" in spans:
        s, e, name = spans["name"]
        named = Mention(name, s, e, "name", label=name)
        # A new name may contain a KG name ("deliverables project meeting followup").
        state.mentions = [m for m in state.mentions if not _overlaps(m, named)] + [named]
    if "object" in spans:
        for m in state.mentions:
            if m.kind == "pronoun" and (m.start, m.end) == spans["object"]:
                m.value = ("event",)  # "call her status updates": the meeting, whatever the pronoun
        s, e = spans["object"]
        if not any((m.start, m.end) == (s, e) for m in state.mentions):  # "call the meeting X"
            state.mentions.append(Mention(state.text[s:e], s, e, "definite", value=("event",)))
    state.mentions.sort(key=lambda m: (m.start, m.end))


def _last_turn(links, entity: str) -> int:
    return max((link.turn for link in links if link.entity == entity), default=-1)


def link_and_fill(ctx, state, links: dict[str, list[tuple[str, float]]], kind_of, recent) -> None:
    """Reason: start the meeting the turn asks for, point the words that mean it at it (over
    what the rules said), and fill its name, day, time, room and invitees from the turn.
    `kind_of(iri)` is an entity's kind; `recent()` the links of the last turns."""
    store, sid, text = ctx.store, state.session_id, state.text
    meeting = current(store, sid)
    spans = _spans(state, meeting is not None)
    started = False
    if ("start" in spans and (meeting is None or arrange.another(text))) \
            or (meeting is None and (spans.get("answered") or arrange.books_room(text))):
        meeting = start(store, sid, state.turn, state.speaker_entity)
        started = True
    if meeting is None:
        return
    best = {m.iri: links[m.iri][0][0] for m in state.mentions if links.get(m.iri)}
    targets = []
    for m in state.mentions:
        span = (m.start, m.end)
        if ("start" in spans and span == (spans["start"].start, spans["start"].end)) \
                or ("name" in spans and span == spans["name"][:2]) or span == spans.get("object"):
            targets.append(m)
    earlier = None
    for m in arrange.meeting_mentions(text, state.mentions):
        rival = best.get(m.iri)
        if rival and rival != meeting.iri and kind_of(rival) == "event":
            earlier = earlier if earlier is not None else recent()
            if _last_turn(earlier, rival) > max(meeting.turn, _last_turn(earlier, meeting.iri)):
                continue  # "that meeting" is the KG event the dialogue spoke of since
        targets.append(m)
    previous = spans.get("previous")
    before = [x for x in all_meetings(store, sid) if x.turn < meeting.turn] if previous else []
    named = {} if "name" in spans else {(s, e): m.iri for s, e, m in said_names(text, [
        x for x in all_meetings(store, sid) if x.name])}
    for m in state.mentions:
        if m.iri is None:
            continue
        target = meeting.iri
        if (m.start, m.end) in named:
            target = named[(m.start, m.end)]
        elif before and _overlaps(m, previous):
            target = before[-1].iri
        elif m not in targets:
            continue
        others = [(e, min(p, 0.5)) for e, p in links.get(m.iri, []) if e != target][:2]
        links[m.iri] = [(target, LINK_P)] + others
        best[m.iri] = target
    _fill_from_user(state, meeting, spans, started or bool(targets), best, kind_of)
    save(store, sid, meeting)


def _fill_from_user(state, meeting: Meeting, spans: dict, about: bool, best: dict, kind_of) -> None:
    if "name" in spans:
        meeting.name = spans["name"][2]
    if ASKS_ABOUT_OTHERS.search(state.text):
        return
    if meeting.organizer is None and state.speaker_entity:
        meeting.organizer = state.speaker_entity
    names_event = any(kind_of(e) == "event" and e != meeting.iri for m, e in
                      ((m, best.get(m.iri)) for m in state.mentions if m.kind == "name") if e)
    if about or not names_event:
        _fill_times(meeting, state.mentions, state.text)
    entities = list(best.values()) + [e for m in state.mentions for e in m.together]
    invitees, sources = len(meeting.invitees), []
    for e in entities:
        kind = kind_of(e)
        if kind == "room" and (about or not names_event):
            meeting.room = e
        elif kind == "person" and e != state.speaker_entity and arrange.invites(state.text) \
                and e not in meeting.invitees:
            meeting.invitees.append(e)
        elif kind in ("group", "event") and e != meeting.iri and arrange.invites(state.text) and e not in sources:
            sources.append(e)  # "one of the organizers of the event X", "a member of the Y group"
    _invite_from(meeting, sources, len(meeting.invitees) > invitees)


def _invite_from(meeting: Meeting, sources: list[str], invited: bool) -> None:
    """The groups and events a turn asks to invite people from stay the meeting's until somebody
    is invited ("Yes." to a question in between still chooses among their people); an invitation
    with none new answers the ones before."""
    if sources:
        meeting.sources = list(dict.fromkeys(meeting.sources + sources))
    elif invited:
        meeting.sources = []


def _fill_times(meeting: Meeting, mentions, text: str) -> None:
    duration = DURATION.search(text)
    timed = False
    for m in mentions:
        tv = m.value
        if m.kind != "time" or not isinstance(tv, timeexpr.TimeValue) or tv.part == "now":
            continue
        if tv.explicit_day or not meeting.day:
            meeting.day = tv.day.isoformat()
        if tv.start is not None and tv.part is None:
            timed = True
            before = meeting.when()
            meeting.start = timeexpr.hhmm(tv.start) + ":00"
            end = tv.start + _minutes(duration) if duration else tv.end
            if not duration and tv.end == tv.start + timeexpr.DEFAULT_SLOT_MIN and before and before.start is not None \
                    and before.end is not None:  # a start said again, or moved, keeps the meeting's length
                end = tv.start + before.end - before.start
            if end is not None:
                meeting.end = timeexpr.hhmm(end) + ":00"
    when = meeting.when()
    if duration and not timed and when is not None and when.start is not None:
        # "I'll add it to your calendar for 30 minutes": the length of a meeting whose start is known
        meeting.end = timeexpr.hhmm(when.start + _minutes(duration)) + ":00"


_SENTENCE = re.compile(r"(?:[^.!?]|[.!?](?!\s|$))+[.!?]*")


def _confirming(text: str, mentions: list[Mention]) -> list[Mention]:
    """The mentions of the sentences of a system turn that confirm something for the meeting:
    beside "I'll make sure the meeting is on your calendar.", "You're attending a meeting
    organized by Matthew Hicks on April 10." speaks of another meeting, and its day is not this one's."""
    spans = [(s.start(), s.end()) for s in _SENTENCE.finditer(text) if arrange.confirms(s.group())]
    return [m for m in mentions if any(a <= m.start < b for a, b in spans)]


def _same_name(a: str, b: str) -> bool:
    return re.sub(r"\W+", " ", a.lower()).strip() == re.sub(r"\W+", " ", b.lower()).strip()


def _minutes(match: re.Match) -> int:
    if match.group("min"):
        return int(match.group("min"))
    hours = match.group("hours")
    if hours is None:
        return 30
    return 60 * ({"an": 1, "one": 1, "two": 2}.get(hours.lower()) or int(hours))


def system_turn(ctx, session_id: str, turn: int, text: str, mentions, kind_of, speaker: str | None) -> None:
    """A system turn that confirms what it does for the meeting ("I'll call the meeting
    "networks workshop"", "I've added Natalie to your meeting") fills it in; one that asks
    what "your meeting" should be called, or says what it does for it, starts it when none is
    being arranged. The meeting's name in any reply means the meeting, even where a KG event has
    that name too."""
    store = ctx.store
    meeting = current(store, session_id)
    started = meeting is None
    if meeting is None:
        # A system that asks what "your meeting" should be called, or says what it does for it
        # ("I can schedule your meeting at 10"), arranges one, though the words that asked for it
        # were lost ("set up for meeting tomorrow", as a recognizer heard "a meeting").
        if not ((arrange.asks_name(text) and arrange.YOUR_MEETING.search(text))
                or (arrange.confirms(text) and arrange.YOURS.search(text))):
            return
        meeting = start(store, session_id, turn, speaker)
    confirmed = arrange.confirms(text)
    quoted = arrange.quoted_name(text)
    if quoted and confirmed:
        meeting.name = quoted
    g = vocab.dialogue_graph(session_id)
    for m in mentions:
        if m.kind == "name" and meeting.name and _same_name(m.text, meeting.name):
            store.update(f"DELETE WHERE {{ GRAPH <{g}> {{ <{m.iri}> <{vocab.KGC_REFERS_TO}> ?e }} }}")
            store.add_probabilistic(Fact(m.iri, vocab.KGC_REFERS_TO, meeting.iri), LINK_P, g, rule="arranged meeting")
            m.entity = meeting.iri
    if not (confirmed or started):
        return
    _fill_times(meeting, _confirming(text, mentions) if confirmed else mentions, text)
    for m in mentions:
        if not m.entity or m.entity == meeting.iri:
            continue
        kind = kind_of(m.entity)
        if kind == "room":
            meeting.room = m.entity
        elif kind == "person" and arrange.invites(text) and m.entity not in meeting.invitees \
                and m.entity != meeting.organizer:
            meeting.invitees.append(m.entity)
            meeting.sources = []
    save(store, session_id, meeting)
