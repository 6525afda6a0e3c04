"""The kgchat app: the conversation (sessions, turns, settings), its keys and their commands.

The layout and what concerns only its widgets is the main screen's (tui/screens/main.py); the
engine runs in thread workers that only post messages (tui/messages.py), and every widget and
every piece of app state changes in the handlers for them, on the UI thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from engine.config import Config, Retriever, Rewrite
from engine.events import (
    VIEW_EVENTS,
    AnswerShown,
    ChecksDone,
    Linked,
    ReplyDone,
    Retrieved,
    StageFinished,
    StageStarted,
    Token,
    TurnError,
)
from engine.inert import inert
from engine.session import Session
from engine.state import AnswerSource, Composed, Verdict
from kgstore.errors import BadInput
from tui.commands import palette
from tui.export import ChatTurn, write_export
from tui.live import freeze
from tui.loading import graph_names, kg_size, prepare_scorer
from tui.messages import EngineEvent, ModelLoaded, ScorerStatus, SessionFailed, SessionOpened, TurnFailed, TurnFinished
from tui.screens.help import HelpScreen
from tui.screens.main import MainScreen
from tui.widgets.chat import AssistantMessage, ChatLog, Notice, PromptInput, UserMessage
from tui.widgets.knowledge import VERDICT, KnowledgePane, NodeSelected, score_text, verdict_mark
from tui.widgets.status import StatusBar

# Tokens reach the screen at most this often (20 updates per second), whatever the model's pace.
FLUSH_S = 0.05

# Binding ids double as the names of the `[keys]` table in config.toml. The keys are the app's,
# not the main screen's, so that they work the same over the SPARQL console and the pickers.
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
        self.main = MainScreen()
        self.session: Session | None = None
        self.turns: list[ChatTurn] = []
        self.busy = False
        self._cancel = threading.Event()
        self._model_ready = threading.Event()
        self._reply: AssistantMessage | None = None
        self._pending: list[str] = []
        self._pending_refined = False
        self._turn_no = 0
        self._preparing = ""  # the status line the scorer's preparation put up
        self.set_keymap(config.keys)

    def notify(self, message: str, *, title: str = "", severity="information", timeout: float | None = None,
               markup: bool = False) -> None:
        """Notifications carry loader errors, paths and queries: brackets and controls in them are text."""
        super().notify(inert(message), title=inert(title), severity=severity, timeout=timeout, markup=markup)

    def get_default_screen(self) -> MainScreen:
        return self.main

    # The main screen's widgets, which the conversation fills.

    @property
    def chat(self) -> ChatLog:
        return self.main.chat

    @property
    def prompt_input(self) -> PromptInput:
        return self.main.prompt_input

    @property
    def pane(self) -> KnowledgePane:
        return self.main.pane

    @property
    def status(self) -> StatusBar:
        return self.main.status

    def on_mount(self) -> None:
        if self.config.theme in self.available_themes:
            self.theme = self.config.theme
        self.sub_title = "opening the knowledge graph…"
        self.set_interval(FLUSH_S, self._flush_tokens)

    def on_ready(self) -> None:
        """The main screen is up: the store and the model load in threads while the user types."""
        self._show_settings()
        self.open_session()

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
            prepare_scorer(session, self.post_message)
            return
        self.post_message(SessionFailed(first_error))

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
            self.post_message(ModelLoaded(getattr(llm, "name", "model"), getattr(llm, "device", ""),
                                          process=getattr(llm, "process", "")))
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
        self.main.show_overview(self.session)

    def on_session_failed(self, message: SessionFailed) -> None:
        self.sub_title = "no knowledge graph"
        self.notify(message.message, title="Could not open the store", severity="error", timeout=15)
        self.chat.mount(Notice("✗ " + message.message, "error"))

    def on_model_loaded(self, message: ModelLoaded) -> None:
        self.status.model, self.status.device = message.name, message.device
        self.status.device_note = "own process" if message.process == "own" else ""
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
                isinstance(event, VIEW_EVENTS) and session.current is not None) else None
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
        elif isinstance(event, Linked) and message.view is not None:
            self.pane.show_reasoning(message.view)
        elif isinstance(event, Retrieved) and message.view is not None:
            self.pane.show_retrieval(message.view)
        elif isinstance(event, ReplyDone):
            self.call_later(self._reply_done, self._reply, event)
            if event.note:
                self.chat.mount(Notice(f"⚠ {event.note}", "warning"), before=self._reply)
        elif isinstance(event, ChecksDone):
            self._reply.set_footer(checks_line(event.checks, event.fact_score, event.neip, event.refined))
            if message.view is not None:
                self.pane.show_checks(message.view)
        elif isinstance(event, AnswerShown):
            # Awaited here, not called later: the turn's end (next message) reads what it shows.
            await self._answer_shown(self._reply, event)
            if message.view is not None:
                self.pane.show_checks(message.view)
        elif isinstance(event, TurnError):
            self.notify(event.message, title=f"{event.stage} failed", severity="warning", timeout=8)
            self.turns[-1].errors.append(f"{event.stage}: {event.message}")
            self.chat.mount(Notice(f"⚠ {event.stage}: {event.message}", "warning"), before=self._reply)

    async def _reply_done(self, reply: AssistantMessage, event: ReplyDone | AnswerShown) -> None:
        await self._flush_tokens()
        if "composed" in reply.classes:  # a model reply rendered late: kgchat's own answer keeps the bubble
            return
        current = reply.refined_text if event.refined else reply.text
        if current.strip() != event.text.strip():
            await reply.set_text(event.text, refined=event.refined)

    async def _answer_shown(self, reply: AssistantMessage, event: AnswerShown) -> None:
        """kgchat's own answer takes the bubble (the model's stays in the Checks tab, F3); the
        model's own reply, refined or not, is made sure to read as the engine has it."""
        if event.source in (AnswerSource.FACTS, AnswerSource.NOT_FOUND):
            await self._flush_tokens()
            if reply.text.strip() != event.text.strip() or "composed" not in reply.classes:
                await reply.show_composed(event.text, event.source)
            return
        await self._reply_done(reply, event)

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
            # The streamed body may still wait for the model's final text (ReplyDone is rendered
            # later); the reply shown was rendered with AnswerShown.
            if not state.composed and state.response and reply.text.strip() != state.response.strip():
                await reply.set_text(state.response)
            record.reply = reply.final_text
            record.cut = state.cut or self._cancel.is_set()
            if record.cut:
                reply.add_class("cut")
                reply.set_footer(Text("⏹ cut short — the partial reply is kept" if reply.text else "⏹ cancelled",
                                      style="bold yellow"))
            elif state.error and not reply.text:
                reply.set_footer(Text("✗ no reply: " + state.error, style="red"))
            elif state.composed:
                contradicted = any(c.verdict == Verdict.CONTRADICTED for c in state.checks)
                reply.set_footer(composed_line(state.composed, bool(state.response), self.key_of("checks"),
                                               contradicted))
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

    # --- the knowledge pane ---------------------------------------------------------------

    @on(NodeSelected)
    def node_selected(self, message: NodeSelected) -> None:
        if self.session is not None:
            self.main.fetch_node_facts(self.session, message.iri, message.label)

    def action_show_tab(self, tab: str) -> None:
        self.main.show_tab(tab)

    def action_next_tab(self) -> None:
        self.main.next_tab()

    def action_toggle_pane(self) -> None:
        self.main.toggle_pane()

    # --- loading knowledge graph files ----------------------------------------------------

    def action_load_kg(self) -> None:
        from textual_fspicker import FileOpen

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.load_files([str(path)])

        self.push_screen(FileOpen(".", title="Load a knowledge graph file"), chosen)

    def load_files(self, paths: list[str]) -> None:
        if self.session is None or self.main.loader.working:
            self.notify("Wait for the current load to finish.", severity="warning")
            return
        self.main.loader.load(self.session, paths, self.config.format)

    # --- settings -------------------------------------------------------------------------

    def set_option(self, name: str, value: Any) -> None:
        """Change a retrieval/generation option for the next turns of this session."""
        setattr(self.config, name, value)
        if self.session is not None and self.session.config is not self.config:
            setattr(self.session.config, name, value)
        self._show_settings()
        self.notify(f"{name.replace('_', ' ')}: {value}", timeout=3)

    def action_cycle_retriever(self) -> None:
        order = list(Retriever)
        self.set_option("retriever", order[(order.index(self.config.retriever) + 1) % len(order)])

    def action_toggle_rewrite(self) -> None:
        self.set_option("rewrite", Rewrite.RULES if self.config.rewrite == Rewrite.LLM else Rewrite.LLM)

    def action_choose_model(self) -> None:
        from textual_fspicker import FileOpen, Filters

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.set_option("model", str(path))
                self.status.model, self.status.device, self.status.device_note = "model loading…", "", ""
                self.reload_model()

        self.push_screen(FileOpen(".", title="Choose a GGUF model",
                                  filters=Filters(("GGUF", lambda p: p.suffix.lower() == ".gguf"),
                                                  ("All", lambda _: True))), chosen)

    def settings(self) -> dict[str, Any]:
        c = self.config
        return {"retriever": c.retriever, "scorer": c.scorer, "k": c.k, "rewrite": c.rewrite,
                "model": self.status.model, "device": self.status.device, "now": c.now or ""}

    # --- sessions -------------------------------------------------------------------------

    def _reset_chat(self) -> None:
        self.turns = []
        self._reply = None
        self._pending.clear()
        self.main.clear()

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
            elif self.turns:
                self.turns[-1].reply = text
        self.main.replay(history)

    # --- export, clipboard, console -------------------------------------------------------

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

    # --- keys and the command palette -----------------------------------------------------

    def action_help(self) -> None:
        keys = [(self.get_key_display(b), b.description, b.id or "") for b in self.effective_bindings()]
        self.push_screen(HelpScreen(keys))

    def key_of(self, binding_id: str) -> str:
        """The key the user presses for a binding (after their remapping), as the footer shows it."""
        return next(self.get_key_display(b) for b in self.effective_bindings() if b.id == binding_id)

    def effective_bindings(self) -> list[Binding]:
        """The app's bindings with the user's `[keys]` remapping applied."""
        return [replace(b, key=self._keymap.get(b.id, b.key)) if b.id else b for b in self.BINDINGS]

    def get_system_commands(self, screen: Screen) -> Iterator[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield from palette(self)


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


def composed_line(composed: Composed, had_reply: bool, checks_key: str, contradicted: bool = False) -> Text:
    """The footer of a reply kgchat wrote itself, in plain words and said once: where it comes
    from and where the model's reply is (and whether the graph contradicts it); why it replaced
    the model's is in the Checks tab."""
    if composed.source == AnswerSource.NOT_FOUND:
        return Text("Nothing in the knowledge graph matched; the model was not asked.", style="dim")
    n = len(composed.facts)
    line = Text(f"From the knowledge graph ({n} fact{'s' if n != 1 else ''}).", style="bold")
    if had_reply:
        said = "contradicts the knowledge graph" if contradicted else "did not answer this"
        line.append(f" The model's reply {said}; {checks_key} shows it.", style="dim italic")
    return line

