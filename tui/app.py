"""The kgchat app: chat on the left, the knowledge pane on the right, status along the bottom.

The engine runs in thread workers that only post messages (tui/messages.py); every widget
and every piece of app state changes in the handlers below, on the UI thread."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, ProgressBar

from engine.config import Config
from engine.events import ChecksDone, ReplyDone, StageFinished, StageStarted, Token, TurnError
from engine.inert import inert
from engine.session import Session
from kgstore.errors import BadInput
from kgstore.vocab import LABEL_PREDICATES
from tui.commands import CommandsMixin
from tui.export import ChatTurn
from tui.live import freeze
from tui.loading import LoadingMixin, graph_names, kg_size
from tui.messages import (EngineEvent, ModelLoaded, OverviewReady, ScorerStatus, SessionFailed, SessionOpened,
                          TurnFailed, TurnFinished)
from tui.widgets.chat import AssistantMessage, ChatLog, Notice, PromptInput, UserMessage
from tui.widgets.knowledge import VERDICT, KnowledgePane, NodeSelected, score_text, verdict_mark
from tui.widgets.status import StatusBar
from tui.widgets.welcome import ExamplePicked, Welcome

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
    # A reply kgchat composed from the KG replaces the model's: F3 shows the model's and the checks.
    Binding("f3", "show_tab('tab-checks')", "Checks", id="checks", show=False),
    Binding("escape", "cancel", "Cancel reply", id="cancel", show=False),
    Binding("ctrl+q", "quit", "Quit", id="quit", priority=True),
]
BINDING_IDS = {b.id for b in BINDINGS}


class KGChatApp(CommandsMixin, LoadingMixin, App):
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
        """Notifications carry loader errors, paths and queries: brackets and controls in them are text."""
        super().notify(inert(message), title=inert(title), severity=severity, timeout=timeout, markup=markup)

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
        self.status.settings = (f"{c.retriever} · {c.scorer} · k={c.k}" + (" · llm rewrite" if c.rewrite == "llm" else "")
                                + (f" · answer {c.answer}" if c.answer != "auto" else ""))

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
            from engine.llm import backend

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
        self.show_overview(self.session)

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
            self.notify(message.note, severity="warning")

    @on(ExamplePicked)
    def use_example(self, message: ExamplePicked) -> None:
        self.prompt_input.load_text(message.text)
        self.prompt_input.move_cursor(self.prompt_input.document.end)
        self.prompt_input.focus()

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
        if event.composed:
            await reply.show_composed(event.text, event.composed)
            return
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
            if state.composed:
                if reply.text.strip() != state.composed["response"].strip() or "composed" not in reply.classes:
                    await reply.show_composed(state.composed["response"], state.answer_source)
            else:
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
            elif state.composed:
                reply.set_footer(composed_line(state.composed, bool(state.response), self.key_of("checks")))
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


def composed_line(composed: dict, had_reply: bool, checks_key: str) -> Text:
    """The footer of a reply kgchat wrote itself: why, from what, and where the model's is."""
    if composed["source"] == "not_found":
        return Text("nothing in the knowledge graph matched — the model was not asked", style="dim")
    line = Text("📚 composed from ", style="bold")
    line.append(f"{len(composed['facts'])} fact{'s' if len(composed['facts']) != 1 else ''} of the knowledge graph",
                style="bold")
    line.append(f" — {composed['reason']}", style="dim")
    if had_reply:
        line.append(f"\nthe model's reply and its checks: {checks_key} (Checks tab)", style="dim italic")
    return line

