"""Verbalize stage: every candidate fact becomes one plain English sentence (engine.nlp.sentences),
and a derived fact that restates a KG fact is merged into it."""

from __future__ import annotations

from engine.context import TurnContext, stage
from engine.nlp.sentences import merge_restatements, verbalize
from engine.state import TurnState


def _report(state: TurnState) -> list[str]:
    return [c.text for c in state.candidates]


@stage("verbalize", report=_report)
def run(state: TurnState, ctx: TurnContext) -> None:
    if state.candidates:
        verbalize(state.candidates, ctx.background)
        binary = {d.fact.key for d in state.derived if d.fact is not None and len(d.args) == 2}
        state.candidates = merge_restatements(state.candidates, binary)
        restated = {t["text"] for c in state.candidates for t in c.also_derived}
        for d in state.derived:
            d.restates = d.text in restated
