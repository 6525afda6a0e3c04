"""Messages the thread workers post. Workers never touch widgets: every state change happens
in the handlers for these, on the UI thread (the app's, the main screen's, the loader's)."""

from __future__ import annotations

from typing import Any

from textual.message import Message

from engine.events import Event
from tui.live import TurnView


class SessionOpened(Message):
    def __init__(self, session: Any, kg_size: int, graphs: list[str], note: str = "") -> None:
        super().__init__()
        self.session = session
        self.kg_size = kg_size
        self.graphs = graphs  # names of the background graphs
        self.note = note  # why the session is not what was asked for (fallback), or ""


class SessionFailed(Message):
    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message


class ModelLoaded(Message):
    def __init__(self, name: str, device: str, error: str = "", process: str = "") -> None:
        super().__init__()
        self.name = name
        self.device = device
        self.error = error
        self.process = process  # "own" when the model runs in a process of its own


class ScorerStatus(Message):
    """The scorer's models: being prepared (`activity` says how), or ready on `device`, with why
    not CUDA in `note`; `error` when preparing them failed (the first turn then tries again)."""

    def __init__(self, device: str = "", note: str = "", activity: str = "", error: str = "") -> None:
        super().__init__()
        self.device = device
        self.note = note
        self.activity = activity
        self.error = error


class EngineEvent(Message):
    """One engine event of turn `turn`; `view` is a copy of the TurnState after a stage."""

    def __init__(self, turn: int, event: Event, view: TurnView | None = None) -> None:
        super().__init__()
        self.turn = turn
        self.event = event
        self.view = view


class TurnFinished(Message):
    def __init__(self, turn: int, view: TurnView, kg_size: int) -> None:
        super().__init__()
        self.turn = turn
        self.view = view
        self.kg_size = kg_size


class TurnFailed(Message):
    """The engine raised: the turn is over, the session goes on."""

    def __init__(self, turn: int, message: str) -> None:
        super().__init__()
        self.turn = turn
        self.message = message


class LoadProgress(Message):
    """File `index` of `total` is loading: `done` of its `size` bytes read (0 until a bulk load
    reports)."""

    def __init__(self, index: int, total: int, path: str, done: int, size: int) -> None:
        super().__init__()
        self.index = index
        self.total = total
        self.path = path
        self.done = done
        self.size = size


class LoadFinished(Message):
    def __init__(self, session: Any, reports: list[tuple[str, Any]], error: str, kg_size: int) -> None:
        super().__init__()
        self.session = session  # the session the files went into
        self.reports = reports  # (path, LoadReport) of the files that loaded
        self.error = error  # the loader's message for the file that failed, or ""
        self.kg_size = kg_size


class OverviewReady(Message):
    """What the loaded KG holds and example questions (engine.overview), for the first screen."""

    def __init__(self, overview: Any, note: str = "") -> None:
        super().__init__()
        self.overview = overview
        self.note = note  # why the overview is partial, or ""


class NodeFacts(Message):
    """The facts about a node picked in the subgraph, verbalized, for the knowledge pane."""

    def __init__(self, label: str, facts: list[str]) -> None:
        super().__init__()
        self.label = label
        self.facts = facts
