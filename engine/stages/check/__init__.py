"""Stage "check": the reply's atomic claims, each verified against the retrieved facts, the KG
neighbourhood of the entities it names and the dialogue so far (dialogue FactScore)."""

from __future__ import annotations

from engine.events import ChecksDone
from engine.stage import TurnContext, stage
from engine.state import TurnState


def make_verifier(state: TurnState, ctx: TurnContext):
    from engine.nlp.mentions import label_index
    from engine.factcheck.verify import Verifier
    from engine.stages.score.encoder import encoder_for

    return Verifier(ctx.background, label_index(ctx), now=state.now, retrieved=state.retrieved,
                    mentions=state.mentions, history=list(state.history) + [("user", state.text)],
                    speaker=state.speaker_entity, encoder=ctx.resources.get("encoder"),
                    relation_encoder=lambda: encoder_for(ctx))


def splitter(state: TurnState, ctx: TurnContext, verifier):
    """The LLM splitter when the config asks for it, else None (the deterministic one)."""
    if ctx.config.checker != "llm":
        return None
    from engine.factcheck.llm_split import llm_split
    from engine.llm import backend

    llm = backend(ctx)
    return lambda reply: llm_split(reply, llm, protect=verifier.protected_spans, cancel=ctx.cancel)


def claims_within(claims: list[str], limit: int, deterministic: bool) -> tuple[list[str], bool]:
    """The claims that get checked, and whether the reply had more. The deterministic splitter
    stops by itself at MAX_CLAIMS, so a list that long may have been cut there: said as cut."""
    from engine.factcheck.split import MAX_CLAIMS

    cut = len(claims) > limit or (deterministic and len(claims) >= MAX_CLAIMS)
    return claims[:limit], cut


def truncation_note(state: TurnState, limit: int) -> str | None:
    if not state.checks_truncated:
        return None
    return (f"only the first {len(state.checks)} claims of the reply were checked (the limit is {limit}, "
            f"--max-claims); the fact score covers those")


@stage("check", report=lambda s: s.checks)
def run(state: TurnState, ctx: TurnContext) -> None:
    from engine.factcheck import check_reply, scores
    from engine.factcheck.lists import mark_incomplete
    from engine.factcheck.split import split_claims
    from engine.stages.score.answer_type import asks_list

    if not state.response or state.error:
        return
    verifier = make_verifier(state, ctx)
    split = splitter(state, ctx, verifier)
    claims = split(state.response) if split else split_claims(state.response, protect=verifier.protected_spans)
    claims, state.checks_truncated = claims_within(claims, ctx.config.max_claims, split is None)
    state.checks = check_reply(state.response, verifier, lambda _reply: claims)
    if asks_list(state.text):
        mark_incomplete(state.checks, verifier.kg)
    state.fact_score, state.neip = scores(state.checks)
    ctx.emit(ChecksDone(list(state.checks), state.fact_score, state.neip))
