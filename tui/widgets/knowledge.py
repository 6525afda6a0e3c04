"""The knowledge pane: what the current turn retrieved, inferred and checked."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.containers import HorizontalScroll, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Collapsible, DataTable, Markdown, Static, TabbedContent, TabPane, Tree

from engine.inert import inert
from engine.state import AnswerSource, Check, TurnState
from tui.live import TurnView
from tui.widgets.graph import DERIVED, draw_subgraph, legend, relevance_colour, score_scale, tree_rows

VERDICT = {"supported": ("✓", "green"), "contradicted": ("✗", "red"), "nei": ("?", "yellow")}


def verdict_mark(verdict: str) -> Text:
    mark, colour = VERDICT.get(verdict, ("·", "white"))
    return Text(mark, style=f"bold {colour}")


def score_text(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def replies_markdown(s: TurnState) -> str:
    """The replies of the turn besides the checked one: the refinement, and when kgchat showed
    its own answer instead, that answer's checks and the model's reply it replaced."""
    parts = []
    composed = s.composed
    if composed and composed.source == AnswerSource.FACTS:
        marks = " ".join(f"{VERDICT[v][0]} {n}" for v in VERDICT
                         if (n := sum(c.verdict == v for c in composed.checks)))
        parts.append(f"**Shown: kgchat's answer composed from the knowledge graph** ({composed.reason})."
                     + (f" Its claims: {marks}." if marks else ""))
    elif composed and composed.source == AnswerSource.NOT_FOUND:
        parts.append("**Shown: nothing found** — no entity of the question is in the knowledge graph; "
                     "the model was not asked.")
    if composed and s.response:
        parts.append(f"**The model's reply (not shown):** {s.response}")
    refined = s.refined.response if s.refined else ""
    if refined:
        parts.append(f"**Refined reply{' (not shown)' if composed else ''}:** {refined}")
    return "\n\n".join(parts)


def path_lines(s: TurnState, labels: dict[str, str]) -> list[Text]:
    """The relation paths the question asks for, each as its chain from the named entity (the
    middle entity said when there is one), its values counted, and what cut the search."""
    out = []
    for path in s.paths:
        line = Text.assemble(("path ", "bold"), path.start_label)
        one = path.chains[0] if len(path.chains) == 1 else None
        for i, step in enumerate(path.steps):
            line.append(f" {'→' if step.forward else '←'} {step.label}", style="cyan")
            if one and i < len(path.steps) - 1:
                f = one[i]
                mid = f.o if step.forward else f.s
                line.append(" " + labels.get(mid, mid))
        shown = ", ".join(path.values[:6]) + (" …" if path.total > 6 else "")
        count = f" ({path.total})" if path.total > 1 or path.asks_all else ""
        line.append(f": {shown}{count}" if shown else ": no value")
        out.append(line)
    if s.paths_note:
        out.append(Text("⚠ " + s.paths_note, style="yellow"))
    return out


def meeting_table(meeting: dict) -> Table:
    """The meeting the user is arranging, as the dialogue graph holds it after this turn."""
    table = Table(title="Meeting being arranged", title_justify="left", expand=True, show_edge=False,
                  show_header=False)
    table.add_column("slot", style="bold")
    table.add_column("value")
    when = " – ".join(x for x in (meeting.get("start"), meeting.get("end")) if x)
    for slot, value in (("name", meeting.get("name")), ("day", meeting.get("day")), ("time", when),
                        ("room", meeting.get("room")), ("invitees", ", ".join(meeting.get("invitees") or [])),
                        ("organizer", meeting.get("organizer"))):
        table.add_row(slot, Text(value) if value else Text("not said yet", style="dim"))
    return table


class NodeSelected(Message):
    """The user picked an entity in the subgraph tree: show its other facts."""

    def __init__(self, iri: str, label: str) -> None:
        super().__init__()
        self.iri = iri
        self.label = label


class KnowledgePane(Vertical):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view: TurnView | None = None
        self._sort: tuple[str, bool] | None = None
        self._checks: list[Check] = []

    @property
    def active(self) -> str:
        return self.query_one(TabbedContent).active

    @active.setter
    def active(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    def compose(self):
        with TabbedContent(id="tabs"):
            yield from self._panes()

    def _panes(self):
        with TabPane("Subgraph", id="tab-subgraph"):
            with VerticalScroll():
                yield Static(legend(), id="legend")
                with Collapsible(title="Picture", collapsed=False, id="picture-box"):
                    with HorizontalScroll(id="picture-scroll"):
                        yield Static(Text("Ask something: the retrieved subgraph appears here.", style="dim"),
                                     id="picture", expand=False, shrink=False)
                with Collapsible(title="Tree", collapsed=False, id="tree-box"):
                    yield Tree("subgraph", id="subgraph-tree")
                yield Static("", id="node-facts")
        with TabPane("Reasoning", id="tab-reasoning"):
            with VerticalScroll():
                yield Static(Text("Mentions and derived facts of the turn appear here.", style="dim"), id="reasoning")
        with TabPane("Facts", id="tab-facts"):
            yield Static(Text("All scored candidates; click a column header to sort.", style="dim"), id="facts-note")
            yield DataTable(id="facts-table", cursor_type="row", zebra_stripes=True)
        with TabPane("Checks", id="tab-checks"):
            with VerticalScroll():
                yield Static(Text("Claims of the reply and their verdicts appear here.", style="dim"),
                             id="checks-summary")
                yield DataTable(id="checks-table", cursor_type="row")
                yield Static("", id="check-evidence")
                yield Markdown("", id="refined")

    def on_mount(self) -> None:
        tree = self.query_one("#subgraph-tree", Tree)
        tree.show_root = False
        self.query_one("#checks-table", DataTable).add_columns(" ", "claim")

    # --- rendering, one method per section so a stage can update just its part -----------

    def clear(self) -> None:
        self.view = None
        self.show(TurnView(TurnState(session_id="", turn=0, text="", now=None)))  # type: ignore[arg-type]

    def show(self, view: TurnView) -> None:
        self.show_reasoning(view)
        self.show_retrieval(view)
        self.show_checks(view)

    def show_reasoning(self, view: TurnView) -> None:
        self.view = view
        s = view.state
        parts: list = []
        if s.text_note:
            parts.append(Text("⚠ " + s.text_note, style="yellow"))
        if s.rewritten and s.rewritten != s.text:
            parts.append(Text.assemble(("rewritten: ", "bold"), inert(s.rewritten)))
        mentions = Table(title="Mentions", title_justify="left", expand=True, show_edge=False)
        for col in ("mention", "kind", "entity", "p"):
            mentions.add_column(col, justify="right" if col == "p" else "left")
        for m in s.mentions:
            mentions.add_row(Text(inert(m.text)), m.kind, Text(inert(m.label or m.entity)) if m.entity else Text("unlinked", style="dim"),
                             f"{m.p:.2f}" if m.entity else "")
        parts.append(mentions if s.mentions else Text("No mentions.", style="dim"))
        derived = Table(title="Derived facts", title_justify="left", expand=True, show_edge=False)
        for col in ("fact", "p", "rule"):
            derived.add_column(col, justify="right" if col == "p" else "left")
        for d in s.derived:
            derived.add_row(Text(inert(d.text or f"{d.predicate}({', '.join(d.args)})")), f"{d.p:.2f}",
                            Text(inert(d.rule), style=DERIVED))
        parts.append(derived if s.derived else Text("No derived facts.", style="dim"))
        if s.paths or s.paths_note:
            parts.append(Text("Relation paths asked for", style="bold"))
            parts.extend(path_lines(s, view.labels))
        if s.meeting:
            parts.append(meeting_table(s.meeting))
        if s.reasoning_note:
            parts.append(Text("⚠ " + s.reasoning_note, style="yellow"))
        self.query_one("#reasoning", Static).update(Group(*parts))

    def show_retrieval(self, view: TurnView) -> None:
        self.view = view
        s = view.state
        self.query_one("#picture", Static).update(draw_subgraph(s, view.labels))
        scale = score_scale(s)
        tree = self.query_one("#subgraph-tree", Tree)
        tree.clear()
        for iri, label, lines in tree_rows(s, view.labels):
            best = max(c.score for _, c in lines)
            entity = tree.root.add(Text.assemble(label, "  ", (f"{best:.2f}", relevance_colour(best, scale))),
                                   data=(iri, label), expand=True)
            for line, c in lines:
                target = None if c.fact.o_literal else (c.fact.o, c.o_label or c.fact.o)
                entity.add_leaf(line, data=target)
        for iri in s.bridging_nodes:
            label = view.labels.get(iri, iri)
            tree.root.add_leaf(Text.assemble(("◇ ", "dim"), label, (" bridging", "dim italic")), data=(iri, label))
        lines = path_lines(s, view.labels)
        lines += [Text("⚠ " + note, style="yellow") for note in (s.candidates_note, s.retrieved_note) if note]
        self.query_one("#node-facts", Static).update(Text("\n").join(lines) if lines else "")
        self._fill_facts(s)

    def _fill_facts(self, s: TurnState) -> None:
        table = self.query_one("#facts-table", DataTable)
        table.clear(columns=True)
        features = sorted({k for c in s.candidates for k in c.features})
        # Short columns first: the verbalization is long and would push the numbers off screen.
        table.add_column("in", key="in")
        table.add_column("score", key="score")
        table.add_column("hop", key="hop")
        table.add_column("derived", key="derived")
        table.add_column("fact", key="fact")
        for f in features:
            table.add_column(f, key=f"f:{f}")
        kept = {c.fact.key for c in s.retrieved}
        scale = score_scale(s)
        for i, c in enumerate(s.candidates):
            row = [Text("●", style="green") if c.fact.key in kept else Text(""),
                   Text(f"{c.score:.3f}", style=relevance_colour(c.score, scale)), c.hop,
                   Text(f"p={c.p:.2f}", style=DERIVED) if c.derived else Text(""),
                   Text(inert(c.text or f"{c.s_label} {c.p_label} {c.o_label}"))]
            row += [Text(f"{c.features.get(f, 0.0):.3f}") for f in features]
            table.add_row(*row, key=str(i))
        if s.candidates:
            self.sort_facts("score", reverse=True)

    def sort_facts(self, column: str, reverse: bool) -> None:
        def value(cell):
            text = cell.plain if isinstance(cell, Text) else cell
            try:
                return (0, float(str(text).lstrip("p=")))
            except ValueError:
                return (1, str(text))

        self._sort = (column, reverse)
        self.query_one("#facts-table", DataTable).sort(column, key=value, reverse=reverse)

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        if event.data_table.id != "facts-table":
            return
        column = str(event.column_key.value)
        reverse = not (self._sort and self._sort[0] == column and self._sort[1])
        self.sort_facts(column, reverse)

    def show_checks(self, view: TurnView) -> None:
        self.view = view
        s = view.state
        checks = s.refined.checks if s.refined else s.checks
        self._checks = list(checks)
        summary = self.query_one("#checks-summary", Static)
        if not s.checks:
            summary.update(Text("No claims of a model reply checked for this turn.", style="dim"))
        else:
            counts = {v: sum(c.verdict == v for c in s.checks) for v in VERDICT}
            line = Text.assemble(("fact score ", "bold"), score_text(s.fact_score), ("   NEIP ", "bold"),
                                 score_text(s.neip), "   ")
            for v, n in counts.items():
                line.append_text(verdict_mark(v))
                line.append(f" {n}  ")
            if s.refined:
                line.append(f"\nrefined: fact score {score_text(s.refined.fact_score)}  "
                            f"NEIP {score_text(s.refined.neip)}", style=DERIVED)
            if s.checks_truncated:
                line.append(f"\nonly the first {len(s.checks)} claims were checked (--max-claims); "
                            "the rest of the reply was not", style="bold yellow")
            summary.update(line)
        table = self.query_one("#checks-table", DataTable)
        table.clear()
        for i, c in enumerate(self._checks):
            claim = Text(inert(c.claim))
            if c.incomplete is not None:
                claim.append(f"  (incomplete: {c.incomplete.named} of {c.incomplete.total})", style="bold yellow")
            table.add_row(verdict_mark(c.verdict), claim, key=str(i))
        self.query_one("#check-evidence", Static).update(
            Text("Select a claim to see its evidence.", style="dim") if self._checks else "")
        self.query_one("#refined", Markdown).update(replies_markdown(s))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id != "checks-table" or event.row_key.value is None:
            return
        c = self._checks[int(event.row_key.value)]
        lines = Text.assemble(verdict_mark(c.verdict), " ", (c.verdict, "bold"), "  ", inert(c.claim), "\n")
        ev = c.evidence.to_json()
        triple = [ev.pop(k, "") for k in ("s", "p", "o")]
        labels = [ev.pop(k, "") for k in ("s_label", "p_label", "o_label")]
        text = ev.pop("text", "")
        if text or any(labels):
            lines.append("evidence: ", style="bold")
            lines.append(inert(text or " — ".join(x for x in labels if x)) + "\n")
        for key, value in ev.items():  # whatever else the checker recorded
            lines.append(f"{key}: ", style="bold")
            lines.append(inert(f"{value}") + "\n")
        if any(triple):
            lines.append(inert(" ".join(triple)) + "\n", style="dim")
        if not c.evidence:
            lines.append("no evidence triple\n", style="dim")
        if c.reason:
            lines.append(c.reason, style="italic")
        if c.incomplete is not None:
            i = c.incomplete
            lines.append(f"\nincomplete: the question asks for every value of {i.relation}; the reply names {i.named} "
                         f"of {i.total} (not: {', '.join(i.missing[:6])})", style="bold yellow")
        self.query_one("#check-evidence", Static).update(lines)

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        if event.node.data:
            iri, label = event.node.data
            self.post_message(NodeSelected(iri, label))

    def show_node_facts(self, label: str, facts: list[str]) -> None:
        text = Text.assemble((f"Other facts about {label}", "bold"), "\n")
        for line in facts or ["(none in the store)"]:
            text.append("• " + line + "\n")
        self.query_one("#node-facts", Static).update(text)
