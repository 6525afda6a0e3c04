"""Retrieve stage: from scored candidates to the facts the model will see.

`topk` keeps the k best facts. `pcst` (default) builds the candidate graph (entities and
literal values as nodes, facts as edges), prizes nodes through their node facts and edges
through their own scores, solves a Prize-Collecting Steiner Tree (engine/stages/retrieve/pcst.py) and returns
the connected subgraph, bridging nodes included, capped at `subgraph_cap` facts.

Prizes: rank-based (the best 3 nodes and k edges get k-i, as in the literature) for scores
that are not probabilities (BM25, cosine); for the learned scorer, relevance-based prizes that
adapt per turn (engine.stages.retrieve.pcst.adaptive_prizes: rank-based when every probability is low, a cut
relative to the turn's best fact so both parts of a compound question count, the best few
always able to enter; the settings are chosen on the dev splits and stored in the model file).
On a focused turn (one question, about an entity it names or points at) the best few enter only
when they score within `gate` of the turn's best fact: when one fact stands far ahead, the tree
is that fact and what connects it, not four weak ones beside it (a fact going on from the best
fact's value, or one of the asked type when the best is not, may still enter). A node the turn did not name is
worth no more than the best fact reaching it; a derived count ("the group has 4 members") shares its
prize with the facts it counts, so a tree that states the count names them too. A list question then gets every candidate value of
the relation its best fact gives (`with_all_values`); a question that asks for a record in other
words ("What does she do for a living?") gets that record of its entities (`with_records`).
Entities the turn names that no fact joins are each kept.
The facts on the relation paths the question asks for (the route stage) get the turn's top
prize and lead the selection (`with_paths`): the chain from the named entity to the answer. What
is known of the meeting being arranged leads it too on a turn that confirms, amends or asks about
it (`meeting_facts`), without a prize.
A type request ("which rooms are available?") is answered by what the rules derive about each
entity of the asked type: on a turn where the relevance model finds every fact unlikely, those
facts, of the relation of the best-scored one, get the turn's top prize too, so that every answer
is kept or the cap says it cut them (`request_answers`).
When the cap cuts the tree, the selection says how many facts it left out (`Selection.note`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from engine.context import TurnContext, stage
from engine.events import Retrieved
from engine.focus import focused
from engine.nlp.answer_type import (
    asked_records,
    asks_list,
    asks_record,
    is_record,
    recorded,
)
from engine.nlp.sentences import TYPE_PREDICATES, is_node_fact, predicate_key
from engine.relations import content_stems, stem
from engine.stages.retrieve import pcst
from engine.stages.retrieve.topk import top_k
from engine.state import Candidate, TurnState

NODE_PRIZES_K = 3


@dataclass
class Selection:
    facts: list[Candidate] = field(default_factory=list)  # edges, then node facts, best first
    nodes: list[str] = field(default_factory=list)  # IRIs and literal values
    bridging: list[str] = field(default_factory=list)
    note: str = ""  # what the size cap left out



# A node of the PCST graph: an IRI, or a literal value kept apart from any IRI spelled the same.
Node = str | tuple[str, str]


def _node(value: str, literal: bool) -> Node:
    return ("lit", value) if literal else value


def _name(node: Node) -> str:
    return node[1] if isinstance(node, tuple) else node


def split(candidates: list[Candidate]) -> tuple[list[Candidate], dict[str, Candidate]]:
    edges = [c for c in candidates if not is_node_fact(c.fact)]
    nodes = {c.fact.s: c for c in candidates if is_node_fact(c.fact)}
    return edges, nodes


def select_topk(candidates: list[Candidate], k: int) -> Selection:
    edges, node_facts = split(candidates)
    best = top_k(edges, k)
    nodes: dict[str, None] = {}
    for c in best:
        nodes.setdefault(c.fact.s, None)
        nodes.setdefault(c.fact.o, None)
    return Selection(best, list(nodes), [])


def select_pcst(candidates: list[Candidate], k: int, cap: int, prizes: dict | None = None,
                focus: bool = False, records_asked: bool = False, on_paths: frozenset | set = frozenset()) -> Selection:
    """`prizes` None: rank-based; else {"threshold", "scale", "ratio", "top", "gate"} for
    relevance-based prizes, the gate applying on a `focus`ed turn only, name records entering on
    their own score only unless `records_asked` (answer_type.asks_record). The edges whose keys
    are `on_paths` (the relation paths the question asks for) get the turn's top prize."""
    edges, node_facts = split(candidates)
    if not edges and not node_facts:
        return Selection()
    if not edges:  # no fact joins them: each entity the turn names is its own tree
        named = sorted((c for c in node_facts.values() if c.hop == 0), key=lambda c: -c.score)[:cap]
        if named:
            return Selection(list(named), [c.fact.s for c in named], [])
    node_ids = list(node_facts)
    if prizes is None:
        node_p = pcst.rank_prizes([node_facts[i].score for i in node_ids], NODE_PRIZES_K)
        edge_p = pcst.rank_prizes([c.score for c in edges], k)
    else:
        t, s = float(prizes["threshold"]), float(prizes["scale"])
        ratio, top = float(prizes.get("ratio", 1.0)), int(prizes.get("top", 0))
        gate = float(prizes.get("gate", 0.0)) if focus else 0.0
        node_p = pcst.adaptive_prizes([node_facts[i].score for i in node_ids], t, s, NODE_PRIZES_K, ratio)
        # Name records (given name, sex or gender, described by source) get no free entry unless
        # the question asks about one: a person with few facts would otherwise have them in the
        # tree whatever they score.
        barred = [] if records_asked else [not c.derived and is_record(c.p_label, predicate_key(c.fact.p))
                                           for c in edges]
        edge_p = pcst.adaptive_prizes([c.score for c in edges], t, s, k, ratio, top, gate=gate, no_entry=barred,
                                      ungated=_past_the_gate(edges) if gate and edges else ())
    if on_paths:
        best = max(edge_p, default=0.0) or 1.0
        edge_p = [best if c.fact.key in on_paths else p for c, p in zip(edges, edge_p, strict=False)]
    if prizes is not None:
        edge_p = _with_counted(edges, edge_p)
        node_p = _capped_by_edges(node_ids, node_facts, node_p, edges, edge_p)
    node_prizes: dict[Node, float] = {i: p for i, p in zip(node_ids, node_p, strict=False) if p > 0}
    graph = [(_node(c.fact.s, False), _node(c.fact.o, c.fact.o_literal), p) for c, p in zip(edges, edge_p, strict=False)]
    sub = pcst.solve(node_prizes, graph)
    found = len(sub.edges)
    sub = pcst.cap_subgraph(sub, graph, cap, node_prizes)
    chosen = sorted((edges[i] for i in sub.edges), key=lambda c: -c.score)
    degree: dict[Node, int] = {}
    for i in sub.edges:
        for end in {graph[i][0], graph[i][1]}:
            degree[end] = degree.get(end, 0) + 1
    # Bridging: no prize of its own, yet inside the tree (it joins two or more chosen facts).
    bridging = [_name(n) for n in sub.nodes if node_prizes.get(n, 0.0) <= 0 and degree.get(n, 0) >= 2]
    kept_nodes = [_name(n) for n in sub.nodes]
    facts_of_nodes = sorted((node_facts[n] for n in sub.nodes if isinstance(n, str) and n in node_facts),
                            key=lambda c: -c.score)
    return Selection(chosen + facts_of_nodes, kept_nodes, bridging, _cut_note(cap, found))


def _cut_note(cap: int, found: int) -> str:
    return f"the retrieved subgraph kept {cap} of its {found} facts (--subgraph-cap)" if found > cap else ""


def _past_the_gate(edges: list[Candidate]) -> list[bool]:
    """The facts the gate lets by however far behind the best one they score: those that go on
    from the best fact's value ("Where should I go to watch them?": the club's stadium, then the
    stadium's city), and, when the best fact's value is not of the type the question asks for,
    those whose value is ("In what year was it created?" with "founded by" ahead of "founded on").
    On a KG the model never saw, these are the answers it most often scores far below the best."""
    lead = max(edges, key=lambda c: c.score)
    typed = lead.features.get("atype_match", 0.0) > 0
    return [(c is not lead and not lead.fact.o_literal and c.fact.s == lead.fact.o)
            or (not typed and c.features.get("atype_match", 0.0) > 0) for c in edges]


# "the Biology group has 4 members": the number, and the noun after it that says what it counts
_COUNT = re.compile(r"\b(\d+)\s+([^\W\d_]{3,})")


def _with_counted(edges: list[Candidate], edge_p: list[float]) -> list[float]:
    """A derived count ("the Biology group has 4 members") shares its prize with the facts it
    counts: the candidate edges at its entity of the relation its noun names ("member of"), no
    more of them than the number. What a count is asked for is answered, or followed up ("Their
    names?", "Can I have their e-mails?"), by naming them, which the relevance model scores far
    below the count itself."""
    out = list(edge_p)
    for c, p in zip(edges, edge_p, strict=False):
        if p <= 0 or not c.derived or not c.fact.o_literal:
            continue
        m = _COUNT.search(c.text)
        if not m or m.group(1) != c.fact.o.strip():
            continue
        noun, n, at = stem(m.group(2)), int(m.group(1)), c.fact.s
        counted = [i for i, e in enumerate(edges) if not e.derived and noun in content_stems(e.p_label)
                   and (e.fact.s == at or (not e.fact.o_literal and e.fact.o == at))]
        if 0 < len(counted) <= n:
            for i in counted:
                out[i] = max(out[i], p)
    return out


def _capped_by_edges(node_ids: list[str], node_facts: dict[str, Candidate], node_p: list[float],
                     edges: list[Candidate], edge_p: list[float]) -> list[float]:
    """A node the turn did not name, nor ask for by type, is worth no more than the best fact
    that reaches it: a well-scored value node ("male", "Wikipedia") must not pull its low-scored
    edge ("sex or gender", "described by source") into the tree."""
    reach: dict[str, float] = {}
    for c, p in zip(edges, edge_p, strict=False):
        for end in (c.fact.s, None if c.fact.o_literal else c.fact.o):
            if end:
                reach[end] = max(reach.get(end, 0.0), p)
    out = []
    for iri, p in zip(node_ids, node_p, strict=False):
        c = node_facts[iri]
        own = c.hop == 0 or c.features.get("type_match", 0.0) > 0
        out.append(p if own else min(p, reach.get(iri, 0.0)))
    return out


def with_all_values(sel: Selection, candidates: list[Candidate], anchors: set[str], cap: int) -> Selection:
    """A list question ("What films has she been in?", "Who else is going?") wants every value of
    the relation its best fact gives about an entity of the turn, not the few that scored best:
    the candidate edges of that relation at that entity join the tree (connected through it), as
    far as the cap allows."""
    best = next((c for c in sel.facts if not is_node_fact(c.fact)), None)
    if best is None:
        return sel
    f = best.fact
    at_subject = f.s in anchors
    if not at_subject and (f.o_literal or f.o not in anchors):
        return sel
    have = {id(c) for c in sel.facts}
    more = [c for c in candidates if id(c) not in have and not is_node_fact(c.fact) and c.fact.p == f.p
            and (c.fact.s == f.s if at_subject else (c.fact.o == f.o and not c.fact.o_literal))]
    return _joined(sel, sorted(more, key=lambda c: -c.score), cap, ahead=False)


def with_records(sel: Selection, candidates: list[Candidate], anchors: set[str], records: set[str],
                 cap: int) -> Selection:
    """The turn's entities' records of the kinds the question asks for in other words ("What does
    she do for a living?": her occupations), which the relevance model scores as name noise."""
    have = {id(c) for c in sel.facts}
    more = [c for c in candidates if id(c) not in have and not is_node_fact(c.fact) and not c.derived
            and c.fact.s in anchors and recorded(c.p_label, predicate_key(c.fact.p)) in records]
    return _joined(sel, more, cap, ahead=True)


def with_members_values(sel: Selection, candidates: list[Candidate], anchors: set[str], said: AbstractSet[str],
                        cap: int) -> Selection:
    """A relation the turn names asked of a group it names ("the e-mail addresses of the
    acoustics people", "their phone numbers" of a group) is asked of each of its members: where
    the tree holds that relation's value for one entity joined to the group, the values of every
    entity joined to it the same way join the tree, as far as the cap allows."""
    edges = [c for c in candidates if not is_node_fact(c.fact) and not c.derived]
    joined: dict[tuple[str, str], set[str]] = {}  # (group, relation) -> the entities it joins
    for c in edges:
        if not c.fact.o_literal and c.fact.o in anchors and c.fact.s not in anchors:
            joined.setdefault((c.fact.o, c.fact.p), set()).add(c.fact.s)
    groups = [members for members in joined.values() if len(members) > 1]
    have = {id(c) for c in sel.facts}
    more: list[Candidate] = []
    for c in sel.facts:
        f = c.fact
        if is_node_fact(f) or not f.o_literal or c.derived or not content_stems(c.p_label) & said:
            continue
        for members in groups:
            if f.s in members:
                more += [o for o in edges if id(o) not in have and o.fact.p == f.p and o.fact.s in members
                         and id(o) not in {id(m) for m in more}]
    return _joined(sel, more, cap, ahead=False) if more else sel


def _joined(sel: Selection, more: list[Candidate], cap: int, ahead: bool) -> Selection:
    """`sel` with as many of the edges `more` as the cap allows, and their ends; the joined edges
    go ahead of its own (`ahead`) or among them by score."""
    room = max(0, cap - len(sel.facts))
    note = sel.note or _cut_note(cap, len(sel.facts) + len(more))
    more = more[:room]
    if not more:
        return Selection(sel.facts, sel.nodes, sel.bridging, note)
    own = [c for c in sel.facts if not is_node_fact(c.fact)]
    edges = more + own if ahead else sorted(own + more, key=lambda c: -c.score)
    nodes = list(dict.fromkeys(sel.nodes + [v for c in more for v in (c.fact.s, c.fact.o)]))
    return Selection(edges + [c for c in sel.facts if is_node_fact(c.fact)], nodes, sel.bridging, note)


def path_facts(state: TurnState) -> list[Candidate]:
    """The candidates on the turn's relation paths, path by path, each chain from its start."""
    by_key = {c.fact.key: c for c in state.candidates if not is_node_fact(c.fact)}
    out: dict[tuple, Candidate] = {}
    for path in state.paths:
        for chain in path.chains:
            for f in chain:
                if f.key in by_key:
                    out.setdefault(f.key, by_key[f.key])
    return list(out.values())


def with_paths(sel: Selection, on_paths: list[Candidate], cap: int) -> Selection:
    """The path facts first (as many as the cap allows), then the rest of the selection: the
    subgraph shows the chain from the named entity to the answer whatever the prizes gave."""
    if not on_paths:
        return sel
    keys = {c.fact.key for c in on_paths}
    own = [c for c in sel.facts if not is_node_fact(c.fact) and c.fact.key not in keys]
    lead = on_paths[:cap]
    edges = lead + own[:max(0, cap - len(lead))]
    nodes = list(dict.fromkeys([v for c in lead for v in (c.fact.s, c.fact.o)] + sel.nodes))
    note = sel.note or _cut_note(cap, len(on_paths) + len(own))
    return Selection(edges + [c for c in sel.facts if is_node_fact(c.fact)], nodes, sel.bridging, note)


def request_answers(state: TurnState, threshold: float, candidates: list[Candidate] | None = None) -> list[Candidate]:
    """What the rules derived about the entities of the types the turn asks for ("which rooms
    are available?": each room's availability), of the relation of the best-scored one: the
    answers of the request, on a turn where every fact scores under `threshold`. There the
    relevance model scores them one by one and far apart (one room's fact ahead, the others behind
    facts of no use); where it is sure, its scores tell the answers from the rest (the meeting
    rooms from somebody's office) better than the request does."""
    candidates = state.candidates if candidates is None else candidates
    asked = {str(m.value) for m in state.mentions if m.kind == "type" and m.value} | set(state.wanted_types)
    if not asked or max((c.score for c in candidates if not is_node_fact(c.fact)), default=1.0) >= threshold:
        return []
    members = {c.fact.s for c in candidates if c.fact.p in TYPE_PREDICATES and c.fact.o in asked}
    answers = [c for c in candidates if c.derived and c.fact.s in members and not is_node_fact(c.fact)]
    if not answers:
        return []
    if state.wanted_types:  # the rooms of a meeting being timed: which are free and which taken, by what
        return answers
    lead = max(answers, key=lambda c: c.score).fact.p
    out = [c for c in answers if c.fact.p == lead]
    if state.meeting:
        # The options of a meeting being arranged: each of the asked type gets its answer, the free
        # ones and, for the others, what the rules say of them instead ("Cedar is taken by ...").
        covered = {c.fact.s for c in out}
        for c in sorted(answers, key=lambda c: -c.score):
            if c.fact.s not in covered:
                covered.add(c.fact.s)
                out.append(c)
    return out


def meeting_facts(state: TurnState) -> list[Candidate]:
    """On a turn that confirms, amends or asks about the meeting being arranged, what is known of
    it: the reply restates the meeting so far (its time, room, invitees and their groups), which
    the relevance model, reading the turn's few words ("Yes, that's right."), does not ask for."""
    if not state.about_meeting:
        return []
    return [c for c in state.candidates if c.fact.key in state.meeting_facts]


def with_nodes(sel: Selection, nodes: list[Candidate]) -> Selection:
    """`sel` with the entities of the node facts `nodes` ("Natalie Lloyd is a person"), each once."""
    have = {c.fact.key for c in sel.facts}
    more = [c for c in nodes if c.fact.key not in have]
    if not more:
        return sel
    return Selection(sel.facts + more, list(dict.fromkeys(sel.nodes + [c.fact.s for c in more])), sel.bridging,
                     sel.note)


def prize_settings(scorer: str, ctx: TurnContext) -> dict | None:
    if scorer in ("learned", "llm"):
        from engine.nlp.relevance import model_for

        return model_for(ctx).prizes
    return None


def select(state: TurnState, retriever: str, k: int, cap: int, prizes: dict | None) -> Selection:
    """The turn's scored candidates to the facts it keeps; what the question is like (focused,
    asking about a name record) is read from the turn itself."""
    # On a turn about the meeting, its facts join the tree after it is solved, and the tree is
    # solved without them: scored with the rest, or taken as a relation path from the meeting,
    # the turn's few words ("I need to arrange a meeting: which rooms are free?") put them far
    # ahead, and the tree would be theirs alone.
    meeting = meeting_facts(state)
    joined = {c.fact.key for c in meeting}
    on_paths = [c for c in path_facts(state) if c.fact.key not in joined]
    # "Invite one member of the Engineering group": the people of that group are what the reply
    # chooses from, ahead of the paths from the group (its events) and the meeting's restatement.
    invitable = [c for c in meeting if c.fact.key in state.invitable_facts]
    restated = [c for c in meeting if not is_node_fact(c.fact) and c.fact.key not in state.invitable_facts]
    lead = invitable + on_paths + restated
    named = [c for c in meeting if is_node_fact(c.fact)]
    if retriever == "topk":
        return with_nodes(with_paths(select_topk(state.candidates, k), lead, max(k, len(lead))), named)
    rest = [c for c in state.candidates if c.fact.key not in joined]
    # While a meeting is being arranged, a request for a type ("which rooms are free then?") asks
    # for the meeting's options, each one of them, however sure the relevance model is of a few;
    # so does one at a time it names ("any meeting room available tomorrow morning?"), which is
    # how a meeting's arrangement often begins.
    options = state.meeting or any(m.kind == "time" for m in state.mentions)
    threshold = math.inf if options else float(prizes["threshold"]) if prizes is not None else None
    answers = request_answers(state, threshold, rest) if threshold is not None else []
    top = {c.fact.key for c in on_paths} | {c.fact.key for c in answers}
    sel = select_pcst(rest, k, cap, prizes, focused(state), asks_record(state.text), top)
    anchors = {m.entity for m in state.mentions if m.entity}
    if asks_list(state.text):
        sel = with_all_values(sel, state.candidates, anchors, cap)
    records = asked_records(state.text)
    if records:
        sel = with_records(sel, state.candidates, anchors, records, cap)
    # "e-mail" names the relation "email" too
    said = content_stems(state.text) | content_stems(state.text.replace("-", ""))
    sel = with_members_values(sel, state.candidates, anchors, said, cap)
    # The options asked for go ahead of the meeting's facts: its restatement is what the cap cuts first.
    sel = with_nodes(with_paths(sel, invitable + on_paths + answers + restated, cap), named)
    return with_answers_note(sel, invitable + answers)


def with_answers_note(sel: Selection, answers: list[Candidate]) -> Selection:
    """`sel`, saying how many of the answers of the request the cap left out, if it left any."""
    kept = {c.fact.key for c in sel.facts}
    missing = [c for c in answers if c.fact.key not in kept]
    if not missing:
        return sel
    note = (f"the subgraph cap (--subgraph-cap) kept {len(answers) - len(missing)} of the {len(answers)} "
            f"answers the request asked for")
    return Selection(sel.facts, sel.nodes, sel.bridging, "; ".join(n for n in (sel.note, note) if n))


def _report(state: TurnState) -> dict:
    return {"facts": [c.text for c in state.retrieved], "nodes": state.subgraph_nodes,
            "bridging": state.bridging_nodes, "note": state.retrieved_note}


@stage("retrieve", report=_report)
def run(state: TurnState, ctx: TurnContext) -> None:
    state.retrieved, state.subgraph_nodes, state.bridging_nodes, state.retrieved_note = [], [], [], ""
    if state.candidates:
        cfg = ctx.config
        prizes = prize_settings(cfg.scorer, ctx) if cfg.retriever == "pcst" else None
        sel = select(state, cfg.retriever, cfg.k, cfg.subgraph_cap, prizes)
        state.retrieved, state.subgraph_nodes, state.bridging_nodes = sel.facts, sel.nodes, sel.bridging
        state.retrieved_note = sel.note
    ctx.emit(Retrieved())
