"""Reliability of the relevance model's probabilities, per domain.

A calibrated model's facts of predicted probability p are relevant a share p of the time, in
every domain; the table puts the candidates of each domain's replayed turns into probability
bins and gives, per bin, how many there are, their mean prediction and the share relevant, plus
the expected calibration error (the bins' |mean prediction - share relevant|, weighted by size).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import numpy as np

BINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def reliability(turns: list, predict: Callable[[np.ndarray], np.ndarray]) -> dict[str, dict]:
    """{domain: {"bins": [[lo, hi, n, mean_p, share_relevant], ...], "ece": float, "n": int}} over
    the turns (ReplayedTurn with `.domain`; office when it has none)."""
    from harness.retrieval import labels

    ps, ys = defaultdict(list), defaultdict(list)
    for t in turns:
        if len(t.X):
            d = getattr(t, "domain", "office")
            ps[d].append(np.asarray(predict(t.X), dtype=np.float64))
            ys[d].append(labels(t.state.candidates, t.gold))
    out: dict[str, dict] = {}
    for d in ps:
        p, y = np.concatenate(ps[d]), np.concatenate(ys[d])
        which = np.clip(np.digitize(p, BINS[1:-1]), 0, len(BINS) - 2)
        bins, ece = [], 0.0
        for b in range(len(BINS) - 1):
            sel = which == b
            n = int(sel.sum())
            if n:
                mean_p, share = float(p[sel].mean()), float(y[sel].mean())
                ece += n * abs(mean_p - share)
                bins.append([BINS[b], BINS[b + 1], n, round(mean_p, 4), round(share, 4)])
        out[d] = {"bins": bins, "ece": round(ece / len(p), 4), "n": int(len(p))}
    return out


def table(result: dict[str, dict]) -> str:
    """The reliability of each domain as text: one line per bin."""
    lines = []
    for d, r in result.items():
        lines.append(f"{d}: {r['n']} candidates, expected calibration error {r['ece']:.3f}")
        lines.append(f"  {'p bin':<11} {'n':>7} {'mean p':>7} {'relevant':>8}")
        for lo, hi, n, mean_p, share in r["bins"]:
            lines.append(f"  {lo:.1f}–{hi:.1f}     {n:>7} {mean_p:>7.3f} {share:>8.3f}")
    return "\n".join(lines)
