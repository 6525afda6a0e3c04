"""What the mentions of the last turns referred to, as the linking rules read it: each earlier
link with its stored probability, the entities each turn named in order per kind, and the
answer a reply brought in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.context import TurnContext, select
from engine.nlp.kinds import akin, class_labels, class_words, classes_of, entity_kind, relation_labels
from engine.words import content_stems
from kgstore import vocab
from kgstore.errors import RemoteUnavailable
from kgstore.terms import Fact
from rules.similarity import norm

if TYPE_CHECKING:
    from engine.state import RelationPath

LINK_WINDOW = 10  # turns whose links a definite noun phrase may still take up
_ASKS = re.compile(r"\b(who|whom|whose|what|which|where|when|how)\b", re.I)


def asks(text: str) -> bool:
    """Does a turn ask for something ("Which band is Tom in?"), so that the reply to it gives an
    answer, rather than ask to be told about a thing ("Tell me about Peach Melba.")?"""
    return _ASKS.search(text) is not None


@dataclass
class RecentLink:
    turn: int
    mention: str
    entity: str
    p: float
    kind: str = "name"
    start: int = 0


def recent_links(ctx: TurnContext, session_id: str, turn: int) -> list[RecentLink]:
    """What the mentions of the last ten turns referred to, with the stored probabilities."""
    graph = vocab.dialogue_graph(session_id)
    rows = select(ctx.store,
        f"""SELECT ?idx ?m ?e ?kind ?start WHERE {{ GRAPH <{graph}> {{
              ?t <{vocab.KGC_INDEX}> ?idx ; <{vocab.KGC_HAS_MENTION}> ?m . ?m <{vocab.KGC_REFERS_TO}> ?e ;
              <{vocab.KGC_KIND}> ?kind ; <{vocab.KGC_START}> ?start }}
              FILTER(?idx >= {turn - LINK_WINDOW} && ?idx < {turn}) }}""")
    out = []
    for row in rows or []:
        fact = Fact(row["m"], vocab.KGC_REFERS_TO, row["e"])
        p = ctx.store.probability(fact, graph)
        out.append(RecentLink(int(row["idx"]), row["m"], row["e"], 1.0 if p is None else p, row["kind"],
                              int(row["start"])))
    return out


def listed_of(ctx: TurnContext, links: list[RecentLink]) -> list[tuple[int, str, int, str]]:
    """(turn, kind, n, entity): the entities each turn referred to, in order, per kind, each
    mention counted by its best link; n = -1 marks the last."""
    best: dict[str, RecentLink] = {}
    for link in links:
        if link.mention not in best or link.p > best[link.mention].p:
            best[link.mention] = link
    per_turn: dict[tuple[int, str], list[str]] = {}
    for link in sorted(best.values(), key=lambda k: (k.turn, k.start)):
        seq = per_turn.setdefault((link.turn, entity_kind(ctx, link.entity)), [])
        if link.entity not in seq:
            seq.append(link.entity)
    out = []
    for (t, kind), seq in per_turn.items():
        out += [(t, kind, n, e) for n, e in enumerate(seq, 1)]
        out.append((t, kind, -1, seq[-1]))
    return out


def answered(listed: list[tuple[int, str, int, str]], links: list[RecentLink], turn: int,
             classes: frozenset[str] = frozenset(), near: frozenset[str] = frozenset(),
             reached: frozenset[str] = frozenset()) -> list[str]:
    """The entities the previous turn (`listed`) named that the turn before it did not, each the
    only such one of its kind: what a reply gave as the answer ("Warsaw" of "The capital of
    Poland is Warsaw." after "What's the capital of Poland?"). A class (`classes`) says what
    something is ("Peach Melba is a dessert ..."), and is no answer to take up. Those the
    relation the question asked for reaches (`reached`, see `asked_for`) are the answer; else
    those that stand in a KG relation with what the question named (`near`); the rest is an
    aside ("Peter Vance founded it; Tomas Berg is the head nurse today." after "Who founded
    it?"; "Bjorn, who also runs Northsound Freight, captains the Storm Petrel.")."""
    asked = {k.entity for k in links if k.turn == turn - 2}
    # a name of the reply that may as well mean what was asked about ("Amara" of two Amaras) says it again
    again = {k.mention for k in links if k.turn == turn - 1 and k.entity in asked}
    asked |= {k.entity for k in links if k.mention in again}
    fresh = [(kind, e) for _, kind, n, e in listed if n > 0 and e not in asked and e not in classes]
    fresh = [(kind, e) for kind, e in fresh if e in reached] or [(kind, e) for kind, e in fresh if e in near] or fresh
    kinds = [kind for kind, _ in fresh]
    return [e for kind, e in fresh if kinds.count(kind) == 1]


def asked_entities(links: list[RecentLink], turn: int) -> list[str]:
    """What the user's question before the last reply referred to (its best links)."""
    return list(dict.fromkeys(k.entity for k in links if k.turn == turn - 2))


def topics(links: list[RecentLink], turn: int) -> list[str]:
    """What the user's question before the last reply was about: the entity each of its
    mentions refers to best."""
    best: dict[str, RecentLink] = {}
    for link in links:
        if link.turn == turn - 2 and (link.mention not in best or link.p > best[link.mention].p):
            best[link.mention] = link
    return list(dict.fromkeys(k.entity for k in best.values()))


def answer_and_topic(ctx: TurnContext, links: list[RecentLink], listed: list[tuple[int, str, int, str]],
                     session_id: str, turn: int) -> tuple[list[str], list[str]]:
    """What the reply before `turn` answered its question with (`answered`), and what that
    question was about (`topics`)."""
    from engine.nlp.mentions import label_index

    near = neighbours(ctx, asked_entities(links, turn))
    reached = asked_for(ctx, session_id, turn - 2)
    return answered(listed, links, turn, label_index(ctx).class_iris, near, reached), topics(links, turn)


ASKED_FOR_CAP = 50  # entities recorded per question; a long list is no single answer anyway


def record_asked_for(ctx: TurnContext, session_id: str, turn: int, paths: list[RelationPath]) -> None:
    """Write what the relation paths the user's question asks for reach (each chain's entities
    past its start: the values, and a two-hop path's middle one) to the dialogue graph: what a
    reply to the question answers with, whoever wrote the reply."""
    node = vocab.turn_node(session_id, turn)
    reached: dict[str, None] = {}
    for path in paths:
        for chain in path.chains:
            for f in chain:
                for e in (f.s, f.o) if not f.o_literal else (f.s,):
                    if e != path.start:
                        reached.setdefault(e, None)
    facts = [Fact(node, vocab.KGC_ASKS_FOR, e) for e in list(reached)[:ASKED_FOR_CAP]]
    if facts:
        ctx.store.add(facts, vocab.dialogue_graph(session_id))


def asked_for(ctx: TurnContext, session_id: str, turn: int) -> frozenset[str]:
    """What the relation paths of user turn `turn` reached (`record_asked_for`)."""
    if turn < 1:
        return frozenset()
    rows = select(ctx.store, f"""SELECT ?e WHERE {{ GRAPH <{vocab.dialogue_graph(session_id)}> {{
        <{vocab.turn_node(session_id, turn)}> <{vocab.KGC_ASKS_FOR}> ?e }} }}""")
    return frozenset(row["e"] for row in rows or [])


NEIGHBOURS_CAP = 3000


def neighbours(ctx: TurnContext, seeds: list[str]) -> frozenset[str]:
    """The entities one KG relation (other than a class's) away from the seeds: what a reply's
    answer stands in a relation with."""
    if not seeds:
        return frozenset()
    facts = ctx.background.neighborhood(seeds, hops=1, cap=NEIGHBOURS_CAP).facts
    typing = (vocab.RDF_TYPE, vocab.WDT + "P31")
    return frozenset(x for f in facts if not f.o_literal and f.p not in typing for x in (f.s, f.o))


def entity_marks(ctx: TurnContext, text: str, entities, pronoun: bool) -> dict[str, list[str]]:
    """What the linking rules are told of entities besides their kind: `a_class`, one of the KG's
    classes (what things are, "winemaker": no one an anaphor takes up), and, in a turn with a
    pronoun or a noun phrase that points back (`pronoun`), `has_asked`: the subject of a relation
    whose label says a word of the turn (of its candidates, the likelier: "Who skippers it?" means
    the yacht, not the race)."""
    from engine.nlp.mentions import label_index

    classes = label_index(ctx).class_iris
    said = content_stems(text) if pronoun else frozenset()
    out: dict[str, list[str]] = {}
    for iri in entities:
        if iri in classes:
            out.setdefault(iri, []).append("a_class")
        if said and any(said & content_stems(label) for label in relation_labels(ctx, iri)):
            out.setdefault(iri, []).append("has_asked")
    return out


RANGE = vocab.RDFS + "range"


def relations_into(ctx: TurnContext, iri: str) -> frozenset[str]:
    """The relations whose objects `iri` is ("chief arbiter" of Helga Brandt)."""
    cache = ctx.resource("relations_into", dict)
    if iri not in cache:
        try:
            cache[iri] = frozenset(f.p for f in ctx.background.facts_about(iri)
                                   if f.o == iri and f.s != iri and not f.o_literal)
        except RemoteUnavailable:
            return frozenset()
    return cache[iri]


def ranges_into(ctx: TurnContext, iri: str) -> set[str]:
    """The classes the relations into `iri` say their objects are (their `rdfs:range`): what a
    thing is when nothing types it ("rehearses at" ranges over concert halls, so the hall a choir
    rehearses at is one)."""
    cache = ctx.resource("ranges_into", dict)
    if iri not in cache:
        try:
            cache[iri] = {f.o for p in relations_into(ctx, iri) for f in ctx.background.facts_about(p)
                          if f.s == p and f.p == RANGE and not f.o_literal}
        except RemoteUnavailable:
            return set()
    return cache[iri]


def is_a(ctx: TurnContext, iri: str, cls: str) -> bool:
    """Whether the KG says `iri` is a `cls` (a class, or a relation: "those captains"): by its
    classes (and theirs), a relation's range, or a relation it is the object of."""
    return cls in classes_of(ctx, iri) or cls in ranges_into(ctx, iri) or cls in relations_into(ctx, iri)


def called(ctx: TurnContext, iri: str) -> set[str]:
    """What "that <noun>" may call `iri`, normalized: its classes' labels and their endings
    (`class_words`), those of the classes relations into it range over, and the endings of those
    relations' own labels where the KG says it is "the chief arbiter" of something ("that
    arbiter", "that venue"): the thing a question asked for, by the relation it asked."""
    out = set(class_words(ctx, iri))
    try:
        labels = ctx.background.labels(list(relations_into(ctx, iri) | ranges_into(ctx, iri)))
    except RemoteUnavailable:
        return out
    for label in labels.values():
        words = norm(label).split()
        out |= {" ".join(words[k:]) for k in range(len(words))}
    return out


def called_so(ctx: TurnContext, said: str, label: str, entities, spoken: set[str]) -> set[str] | None:
    """Which of `entities` "that <said>" may take up (`label`: the mention's, a class or relation
    of the KG, or only the noun): those `called` so, when one of them was spoken of (`spoken`);
    else those whose classes are `akin` to it ("that company" after a reply naming a corporation,
    in a KG whose "company" is only a holding company); else, where the noun names a class or
    relation of the KG, still those called so; and None where it names neither: "that firm" keeps
    to what was spoken of, whatever the KG calls it."""
    from engine.nlp.mentions import label_index

    exact = {iri for iri in entities if said in called(ctx, iri)}
    if exact & spoken:
        return exact
    try:
        loose = {iri for iri in entities if any(akin(said, c) for c in class_labels(ctx, iri))}
    except RemoteUnavailable:
        loose = set()
    if loose & spoken:
        return exact | loose
    known = label_index(ctx)
    return exact if label in known.class_iris or label in known.relations else None
