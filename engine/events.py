"""What a turn reports while it runs. The TUI turns each into a message; the CLI ignores most."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union


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
    composed: str = ""  # "facts" or "not_found" when the text is kgchat's own answer, not the model's


@dataclass(frozen=True)
class ChecksDone:
    checks: list
    fact_score: float | None
    neip: float | None
    refined: bool = False


@dataclass(frozen=True)
class TurnError:
    stage: str
    message: str


Event = Union[StageStarted, StageFinished, Token, ReplyDone, ChecksDone, TurnError]
EventSink = Callable[[Event], None]


def ignore(_event: Event) -> None:
    pass
