"""Stage "check": the reply's atomic claims, each verified against the retrieved facts, the KG
neighbourhood of the entities it names and the dialogue so far (dialogue FactScore)."""

from __future__ import annotations

from engine.events import ChecksDone
from engine.stage import TurnContext, stage
from engine.state import TurnState


def make_verifier(state: TurnState, ctx: TurnContext):
    from engine.encoder import encoder_for
    from engine.factcheck.verify import Verifier
    from engine.mentions import label_index

    return Verifier(ctx.background, label_index(ctx), now=state.now, retrieved=state.retrieved,
                    mentions=state.mentions, history=list(state.history) + [("user", state.text)],
                    speaker=state.speaker_entity, encoder=ctx.resources.get("encoder"),
                    relation_encoder=lambda: encoder_for(ctx))


def splitter(state: TurnState, ctx: TurnContext, verifier):
    """The LLM splitter when the config asks for it, else None (the deterministic one)."""
    if ctx.config.checker != "llm":
        return None
    from engine.factcheck.llm_split import llm_split
    from engine.generate import backend

    llm = backend(ctx)
    return lambda reply: llm_split(reply, llm, protect=verifier.protected_spans, cancel=ctx.cancel)


@stage("check", report=lambda s: s.checks)
def run(state: TurnState, ctx: TurnContext) -> None:
    from engine.factcheck import check_reply, scores

    if not state.response or state.error:
        return
    verifier = make_verifier(state, ctx)
    state.checks = check_reply(state.response, verifier, splitter(state, ctx, verifier))
    state.fact_score, state.neip = scores(state.checks)
    ctx.emit(ChecksDone(list(state.checks), state.fact_score, state.neip))
