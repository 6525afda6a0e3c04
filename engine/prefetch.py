"""Warm the embedding cache of a small KG ahead of its first turn (the score stage's cost), by
gathering and verbalizing each entity's candidates as a turn naming it would."""

from __future__ import annotations

from datetime import datetime

from engine.context import TurnContext
from engine.nlp.encoder import encoder_for
from engine.nlp.sentences import predicate_key, relation_phrase, verbalize
from engine.stages.candidates import gather
from engine.stages.score.features import near_texts
from engine.state import Mention, TurnState

PREFETCH_MAX_TRIPLES = 20_000


def prefetch(ctx: TurnContext, max_triples: int = PREFETCH_MAX_TRIPLES) -> int:
    """Warm the embedding cache of a small background: for every entity, the facts a turn that
    names it would embed (same candidates, same verbalization, same near-fact rule), encoded in
    one batch. Per-turn cost then stays with the neighbourhood lookups and the model, not with
    first-time encoding. Does nothing for larger KGs; returns the number of texts encoded."""
    try:
        if int(ctx.background.count()) > max_triples:
            return 0
        entities = sorted({e.iri for e in ctx.background.label_entries()})
    except Exception:  # a remote background: nothing to warm up locally
        return 0
    texts: dict[str, None] = {}
    for iri in entities:
        state = TurnState(session_id="prefetch", turn=1, text="", now=datetime.now())
        state.mentions = [Mention(iri, 0, 0, "name", entity=iri, p=1.0)]
        gather(state, ctx)
        verbalize(state.candidates, ctx.background)
        name = next((c.s_label if c.fact.s == iri else c.o_label for c in state.candidates
                     if iri in (c.fact.s, c.fact.o)), "")
        texts.update(dict.fromkeys(near_texts(state.candidates, [name] if name else None)))
        for c in state.candidates:  # what the turn compares with each clause of the question
            texts.update(dict.fromkeys(t for t in (c.p_label, relation_phrase(predicate_key(c.fact.p))) if t))
    encoder = encoder_for(ctx)
    before = encoder.encoded
    encoder.encode(list(texts))
    return encoder.encoded - before
