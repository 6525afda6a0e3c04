"""The facts of one dialogue's world with their IRIs, and the gold relevance annotation over them.

The annotation procedure (docs/design.md, "Generated benchmarks"), applied per user turn:
- an entity mentioned together with a relation to a second entity or attribute → that edge and
  its two nodes (`Gold.edge_of`);
- an entity mentioned alone → all its edges and their nodes (`Gold.entity`);
- a request for a type of entity → all objects of that type and their immediate
  neighbourhoods (`Gold.type_request`).
Edges are the office predicates only (internals.md "Office KG"); `rdf:type` and labels are not
edges here because the retriever verbalizes them as node facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.office.world import World, hhmm
from kgstore.vocab import office_entity, office_predicate

Edge = tuple[str, str, str]


def xsd_time(minutes: int) -> str:
    """An event time as the GraphWOZ importer writes it (xsd:time lexical form)."""
    return hhmm(minutes) + ":00"


class WorldFacts:
    """The triples the GraphWOZ importer makes from a world, keyed by IRI, for one dialogue id."""

    def __init__(self, world: World, dialogue_id: str):
        self.world = world
        self.dialogue_id = dialogue_id
        self.edges: list[Edge] = []
        P = office_predicate
        for p in world.people:
            s = self.person(p.id)
            self.edges += [(s, P("email"), p.email), (s, P("phone"), p.phone),
                           (s, P("member_of"), self.group(p.group)), (s, P("office"), self.room(p.office))]
        for e in world.events:
            s = self.event(e.id)
            self.edges += [(s, P("date"), e.date.isoformat()), (s, P("start_time"), xsd_time(e.start)),
                           (s, P("end_time"), xsd_time(e.end)), (s, P("location"), self.room(e.location)),
                           (s, P("organizer"), self.person(e.organizer))]
            self.edges += [(s, P("attendee"), self.person(a)) for a in e.attendees]
            self.edges.append((s, P("group"), self.group(e.group)))
        self._touching: dict[str, list[Edge]] = {}
        for edge in self.edges:
            self._touching.setdefault(edge[0], []).append(edge)
            if edge[2] != edge[0]:
                self._touching.setdefault(edge[2], []).append(edge)

    def person(self, pid: str) -> str:
        return office_entity(self.dialogue_id, "person", pid)

    def event(self, eid: str) -> str:
        return office_entity(self.dialogue_id, "event", eid)

    def room(self, name: str) -> str:
        return office_entity(self.dialogue_id, "room", name)

    def group(self, name: str) -> str:
        return office_entity(self.dialogue_id, "group", name)

    def touching(self, iri: str) -> list[Edge]:
        """Every edge with `iri` as subject or object (its immediate neighbourhood)."""
        return self._touching.get(iri, [])


@dataclass
class Gold:
    """The relevant nodes and edges of one user turn, built by the annotation procedure."""

    facts: WorldFacts
    nodes: dict[str, None] = field(default_factory=dict)
    edges: dict[Edge, None] = field(default_factory=dict)

    def node(self, iri: str) -> Gold:
        self.nodes.setdefault(iri, None)
        return self

    def add_edge(self, edge: Edge) -> Gold:
        self.edges.setdefault(edge, None)
        self.node(edge[0]).node(edge[2])
        return self

    def entity(self, iri: str) -> Gold:
        """An entity mentioned alone: all its edges and their nodes."""
        self.node(iri)
        for edge in self.facts.touching(iri):
            self.add_edge(edge)
        return self

    def edge_of(self, iri: str, predicate: str, other: str | None = None) -> Gold:
        """An entity mentioned with a relation: the edge(s) of `predicate` touching it (only the
        one to `other` when given) and their two nodes."""
        self.node(iri)
        p = office_predicate(predicate)
        for edge in self.facts.touching(iri):
            if edge[1] == p and (other is None or other in (edge[0], edge[2])):
                self.add_edge(edge)
        return self

    def type_request(self, iris: list[str]) -> Gold:
        """A request for a type of entity: every object of it and its immediate neighbourhood."""
        for iri in iris:
            self.entity(iri)
        return self

    def as_json(self) -> dict:
        return {"nodes": list(self.nodes), "edges": [list(e) for e in self.edges]}
