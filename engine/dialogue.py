"""Reading the dialogue graphs back: the sessions a store holds and the turns of one session
(what the app shows when a past session is reopened, and what `Session` resumes from)."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote

from kgstore import vocab
from kgstore.terms import Fact


@dataclass
class SessionInfo:
    session_id: str
    turns: int
    started: str = ""  # ISO time of the first user turn on the session clock, when recorded
    first_text: str = ""
    speaker: str | None = None  # the person the user said they are (IRI)


@dataclass
class MentionRecord:
    text: str
    kind: str
    start: int
    end: int
    entity: str | None = None
    p: float | None = None


@dataclass
class TurnRecord:
    turn: int
    speaker: str  # "user" | "system"
    text: str
    time: str = ""
    rewritten: str = ""
    mentions: list[MentionRecord] = field(default_factory=list)


def _session_id(node: str) -> str:
    return unquote(node[len(vocab.session_node("")):])


def list_sessions(store) -> list[SessionInfo]:
    """Every session with a turn in the store, the most recently started first."""
    rows = store.query(f"""
        SELECT ?s (COUNT(DISTINCT ?t) AS ?n) WHERE {{ GRAPH ?g {{ ?t <{vocab.KGC_IN_SESSION}> ?s }} }} GROUP BY ?s""")
    starts = {r["s"]: r["start"] for r in store.query(f"""
        SELECT ?s (MIN(?time) AS ?start) WHERE {{ GRAPH ?g {{ ?t <{vocab.KGC_IN_SESSION}> ?s ; <{vocab.KGC_TIME}> ?time }} }}
        GROUP BY ?s""") or [] if "start" in r}
    out = []
    for row in rows or []:
        sid = _session_id(row["s"])
        g = vocab.dialogue_graph(sid)
        first = store.query(f"""SELECT ?text WHERE {{ GRAPH <{g}> {{ ?t <{vocab.KGC_INDEX}> 1 ;
                                <{vocab.KGC_TEXT}> ?text }} }} LIMIT 1""")
        speaker = store.query(f"""SELECT ?e WHERE {{ GRAPH <{g}> {{ <{row['s']}> <{vocab.KGC_SPEAKER_ENTITY}> ?e }} }}
                                  LIMIT 1""")
        out.append(SessionInfo(sid, int(row["n"]), starts.get(row["s"], ""), first[0]["text"] if first else "",
                               speaker[0]["e"] if speaker else None))
    out.sort(key=lambda s: (s.started, s.session_id), reverse=True)
    return out


def session_turns(store, session_id: str) -> list[TurnRecord]:
    """The turns of one session in order, with their mentions and what each refers to best."""
    g = vocab.dialogue_graph(session_id)
    rows = store.query(f"""
        SELECT ?t ?i ?speaker ?text ?time ?rw WHERE {{ GRAPH <{g}> {{
          ?t <{vocab.KGC_INDEX}> ?i ; <{vocab.KGC_SPEAKER}> ?speaker ; <{vocab.KGC_TEXT}> ?text .
          OPTIONAL {{ ?t <{vocab.KGC_TIME}> ?time }} OPTIONAL {{ ?t <{vocab.KGC_REWRITTEN}> ?rw }} }} }}""")
    turns = {row["t"]: TurnRecord(int(row["i"]), row["speaker"], row["text"], row.get("time", ""),
                                  row.get("rw", "")) for row in rows or []}
    mrows = store.query(f"""
        SELECT ?t ?m ?text ?kind ?start ?end ?e WHERE {{ GRAPH <{g}> {{
          ?t <{vocab.KGC_HAS_MENTION}> ?m . ?m <{vocab.KGC_TEXT}> ?text ; <{vocab.KGC_KIND}> ?kind ;
             <{vocab.KGC_START}> ?start ; <{vocab.KGC_END}> ?end .
          OPTIONAL {{ ?m <{vocab.KGC_REFERS_TO}> ?e }} }} }}""")
    best: dict[str, MentionRecord] = {}
    for row in mrows or []:
        p = store.probability(Fact(row["m"], vocab.KGC_REFERS_TO, row["e"]), g) if row.get("e") else None
        old = best.get(row["m"])
        if old is None or (p or 0) > (old.p or 0):
            best[row["m"]] = MentionRecord(row["text"], row["kind"], int(row["start"]), int(row["end"]),
                                           row.get("e"), p)
    for m, rec in best.items():
        turn = turns.get(m.rsplit(":mention:", 1)[0])
        if turn is not None:
            turn.mentions.append(rec)
    for turn in turns.values():
        turn.mentions.sort(key=lambda r: r.start)
    return sorted(turns.values(), key=lambda t: t.turn)


def history(store, session_id: str) -> list[tuple[str, str]]:
    """(speaker, text) of every turn, oldest first: what `Session.history` resumes from."""
    return [(t.speaker, t.text) for t in session_turns(store, session_id)]


def turn_entities(store, session_id: str, turn: int) -> dict[str, float]:
    """What the mentions of one turn refer to (entity -> the highest stored probability): the
    subject a reply gave a follow-up that names none ("What time?")."""
    g = vocab.dialogue_graph(session_id)
    rows = store.query(f"""SELECT ?m ?e WHERE {{ GRAPH <{g}> {{ <{vocab.turn_node(session_id, turn)}>
        <{vocab.KGC_HAS_MENTION}> ?m . ?m <{vocab.KGC_REFERS_TO}> ?e }} }}""")
    out: dict[str, float] = {}
    for row in rows or []:
        p = store.probability(Fact(row["m"], vocab.KGC_REFERS_TO, row["e"]), g) or 0.0
        out[row["e"]] = max(out.get(row["e"], 0.0), p)
    return out
