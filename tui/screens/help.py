"""The keys, as currently mapped (after the `[keys]` table of the config)."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Static

# Keys the prompt handles itself (not remappable: they are the text editor's own).
PROMPT_KEYS = [("enter", "send the message"), ("ctrl+j / shift+enter", "new line in the message"),
               ("up (empty prompt)", "recall the previous message"), ("ctrl+p", "command palette: every command")]


def keys_table(bindings: list[tuple[str, str, str]]) -> Table:
    table = Table(expand=True, show_edge=False, box=None, padding=(0, 2))
    table.add_column("key", style="bold cyan", no_wrap=True)
    table.add_column("action")
    table.add_column("config name", style="dim")
    for key, description, binding_id in bindings:
        table.add_row(key, description, binding_id)
    for key, description in PROMPT_KEYS:
        table.add_row(key, description, "")
    return table


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape,f1,q", "app.pop_screen", "Close")]

    def __init__(self, bindings: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.bindings = bindings

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box") as box:
            box.border_title = "kgchat keys"
            box.border_subtitle = escape('remap in config.toml, table [keys]: name = "key"   ·   Esc closes')
            yield Static(keys_table(self.bindings))
