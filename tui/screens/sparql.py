"""A SPARQL console over the app's store: write a query, run it, watch the rows arrive in a
table; a row limit and a timeout bound it, and Escape stops it (the app never waits on it)."""

from __future__ import annotations

import time

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Static, TextArea

from engine.inert import inert
from engine.options import out_of_range
from kgstore.errors import BadInput
from kgstore.loaders import one_line
from kgstore.query import DEFAULT_LIMIT, DEFAULT_TIMEOUT_S, BoundedQuery, Head, Outcome

EXAMPLE = """SELECT ?graph (COUNT(*) AS ?triples)
WHERE { GRAPH ?graph { ?s ?p ?o } }
GROUP BY ?graph ORDER BY DESC(?triples)
"""
BATCH_ROWS = 200  # rows handed to the table at once...
BATCH_S = 0.1  # ...or whatever came in this long
LIMIT_BOUNDS = {"ge": 1, "le": 10_000}  # a table to read, not an export (`kgchat sparql --json` is one)
TIMEOUT_BOUNDS = {"gt": 0, "le": 3600}


class SparqlScreen(Screen):
    CSS_PATH = "sparql.tcss"
    BINDINGS = [
        Binding("ctrl+r,f5", "run_query", "Run", id="sparql.run", priority=True),
        Binding("escape", "stop_or_back", "Stop / Back", id="sparql.back"),
    ]

    def __init__(self, store) -> None:
        super().__init__()
        self.store = store
        self.rows: list[dict[str, str]] = []
        self.outcome: Outcome | None = None  # how the last query ended
        self._run: BoundedQuery | None = None
        self._columns: list[str] = []
        self._head: Head | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="sparql-body"):
            yield TextArea(EXAMPLE, id="query", show_line_numbers=True, soft_wrap=True)
            with Horizontal(id="sparql-bar"):
                yield Button("Run  (Ctrl+R)", id="run", variant="primary")
                yield Button("Stop  (Esc)", id="stop", variant="warning", disabled=True)
                yield Label("rows ≤", classes="sparql-label")
                yield Input(str(DEFAULT_LIMIT), id="limit", type="integer", classes="sparql-number")
                yield Label("timeout s", classes="sparql-label")
                yield Input(f"{DEFAULT_TIMEOUT_S:g}", id="timeout", type="number", classes="sparql-number")
                yield Static("", id="sparql-status")
            yield DataTable(id="results", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "SPARQL console"
        self.query_one("#query", TextArea).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "run":
            self.action_run_query()
        elif event.button.id == "stop":
            self.action_stop_or_back()

    @property
    def running(self) -> bool:
        return self._run is not None and self.outcome is None

    def action_stop_or_back(self) -> None:
        if self.running:
            self._run.cancel()
            self._status("stopping…", "italic")
        else:
            self.app.pop_screen()

    def _bound(self, widget_id: str, kind: type, bounds: dict) -> float | int | None:
        """The number in an Input, or None after telling the user what is wrong with it."""
        text = self.query_one(f"#{widget_id}", Input).value.strip()
        try:
            value = kind(text)
        except ValueError:
            value, problem = None, "a number is needed"
        else:
            problem = out_of_range(value, **bounds)
        if problem:
            name = "row limit" if widget_id == "limit" else "timeout"
            self._show_error(f"{name} {problem}, not {text or 'empty'}")
            return None
        return value

    def action_run_query(self) -> None:
        if self.running:
            self.app.notify("A query is still running: stop it first (Esc).", severity="warning")
            return
        limit = self._bound("limit", int, LIMIT_BOUNDS)
        timeout = self._bound("timeout", float, TIMEOUT_BOUNDS)
        if limit is None or timeout is None:
            return
        try:
            self._run = BoundedQuery(self.store, self.query_one("#query", TextArea).text, limit=limit, timeout=timeout)
        except BadInput as exc:
            self._show_error(str(exc))
            return
        self.outcome, self.rows, self._head = None, [], None
        self.query_one("#stop", Button).disabled = False
        self._status("running…", "italic")
        self.stream(self._run)

    @work(thread=True, exclusive=True, group="sparql", exit_on_error=False)
    def stream(self, run: BoundedQuery) -> None:
        """Hand the rows to the table in batches as they come; the UI thread never waits."""
        error = None
        try:
            head = run.head()
            self.app.call_from_thread(self._start_table, head)
            batch: list[dict[str, str]] = []
            last = time.monotonic()
            for row in run.rows(idle=BATCH_S):
                if row is not None:
                    batch.append(row)
                if batch and (row is None or len(batch) >= BATCH_ROWS or time.monotonic() - last >= BATCH_S):
                    self.app.call_from_thread(self._add_rows, batch)
                    batch, last = [], time.monotonic()
            if batch:
                self.app.call_from_thread(self._add_rows, batch)
        except BadInput as exc:
            error = str(exc)
        except Exception as exc:  # a bug: said in one line rather than crashing the app
            error = f"internal error: {type(exc).__name__}: {one_line(exc)}"
        still_busy = run.running
        self.app.call_from_thread(self._done, run, error, still_busy)

    def _start_table(self, head: Head | None) -> None:
        table = self.query_one("#results", DataTable)
        table.clear(columns=True)
        self._columns = []
        self._head = head
        if head is None:
            return
        if head.boolean is not None:
            table.add_column("ASK")
            table.add_row(str(head.boolean).lower())
            return
        self._columns = list(head.columns)
        for col in self._columns:
            table.add_column(col, key=col)

    def _add_rows(self, rows: list[dict[str, str]]) -> None:
        table = self.query_one("#results", DataTable)
        self.rows.extend(rows)
        for row in rows:
            table.add_row(*(Text(inert(row.get(c, ""))) for c in self._columns))
        self._status(f"running… {len(self.rows)} rows", "italic")

    def _done(self, run: BoundedQuery, error: str | None, still_busy: bool) -> None:
        if run is not self._run:
            return
        self.outcome = run.outcome
        self.query_one("#stop", Button).disabled = True
        if error:
            self._show_error(error)
            return
        head = self._head
        n = run.outcome.rows
        if head is not None and head.boolean is not None:
            self._status(f"✓ {str(head.boolean).lower()}", "green")
            return
        note = run.outcome.note(run.limit, run.timeout)
        if note and still_busy:
            note += "; pyoxigraph cannot stop a step that reads everything first (ORDER BY, GROUP BY): " \
                    "it finishes that in the background"
        if note:
            self._status(f"⚠ {n} row{'s' if n != 1 else ''}: {note}", "yellow")
            self.app.notify(note, title="SPARQL result cut", severity="warning", timeout=8)
        else:
            self._status(f"✓ {n} row{'s' if n != 1 else ''} in {run.outcome.seconds:.2f} s", "green")

    def _status(self, text: str, style: str) -> None:
        self.query_one("#sparql-status", Static).update(Text(inert(text), style=style))

    def _show_error(self, message: str) -> None:
        self._status("✗ " + message, "red")
        self.app.notify(message, title="SPARQL error", severity="error")
