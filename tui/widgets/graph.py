"""The retrieved subgraph as a node-link picture (a spanning forest of chips and arrows) and as a Tree."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text

from engine.inert import inert
from engine.state import Candidate, TurnState
from kgstore.vocab import LABEL_PREDICATES

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
    text = inert(text)
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
        if c.fact.p in LABEL_PREDICATES:  # a node's own name fact scores the node, it is no edge
            nodes[c.fact.s]["score"] = max(nodes[c.fact.s]["score"], c.score)
            continue
        target = _literal_node(c) if c.fact.o_literal else c.fact.o
        node(target, c.o_label or c.fact.o, "literal" if c.fact.o_literal else "entity")
        for end in (c.fact.s, target):
            nodes[end]["score"] = max(nodes[end]["score"], c.score)
        edges.append((c.fact.s, target, c.p_label or c.fact.p, c.score, c.derived, c.p))
    literals = {c.fact.o for c in state.retrieved if c.fact.o_literal}
    for iri in state.subgraph_nodes:
        if iri not in nodes and iri not in literals:
            node(iri, labels.get(iri, ""))
    return nodes, edges


def draw_subgraph(state: TurnState, labels: dict[str, str]) -> RenderableType:
    """The picture, laid out as a spanning forest from the entities linked in this turn (so it
    reads top-down in a narrow pane): nodes are coloured chips (relevance; bold = linked, grey ◇ =
    bridging node with no score of its own, italic = a literal value), edges carry their relation,
    ═ marks an edge a rule derived. Edges that close a cycle are listed under the forest."""
    nodes, edges = graph_parts(state, labels)
    if not nodes:
        return Text("No subgraph for this turn.", style="dim italic")
    scale = score_scale(state)
    adjacency: dict[str, list[tuple[str, int]]] = {n: [] for n in nodes}
    for i, (u, v, *_rest) in enumerate(edges):
        adjacency[u].append((v, i))
        adjacency[v].append((u, i))
    for n in adjacency:  # strongest edges first under each node
        adjacency[n].sort(key=lambda item: -edges[item[1]][3])
    kind_rank = {"linked": 0, "entity": 1, "bridging": 2, "literal": 3}
    roots = sorted(nodes, key=lambda n: (kind_rank[nodes[n]["kind"]], -nodes[n]["score"], nodes[n]["label"]))

    def chip(n: str) -> Text:
        info = nodes[n]
        kind = info["kind"]
        if kind == "literal":
            return Text(short(info["label"], 32), style=Style(color=relevance_colour(info["score"], scale), italic=True))
        if kind == "bridging":
            return Text(f" ◇ {short(info['label'], 28)} ", style=Style(color="#d0d0d0", bgcolor="#4e4e4e", italic=True))
        colour = relevance_colour(info["score"], scale)
        return Text(f" {short(info['label'], 30)} ", style=Style(color="#000000", bgcolor=colour, bold=kind == "linked"))

    def arrow(i: int, forward: bool) -> Text:
        _u, _v, label, score, derived, p = edges[i]
        colour = DERIVED if derived else relevance_colour(score, scale)
        line = "═" if derived else "─"
        name = short(label, 22) + (f" p={p:.2f}" if derived else "")
        if forward:
            return Text.assemble((f"{line} ", colour), (name, Style(color=colour, italic=True)), (f" {line}{line}▶ ", colour))
        return Text.assemble((f"◀{line}{line} ", colour), (name, Style(color=colour, italic=True)), (f" {line} ", colour))

    out = Text(no_wrap=True, overflow="ignore")
    seen: set[str] = set()
    used: set[int] = set()

    def walk(n: str, prefix: str) -> None:
        children = []
        for m, i in adjacency[n]:
            if m not in seen and i not in used:
                seen.add(m)
                used.add(i)
                children.append((m, i))
        for k, (m, i) in enumerate(children):
            last = k == len(children) - 1
            out.append(prefix + ("└" if last else "├"), style="dim")
            out.append_text(arrow(i, edges[i][0] == n))
            out.append_text(chip(m))
            out.append("\n")
            walk(m, prefix + ("  " if last else "│ "))

    for root in roots:
        if root in seen:
            continue
        seen.add(root)
        if out:
            out.append("\n")
        out.append_text(chip(root))
        out.append("\n")
        walk(root, "")
    rest = [i for i in range(len(edges)) if i not in used]
    if rest:
        out.append("\nalso\n", style="dim")
        for i in rest:
            u, v = edges[i][0], edges[i][1]
            out.append("  ")
            out.append_text(chip(u))
            out.append(" ")
            out.append_text(arrow(i, True))
            out.append_text(chip(v))
            out.append("\n")
    out.rstrip()
    return out


def legend() -> Text:
    return Text.assemble(
        ("  ", f"on {HIGH}"), ("  ", f"on {MID}"), ("  ", f"on {LOW}"), " relevance  ", ("bold", "bold"), " linked  ",
        ("◇", BRIDGE), " bridging  ", ("═", DERIVED), " derived")


def tree_rows(state: TurnState, labels: dict[str, str]) -> list[tuple[str, str, list[tuple[Text, Candidate]]]]:
    """Per subject entity: (iri, label, [(edge line, candidate)]), best-scored entities first."""
    scale = score_scale(state)
    groups: dict[str, list[Candidate]] = {}
    for c in state.retrieved:
        if c.fact.p not in LABEL_PREDICATES:
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
