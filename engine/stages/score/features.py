"""Relevance features of verbalized candidate facts (one row per candidate, in the order of
engine.nlp.relevance.FEATURES).

The learned model reads the MODEL_INPUTS columns; the baselines read one column each (BM25:
`bm25_rewrite`, SBERT: `cos_1`). The ONNX file records the feature names it was trained on (and
picks its inputs out of them), and the scorer refuses a model whose names differ.
"""

from __future__ import annotations

import re

import numpy as np

from engine.focus import linked_now
from engine.nlp.answer_type import mask
from engine.nlp.relevance import FEATURES
from engine.nlp.sentences import TYPE_PREDICATES, is_node_fact
from engine.stages.score.bm25 import Bm25
from engine.state import Candidate, TurnState

# Embedding is the one per-turn cost that grows with the candidates, so only the facts near the
# linked entities are embedded (hop <= 1, derived), at most EMBED_CAP of them, best BM25 first;
# farther facts are there to bridge, and their cosines stay 0. The rule is the same in training.
EMBED_HOPS = 1
EMBED_CAP = 256

_TOKEN = re.compile(r"\w+", re.UNICODE)
_STOP = frozenset("a an the is are was were be of to in on at for and or what who whom whose which when "
                  "where how do does did i you me my your it its this that can could would will please "
                  "s 's".split())


def tokens(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text.casefold()) if t not in _STOP]


def bm25_scores(docs: list[str], *queries: str) -> list[np.ndarray]:
    """BM25 (Okapi) of each doc against each query, the docs being this turn's candidates (their
    words and document frequencies read once for all the queries)."""
    if not docs:
        return [np.zeros(0) for _ in queries]
    asked = [tokens(q) for q in queries]
    if not any(asked):
        return [np.zeros(len(docs)) for _ in queries]
    index = Bm25([tokens(d) or ["\u2205"] for d in docs])
    return [index.scores(q) if q else np.zeros(len(docs)) for q in asked]


def turn_windows(state: TurnState) -> list[str]:
    """The last 1, 2 and 3 turns as texts (the current user turn as rewritten)."""
    current = state.rewritten or state.text
    earlier = [t for _, t in state.history]
    return [" ".join(earlier[len(earlier) - n + 1:] + [current]) if n > 1 else current for n in (1, 2, 3)]


def _scaled(x: np.ndarray) -> np.ndarray:
    top = float(x.max()) if x.size else 0.0
    return x / top if top > 0 else np.zeros_like(x)


def near_indices(candidates: list[Candidate], bm25: np.ndarray | None = None) -> list[int]:
    """The candidates that get embedded: derived and hop <= EMBED_HOPS, at most EMBED_CAP, by
    hop then BM25 (then candidate order)."""
    near = [i for i, c in enumerate(candidates) if c.derived or c.hop <= EMBED_HOPS]
    if len(near) <= EMBED_CAP:
        return near
    key = (lambda i: (candidates[i].hop, -bm25[i], i)) if bm25 is not None else (lambda i: (candidates[i].hop, i))
    return sorted(near, key=key)[:EMBED_CAP]


def near_texts(candidates: list[Candidate], names: list[str] | None = None) -> list[str]:
    """The texts a turn with these candidates would embed (the cap's BM25 order aside): each near
    fact as it reads and with `names` masked."""
    near = [candidates[i].text for i in near_indices(candidates)]
    return near + [mask(t, names) for t in near] if names else near


def _entity_labels(candidates: list[Candidate]) -> dict[str, str]:
    out: dict[str, str] = {}
    for c in candidates:
        out.setdefault(c.fact.s, c.s_label)
        if not c.fact.o_literal:
            out.setdefault(c.fact.o, c.o_label)
    return out


def _names(state: TurnState, entities, labels: dict[str, str], kinds: set[str]) -> list[str]:
    """The labels of the entities and the names the user said for them (heard with errors, maybe),
    but for classes: "league" in "In which league does X play?" says what is asked, like a
    relation's words, and is kept for comparing the question with the relations."""
    names = [labels.get(e, "") for e in entities if e not in kinds]
    names += [m.text for m in state.mentions if m.entity and m.kind == "name" and m.entity not in kinds]
    return [n for n in names if n]


def _rank_score(values: np.ndarray) -> np.ndarray:
    """1 for the best value, 1/2 for the second ... (ties share a rank)."""
    distinct = np.unique(values)[::-1]
    rank = {v: i for i, v in enumerate(distinct.tolist())}
    return np.array([1.0 / (1 + rank[v]) for v in values.tolist()])


def compute(state: TurnState, candidates: list[Candidate], encoder, previous: dict[str, float],
            now: dict[str, float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The feature matrix (n, len(FEATURES)) and the raw BM25 of the rewritten turn (for the
    BM25 baseline); fills `Candidate.features`."""
    from engine.nlp.answer_type import (
        asked_types,
        is_name_noise,
        persons,
        question_parts,
        value_type,
    )
    from engine.nlp.sentences import predicate_key, relation_phrase

    n = len(candidates)
    if n == 0:
        return np.zeros((0, len(FEATURES)), dtype=np.float32), np.zeros(0)
    now = linked_now(state) if now is None else now
    topic = now or previous  # a turn that names nothing goes on about the previous turn's entities
    labels = _entity_labels(candidates)
    kinds = {c.fact.o for c in candidates if c.fact.p in TYPE_PREDICATES}
    fact_names = _names(state, topic, labels, kinds)
    window_names = _names(state, {**previous, **now}, labels, kinds)
    texts = [c.text for c in candidates]
    windows = turn_windows(state)
    masked_windows = [mask(w, window_names) for w in windows]
    parts = question_parts(masked_windows[0])
    parts = [masked_windows[0]] + (parts if len(parts) > 1 else [])
    p_labels = sorted({c.p_label for c in candidates})
    # A template's words say what a terse label does not ("inception": "was founded on"); a
    # relation fits a clause as well as the better of the two.
    phrases = sorted({(c.p_label, phrase) for c in candidates if not c.derived
                      and (phrase := relation_phrase(predicate_key(c.fact.p)))})
    raw_rewrite, raw_turn = bm25_scores(texts, windows[0], state.text)
    masked_texts = [mask(t, fact_names) for t in texts]
    (masked_bm25,) = bm25_scores(masked_texts, masked_windows[0])
    near = near_indices(candidates, raw_rewrite)
    m = len(near)
    queries = windows + masked_windows[1:] + parts
    emb = encoder.encode([texts[i] for i in near] + [masked_texts[i] for i in near] + queries + p_labels
                         + [phrase for _, phrase in phrases])
    fact_emb, masked_emb = emb[:m], emb[m:2 * m]
    q = emb[2 * m:2 * m + len(queries)]
    win, mwin, part_emb = q[:3], q[3:5], q[5:]
    pred = emb[2 * m + len(queries):2 * m + len(queries) + len(p_labels)]
    phrase_emb = emb[2 * m + len(queries) + len(p_labels):]
    cos = np.zeros((n, 3), dtype=np.float32)
    mcos = np.zeros((n, 3), dtype=np.float32)
    if m:
        cos[near] = fact_emb @ win.T
        mcos[near, 0] = (masked_emb @ part_emb.T).max(axis=1)
        mcos[near, 1:] = masked_emb @ mwin.T
    # Per clause: how well each relation label fits it, and its rank among the turn's relations,
    # so that each part of a compound question has its own best relation.
    by_part = pred @ part_emb.T  # (labels, parts)
    label_row = {lab: i for i, lab in enumerate(p_labels)}
    for (label, _), e in zip(phrases, phrase_emb, strict=False):
        by_part[label_row[label]] = np.maximum(by_part[label_row[label]], e @ part_emb.T)
    edge_mask = np.array([not is_node_fact(c.fact) for c in candidates])
    edge_labels = sorted({c.p_label for c, e in zip(candidates, edge_mask, strict=False) if e})
    rank = np.zeros(len(p_labels))
    if edge_labels:
        rows = [label_row[lab] for lab in edge_labels]
        ranks = np.stack([_rank_score(by_part[rows, j]) for j in range(by_part.shape[1])], axis=1).max(axis=1)
        rank[rows] = ranks
    best_label = by_part.max(axis=1)
    cos_pred = np.array([best_label[label_row[c.p_label]] for c in candidates])
    best_pred = float(cos_pred[edge_mask].max()) if edge_mask.any() else 0.0
    requested = {str(m.value) for m in state.mentions if m.kind == "type" and m.value}
    members = {c.fact.s for c in candidates if c.fact.p in TYPE_PREDICATES and c.fact.o in requested}
    asked = asked_types(masked_windows[0])
    people = persons(candidates)
    classes = {c.fact.s: c.o_label for c in candidates if c.fact.p in TYPE_PREDICATES}

    X = np.zeros((n, len(FEATURES)), dtype=np.float32)
    col = {f: i for i, f in enumerate(FEATURES)}
    X[:, 0:3] = cos
    X[:, 3] = cos.mean(axis=1)  # 0 for facts not embedded
    X[:, col["bm25_turn"]] = _scaled(raw_turn)
    X[:, col["bm25_rewrite"]] = _scaled(raw_rewrite)
    X[:, col["mcos_1"]:col["mcos_3"] + 1] = mcos
    X[:, col["mcos_pred"]] = cos_pred
    X[:, col["mcos_pred_gap"]] = np.where(edge_mask, cos_pred - best_pred, 0.0)
    X[:, col["mcos_pred_rank"]] = [rank[label_row[c.p_label]] if e else 0.0 for c, e in zip(candidates, edge_mask, strict=False)]
    X[:, col["mbm25"]] = _scaled(masked_bm25)
    X[:, col["asks_type"]] = 1.0 if asked else 0.0
    for i, c in enumerate(candidates):
        s, o = c.fact.s, (None if c.fact.o_literal else c.fact.o)
        node = not edge_mask[i]
        if not node:
            value = value_type(c, bool(o and o in topic and s not in topic), people, classes)
            X[i, col["atype_match"]] = 1.0 if value and value in asked else 0.0
            X[i, col["atype_clash"]] = 1.0 if value and asked and value not in asked else 0.0
            X[i, col["name_noise"]] = 1.0 if not c.derived and is_name_noise(
                c.p_label, predicate_key(c.fact.p), masked_windows[0]) else 0.0
        X[i, col["salience_now"]] = max(now.get(s, 0.0), now.get(o, 0.0) if o and not node else 0.0)
        X[i, col["salience_prev"]] = max(previous.get(s, 0.0), previous.get(o, 0.0) if o and not node else 0.0)
        X[i, col["salience_both"]] = 0.0 if node or not o else min(now.get(s, 0.0), now.get(o, 0.0))
        X[i, col["derived_p"]] = c.p if c.derived else 0.0
        X[i, col["is_derived"]] = 1.0 if c.derived else 0.0
        X[i, col["hop"]] = float(c.hop)
        X[i, col["is_node"]] = 1.0 if node else 0.0
        X[i, col["type_match"]] = 1.0 if (s in members or (o in members if o else False)) else 0.0
    X[near, col["embedded"]] = 1.0
    for c, row in zip(candidates, X.tolist(), strict=True):
        c.features = dict(zip(FEATURES, [round(v, 4) for v in row], strict=False))
    return X, raw_rewrite
def compute_for(state: TurnState, ctx) -> tuple[np.ndarray, np.ndarray]:
    from engine.nlp.encoder import encoder_for

    previous = state.focus.previous(state.turn)
    return compute(state, state.candidates, encoder_for(ctx), previous)
