"""Relevance features of verbalized candidate facts (one row per candidate, FEATURES order).

The learned model reads exactly these columns; the baselines read one of them (BM25: `bm25_rewrite`
unnormalized, SBERT: `cos_1`). The ONNX file records the feature names it was trained on, and
the scorer refuses a model whose names differ.
"""

from __future__ import annotations

import re

import numpy as np

from engine.stages.candidates import TYPE_PREDICATES, focus_of, is_node_fact, linked_now
from engine.state import Candidate, TurnState

FEATURES = (
    "cos_1", "cos_2", "cos_3", "cos_mean",  # MiniLM cosine to the last 1, 2, 3 turns and their mean
    "cos_pred", "cos_pred_gap",  # the relation's label against the turn, and its gap to the best relation
    "bm25_turn", "bm25_rewrite",  # BM25 against the user turn and its rewrite, scaled to the turn's best
    "salience_now", "salience_prev", "salience_both",  # refers_to p of the fact's entities, this/last turn
    "derived_p", "is_derived", "hop", "is_node", "type_match",
    "embedded",  # 1 when the fact was embedded this turn (the cosines are 0 otherwise)
)
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


def bm25_scores(docs: list[str], query: str) -> np.ndarray:
    """BM25 (Okapi) of each doc against the query, the docs being this turn's candidates."""
    if not docs:
        return np.zeros(0)
    q = tokens(query)
    corpus = [tokens(d) or ["\u2205"] for d in docs]
    if not q:
        return np.zeros(len(docs))
    from rank_bm25 import BM25Okapi

    return np.asarray(BM25Okapi(corpus).get_scores(q), dtype=np.float64)


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


def near_texts(candidates: list[Candidate]) -> list[str]:
    """The texts a turn with these candidates would embed (the cap's BM25 order aside)."""
    return [candidates[i].text for i in near_indices(candidates)]


def compute(state: TurnState, candidates: list[Candidate], encoder, previous: dict[str, float],
            now: dict[str, float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The feature matrix (n, len(FEATURES)) and the raw BM25 of the rewritten turn (for the
    BM25 baseline); fills `Candidate.features`."""
    n = len(candidates)
    if n == 0:
        return np.zeros((0, len(FEATURES)), dtype=np.float32), np.zeros(0)
    now = linked_now(state) if now is None else now
    texts = [c.text for c in candidates]
    windows = turn_windows(state)
    p_labels = sorted({c.p_label for c in candidates})
    raw_rewrite = bm25_scores(texts, windows[0])
    raw_turn = raw_rewrite if windows[0] == state.text else bm25_scores(texts, state.text)
    near = near_indices(candidates, raw_rewrite)
    emb = encoder.encode([texts[i] for i in near] + windows + p_labels)
    m = len(near)
    win, pred = emb[m:m + 3], emb[m + 3:]
    cos = np.zeros((n, 3), dtype=np.float32)
    if m:
        cos[near] = emb[:m] @ win.T
    pred_cos_by_label = dict(zip(p_labels, (pred @ win[0]).tolist()))
    cos_pred = np.array([pred_cos_by_label[c.p_label] for c in candidates])
    edge_mask = np.array([not is_node_fact(c.fact) for c in candidates])
    best_pred = float(cos_pred[edge_mask].max()) if edge_mask.any() else 0.0
    requested = {str(m.value) for m in state.mentions if m.kind == "type" and m.value}
    members = {c.fact.s for c in candidates if c.fact.p in TYPE_PREDICATES and c.fact.o in requested}

    X = np.zeros((n, len(FEATURES)), dtype=np.float32)
    X[:, 0:3] = cos
    X[:, 3] = cos.mean(axis=1)  # 0 for facts not embedded
    X[:, 4] = cos_pred
    X[:, 5] = np.where(edge_mask, cos_pred - best_pred, 0.0)
    X[:, 6] = _scaled(raw_turn)
    X[:, 7] = _scaled(raw_rewrite)
    for i, c in enumerate(candidates):
        s, o = c.fact.s, (None if c.fact.o_literal else c.fact.o)
        node = not edge_mask[i]
        X[i, 8] = max(now.get(s, 0.0), now.get(o, 0.0) if o and not node else 0.0)
        X[i, 9] = max(previous.get(s, 0.0), previous.get(o, 0.0) if o and not node else 0.0)
        X[i, 10] = 0.0 if node or not o else min(now.get(s, 0.0), now.get(o, 0.0))
        X[i, 11] = c.p if c.derived else 0.0
        X[i, 12] = 1.0 if c.derived else 0.0
        X[i, 13] = float(c.hop)
        X[i, 14] = 1.0 if node else 0.0
        X[i, 15] = 1.0 if (s in members or (o in members if o else False)) else 0.0
    X[near, 16] = 1.0
    for i, c in enumerate(candidates):
        c.features = dict(zip(FEATURES, (round(float(v), 4) for v in X[i])))
    return X, raw_rewrite


def compute_for(state: TurnState, ctx) -> tuple[np.ndarray, np.ndarray]:
    from engine.stages.score.encoder import encoder_for

    previous = focus_of(ctx, state.session_id).previous(state.turn)
    return compute(state, state.candidates, encoder_for(ctx), previous)
