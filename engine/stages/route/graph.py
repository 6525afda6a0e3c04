"""The facts around the turn's entities as a graph the path search walks, and the relation
signatures found on it: one and two steps from a start entity (`enumerate_paths`), and one step
more from chosen two-step paths (`extend`), each edge followed forwards or backwards."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from engine.state import Candidate


@dataclass
class Graph:
    """The facts around the turn's entities, indexed both ways, with their labels."""

    out: dict[str, list[Candidate]] = field(default_factory=dict)
    into: dict[str, list[Candidate]] = field(default_factory=dict)

    def add(self, c: Candidate) -> None:
        self.out.setdefault(c.fact.s, []).append(c)
        if not c.fact.o_literal:
            self.into.setdefault(c.fact.o, []).append(c)

    def steps(self, node: str) -> Iterable[tuple[Candidate, bool]]:
        for c in self.out.get(node, ()):
            yield c, True
        for c in self.into.get(node, ()):
            yield c, False


def build_graph(candidates: Iterable[Candidate], usable: Callable[[Candidate], bool]) -> Graph:
    g = Graph()
    seen: set[tuple] = set()
    for c in candidates:
        if c.fact.key not in seen and usable(c):
            seen.add(c.fact.key)
            g.add(c)
    return g


Signature = tuple[tuple[str, bool], ...]  # ((predicate, forward), ...)


@dataclass
class Found:
    """One relation signature from a start entity, with its value chains."""

    start: str
    signature: Signature
    labels: list[str]
    chains: list[list[Candidate]] = field(default_factory=list)

    def add(self, chain: list[Candidate]) -> None:
        self.chains.append(chain)


def end_of(chain: list[Candidate], start: str) -> str:
    node = start
    for c in chain:
        node = c.fact.o if c.fact.s == node else c.fact.s
    return node


def enumerate_paths(graph: Graph, start: str, hops: int = 2, max_paths: int = 300,
                    first_order: Callable[[str], float] | None = None) -> tuple[list[Found], bool]:
    """Every signature of one and (`hops` 2) two steps from `start`; True when `max_paths` cut
    the search (the second steps of the first relations that read least like the question go
    first, by `first_order`)."""
    found: dict[Signature, Found] = {}
    for c, fwd in graph.steps(start):
        sig: Signature = ((c.fact.p, fwd),)
        found.setdefault(sig, Found(start, sig, [c.p_label])).add([c])
    firsts = sorted(found.values(), key=lambda f: -(first_order(f.labels[0]) if first_order else 0.0))
    cut = len(found) > max_paths
    if hops < 2 or cut:
        return list(found.values())[:max_paths], cut
    for first in firsts:
        for chain in [ch[0] for ch in first.chains]:
            mid = end_of([chain], start)
            if chain.fact.o_literal and mid == chain.fact.o:
                continue  # a literal is a value, never a way on
            for c, fwd in graph.steps(mid):
                if c is chain or end_of([c], mid) == start:
                    continue  # straight back to the start
                sig = first.signature + ((c.fact.p, fwd),)
                if sig not in found:
                    if len(found) >= max_paths:
                        return list(found.values()), True
                    found[sig] = Found(start, sig, first.labels + [c.p_label])
                found[sig].add([chain, c])
    return list(found.values()), False

def extend(graph: Graph, prefixes: list[Found], max_paths: int) -> tuple[list[Found], bool]:
    """The signatures one step longer than `prefixes` (taken in the order given): never on from
    a literal and never back to a node the chain has passed; True when `max_paths` cut them."""
    found: dict[Signature, Found] = {}
    for prefix in prefixes:
        for chain in prefix.chains:
            passed = [prefix.start] + [end_of(chain[:k], prefix.start) for k in range(1, len(chain) + 1)]
            end = passed[-1]
            if chain[-1].fact.o_literal and end == chain[-1].fact.o:
                continue
            for c, fwd in graph.steps(end):
                if end_of([c], end) in passed:
                    continue
                sig = prefix.signature + ((c.fact.p, fwd),)
                if sig not in found:
                    if len(found) >= max_paths:
                        return list(found.values()), True
                    found[sig] = Found(prefix.start, sig, prefix.labels + [c.p_label])
                found[sig].add([*chain, c])
    return list(found.values()), False


@dataclass
class Read:
    """Facts of some entities read from the background into a path graph: the facts, how many of
    the entities were read before the time ran out (all of them when it did not), and why the
    background stopped answering ("" when it did not)."""

    facts: list[Candidate]
    done: int
    failed: str = ""


def read_into(graph: Graph, nodes: Sequence[str], background, usable: Callable[[Candidate], bool], cap: int,
              hop: int, over: Callable[[], bool]) -> Read:
    """The facts of `nodes` the graph lacks, up to `cap` a node, read from the background as
    candidates of `hop`, verbalized, and the usable ones added to the graph; stops when `over()`
    says the time is spent, or when a remote background stops answering."""
    from engine.nlp.sentences import verbalize
    from kgstore.errors import RemoteUnavailable

    known = {c.fact.key for cs in graph.out.values() for c in cs}
    fetched: list[Candidate] = []
    done, failed = len(nodes), ""
    for i, node in enumerate(nodes):
        if over():
            done = i
            break
        try:
            facts = background.facts_about(node, cap=cap)
        except RemoteUnavailable as exc:
            done, failed = i, str(exc)
            break
        for f in facts:
            if f.key not in known:
                known.add(f.key)
                fetched.append(Candidate(fact=f, hop=hop))
    if fetched:
        verbalize(fetched, background)
        for c in fetched:
            if usable(c):
                graph.add(c)
    return Read(fetched, done, failed)
