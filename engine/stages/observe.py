"""Observe stage: the user turn goes into the dialogue graph, with its mentions detected.

Dialogue graph of a session (vocab.dialogue_graph): the session node; one kgc:Turn per turn
with its index, speaker ("user"/"system"), text, session-clock time and `kgc:respondTo` the
turn before; one kgc:Mention per mention with its words, kind, character span and, for time
and type mentions, the resolved value. What a mention refers to is added by the reason stage.
"My name is X" / "I'm X" sets the session's speaker (`kgc:speakerEntity`), which first-person
mentions then refer to.
"""

from __future__ import annotations

from datetime import datetime

from engine.nlp import mentions as detect_mentions
from engine.nlp import timeexpr
from engine.stage import TurnContext, stage
from engine.state import Mention, TurnState
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
    rows = ctx.store.query(f"SELECT ?e WHERE {{ GRAPH <{vocab.dialogue_graph(session_id)}> {{ "
                           f"<{vocab.session_node(session_id)}> <{vocab.KGC_SPEAKER_ENTITY}> ?e }} }} LIMIT 1")
    return rows[0]["e"] if rows else None


def set_session_speaker(ctx: TurnContext, session_id: str, entity: str, turn_iri: str) -> None:
    graph = vocab.dialogue_graph(session_id)
    session = vocab.session_node(session_id)
    ctx.store.update(f"DELETE WHERE {{ GRAPH <{graph}> {{ <{session}> <{vocab.KGC_SPEAKER_ENTITY}> ?e }} }}")
    ctx.store.add([Fact(session, vocab.KGC_SPEAKER_ENTITY, entity),
                   Fact(turn_iri, vocab.KGC_SPEAKER_ENTITY, entity)], graph)


def detect(ctx: TurnContext, text: str, now: datetime) -> list[Mention]:
    """Every mention of a user turn: names, pronouns, noun phrases, first person, types, times."""
    found = detect_mentions.detect(text, detect_mentions.turn_index(ctx, text))
    spans = [(m.start, m.end) for m in found if m.kind == "name"]
    for t in timeexpr.detect(text, now):
        if not any(s < t.end and t.start < e for s, e in spans):
            found.append(t)
    found.sort(key=lambda m: (m.start, m.end))
    return found


def _person_candidate(ctx: TurnContext, m: Mention) -> str | None:
    from engine.stages.reason import entity_kind

    for iri, _ in m.candidates:
        if entity_kind(ctx, iri) == "person":
            return iri
    return None


def earlier_time(ctx: TurnContext, session_id: str, turn: int) -> timeexpr.TimeValue | None:
    """The last time a user turn before `turn` named (what "then" means)."""
    rows = ctx.store.query(f"""SELECT ?i ?v WHERE {{ GRAPH <{vocab.dialogue_graph(session_id)}> {{
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
    state.mentions = detect(ctx, state.text, state.now)
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
    write_mentions(ctx, state.session_id, state.turn, state.mentions)
    if state.speaker_entity is None:
        state.speaker_entity = session_speaker(ctx, state.session_id)
    intro = detect_mentions.speaker_name(state.text, state.mentions)
    if intro is not None:
        person = _person_candidate(ctx, intro)
        if person and person != state.speaker_entity:
            state.speaker_entity = person
            set_session_speaker(ctx, state.session_id, person, state.turn_iri)


def record_system_turn(ctx: TurnContext, session_id: str, turn: int, text: str) -> None:
    """Add a system turn as said; its names are linked (by the same rules, without deriving
    anything) so that the next user turn's pronouns can take them up."""
    from engine.stages.reason import TurnInput, apply_links, reason_turn

    from engine.config import parse_now

    now = parse_now(ctx.config.now) or datetime.now().replace(microsecond=0)
    node = write_turn(ctx, session_id, turn, "system", text)
    names = detect_mentions.detect_names(text, detect_mentions.turn_index(ctx, text))
    spans = [(m.start, m.end) for m in names]
    times = [t for t in timeexpr.detect(text, now) if not any(s < t.end and t.start < e for s, e in spans)]
    write_mentions(ctx, session_id, turn, names + times)
    if not names:
        return
    out = reason_turn(ctx, TurnInput(session_id, turn, node, names + times, now, derive=False),
                      ctx.config.reason_timeout_ms / 1000.0)
    apply_links(ctx, session_id, names, out.links, rule="entity_linking")
