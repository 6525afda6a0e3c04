"""Loading knowledge graph files into the running app: the progress bar under the chat runs
the worker that loads one file after another, and moves with the progress that worker posts;
what the user is told when it ends is the main screen's (tui/screens/main.py)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from urllib.parse import unquote

from textual import work
from textual.message import Message
from textual.widgets import ProgressBar

from engine.session import Session
from kgstore.errors import BadInput
from kgstore.vocab import GRAPH_BG
from tui.messages import LoadFinished, LoadProgress, ScorerStatus
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


def prepare_scorer(session: Session, post: Callable[[Message], object]) -> None:
    """The MiniLM export (once per install; the status bar says so meanwhile), the scorer's
    models and a small KG's embeddings, ahead of the first turn (in a worker thread: what it
    has to say goes out through `post`)."""
    def say(text: str) -> None:
        post(ScorerStatus(activity=text))

    try:
        device, note = session.prepare(say=say)
    except Exception as exc:  # noqa: BLE001 - the first turn tries again and reports it there
        post(ScorerStatus(error=f"{type(exc).__name__}: {exc}"))
        return
    post(ScorerStatus(device, note))


class KGLoader(ProgressBar):
    """The bar shows only while files load. Its LoadProgress and LoadFinished messages bubble on
    to the screen, which tells the user; the scorer's preparation for the new knowledge follows
    in the same worker."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, show_eta=False)
        self.working = False

    def load(self, session: Session, paths: list[str], format: str | None) -> None:
        self.working = True
        self.update(total=None, progress=0)
        self.add_class("visible")
        self._load(session, paths, format)

    @work(thread=True, group="load", exclusive=True, exit_on_error=False)
    def _load(self, session: Session, paths: list[str], format: str | None) -> None:
        reports, error = [], ""
        for i, path in enumerate(paths):
            size = os.path.getsize(path) if os.path.isfile(path) else 0
            last = [0.0]

            def progress(done: int, i=i, path=path, size=size, last=last) -> None:
                now = time.monotonic()
                if now - last[0] >= PROGRESS_S:  # the bar moves at the token pace, not per read
                    last[0] = now
                    self.post_message(LoadProgress(i, len(paths), path, done, size))

            self.post_message(LoadProgress(i, len(paths), path, 0, size))
            try:
                reports.append((path, session.load(path, format=format, progress=progress,
                                                   key=session.ctx.config.key)))
            except (BadInput, OSError) as exc:  # the loader left the store as it was
                error = str(exc)
                break
        self.post_message(LoadFinished(session, reports, error, kg_size(session.ctx)))
        if reports:
            prepare_scorer(session, self.post_message)

    def on_load_progress(self, message: LoadProgress) -> None:
        # Small files load in one go (no byte counts): the bar then just says "working".
        self.update(total=message.size if message.done else None, progress=message.done)

    def on_load_finished(self, message: LoadFinished) -> None:
        self.working = False
        self.remove_class("visible")
