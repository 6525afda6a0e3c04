"""The retrieved subgraph as a node-link picture (netext layout) and as a Tree."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text

from engine.state import Candidate, TurnState

# Relevance colours, best first; the thresholds split a [0, 1] score into thirds.
HIGH, MID, LOW = "#5fd75f", "#d7af00", "#d75f5f"
DERIVED = "#d75fd7"
BRIDGE = "#8a8a8a"


def relevance_colour(score: float, scale: float = 1.0) -> str:
    """Colour of a score; `scale` is the turn's best score when the scorer is not a probability
    (BM25), so colours always mean "relative to the best fact of this turn"."""
    x = score / scale if scale > 1.0 else score
    return HIGH if x >= 2 / 3 else MID if x >= 1 / 3 else LOW


def score_scale(state: TurnState) -> float:
    return max((c.score for c in state.candidates or state.retrieved), default=1.0)


def short(text: str, width: int = 24) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _literal_node(c: Candidate) -> str:
    # Literals are drawn as their own nodes; two facts with the same value stay apart.
    return f"literal:{c.fact.s}|{c.fact.p}|{c.fact.o}"


def graph_parts(state: TurnState, labels: dict[str, str]) -> tuple[dict[str, dict[str, Any]], list[tuple]]:
    """Nodes (id -> label, score, kind) and edges (u, v, label, score, derived) of the subgraph."""
    nodes: dict[str, dict[str, Any]] = {}
    linked = set(state.linked_entities)
    bridging = set(state.bridging_nodes)

    def node(iri: str, label: str, kind: str = "entity") -> None:
        info = nodes.setdefault(iri, {"label": label or labels.get(iri) or iri, "score": 0.0, "kind": kind})
        if iri in bridging:
            info["kind"] = "bridging"
        elif iri in linked:
            info["kind"] = "linked"

    edges = []
    for c in state.retrieved:
        node(c.fact.s, c.s_label)
        target = _literal_node(c) if c.fact.o_literal else c.fact.o
        node(target, c.o_label or c.fact.o, "literal" if c.fact.o_literal else "entity")
        for end in (c.fact.s, target):
            nodes[end]["score"] = max(nodes[end]["score"], c.score)
        edges.append((c.fact.s, target, c.p_label or c.fact.p, c.score, c.derived, c.p))
    for iri in state.subgraph_nodes:
        node(iri, labels.get(iri, ""))
    return nodes, edges


def draw_subgraph(state: TurnState, labels: dict[str, str]) -> RenderableType:
    """The picture: node colour = relevance, bold = linked in this turn, grey ◇ = bridging node
    with no score of its own, magenta double edge = derived by a rule."""
    nodes, edges = graph_parts(state, labels)
    if not nodes:
        return Text("No subgraph for this turn.", style="dim italic")
    from netext import ArrowTip, ConsoleGraph, EdgeRoutingMode, EdgeSegmentDrawingMode

    def render_label(_node: str, data: dict[str, Any], _style: Style) -> RenderableType:
        return data["$text"]

    scale = score_scale(state)
    graph_nodes = {}
    for iri, info in nodes.items():
        kind = info["kind"]
        colour = BRIDGE if kind == "bridging" else relevance_colour(info["score"], scale)
        label = ("◇ " if kind == "bridging" else "") + short(info["label"])
        text = Text(label, style=Style(color=colour, bold=kind == "linked",
                                       italic=kind in ("bridging", "literal")))
        graph_nodes[iri] = {"$text": text, "$content-renderer": render_label,
                            "$style": Style(color=colour, dim=kind == "bridging")}
    graph_edges = []
    for u, v, label, score, derived, p in edges:
        if u == v:
            continue
        colour = DERIVED if derived else relevance_colour(score, scale)
        text = short(label, 18) + (f" p={p:.2f}" if derived else f" {score:.2f}")
        graph_edges.append((u, v, {
            "$label": text,
            "$style": Style(color=colour, bold=colour == HIGH),
            "$end-arrow-tip": ArrowTip.ARROW,
            "$edge-routing-mode": EdgeRoutingMode.ORTHOGONAL,
            "$edge-segment-drawing-mode": EdgeSegmentDrawingMode.BOX_DOUBLE if derived
            else EdgeSegmentDrawingMode.BOX_ROUNDED,
        }))
    return ConsoleGraph(graph_nodes, graph_edges)


def legend() -> Text:
    return Text.assemble(
        ("■", HIGH), " high  ", ("■", MID), " mid  ", ("■", LOW), " low relevance   ",
        ("bold", "bold"), " linked  ", ("◇ bridging", BRIDGE), "  ", ("═ derived", DERIVED))


def tree_rows(state: TurnState, labels: dict[str, str]) -> list[tuple[str, str, list[tuple[Text, Candidate]]]]:
    """Per subject entity: (iri, label, [(edge line, candidate)]), best-scored entities first."""
    scale = score_scale(state)
    groups: dict[str, list[Candidate]] = {}
    for c in state.retrieved:
        groups.setdefault(c.fact.s, []).append(c)
    rows = []
    for s, facts in sorted(groups.items(), key=lambda kv: -max(c.score for c in kv[1])):
        lines = []
        for c in sorted(facts, key=lambda c: -c.score):
            line = Text.assemble(
                (c.p_label or c.fact.p, "italic"), " → ", c.o_label or c.fact.o, "  ",
                (f"{c.score:.2f}", relevance_colour(c.score, scale)))
            if c.derived:
                line.append(f"  derived p={c.p:.2f}", style=DERIVED)
            lines.append((line, c))
        rows.append((s, facts[0].s_label or labels.get(s, s), lines))
    return rows
