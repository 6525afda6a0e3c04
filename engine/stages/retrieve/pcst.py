"""Prize-Collecting Steiner Tree over a candidate graph, edges turned into virtual nodes.

Each edge becomes a virtual node carrying the edge's own prize, joined to its two endpoints by
half-edges of cost C/2, so the solver can take an edge for its relevance (and not only as a
path between prized nodes). `pcst_fast` solves it unrooted, one cluster, `gw` pruning; the
tree maps back to the real nodes and edges it touches, which is a connected subgraph that may
hold bridging nodes of no prize of their own.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

# A node: whatever the caller names them with (retrieve: an IRI, or a literal's tagged value).
N = TypeVar("N", bound=Hashable)


@dataclass
class Subgraph(Generic[N]):
    nodes: list[N]
    edges: list[int]  # indices into the edge list given to `solve`


def solve(node_prizes: Mapping[N, float], edges: Sequence[tuple[N, N, float]],
          edge_cost: float = 1.0, costs: Sequence[float] | None = None) -> Subgraph[N]:
    """The PCST over nodes (with prizes; a node absent from the dict has none) and edges
    `(u, v, prize)` with cost `edge_cost` each (or `costs[i]`), split in halves."""
    from pcst_fast import pcst_fast

    index: dict[N, int] = {}
    names: list[N] = []

    def idx(node: N) -> int:
        if node not in index:
            index[node] = len(names)
            names.append(node)
        return index[node]

    for u, v, _ in edges:
        idx(u)
        idx(v)
    for node in node_prizes:
        idx(node)
    n = len(names)
    if n == 0 or (max(node_prizes.values(), default=0.0) <= 0 and max((e[2] for e in edges), default=0.0) <= 0):
        return Subgraph([], [])
    prizes = np.zeros(n + len(edges), dtype=np.float64)
    for node, prize in node_prizes.items():
        prizes[index[node]] = max(0.0, float(prize))
    pairs = np.zeros((2 * len(edges), 2), dtype=np.int64)
    half = np.zeros(2 * len(edges), dtype=np.float64)
    for i, (u, v, prize) in enumerate(edges):
        prizes[n + i] = max(0.0, float(prize))
        c = (costs[i] if costs is not None else edge_cost) / 2.0
        pairs[2 * i] = (index[u], n + i)
        pairs[2 * i + 1] = (n + i, index[v])
        half[2 * i] = half[2 * i + 1] = c
    if len(edges) == 0:
        # No edges: the best single node is the whole tree.
        best = max(node_prizes, key=lambda k: node_prizes[k])
        return Subgraph([best], [])
    vertices, _ = pcst_fast(pairs, prizes, half, -1, 1, "gw", 0)
    chosen_edges = sorted(int(v) - n for v in vertices if v >= n)
    nodes: dict[N, None] = {}
    for v in vertices:
        if v < n:
            nodes.setdefault(names[int(v)], None)
    # A virtual node hanging on one half-edge still stands for the whole fact: keep both ends.
    for e in chosen_edges:
        nodes.setdefault(edges[e][0], None)
        nodes.setdefault(edges[e][1], None)
    return Subgraph(list(nodes), chosen_edges)


def cap_subgraph(sub: Subgraph[N], edges: Sequence[tuple[N, N, float]], cap: int,
                 node_prizes: Mapping[N, float] | None = None) -> Subgraph[N]:
    """Shrink to at most `cap` edges, keeping it connected: drop the cheapest edge that hangs
    off a leaf (or closes a cycle) until it fits, and the leaf node with it unless it has a prize
    of its own that another edge still holds."""
    if len(sub.edges) <= cap:
        return sub
    prizes = node_prizes or {}
    kept = list(sub.edges)
    while len(kept) > cap:
        degree: dict[N, int] = {}
        for e in kept:
            u, v, _ = edges[e]
            degree[u] = degree.get(u, 0) + 1
            if v != u:
                degree[v] = degree.get(v, 0) + 1
        removable = [e for e in kept if degree[edges[e][0]] == 1 or degree[edges[e][1]] == 1
                     or edges[e][0] == edges[e][1]]
        if not removable:  # only cycles left: any edge of a cycle keeps it connected
            removable = kept
        drop = min(removable, key=lambda e: (edges[e][2], -e))
        kept.remove(drop)
    touched: dict[N, None] = {}
    for e in kept:
        touched.setdefault(edges[e][0], None)
        touched.setdefault(edges[e][1], None)
    nodes = [n for n in sub.nodes if n in touched] if kept else (
        [max(sub.nodes, key=lambda k: prizes.get(k, 0.0))] if sub.nodes else [])
    return Subgraph(nodes, sorted(kept))


def rank_prizes(scores: Sequence[float], k: int) -> list[float]:
    """Rank-based prizes as in the literature: the best k get k, k-1, ..., 1; the rest 0."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    prizes = [0.0] * len(scores)
    for rank, i in enumerate(order[:k]):
        prizes[i] = float(k - rank)
    return prizes


def relevance_prizes(scores: Sequence[float], threshold: float, scale: float) -> list[float]:
    """Relevance-based prizes for calibrated scores: scale × score above the threshold, else 0."""
    return [scale * s if s >= threshold else 0.0 for s in scores]


def adaptive_prizes(scores: Sequence[float], threshold: float, scale: float, k: int, ratio: float = 1.0,
                    top: int = 0, entry: float = 1.0, gate: float = 0.0,
                    no_entry: Sequence[bool] = (), ungated: Sequence[bool] = ()) -> list[float]:
    """Prizes for calibrated scores that adapt to the turn, so the tree never misses the facts
    top-k would keep for want of a prize:

    - every score under the threshold (a KG the model finds hard): rank-based prizes among the
      candidates not marked `no_entry`, the best k get k, k-1, ..., 1;
    - else scale × score for the scores at or above min(threshold, ratio × best), so a second
      part of the question that scores lower than the first still gets a prize;
    - and the best `top` always get at least `entry`, the cost of one edge, so they can enter,
      unless they score under `gate` × best (a turn whose best fact is far ahead of the rest) and
      are not marked `ungated`, or are marked `no_entry` (name records: they enter on their own
      score or not at all)."""
    if not len(scores):
        return []
    best = max(scores)
    barred = {i for i, b in enumerate(no_entry) if b}
    if best < threshold:
        ranked = rank_prizes([-1.0 if i in barred else s for i, s in enumerate(scores)], k)
        return [0.0 if i in barred else p for i, p in enumerate(ranked)]
    cut = min(threshold, ratio * best)
    prizes = [scale * s if s >= cut else 0.0 for s in scores]
    for i in sorted((i for i in range(len(scores)) if i not in barred), key=lambda i: -scores[i])[:top]:
        if scores[i] >= gate * best or (ungated and ungated[i]):
            prizes[i] = max(prizes[i], entry)
    return prizes
