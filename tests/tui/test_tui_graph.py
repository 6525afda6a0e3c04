"""The subgraph picture and tree, from a hand-made TurnState (no app, no engine run)."""

from __future__ import annotations

import io
from datetime import datetime

from rich.console import Console

from engine.state import Candidate, Mention, TurnState
from kgstore.terms import Fact
from tui.widgets.graph import HIGH, LOW, MID, draw_subgraph, graph_parts, relevance_colour, tree_rows


def _state() -> TurnState:
    mark, eng, ada, review = "urn:x:mark", "urn:x:eng", "urn:x:ada", "urn:x:review"
    c = [
        Candidate(Fact(mark, "urn:x:phone", "+47 1", o_literal=True), "Mark", "phone", "+47 1", score=0.9),
        Candidate(Fact(mark, "urn:x:member", eng), "Mark", "member of", "Engineering", score=0.6),
        Candidate(Fact(ada, "urn:x:member", eng), "Ada", "member of", "Engineering", score=0.2),
        Candidate(Fact(mark, "urn:x:attends", review), "Mark", "attends", "Review", derived=True, p=0.8, score=0.5),
        Candidate(Fact(ada, "urn:x:attends", review), "Ada", "attends", "Review", score=0.1),
    ]
    s = TurnState(session_id="s", turn=1, text="Mark?", now=datetime(2024, 5, 6, 10))
    s.mentions = [Mention("Mark", 0, 4, "name", entity=mark, label="Mark", p=0.9)]
    s.candidates = s.retrieved = c
    s.subgraph_nodes = [mark, eng, ada, review, "urn:x:bridge", "+47 1"]
    s.bridging_nodes = ["urn:x:bridge"]
    return s


def _text(renderable) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_parts_mark_linked_bridging_and_literal_nodes():
    nodes, edges = graph_parts(_state(), {"urn:x:bridge": "Hub"})
    assert nodes["urn:x:mark"]["kind"] == "linked"
    assert nodes["urn:x:bridge"] == {"label": "Hub", "score": 0.0, "kind": "bridging"}
    assert sum(n["kind"] == "literal" for n in nodes.values()) == 1  # the phone, not also the bare value
    assert len(edges) == 5 and sum(e[4] for e in edges) == 1


def test_picture_is_a_forest_from_the_linked_entity_with_cycles_listed():
    text = _text(draw_subgraph(_state(), {"urn:x:bridge": "Hub"}))
    lines = text.splitlines()
    assert lines[0].strip() == "Mark"  # the linked entity is the first root
    assert "phone ──▶ +47 1" in text
    assert "═ attends p=0.80 ══▶" in text  # derived edge with its probability
    assert "◇ Hub" in text  # bridging node
    # Mark–Engineering–Ada–Review–Mark is a cycle: one edge of it is listed apart.
    assert "◀── member of ─  Ada" in text  # an edge walked against its direction points back
    assert "also" in text and text.count("▶") + text.count("◀") == 5  # every edge drawn once


def test_tree_and_colours():
    rows = tree_rows(_state(), {})
    assert [label for _, label, _ in rows] == ["Mark", "Ada"]
    assert relevance_colour(0.9) == HIGH and relevance_colour(0.5) == MID and relevance_colour(0.1) == LOW
    assert relevance_colour(8.0, scale=9.0) == HIGH and relevance_colour(1.0, scale=9.0) == LOW


def test_no_subgraph_says_so():
    empty = TurnState(session_id="s", turn=1, text="hi", now=datetime(2024, 5, 6))
    assert "No subgraph" in _text(draw_subgraph(empty, {}))


def test_a_name_fact_scores_its_node_and_is_not_drawn_as_an_edge():
    from kgstore.vocab import RDFS_LABEL

    s = _state()
    s.retrieved = s.retrieved + [Candidate(Fact("urn:x:eng", RDFS_LABEL, "Engineering", o_literal=True),
                                           "Engineering", "label", "Engineering", score=0.95)]
    nodes, edges = graph_parts(s, {})
    assert len(edges) == 5 and nodes["urn:x:eng"]["score"] == 0.95
    assert "label" not in _text(draw_subgraph(s, {}))
    assert all("label" not in str(line) for _, _, lines in tree_rows(s, {}) for line, _ in lines)
