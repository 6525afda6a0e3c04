"""What every pipeline stage shares: the `TurnContext` it runs in (config, store, background,
resources, events, cancel) and the `@stage` mechanism (timing, events)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, Protocol

from engine.config import Config
from engine.events import EventSink, StageFinished, StageStarted, ignore
from engine.state import TurnState
from kgstore.terms import Fact, LabelEntry, LoadReport, Neighborhood


class Background(Protocol):
    """What stages read of the background knowledge: a local KGStore, or a remote SPARQL
    endpoint (kgstore.remote.SparqlBackground, wrapped in engine.background)."""

    def label(self, iri: str) -> str: ...
    def labels(self, iris: Iterable[str]) -> dict[str, str]: ...
    def types(self, iri: str) -> list[str]: ...
    def entities_of_type(self, type_iri: str, cap: int = 200) -> list[str]: ...
    def facts_about(self, iri: str, cap: int = 200) -> list[Fact]: ...
    def neighborhood(self, seeds: Iterable[str], hops: int = 1, cap: int = 2000) -> Neighborhood: ...
    def query(self, sparql: str) -> list[dict[str, str]] | bool: ...
    def count(self, graph: str | None = None) -> int: ...
    def label_entries(self) -> list[LabelEntry]: ...


class Store(Background, Protocol):
    """The local store a session writes its dialogue and derived facts to (kgstore.KGStore)."""

    def add(self, facts: Iterable[Fact], graph: str) -> None: ...
    def add_probabilistic(self, fact: Fact, p: float, graph: str, rule: str = "") -> None: ...
    def update(self, sparql_update: str) -> None: ...
    def probability(self, fact: Fact, graph: str | None = None) -> float | None: ...
    def remove_graph(self, graph: str) -> None: ...
    def load(self, path: str, format: str | None = None, *,
             progress: Callable[[int], None] | None = None, key: str | None = None) -> LoadReport: ...


def select(source: Background, sparql: str) -> list[dict[str, str]]:
    """The rows of a SELECT query: `query` answers an ASK with a bool, which no caller of this
    one sends."""
    rows = source.query(sparql)
    if isinstance(rows, bool):
        raise TypeError(f"not a SELECT query: {sparql[:80]}")
    return rows


class Cancelled(Exception):
    """Raised inside a stage when the user cancelled the turn."""


@dataclass
class TurnContext:
    """Everything a stage may use besides the TurnState: long-lived, shared across turns."""

    config: Config
    store: Store  # dialogue + derived graphs, and the background when it is local
    background: Background  # the same KGStore, or a remote SPARQL one
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
