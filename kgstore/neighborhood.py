"""The capped k-hop neighbourhood walk, shared by the embedded store and the SPARQL backend.

Each entity of a hop's frontier gets an equal share of the facts still allowed; its facts are
read lazily (or with a LIMIT) and stopped at that share, so one entity with 50,000 neighbours
costs no more than its share: the cost follows the neighbourhood, not the size of the KG.
Entities cut at their share get another pass at what the smaller ones left over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kgstore.terms import Fact, Neighborhood
from kgstore.vocab import ALIAS_PREDICATES, LABEL_PREDICATES, RDF_TYPE, WDT

# Facts a neighbourhood leaves out: names are what labels are for, not facts to retrieve.
NAME_PREDICATES = frozenset(LABEL_PREDICATES + ALIAS_PREDICATES)
# The walk does not go on through these objects: a class ("human", "Person") links every
# instance of it, which is never the neighbourhood of one entity.
NO_EXPAND = frozenset((RDF_TYPE, WDT + "P31", WDT + "P279"))

Edges = Callable[[str, int], Iterable[Fact]]  # (entity, how many are likely wanted) -> its facts, lazily


def collect(seeds: Iterable[str], hops: int, cap: int, edges: Edges, label: Callable[[str], str],
            prefetch: Callable[[list[str], int], None] | None = None) -> Neighborhood:
    nb = Neighborhood(seeds=list(dict.fromkeys(seeds)))
    seen = set(nb.seeds)
    frontier = list(nb.seeds)
    for hop in range(1, hops + 1):
        next_frontier: list[str] = []
        pending = frontier
        while pending:
            if prefetch is not None:
                prefetch(pending, max((cap - len(nb.facts)) // len(pending), 1))
            cut = []
            for i, node in enumerate(pending):
                room = cap - len(nb.facts)
                if room <= 0:
                    cut.extend(pending[i:])
                    break
                share = max(room // (len(pending) - i), 1)
                if _expand(node, hop, share, edges, nb, seen, next_frontier):
                    cut.append(node)
            if cut and len(nb.facts) >= cap:
                nb.capped = True
                nb.cap_reason = (f"capped at {cap} facts at hop {hop}: {len(cut)} entities have more, "
                                 f"e.g. {label(cut[0])}")
                return _ordered(nb)
            pending = cut
        frontier = next_frontier
        if not frontier:
            break
    return _ordered(nb)


def _ordered(nb: Neighborhood) -> Neighborhood:
    """Facts by hop, then by term: the same facts come out in the same order from every
    backend, so ties downstream (scores, the Steiner tree) break the same way."""
    nb.facts.sort(key=lambda f: (nb.hop[f.key], f.s, f.p, f.o))
    return nb


def _expand(node: str, hop: int, share: int, edges: Edges, nb: Neighborhood, seen: set[str],
            frontier: list[str]) -> bool:
    """Add up to `share` new facts of one entity; True when it had more."""
    added = 0
    for fact in edges(node, share + 1):
        if fact.key in nb.hop:
            continue
        if added >= share:
            return True
        nb.facts.append(fact)
        nb.hop[fact.key] = hop
        added += 1
        other = fact.o if fact.s == node else fact.s
        if not fact.o_literal and other not in seen and not (other == fact.o and fact.p in NO_EXPAND):
            seen.add(other)
            frontier.append(other)
    return False
