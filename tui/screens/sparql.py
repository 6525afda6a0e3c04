"""A SPARQL console over the app's store: write a query, run it, read the rows in a table."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Static, TextArea

from kgstore.errors import BadInput

EXAMPLE = """SELECT ?graph (COUNT(*) AS ?triples)
WHERE { GRAPH ?graph { ?s ?p ?o } }
GROUP BY ?graph ORDER BY DESC(?triples)
"""
MAX_ROWS = 1000


class SparqlScreen(Screen):
    CSS_PATH = "sparql.tcss"
    BINDINGS = [
        Binding("ctrl+r,f5", "run_query", "Run", id="sparql.run", priority=True),
        Binding("escape", "app.pop_screen", "Back", id="sparql.back"),
    ]

    def __init__(self, store) -> None:
        super().__init__()
        self.store = store
        self.rows: list[dict[str, str]] | bool = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="sparql-body"):
            yield TextArea(EXAMPLE, id="query", show_line_numbers=True, soft_wrap=True)
            with Horizontal(id="sparql-bar"):
                yield Button("Run  (Ctrl+R)", id="run", variant="primary")
                yield Static("", id="sparql-status")
            yield DataTable(id="results", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "SPARQL console"
        self.query_one("#query", TextArea).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "run":
            self.action_run_query()

    def action_run_query(self) -> None:
        self.query_one("#sparql-status", Static).update(Text("running…", style="italic"))
        self.run_query(self.query_one("#query", TextArea).text)

    @work(thread=True, exclusive=True, group="sparql", exit_on_error=False)
    def run_query(self, query: str) -> None:
        try:
            result = self.store.query(query)
        except (BadInput, SyntaxError, ValueError, OSError) as exc:
            self.app.call_from_thread(self._show_error, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            return
        self.app.call_from_thread(self._show_result, result)

    def _show_error(self, message: str) -> None:
        self.query_one("#sparql-status", Static).update(Text("✗ " + message, style="red"))
        self.app.notify(message, title="SPARQL error", severity="error")

    def _show_result(self, result) -> None:
        self.rows = result
        table = self.query_one("#results", DataTable)
        table.clear(columns=True)
        status = self.query_one("#sparql-status", Static)
        if isinstance(result, bool):
            table.add_column("ASK")
            table.add_row(str(result).lower())
            status.update(Text(f"✓ {str(result).lower()}", style="green"))
            return
        columns = list(dict.fromkeys(k for row in result for k in row))
        for col in columns:
            table.add_column(col, key=col)
        for row in result[:MAX_ROWS]:
            table.add_row(*(Text(row.get(c, "")) for c in columns))
        more = f" (first {MAX_ROWS} shown)" if len(result) > MAX_ROWS else ""
        status.update(Text(f"✓ {len(result)} row{'s' if len(result) != 1 else ''}{more}", style="green"))
