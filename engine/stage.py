"""The one mechanism every pipeline stage shares: timing, events and the `TurnContext`."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, Callable

from engine.config import Config
from engine.events import EventSink, StageFinished, StageStarted, ignore
from engine.state import TurnState


class Cancelled(Exception):
    """Raised inside a stage when the user cancelled the turn."""


@dataclass
class TurnContext:
    """Everything a stage may use besides the TurnState: long-lived, shared across turns."""

    config: Config
    store: Any  # kgstore.KGStore: dialogue + derived graphs, and local background
    background: Any  # read interface for background facts: the same KGStore, or a remote SPARQL one
    resources: dict[str, Any] = field(default_factory=dict)  # lazily built models, caches
    emit: EventSink = ignore
    cancel: threading.Event = field(default_factory=threading.Event)

    def resource(self, name: str, factory: Callable[[], Any]) -> Any:
        """Build a heavy object (encoder, scorer, LLM) once and share it between turns."""
        if name not in self.resources:
            self.resources[name] = factory()
        return self.resources[name]

    def check_cancel(self) -> None:
        if self.cancel.is_set():
            raise Cancelled()


StageFn = Callable[[TurnState, TurnContext], None]


def stage(name: str, report: Callable[[TurnState], Any] | None = None) -> Callable[[StageFn], StageFn]:
    """Mark a function as pipeline stage `name`: time it into `state.timings_ms[name]` and
    announce it; `report` picks what the StageFinished event carries."""

    def decorate(fn: StageFn) -> StageFn:
        @wraps(fn)
        def run(state: TurnState, ctx: TurnContext) -> None:
            ctx.emit(StageStarted(name))
            start = time.perf_counter()
            try:
                fn(state, ctx)
            finally:
                ms = (time.perf_counter() - start) * 1000.0
                state.timings_ms[name] = round(state.timings_ms.get(name, 0.0) + ms, 3)
            ctx.emit(StageFinished(name, ms, report(state) if report else None))

        run.stage_name = name  # type: ignore[attr-defined]
        return run

    return decorate
