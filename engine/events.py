"""What a turn reports while it runs. The TUI turns each into a message; the CLI ignores most."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class StageStarted:
    stage: str


@dataclass(frozen=True)
class StageFinished:
    stage: str
    ms: float
    data: Any = None  # the part of TurnState the stage produced (a list, a str, ...)


@dataclass(frozen=True)
class Token:
    text: str


@dataclass(frozen=True)
class ReplyDone:
    text: str
    cut: bool = False
    refined: bool = False
    note: str = ""  # what was cut of the reply (a loop)


@dataclass(frozen=True)
class ChecksDone:
    checks: list
    fact_score: float | None
    neip: float | None
    refined: bool = False


@dataclass(frozen=True)
class Linked:
    """The turn's mentions are linked and its facts derived (the reasoning pane can show them)."""


@dataclass(frozen=True)
class Retrieved:
    """The turn's facts are retrieved (the facts pane and the graph can show them)."""


@dataclass(frozen=True)
class AnswerShown:
    """The reply the user is shown, once per turn that answers: the model's (refined when it was)
    or kgchat's own (`source` facts or not_found), which then stands beside the model's."""

    text: str
    source: str  # engine.state.AnswerSource
    refined: bool = False  # the model's refined reply


@dataclass(frozen=True)
class TurnError:
    stage: str
    message: str


Event = StageStarted | StageFinished | Token | ReplyDone | ChecksDone | Linked | Retrieved | AnswerShown | TurnError
# Events after which a front end may show the turn as it stands (the app's panes)
VIEW_EVENTS = (Linked, Retrieved, ChecksDone, AnswerShown)
EventSink = Callable[[Event], None]


def ignore(_event: Event) -> None:
    pass
