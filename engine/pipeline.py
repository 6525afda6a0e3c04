"""The turn pipeline: the stages, in order, each a module of `engine` with a `run` function."""

from __future__ import annotations

from importlib import import_module

from engine.stage import StageFn, TurnContext
from engine.state import TurnState

RETRIEVAL_STAGES = ("observe", "reason", "rewrite", "plan", "candidates", "verbalize", "score", "retrieve")
ANSWER_STAGES = ("generate", "check", "refine")
STAGES = RETRIEVAL_STAGES + ANSWER_STAGES


def stage_function(name: str) -> StageFn:
    return import_module(f"engine.{name}").run


def run_stages(state: TurnState, ctx: TurnContext, names: tuple[str, ...] = STAGES) -> TurnState:
    for name in names:
        ctx.check_cancel()
        stage_function(name)(state, ctx)
    return state
