"""The turn pipeline: the stage functions of `engine/stages/`, in the order a turn runs them."""

from __future__ import annotations

from collections.abc import Sequence

from engine.context import StageFn, TurnContext
from engine.stages import (
    answer,
    candidates,
    check,
    generate,
    observe,
    plan,
    reason,
    refine,
    retrieve,
    rewrite,
    route,
    score,
    verbalize,
)
from engine.state import TurnState

RETRIEVAL_STAGES: tuple[StageFn, ...] = (
    observe.run, reason.run, rewrite.run, plan.run, candidates.run, verbalize.run, score.run, route.run, retrieve.run,
)
# The answer stage runs on both sides of the model: it may answer without it, and it picks the reply shown.
ANSWER_STAGES: tuple[StageFn, ...] = (answer.before_model, generate.run, check.run, refine.run, answer.run)
STAGES = RETRIEVAL_STAGES + ANSWER_STAGES


def stage_name(fn: StageFn) -> str:
    return fn.stage_name  # type: ignore[attr-defined]


def run_stages(state: TurnState, ctx: TurnContext, stages: Sequence[StageFn] = STAGES) -> TurnState:
    for run in stages:
        ctx.check_cancel()
        run(state, ctx)
    return state
