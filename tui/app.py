"""The kgchat app: chat on the left, the knowledge pane on the right, status along the bottom.

The engine runs in thread workers that only post messages (tui/messages.py); every widget
and every piece of app state changes in the handlers below, on the UI thread."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, ProgressBar

from engine.config import Config
from engine.events import ChecksDone, ReplyDone, StageFinished, StageStarted, Token, TurnError
from engine.session import Session
from kgstore.errors import BadInput
from kgstore.vocab import GRAPH_BG, LABEL_PREDICATES
from tui.export import ChatTurn, write_export
from tui.live import freeze
from tui.messages import (EngineEvent, LoadFinished, LoadProgress, ModelLoaded, ScorerStatus, SessionFailed,
                          SessionOpened, TurnFailed, TurnFinished)
from tui.screens.help import HelpScreen
from tui.widgets.chat import AssistantMessage, ChatLog, Notice, PromptInput, UserMessage
from tui.widgets.knowledge import VERDICT, KnowledgePane, NodeSelected, score_text, verdict_mark
from tui.widgets.status import REMOTE, StatusBar

# Tokens reach the screen at most this often (20 updates per second), whatever the model's pace.
FLUSH_S = 0.05

# Binding ids double as the names of the `[keys]` table in config.toml.
BINDINGS = [
    Binding("f1", "help", "Help", id="help"),
    Binding("ctrl+o", "load_kg", "Load KG", id="load_kg"),
    Binding("f4", "sparql", "SPARQL", id="sparql"),
    Binding("ctrl+r", "cycle_retriever", "Retriever", id="retriever"),
    Binding("ctrl+n", "new_session", "New", id="new_session"),
    Binding("f2", "sessions", "Sessions", id="sessions"),
    Binding("ctrl+s", "export", "Export", id="export"),
    Binding("ctrl+t", "copy_reply", "Copy reply", id="copy_reply", show=False),
    Binding("ctrl+b", "toggle_pane", "Pane", id="toggle_pane"),
    # F6/F7 belong to the prompt (select line / all): one key walks the knowledge tabs instead.
    Binding("f5", "next_tab", "Next tab", id="next_tab"),
    Binding("escape", "cancel", "Cancel reply", id="cancel", show=False),
    Binding("ctrl+q", "quit", "Quit", id="quit", priority=True),
]
BINDING_IDS = {b.id for b in BINDINGS}

RETRIEVERS = ("pcst", "topk")
SCORERS = ("learned", "bm25", "sbert", "llm")


def kg_size(ctx) -> int:
    """Background triples: what the user loaded, not the dialogue the app wrote."""
    if ctx.background is not ctx.store:
        return REMOTE
    store = ctx.store
    return sum(store.count(g) for g in store.background_graphs())


def graph_names(ctx) -> list[str]:
    if ctx.background is not ctx.store:
        return [ctx.config.sparql]
    store = ctx.store
    return [f"{unquote(g.removeprefix(GRAPH_BG))} ({store.count(g):,} triples)" for g in store.background_graphs()]


class KGChatApp(App):
    CSS_PATH = Path(__file__).parent / "app.tcss"
    TITLE = "kgchat"
    BINDINGS = BINDINGS

    def __init__(self, config: Config, *, resources: dict[str, Any] | None = None,
                 export_dir: Path | None = None) -> None:
        super().__init__()
        self.config = config
        # Ready-made engine resources ("llm", "encoder", ...): tests pass a scripted model here;
        # anything absent is built from the config, the model in a worker after the first paint.
        self._resources = dict(resources or {})
        self.export_dir = export_dir or Path.cwd()
        self.session: Session | None = None
        self.turns: list[ChatTurn] = []
        self.busy = False
        self._cancel = threading.Event()
        self._model_ready = threading.Event()
        self._reply: AssistantMessage | None = None
        self._pending: list[str] = []
        self._pending_refined = False
        self._turn_no = 0
        self._loading = False
        self._preparing = ""  # the status line the scorer's preparation put up
        self.set_keymap(config.keys)

    def notify(self, message: str, *, title: str = "", severity="information", timeout: float | None = None,
               markup: bool = False) -> None:
        """Notifications carry loader errors, paths and queries: brackets in them are text."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="chat-side"):
                yield ChatLog(id="chat")
                yield ProgressBar(id="load-progress", show_eta=False)
                yield PromptInput(id="prompt", placeholder="Ask about the knowledge graph…  (Enter sends, Ctrl+J new line)")
            yield KnowledgePane(id="knowledge")
        yield StatusBar(id="status")
        yield Footer()

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

    def on_mount(self) -> None:
        if self.config.theme in self.available_themes:
            self.theme = self.config.theme
        self.sub_title = "opening the knowledge graph…"
        self._show_settings()
        self.prompt_input.focus()
        self.set_interval(FLUSH_S, self._flush_tokens)
        # After the first paint: the store and the model load in threads while the user types.
        self.call_after_refresh(self.open_session)

    def _show_settings(self) -> None:
        c = self.config
        self.status.settings = f"{c.retriever} · {c.scorer} · k={c.k}" + (" · llm rewrite" if c.rewrite == "llm" else "")

    # --- opening the session and the model (workers) ------------------------------------

    @work(thread=True, group="open", exit_on_error=False)
    def open_session(self) -> None:
        """Open the store and the KG; when that fails (a broken --kg file, a store another kgchat
        holds), fall back to what still works and say what was left out."""
        c = self.config
        tries = [(c, "")]
        if not c.memory:
            tries.append((replace(c, store=None, memory=True), "this session is kept in memory only"))
        if c.kg:
            tries.append((replace(c, kg=[]), "started without the --kg files; load them with Ctrl+O"))
            if not c.memory:
                tries.append((replace(c, kg=[], store=None, memory=True),
                              "started in memory, without the --kg files"))
        first_error = ""
        for config, fallback in tries:
            try:
                session = Session.open(config, **self._resources)
            except (BadInput, OSError) as exc:
                first_error = first_error or str(exc)
                continue
            except Exception as exc:  # noqa: BLE001 - a bug, but the app must say so rather than hang
                first_error = first_error or f"{type(exc).__name__}: {exc}"
                continue
            note = f"{first_error} — {fallback}" if first_error else ""
            self.post_message(SessionOpened(session, kg_size(session.ctx), graph_names(session.ctx), note))
            self.load_model(session)
            self.prepare_scorer(session)
            return
        self.post_message(SessionFailed(first_error))

    def prepare_scorer(self, session: Session) -> None:
        """The MiniLM export (once per install; the status bar says so meanwhile), the scorer's
        models and a small KG's embeddings, ahead of the first turn (from a worker thread)."""
        try:
            device, note = session.prepare(say=lambda text: self.post_message(ScorerStatus(activity=text)))
        except Exception as exc:  # noqa: BLE001 - the first turn tries again and reports it there
            self.post_message(ScorerStatus(error=f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(ScorerStatus(device, note))

    def on_scorer_status(self, message: ScorerStatus) -> None:
        if message.activity:
            self.status.activity = self._preparing = message.activity
            return
        if self.status.activity == self._preparing:  # a turn's own activity stays
            self.status.activity = ""
        if message.error:
            self.notify(message.error, title="Scorer not prepared", severity="error", timeout=15)
        self.status.scoring_device, self.status.scoring_note = message.device, message.note

    def load_model(self, session: Session) -> None:
        """Build the model once per session context (called from a worker thread)."""
        self._model_ready.clear()
        try:
            from engine.stages.generate import backend

            llm = backend(session.ctx)
            self.post_message(ModelLoaded(getattr(llm, "name", "model"), getattr(llm, "device", "")))
        except Exception as exc:  # noqa: BLE001 - no model still leaves retrieval and checks usable
            self.post_message(ModelLoaded("no model", "", error=str(exc).splitlines()[0] if str(exc) else repr(exc)))
        finally:
            self._model_ready.set()

    @work(thread=True, group="model", exclusive=True, exit_on_error=False)
    def reload_model(self) -> None:
        if self.session is not None:
            self.session.ctx.resources.pop("llm", None)
            self.load_model(self.session)

    def on_session_opened(self, message: SessionOpened) -> None:
        self.session = message.session
        self.config = message.session.config
        self.status.kg_size = message.kg_size
        self.sub_title = f"session {self.session.session_id}"
        if message.note:
            self.notify(message.note, severity="warning", timeout=10)
            self.chat.mount(Notice("⚠ " + message.note, "warning"))
        graphs = ", ".join(message.graphs[:4]) + (f" and {len(message.graphs) - 4} more" if len(message.graphs) > 4 else "")
        self.chat.mount(Notice(f"Knowledge: {graphs or 'none yet (Ctrl+O loads a file)'}. "
                               "Ask a question; F1 lists the keys, Ctrl+P every command.", "info"))

    def on_session_failed(self, message: SessionFailed) -> None:
        self.sub_title = "no knowledge graph"
        self.notify(message.message, title="Could not open the store", severity="error", timeout=15)
        self.chat.mount(Notice("✗ " + message.message, "error"))

    def on_model_loaded(self, message: ModelLoaded) -> None:
        self.status.model, self.status.device = message.name, message.device
        if message.error:
            self.status.model = "no model"
            self.notify(message.error, title="Model not loaded", severity="error", timeout=15)

    # --- a turn -------------------------------------------------------------------------

    @on(PromptInput.Submitted)
    def send(self, message: PromptInput.Submitted) -> None:
        if self.session is None:
            self.notify("Still opening the knowledge graph — one moment.", severity="warning")
            return
        if self.busy:
            self.notify("A reply is on its way — Esc cancels it.", severity="warning")
            return
        text = message.text
        self.prompt_input.remember(text)
        self.prompt_input.clear()
        self.turns.append(ChatTurn(user=text))
        self.chat.mount(UserMessage(text))
        self._reply = AssistantMessage()
        self.chat.mount(self._reply)
        self._reply.set_footer(Text("thinking…", style="italic dim"))
        self.chat.scroll_end(animate=False)
        self.busy = True
        self.status.timings = {}
        self._cancel = threading.Event()
        self._turn_no += 1
        self.run_turn(self.session, text, self._turn_no, self._cancel)

    @work(thread=True, group="turn", exit_on_error=False)
    def run_turn(self, session: Session, text: str, turn: int, cancel: threading.Event) -> None:
        self._model_ready.wait()

        def on_event(event) -> None:
            view = freeze(session.current, session.ctx.store) if (
                isinstance(event, StageFinished) and session.current is not None) else None
            self.post_message(EngineEvent(turn, event, view))

        try:
            state = session.user_turn(text, on_event=on_event, cancel=cancel)
        except Exception as exc:  # noqa: BLE001 - an engine fault ends this turn, not the app
            self.post_message(TurnFailed(turn, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(TurnFinished(turn, freeze(state, session.ctx.store), kg_size(session.ctx)))

    async def on_engine_event(self, message: EngineEvent) -> None:
        if message.turn != self._turn_no or self._reply is None:
            return
        event = message.event
        if isinstance(event, Token):
            self._pending.append(event.text)
        elif isinstance(event, StageStarted):
            await self._flush_tokens()  # tokens of the stage before go where that stage sent them
            self._pending_refined = event.stage == "refine"
            self.status.activity = f"⟳ {event.stage}…"
            self._reply.set_footer(Text(f"⟳ {event.stage}…", style="italic dim"))
        elif isinstance(event, StageFinished):
            self.status.timings = {**self.status.timings, event.stage: event.ms}
            view = message.view
            if view is not None:
                if event.stage == "reason":
                    self.pane.show_reasoning(view)
                elif event.stage == "retrieve":
                    self.pane.show_retrieval(view)
                elif event.stage in ("check", "refine"):
                    self.pane.show_checks(view)
        elif isinstance(event, ReplyDone):
            self.call_later(self._reply_done, self._reply, event)
        elif isinstance(event, ChecksDone):
            self._reply.set_footer(checks_line(event.checks, event.fact_score, event.neip, event.refined))
        elif isinstance(event, TurnError):
            self.notify(event.message, title=f"{event.stage} failed", severity="warning", timeout=8)
            self.turns[-1].errors.append(f"{event.stage}: {event.message}")
            self.chat.mount(Notice(f"⚠ {event.stage}: {event.message}", "warning"), before=self._reply)

    async def _reply_done(self, reply: AssistantMessage, event: ReplyDone) -> None:
        await self._flush_tokens()
        current = reply.refined_text if event.refined else reply.text
        if current.strip() != event.text.strip():
            await reply.set_text(event.text, refined=event.refined)

    async def _flush_tokens(self) -> None:
        if not self._pending or self._reply is None:
            return
        chunk = "".join(self._pending)
        self._pending.clear()
        await self._reply.append(chunk, refined=self._pending_refined)
        self.chat.follow()

    async def on_turn_finished(self, message: TurnFinished) -> None:
        if message.turn != self._turn_no:
            return
        await self._flush_tokens()
        reply, state = self._reply, message.view.state
        record = self.turns[-1]
        record.state = state
        if reply is not None:
            final = state.response
            if final and reply.text.strip() != final.strip():
                await reply.set_text(final)
            if state.refined and state.refined.get("response") and not reply.refined_text:
                await reply.set_text(state.refined["response"], refined=True)
            record.reply = reply.final_text
            record.cut = state.cut or self._cancel.is_set()
            if record.cut:
                reply.add_class("cut")
                reply.set_footer(Text("⏹ cut short — the partial reply is kept" if reply.text else "⏹ cancelled",
                                      style="bold yellow"))
            elif state.error and not reply.text:
                reply.set_footer(Text("✗ no reply: " + state.error, style="red"))
            elif state.checks:
                reply.set_footer(checks_line(state.checks, state.fact_score, state.neip, bool(state.refined)))
            elif state.plan == "none" or not state.response:
                reply.set_footer(Text("no claims to check", style="dim"))
            else:
                reply.set_footer(Text(""))
            if state.reasoning_note:  # the turn went on without (some) derived facts: say why
                reply.footer.update(Text.assemble(reply.footer.content, "\n", ("⚠ " + state.reasoning_note, "yellow")))
        self.pane.show(message.view)
        self.status.timings = dict(state.timings_ms)
        self.status.kg_size = message.kg_size
        self._end_turn()

    def on_turn_failed(self, message: TurnFailed) -> None:
        if message.turn != self._turn_no:
            return
        self.notify(message.message, title="The turn failed", severity="error", timeout=10)
        self.turns[-1].errors.append(message.message)
        if self._reply is not None:
            self._reply.add_class("failed")
            self._reply.set_footer(Text("✗ " + message.message, style="red"))
        self._end_turn()

    def _end_turn(self) -> None:
        self.busy = False
        self.status.activity = ""
        self.chat.follow()

    def action_cancel(self) -> None:
        if self.busy:
            self._cancel.set()
            self.status.activity = "cancelling…"

    # --- knowledge ------------------------------------------------------------------------

    @on(NodeSelected)
    def node_selected(self, message: NodeSelected) -> None:
        if self.session is not None:
            self.fetch_node_facts(self.session, message.iri, message.label)

    @work(thread=True, group="facts", exclusive=True, exit_on_error=False)
    def fetch_node_facts(self, session: Session, iri: str, label: str) -> None:
        from engine.state import Candidate
        from engine.stages.verbalize import verbalize

        store = session.ctx.background
        try:
            facts = [Candidate(f) for f in store.facts_about(iri, cap=50)]
            verbalize(facts, store)
        except Exception as exc:  # noqa: BLE001 - a remote store may be down: say so in the pane
            self.call_from_thread(self.pane.show_node_facts, label, [f"(could not read: {exc})"])
            return
        lines = [c.text for c in facts if c.fact.p not in LABEL_PREDICATES]
        self.call_from_thread(self.pane.show_node_facts, label, lines)

    def action_show_tab(self, tab: str) -> None:
        self.query_one("#knowledge").remove_class("hidden")
        self.pane.active = tab

    def action_next_tab(self) -> None:
        tabs = [pane.id for pane in self.pane.query("TabPane")]
        self.action_show_tab(tabs[(tabs.index(self.pane.active) + 1) % len(tabs)])

    def action_toggle_pane(self) -> None:
        self.query_one("#knowledge").toggle_class("hidden")

    # --- settings -------------------------------------------------------------------------

    def set_option(self, name: str, value: Any) -> None:
        """Change a retrieval/generation option for the next turns of this session."""
        setattr(self.config, name, value)
        if self.session is not None and self.session.config is not self.config:
            setattr(self.session.config, name, value)
        self._show_settings()
        self.notify(f"{name.replace('_', ' ')}: {value}", timeout=3)

    def action_cycle_retriever(self) -> None:
        i = RETRIEVERS.index(self.config.retriever) if self.config.retriever in RETRIEVERS else -1
        self.set_option("retriever", RETRIEVERS[(i + 1) % len(RETRIEVERS)])

    def action_toggle_rewrite(self) -> None:
        self.set_option("rewrite", "rules" if self.config.rewrite == "llm" else "llm")

    def action_choose_model(self) -> None:
        from textual_fspicker import FileOpen, Filters

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.set_option("model", str(path))
                self.status.model, self.status.device = "model loading…", ""
                self.reload_model()

        self.push_screen(FileOpen(".", title="Choose a GGUF model",
                                  filters=Filters(("GGUF", lambda p: p.suffix.lower() == ".gguf"),
                                                  ("All", lambda _: True))), chosen)

    # --- loading knowledge --------------------------------------------------------------

    def action_load_kg(self) -> None:
        from textual_fspicker import FileOpen

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.load_files([str(path)])

        self.push_screen(FileOpen(".", title="Load a knowledge graph file"), chosen)

    def load_files(self, paths: list[str]) -> None:
        if self.session is None or self._loading:
            self.notify("Wait for the current load to finish.", severity="warning")
            return
        self._loading = True
        bar = self.query_one("#load-progress", ProgressBar)
        bar.update(total=None, progress=0)
        bar.add_class("visible")
        self.load_worker(self.session, paths)

    @work(thread=True, group="load", exclusive=True, exit_on_error=False)
    def load_worker(self, session: Session, paths: list[str]) -> None:
        reports, error = [], ""
        for i, path in enumerate(paths):
            size = os.path.getsize(path) if os.path.isfile(path) else 0
            last = [0.0]

            def progress(done: int, i=i, path=path, size=size) -> None:
                now = time.monotonic()
                if now - last[0] >= FLUSH_S:  # the bar moves at the token pace, not per read
                    last[0] = now
                    self.post_message(LoadProgress(i, len(paths), path, done, size))

            self.post_message(LoadProgress(i, len(paths), path, 0, size))
            try:
                reports.append((path, session.load(path, format=self.config.format, progress=progress)))
            except (BadInput, OSError) as exc:  # the loader left the store as it was
                error = str(exc)
                break
        self.post_message(LoadFinished(reports, error, kg_size(session.ctx)))
        if reports:
            self.prepare_scorer(session)

    def on_load_progress(self, message: LoadProgress) -> None:
        bar = self.query_one("#load-progress", ProgressBar)
        # Small files load in one go (no byte counts): the bar then just says "working".
        bar.update(total=message.size if message.done else None, progress=message.done)
        self.status.activity = f"loading {Path(message.path).name} ({message.index + 1}/{message.total})…"

    def on_load_finished(self, message: LoadFinished) -> None:
        self._loading = False
        self.query_one("#load-progress", ProgressBar).remove_class("visible")
        self.status.activity = ""
        self.status.kg_size = message.kg_size
        for path, report in message.reports:
            what = f"{report.added:,} triples" + (f" into {len(report.graphs)} graphs" if len(report.graphs) > 1 else "")
            self.notify(f"{Path(path).name}: {what}", title="Loaded")
            self.chat.mount(Notice(f"loaded {Path(path).name}: {what}", "info"))
            for warning in report.warnings[:5]:
                self.notify(warning, title=Path(path).name, severity="warning", timeout=8)
        if message.error:
            self.notify(message.error, title="Not loaded — nothing changed", severity="error", timeout=15)

    # --- sessions, export, screens -------------------------------------------------------

    def _reset_chat(self) -> None:
        self.turns = []
        self._reply = None
        self._pending.clear()
        self.chat.remove_children()
        self.pane.clear()
        self.status.timings = {}

    def action_new_session(self) -> None:
        if self.session is None:
            return
        if self.busy:
            self.notify("Cancel the running reply first (Esc).", severity="warning")
            return
        self.session = Session(self.session.ctx)
        self._reset_chat()
        self.sub_title = f"session {self.session.session_id}"
        self.chat.mount(Notice(f"new session {self.session.session_id}", "info"))

    def action_sessions(self) -> None:
        if self.session is None:
            return
        from tui.screens.sessions import SessionsScreen

        self.push_screen(SessionsScreen(self.session.ctx.store, self.session.session_id), self.reopen_session)

    def reopen_session(self, choice: tuple[str, list[tuple[str, str]]] | None) -> None:
        if choice is None or self.session is None:
            return
        if self.busy:
            self.notify("Cancel the running reply first (Esc).", severity="warning")
            return
        session_id, history = choice
        self.session = Session(self.session.ctx, session_id)
        self.session.history = list(history)
        self._reset_chat()
        self.sub_title = f"session {session_id}"
        self.chat.mount(Notice(f"reopened session {session_id} ({len(history)} turns)", "info"))
        for speaker, text in history:
            if speaker == "user":
                self.turns.append(ChatTurn(user=text))
                self.chat.mount(UserMessage(text))
            else:
                if self.turns:
                    self.turns[-1].reply = text
                reply = AssistantMessage()
                self.chat.mount(reply)
                self.call_after_refresh(reply.set_text, text)
        self.call_after_refresh(self.chat.scroll_end, animate=False)

    def settings(self) -> dict[str, Any]:
        c = self.config
        return {"retriever": c.retriever, "scorer": c.scorer, "k": c.k, "rewrite": c.rewrite,
                "model": self.status.model, "device": self.status.device, "now": c.now or ""}

    def action_export(self, kinds: tuple[str, ...] = ("md", "json")) -> None:
        if not self.turns:
            self.notify("Nothing to export yet.", severity="warning")
            return
        session_id = self.session.session_id if self.session else "none"
        try:
            paths = write_export(self.export_dir, session_id, self.turns, self.settings(), kinds)
        except OSError as exc:
            self.notify(str(exc), title="Export failed", severity="error")
            return
        self.notify("\n".join(str(p) for p in paths), title="Exported")

    def action_copy_reply(self) -> None:
        replies = [t.reply for t in self.turns if t.reply]
        if not replies:
            self.notify("No reply to copy yet.", severity="warning")
            return
        self.copy_to_clipboard(replies[-1])
        self.notify("Last reply copied to the clipboard.", timeout=3)

    def action_sparql(self) -> None:
        if self.session is None:
            return
        from tui.screens.sparql import SparqlScreen

        self.push_screen(SparqlScreen(self.session.ctx.store))

    def action_help(self) -> None:
        keys = [(self.get_key_display(b), b.description, b.id or "") for b in self.effective_bindings()]
        self.push_screen(HelpScreen(keys))

    def effective_bindings(self) -> list[Binding]:
        """The app's bindings with the user's `[keys]` remapping applied."""
        return [replace(b, key=self._keymap.get(b.id, b.key)) if b.id else b for b in BINDINGS]

    def get_system_commands(self, screen: Screen):
        yield from super().get_system_commands(screen)
        yield SystemCommand("Load KG file…", "Load an RDF/CSV/JSON knowledge graph file into the store",
                            self.action_load_kg)
        yield SystemCommand("SPARQL console", "Query the store and read the rows in a table", self.action_sparql)
        for r in RETRIEVERS:
            yield SystemCommand(f"Retriever: {r}", f"Retrieve the subgraph with {r} from the next turn on",
                                lambda r=r: self.set_option("retriever", r))
        for s in SCORERS:
            yield SystemCommand(f"Scorer: {s}", f"Score candidate facts with the {s} scorer",
                                lambda s=s: self.set_option("scorer", s))
        for k in (3, 5, 8, 10, 15):
            yield SystemCommand(f"k = {k}", f"Keep {k} facts (topk) / give prizes to {k} edges (PCST)",
                                lambda k=k: self.set_option("k", k))
        yield SystemCommand("Choose model…", "Pick a GGUF model file; it loads in the background",
                            self.action_choose_model)
        state = "off" if self.config.rewrite == "llm" else "on"
        yield SystemCommand(f"LLM rewrite: turn {state}", "Resolve references with the model instead of the rules",
                            self.action_toggle_rewrite)
        yield SystemCommand("New session", "Start a fresh conversation on the same store", self.action_new_session)
        yield SystemCommand("Sessions…", "List past sessions and reopen one", self.action_sessions)
        yield SystemCommand("Export conversation (Markdown + JSON)", f"Write kgchat-<session>.md/.json to {self.export_dir}",
                            self.action_export)
        yield SystemCommand("Export conversation as Markdown", "Only the .md file", lambda: self.action_export(("md",)))
        yield SystemCommand("Export conversation as JSON", "Only the .json file", lambda: self.action_export(("json",)))
        yield SystemCommand("Copy last reply", "To the clipboard (OSC 52)", self.action_copy_reply)
        yield SystemCommand("Toggle knowledge pane", "Hide or show the right-hand pane", self.action_toggle_pane)
        for tab, title in (("tab-subgraph", "Subgraph"), ("tab-reasoning", "Reasoning"), ("tab-facts", "Facts"),
                           ("tab-checks", "Checks")):
            yield SystemCommand(f"Show {title}", f"The {title} tab of the knowledge pane",
                                lambda tab=tab: self.action_show_tab(tab))
        yield SystemCommand("Help: keys", "Every key and its config name", self.action_help)


def checks_line(checks: list, fact_score: float | None, neip: float | None, refined: bool) -> Text:
    line = Text()
    for verdict in VERDICT:
        n = sum(c.verdict == verdict for c in checks)
        if n:
            line.append_text(verdict_mark(verdict))
            line.append(f" {n}  ")
    line.append(f"fact score {score_text(fact_score)} · NEIP {score_text(neip)}", style="dim")
    if refined:
        line.append("  · refined", style="magenta")
    return line
