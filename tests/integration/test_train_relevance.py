"""Training the relevance model (harness/train_relevance.py) on synthetic replayed turns."""

from __future__ import annotations

from datetime import datetime

import numpy as np

from engine.nlp.relevance import FEATURES, MODEL_INPUTS
from engine.state import Candidate, TurnState
from harness import train_relevance as tr
from harness.retrieval import ReplayedTurn
from kgstore.terms import Fact

SIGNAL = {"a": FEATURES.index(MODEL_INPUTS[0]), "b": FEATURES.index(MODEL_INPUTS[1]),
          "c": FEATURES.index(MODEL_INPUTS[1])}


def _turns(domain: str, split: str, n: int, rng: np.random.Generator) -> list[ReplayedTurn]:
    """Turns of 20 candidates each whose relevant ones show in the domain's own feature column,
    the other domains' column staying 0."""
    out = []
    for i in range(n):
        X = rng.normal(size=(20, len(FEATURES))).astype(np.float32)
        X[:, [col for d, col in SIGNAL.items() if col != SIGNAL[domain]]] = 0.0
        cands = [Candidate(fact=Fact(f"urn:{domain}{i}", "urn:p", f"urn:o{j}")) for j in range(20)]
        gold = {"edges": [c.fact.key for c, x in zip(cands, X, strict=False) if x[SIGNAL[domain]] > 1.0]}
        t = ReplayedTurn(f"{domain}-{split}-{i}", 1, TurnState("s", 1, "?", datetime(2026, 1, 1)), gold, X)
        t.state.candidates = cands
        t.domain = domain
        out.append(t)
    return out


def test_prizes_are_chosen_on_probabilities_of_domains_the_net_did_not_learn():
    # Domain a shows relevance in a column that b and c do not: the net fitted on all three
    # knows it, a net fitted without a does not, and the prize search must see the latter.
    rng = np.random.default_rng(0)
    train = [t for d in "abc" for t in _turns(d, "train", 40, rng)]
    dev = [t for d in "abc" for t in _turns(d, "dev", 15, rng)]
    net = tr.train_net(*tr.rows(train)[:3], (8,), 0, 80)
    tr.calibrate(net, *tr.dev_rows(dev)[:3])
    scored = tr._Scored(net, dev, train, (8,), 0, 80)

    def separation(predict, domain):
        on = [t for t in dev if t.domain == domain]
        p = np.concatenate([predict(t.X) for t in on])
        y = np.concatenate([tr.labels(t.state.candidates, t.gold) for t in on])
        return p[y == 1].mean() - p[y == 0].mean()

    assert separation(net.predict, "a") > 0.3
    assert separation(scored.predict, "a") < 0.1
    # b and c teach each other: either one's held-out net still finds its relevant facts.
    assert separation(scored.predict, "b") > 0.1
