"""Loading knowledge graph files into the running app: the file picker, a worker that loads
one file after another with a progress bar, and what the user is told when it ends (then the
first screen of the new knowledge)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from urllib.parse import unquote

from textual import work
from textual.widgets import ProgressBar

from engine.session import Session
from kgstore.errors import BadInput
from kgstore.vocab import GRAPH_BG
from tui.messages import LoadFinished, LoadProgress
from tui.widgets.chat import Notice
from tui.widgets.status import REMOTE

# The bar moves at most this often (seconds), whatever the loader's pace.
PROGRESS_S = 0.05


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


class LoadingMixin:
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
                if now - last[0] >= PROGRESS_S:  # the bar moves at the token pace, not per read
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
        if message.reports and self.session is not None:
            self.show_overview(self.session)
