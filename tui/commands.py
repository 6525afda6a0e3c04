"""The app's commands beyond the chat itself: retrieval and model settings, sessions, export,
the SPARQL console, help, and the command palette that lists them all."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from engine.config import AnswerMode, Retriever, Rewrite, Scorer
from engine.session import Session
from tui.export import ChatTurn, write_export
from tui.screens.help import HelpScreen
from tui.widgets.chat import AssistantMessage, Notice, UserMessage

class CommandsMixin:
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
                self.status.model, self.status.device = "model loading…", ""
                self.reload_model()

        self.push_screen(FileOpen(".", title="Choose a GGUF model",
                                  filters=Filters(("GGUF", lambda p: p.suffix.lower() == ".gguf"),
                                                  ("All", lambda _: True))), chosen)

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

    def key_of(self, binding_id: str) -> str:
        """The key the user presses for a binding (after their remapping), as the footer shows it."""
        return next(self.get_key_display(b) for b in self.effective_bindings() if b.id == binding_id)

    def effective_bindings(self) -> list[Binding]:
        """The app's bindings with the user's `[keys]` remapping applied."""
        return [replace(b, key=self._keymap.get(b.id, b.key)) if b.id else b for b in self.BINDINGS]

    def get_system_commands(self, screen: Screen):
        yield from super().get_system_commands(screen)
        yield SystemCommand("Load KG file…", "Load an RDF/CSV/JSON knowledge graph file into the store",
                            self.action_load_kg)
        yield SystemCommand("SPARQL console", "Query the store and read the rows in a table", self.action_sparql)
        for r in Retriever:
            yield SystemCommand(f"Retriever: {r}", f"Retrieve the subgraph with {r} from the next turn on",
                                lambda r=r: self.set_option("retriever", r))
        for s in Scorer:
            yield SystemCommand(f"Scorer: {s}", f"Score candidate facts with the {s} scorer",
                                lambda s=s: self.set_option("scorer", s))
        for k in (3, 5, 8, 10, 15):
            yield SystemCommand(f"k = {k}", f"Keep {k} facts (topk) / give prizes to {k} edges (PCST)",
                                lambda k=k: self.set_option("k", k))
        for a in AnswerMode:
            yield SystemCommand(f"Answer: {a}", {"auto": "The model's reply, or one composed from the KG when the "
                                                         "checks reject it", "llm": "Always the model's reply",
                                                 "facts": "Always an answer composed from the KG's facts"}[a],
                                lambda a=a: self.set_option("answer", a))
        yield SystemCommand("Choose model…", "Pick a GGUF model file; it loads in the background",
                            self.action_choose_model)
        state = "off" if self.config.rewrite == Rewrite.LLM else "on"
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
