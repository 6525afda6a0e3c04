"""The main screen: chat on the left, the knowledge pane on the right, status along the bottom.

It owns the layout and what only concerns its widgets: walking the knowledge pane, a picked
node's facts, the first screen of what the KG holds, the progress and outcome of a load, and
replaying a reopened session. The conversation itself (sessions, turns, settings) is the app's."""

from __future__ import annotations

from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, TabPane

from engine.session import Session
from kgstore.vocab import LABEL_PREDICATES
from tui.loading import KGLoader, graph_names
from tui.messages import LoadFinished, LoadProgress, NodeFacts, OverviewReady
from tui.widgets.chat import AssistantMessage, ChatLog, Notice, PromptInput, UserMessage
from tui.widgets.knowledge import KnowledgePane
from tui.widgets.status import StatusBar
from tui.widgets.welcome import ExamplePicked, Welcome


class MainScreen(Screen):
    # What it notifies carries loader errors and paths: markup=False, brackets in them are text.

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="chat-side"):
                yield ChatLog(id="chat")
                yield KGLoader(id="load-progress")
                yield PromptInput(id="prompt", placeholder="Ask about the knowledge graph…  (Enter sends, Ctrl+J new line)")
            yield KnowledgePane(id="knowledge")
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.prompt_input.focus()

    @property
    def chat(self) -> ChatLog:
        return self.query_one("#chat", ChatLog)

    @property
    def prompt_input(self) -> PromptInput:
        return self.query_one("#prompt", PromptInput)

    @property
    def pane(self) -> KnowledgePane:
        return self.query_one("#knowledge", KnowledgePane)

    @property
    def status(self) -> StatusBar:
        return self.query_one("#status", StatusBar)

    @property
    def loader(self) -> KGLoader:
        return self.query_one("#load-progress", KGLoader)

    def clear(self) -> None:
        """An empty chat and pane, for another session."""
        self.chat.remove_children()
        self.pane.clear()
        self.status.timings = {}

    def replay(self, history: list[tuple[str, str]]) -> None:
        """The messages of a reopened session, as they were exchanged."""
        for speaker, text in history:
            if speaker == "user":
                self.chat.mount(UserMessage(text))
            else:
                reply = AssistantMessage()
                self.chat.mount(reply)
                self.call_after_refresh(reply.set_text, text)
        self.call_after_refresh(self.chat.scroll_end, animate=False)

    # --- the knowledge pane -------------------------------------------------------------

    def show_tab(self, tab: str) -> None:
        self.pane.remove_class("hidden")
        self.pane.active = tab

    def next_tab(self) -> None:
        tabs = [pane.id for pane in self.pane.query(TabPane) if pane.id]
        self.show_tab(tabs[(tabs.index(self.pane.active) + 1) % len(tabs)])

    def toggle_pane(self) -> None:
        self.pane.toggle_class("hidden")

    @work(thread=True, group="facts", exclusive=True, exit_on_error=False)
    def fetch_node_facts(self, session: Session, iri: str, label: str) -> None:
        from engine.nlp.sentences import verbalize
        from engine.state import Candidate

        store = session.ctx.background
        try:
            facts = [Candidate(f) for f in store.facts_about(iri, cap=50)]
            verbalize(facts, store)
        except Exception as exc:  # noqa: BLE001 - a remote store may be down: say so in the pane
            self.post_message(NodeFacts(label, [f"(could not read: {exc})"]))
            return
        self.post_message(NodeFacts(label, [c.text for c in facts if c.fact.p not in LABEL_PREDICATES]))

    def on_node_facts(self, message: NodeFacts) -> None:
        self.pane.show_node_facts(message.label, message.facts)

    # --- the first screen: what the KG holds, questions to start with ---------------------

    @work(thread=True, group="overview", exclusive=True, exit_on_error=False)
    def show_overview(self, session: Session) -> None:
        from engine.overview import Overview, overview

        try:
            ov = overview(session.ctx)
        except Exception as exc:  # noqa: BLE001 - the first screen is a help, not a reason to fail
            ov = Overview(graphs=graph_names(session.ctx))
            self.post_message(OverviewReady(ov, f"could not list what the KG holds: {exc}"))
            return
        self.post_message(OverviewReady(ov))

    def on_overview_ready(self, message: OverviewReady) -> None:
        for old in self.query(Welcome):  # one first screen: the one of the knowledge loaded now
            old.remove()
        self.chat.mount(Welcome(message.overview))
        if message.note:
            self.notify(message.note, severity="warning", markup=False)

    @on(ExamplePicked)
    def use_example(self, message: ExamplePicked) -> None:
        self.prompt_input.load_text(message.text)
        self.prompt_input.move_cursor(self.prompt_input.document.end)
        self.prompt_input.focus()

    # --- loading files ------------------------------------------------------------------

    def on_load_progress(self, message: LoadProgress) -> None:
        self.status.activity = f"loading {Path(message.path).name} ({message.index + 1}/{message.total})…"

    def on_load_finished(self, message: LoadFinished) -> None:
        self.status.activity = ""
        self.status.kg_size = message.kg_size
        for path, report in message.reports:
            what = f"{report.added:,} triples" + (f" into {len(report.graphs)} graphs" if len(report.graphs) > 1 else "")
            # A table says how it was read: which column named the rows, how many values became entities.
            what = "; ".join([what, *(table.describe() for table in report.tables)])
            self.notify(f"{Path(path).name}: {what}", title="Loaded", markup=False)
            self.chat.mount(Notice(f"loaded {Path(path).name}: {what}", "info"))
            for warning in report.warnings[:5]:
                self.notify(warning, title=Path(path).name, severity="warning", timeout=8, markup=False)
        if message.error:
            self.notify(message.error, title="Not loaded — nothing changed", severity="error", timeout=15,
                        markup=False)
        if message.reports:
            self.show_overview(message.session)
