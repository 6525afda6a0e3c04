"""Past sessions in the store: pick one to reopen it with its dialogue."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from engine import dialogue
from engine.inert import inert


class SessionsScreen(ModalScreen[tuple[str, list[tuple[str, str]]] | None]):
    """Dismisses with (session id, its history as (speaker, text)) or None."""

    BINDINGS = [Binding("escape", "dismiss_none", "Close")]

    def __init__(self, store, current: str) -> None:
        super().__init__()
        self.store = store
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="sessions-box") as box:
            box.border_title = "Sessions"
            box.border_subtitle = "Enter reopens · Esc closes"
            yield Static(Text("reading the store…", style="italic dim"), id="sessions-note")
            yield DataTable(id="sessions-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("session", "started", "turns", "first message")
        table.focus()
        self.read_sessions()

    @work(thread=True, exclusive=True, exit_on_error=False)
    def read_sessions(self) -> None:
        sessions = dialogue.list_sessions(self.store)
        self.app.call_from_thread(self._show, sessions)

    def _show(self, sessions) -> None:
        table = self.query_one(DataTable)
        for s in sessions:
            sid = Text(inert(s.session_id), style="bold" if s.session_id == self.current else "")
            first = s.first_text if len(s.first_text) <= 60 else s.first_text[:59] + "…"
            table.add_row(sid, s.started.replace("T", " "), str(s.turns), Text(inert(first)), key=s.session_id)
        note = f"{len(sessions)} session{'s' if len(sessions) != 1 else ''} in the store" if sessions else \
            "No past sessions in this store (with --memory nothing is kept between runs)."
        self.query_one("#sessions-note", Static).update(Text(note, style="dim"))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.reopen(str(event.row_key.value))

    @work(thread=True, exclusive=True, exit_on_error=False)
    def reopen(self, session_id: str) -> None:
        history = dialogue.history(self.store, session_id)
        self.app.call_from_thread(self.dismiss, (session_id, history))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
