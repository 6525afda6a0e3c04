"""Observe stage: the user turn goes into the dialogue graph, with its mentions detected.

Dialogue graph of a session (vocab.dialogue_graph): the session node; one kgc:Turn per turn
with its index, speaker ("user"/"system"), text, session-clock time and `kgc:respondTo` the
turn before; one kgc:Mention per mention with its words, kind, character span and, for time
and type mentions, the resolved value. What a mention refers to is added by the reason stage.
"My name is X" / "I'm X" sets the session's speaker (`kgc:speakerEntity`), which first-person
mentions then refer to: the person of the KG whose name X is (a near miss of one letter or two
included), else a new person named X written to the dialogue graph; a partial or weak match
(X = "Mark Morris", the KG's "Mary Griffin") never makes an employee the speaker. A spoken turn's
other recognizer hypotheses add evidence for the names heard in its best one, and can bring back a
name the best one lost.
"""

from __future__ import annotations

import re
from datetime import datetime

from engine import meeting
from engine.context import TurnContext, select, stage
from engine.nlp import mentions as detect_mentions
from engine.nlp import nbest, speakers, timeexpr
from engine.state import Mention, SystemTurn, TurnState
from kgstore import vocab
from kgstore.terms import Fact

XSD_INTEGER = vocab.XSD + "integer"
XSD_DATETIME = vocab.XSD + "dateTime"


def _lit(s: str, p: str, value, datatype: str | None = None) -> Fact:
    return Fact(s, p, str(value), o_literal=True, datatype=datatype)


def write_turn(ctx: TurnContext, session_id: str, turn: int, speaker: str, text: str,
               when: datetime | None = None) -> str:
    """Add the turn node (and the session node on the first turn); returns the turn's IRI."""
    session = vocab.session_node(session_id)
    node = vocab.turn_node(session_id, turn)
    facts = [Fact(session, vocab.RDF_TYPE, vocab.KGC_SESSION),
             Fact(node, vocab.RDF_TYPE, vocab.KGC_TURN),
             Fact(node, vocab.KGC_IN_SESSION, session),
             _lit(node, vocab.KGC_INDEX, turn, XSD_INTEGER),
             _lit(node, vocab.KGC_SPEAKER, speaker),
             _lit(node, vocab.KGC_TEXT, text)]
    if when is not None:
        facts.append(_lit(node, vocab.KGC_TIME, when.isoformat(), XSD_DATETIME))
    if turn > 1:
        facts.append(Fact(node, vocab.KGC_RESPOND_TO, vocab.turn_node(session_id, turn - 1)))
    ctx.store.add(facts, vocab.dialogue_graph(session_id))
    return node


def write_mentions(ctx: TurnContext, session_id: str, turn: int, mentions: list[Mention]) -> None:
    """Give each mention its node in the dialogue graph (its IRI goes into `Mention.iri`)."""
    node = vocab.turn_node(session_id, turn)
    facts = []
    for j, m in enumerate(mentions, 1):
        m.iri = vocab.mention_node(session_id, turn, j)
        facts += [Fact(node, vocab.KGC_HAS_MENTION, m.iri),
                  Fact(m.iri, vocab.RDF_TYPE, vocab.KGC_MENTION),
                  _lit(m.iri, vocab.KGC_TEXT, m.text),
                  _lit(m.iri, vocab.KGC_KIND, m.kind),
                  _lit(m.iri, vocab.KGC_START, m.start, XSD_INTEGER),
                  _lit(m.iri, vocab.KGC_END, m.end, XSD_INTEGER)]
        if isinstance(m.value, timeexpr.TimeValue):
            facts.append(_lit(m.iri, vocab.KGC_VALUE, m.value.iso()))
        elif m.kind == "type" and m.value:
            facts.append(Fact(m.iri, vocab.KGC_VALUE, m.value))
    if facts:
        ctx.store.add(facts, vocab.dialogue_graph(session_id))


def session_speaker(ctx: TurnContext, session_id: str) -> str | None:
    rows = select(ctx.store, f"SELECT ?e WHERE {{ GRAPH <{vocab.dialogue_graph(session_id)}> {{ "
                             f"<{vocab.session_node(session_id)}> <{vocab.KGC_SPEAKER_ENTITY}> ?e }} }} LIMIT 1")
    return rows[0]["e"] if rows else None


def _turn_node(state: TurnState) -> str:
    """The turn's node: run() writes it first; a caller that did not gets the same IRI."""
    return state.turn_iri or vocab.turn_node(state.session_id, state.turn)


def set_session_speaker(ctx: TurnContext, session_id: str, entity: str, turn_iri: str) -> None:
    graph = vocab.dialogue_graph(session_id)
    session = vocab.session_node(session_id)
    ctx.store.update(f"DELETE WHERE {{ GRAPH <{graph}> {{ <{session}> <{vocab.KGC_SPEAKER_ENTITY}> ?e }} }}")
    ctx.store.add([Fact(session, vocab.KGC_SPEAKER_ENTITY, entity),
                   Fact(turn_iri, vocab.KGC_SPEAKER_ENTITY, entity)], graph)


# A name heard in N of the other hypotheses gains this much name-match score per hypothesis.
NBEST_BOOST = 0.03
# A name missing from the best hypothesis comes back when at least this many others carry it.
NBEST_RESCUE = 2
# The introduced name and a KG person's name must be this close (Jaro-Winkler) for the speaker
# to be that person; below it the speaker is a new person.
SPEAKER_MATCH = 0.9


def detect(ctx: TurnContext, text: str, now: datetime, alternatives: list[str] | None = None) -> list[Mention]:
    """Every mention of a user turn: names, pronouns, noun phrases, first person, types, times.
    `alternatives`: the recognizer's other hypotheses of a spoken turn."""
    index = detect_mentions.turn_index(ctx, text)
    found = detect_mentions.detect(text, index)
    if alternatives:
        found = _with_nbest(text, found, alternatives, index)
    spans = [(m.start, m.end) for m in found if m.kind == "name"]
    for t in timeexpr.detect(text, now):
        if not any(s < t.end and t.start < e for s, e in spans):
            found.append(t)
    found.sort(key=lambda m: (m.start, m.end))
    return found


def _with_nbest(text: str, found: list[Mention], alternatives: list[str], index) -> list[Mention]:
    """Names of the best hypothesis gain score for each other hypothesis that heard them too;
    a name most others heard, lost in the best one, comes back on the words it lines up with."""
    votes = nbest.nbest_votes(alternatives, index)
    for m in found:
        if m.kind == "name":
            m.candidates = sorted(((iri, round(min(1.0, p + NBEST_BOOST * len(votes.get(iri, ()))), 4))
                                   for iri, p in m.candidates), key=lambda c: -c[1])
    named = {iri for m in found if m.kind == "name" for iri, _ in m.candidates[:1]}
    for iri, where in votes.items():
        if iri in named or len(where) < NBEST_RESCUE:
            continue
        hypothesis, start, end = where[0]
        span = nbest.align_span(hypothesis, start, end, text)
        if span is None or any(m.start < span[1] and span[0] < m.end for m in found):
            continue
        names = index.names_of(iri)
        # The rules compare a mention's words with the names: these are the words the other
        # hypotheses heard ("botany"), on the span of the best one they line up with ("bottomy").
        found.append(Mention(text=hypothesis[start:end], start=span[0], end=span[1], kind="name",
                             candidates=[(iri, round(min(1.0, 0.5 + NBEST_BOOST * len(where)), 4))],
                             label=names[0] if names else None))
        named.add(iri)
    found.sort(key=lambda m: (m.start, m.end))
    return found


def _known_person(ctx: TurnContext, name: str, mentions: list[Mention]) -> str | None:
    """The KG person the introduced name names: one whose name it is, or nearly is."""
    from engine.nlp.kinds import entity_kind
    from rules.similarity import measures

    best, best_jw = None, SPEAKER_MATCH
    for m in mentions:
        if m.kind != "name":
            continue
        for iri, _ in m.candidates:
            if entity_kind(ctx, iri) != "person":
                continue
            jw = measures(name, ctx.background.label(iri))[0]
            if jw >= best_jw:
                best, best_jw = iri, jw
    return best


def _heard_otherwise(ctx: TurnContext, alternatives: list[str]) -> str | None:
    """The KG person that another hypothesis of the recognizer introduces the speaker as, when the
    best one heard a name the KG lacks: a surname is what a recognizer garbles most."""
    for alternative in alternatives:
        intro = speakers.introduced_name(alternative)
        if intro is None:
            continue
        start, end, name = intro
        index = detect_mentions.turn_index(ctx, alternative)
        inside = [m for m in detect_mentions.detect_names(alternative, index) if m.start < end and start < m.end]
        person = _known_person(ctx, name, inside)
        if person is not None:
            return person
    return None


def _titled_person(ctx: TurnContext, surname: str, mentions: list[Mention]) -> str | None:
    """"Professor Allen": the one KG person of that surname among the name's candidates."""
    from engine.nlp.kinds import entity_kind

    found = {iri for m in mentions for iri, _ in m.candidates if entity_kind(ctx, iri) == "person"
             and ctx.background.label(iri).lower().split()[-1:] == [surname.lower()]}
    return found.pop() if len(found) == 1 else None


def introduce_speaker(ctx: TurnContext, state: TurnState) -> None:
    """ "My name is X": the session's speaker becomes X, a KG person only when X is that person's
    name; a name the KG lacks is a new person of the dialogue graph, and the words naming them
    refer to the speaker (a first-person reference)."""
    intro = speakers.introduced_name(state.text)
    if intro is None:
        # Typed in lower case ("i'm omar haddad"): only a KG person's name, heard right after
        # the introduction, can say who is speaking; so can one said when the system asked.
        named = speakers.speaker_name(state.text, state.mentions)
        if named is None and speakers.ASKS_SPEAKER.search(state.previous_system):
            named = next((m for m in state.mentions if m.kind == "name"), None)
        person = named and _known_person(ctx, named.text, [named])
        if person and person != state.speaker_entity:
            state.speaker_entity = person
            set_session_speaker(ctx, state.session_id, person, _turn_node(state))
        return
    start, end, name = intro
    inside = [m for m in state.mentions if m.kind == "name" and m.start < end and start < m.end]
    person = _known_person(ctx, name, inside)
    if person is None and " " not in name and speakers.titled(state.text, start):
        person = _titled_person(ctx, name, inside)
    if person is None and (person := _heard_otherwise(ctx, state.alternatives)) is not None:
        # "my name is Del burger", "... Dale Vega" in another hypothesis: the words name the speaker
        state.mentions = [m for m in state.mentions if m not in inside] + [Mention(name, start, end, "first_person")]
        state.mentions.sort(key=lambda m: (m.start, m.end))
    if person is None:
        current = state.speaker_entity and ctx.store.label(state.speaker_entity)
        if current and state.speaker_entity and set(name.lower().split()) <= set(current.lower().split()):
            person = state.speaker_entity  # "my name is Karen" from Karen Hill
        else:
            person = new_person(ctx, state.session_id, name)
        state.mentions = [m for m in state.mentions if m not in inside]
        state.mentions.append(Mention(name, start, end, "first_person"))
        state.mentions.sort(key=lambda m: (m.start, m.end))
    if person != state.speaker_entity:
        state.speaker_entity = person
        set_session_speaker(ctx, state.session_id, person, _turn_node(state))


OWN_OFFICE = re.compile(r"\bmy\s+(?:new\s+|own\s+|current\s+)?office\b", re.I)


def own_office(state: TurnState) -> None:
    """"My office" is one mention, a room (the speaker's office, once reason knows the speaker),
    not the speaker."""
    for match in OWN_OFFICE.finditer(state.text):
        phrase = Mention(match.group(0), match.start(), match.end(), "definite", value=("room",))
        state.mentions = [m for m in state.mentions if not (m.start < phrase.end and phrase.start < m.end)]
        state.mentions.append(phrase)
    state.mentions.sort(key=lambda m: (m.start, m.end))


def new_person(ctx: TurnContext, session_id: str, name: str) -> str:
    """A person the KG does not know (a visitor who gave their name), in the dialogue graph."""
    iri = vocab.speaker_node(session_id, name)
    ctx.store.add([Fact(iri, vocab.RDF_TYPE, vocab.OFFICE_CLASSES["person"]),
                   Fact(iri, vocab.RDFS_LABEL, name, o_literal=True)], vocab.dialogue_graph(session_id))
    return iri


def earlier_time(ctx: TurnContext, session_id: str, turn: int) -> timeexpr.TimeValue | None:
    """The last time a user turn before `turn` named (what "then" means)."""
    rows = select(ctx.store, f"""SELECT ?i ?v WHERE {{ GRAPH <{vocab.dialogue_graph(session_id)}> {{
        ?t <{vocab.KGC_INDEX}> ?i ; <{vocab.KGC_SPEAKER}> "user" ; <{vocab.KGC_HAS_MENTION}> ?m .
        ?m <{vocab.KGC_KIND}> "time" ; <{vocab.KGC_VALUE}> ?v ; <{vocab.KGC_START}> ?s }} FILTER(?i < {turn}) }}
        ORDER BY DESC(?i) DESC(?s) LIMIT 1""")
    return timeexpr.TimeValue.from_iso(rows[0]["v"]) if rows else None


# Linking cost grows with the mentions of a turn; a pasted document can hold thousands, and the
# ones past the first few dozen rarely matter to the question.
MAX_MENTIONS = 64


@stage("observe", report=lambda s: s.mentions)
def run(state: TurnState, ctx: TurnContext) -> None:
    state.turn_iri = write_turn(ctx, state.session_id, state.turn, state.speaker, state.text, state.now)
    state.mentions = detect(ctx, state.text, state.now, state.alternatives)
    if state.speaker_entity is None:
        state.speaker_entity = session_speaker(ctx, state.session_id)
    introduce_speaker(ctx, state)
    own_office(state)
    if len(state.mentions) > MAX_MENTIONS:
        state.reasoning_note = (f"only the first {MAX_MENTIONS} of {len(state.mentions)} mentions "
                                "in this turn were linked")
        del state.mentions[MAX_MENTIONS:]
    then = timeexpr.THEN.search(state.text)
    if then and not any(m.kind == "time" for m in state.mentions):
        value = earlier_time(ctx, state.session_id, state.turn)
        if value is not None:
            state.mentions.append(Mention(then.group(0), then.start(), then.end(), "time", value=value))
            state.mentions.sort(key=lambda m: (m.start, m.end))
    meeting.add_mentions(ctx.store, state)
    write_mentions(ctx, state.session_id, state.turn, state.mentions)


def record_system_turn(ctx: TurnContext, session_id: str, turn: int, text: str) -> SystemTurn:
    """Add a system turn as said, with the names and times it mentions (unlinked: the reasoning
    module's `link_system_turn` links them, so that the next user turn's pronouns can take them up)."""
    from engine.config import parse_now

    now = parse_now(ctx.config.now) or datetime.now().replace(microsecond=0)
    node = write_turn(ctx, session_id, turn, "system", text)
    names = detect_mentions.detect_names(text, detect_mentions.turn_index(ctx, text))
    spans = [(m.start, m.end) for m in names]
    times = [t for t in timeexpr.detect(text, now) if not any(s < t.end and t.start < e for s, e in spans)]
    write_mentions(ctx, session_id, turn, names + times)
    return SystemTurn(session_id, turn, node, names, times, now)
