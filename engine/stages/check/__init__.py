"""Stage "check": the reply's atomic claims, each verified against the retrieved facts, the KG
neighbourhood of the entities it names and the dialogue so far (dialogue FactScore)."""

from __future__ import annotations

from engine.checking import check_turn
from engine.context import TurnContext, stage
from engine.events import ChecksDone
from engine.state import TurnState


@stage("check", report=lambda s: s.checks)
def run(state: TurnState, ctx: TurnContext) -> None:
    if not state.response or state.error:
        return
    state.checks, state.checks_truncated, state.fact_score, state.neip = check_turn(state, ctx, state.response)
    ctx.emit(ChecksDone(list(state.checks), state.fact_score, state.neip))
