"""Checking a reply of a turn: the verifier built for the turn (its retrieved facts, mentions,
dialogue and clock), the claim splitter the config asks for, and the checks of one reply. The
check stage runs it on the model's reply; refinement and kgchat's own answers run it on theirs."""

from __future__ import annotations

from engine.context import TurnContext
from engine.state import Check, TurnState


def make_verifier(state: TurnState, ctx: TurnContext):
    from engine.factcheck.verify import Verifier
    from engine.nlp.encoder import encoder_for
    from engine.nlp.mentions import label_index

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


# Characters of a reply that are checked. Finding claims and names is linear in the text, but a
# reply of megabytes (one endless sentence repeating a name) would still take minutes; what
# follows is reported as not checked, as claims past --max-claims are.
MAX_CHECKED_CHARS = 20_000


def checked_text(reply: str) -> tuple[str, bool]:
    """The part of `reply` that is checked (up to the last sentence end within
    MAX_CHECKED_CHARS), and whether that is not all of it."""
    if len(reply) <= MAX_CHECKED_CHARS:
        return reply, False
    head = reply[:MAX_CHECKED_CHARS]
    end = max(head.rfind(". "), head.rfind("\n"))
    return (head[:end + 1] if end > 0 else head), True


def truncation_note(state: TurnState, limit: int) -> str | None:
    if not state.checks_truncated:
        return None
    if state.response and len(state.response) > MAX_CHECKED_CHARS:
        return (f"only the first {MAX_CHECKED_CHARS:,} characters of the reply ({len(state.checks)} claims) were "
                "checked; the fact score covers those")
    return (f"only the first {len(state.checks)} claims of the reply were checked (the limit is {limit}, "
            f"--max-claims); the fact score covers those")


def check_turn(state: TurnState, ctx: TurnContext, reply: str) -> tuple[list[Check], bool, float | None, float | None]:
    """The checks of `reply` over this turn's evidence: (checks, whether the reply had more claims
    than --max-claims lets through, fact score, NEIP)."""
    from engine.factcheck import check_reply, scores
    from engine.factcheck.lists import mark_incomplete
    from engine.factcheck.split import split_claims
    from engine.nlp.answer_type import asks_list

    verifier = make_verifier(state, ctx)
    split = splitter(state, ctx, verifier)
    text, cut = checked_text(reply)
    claims = split(text) if split else split_claims(text, protect=verifier.protected_spans)
    claims, more = claims_within(claims, ctx.config.max_claims, split is None)
    truncated = cut or more
    checks = check_reply(reply, verifier, lambda _reply: claims)
    if asks_list(state.text):  # a reply naming fewer values than the KG holds is marked, not judged
        mark_incomplete(checks, verifier.kg)
    return (checks, truncated, *scores(checks))


def verify_reply(state: TurnState, ctx: TurnContext, reply: str) -> tuple[list[Check], float | None, float | None]:
    """The checks of a reply kgchat composed, claims split the deterministic way, none left out:
    (checks, fact score, NEIP)."""
    import dataclasses

    from engine.factcheck import check_reply, scores

    checks = check_reply(reply, make_verifier(dataclasses.replace(state, response=reply), ctx))
    return (checks, *scores(checks))
