"""Warm the embedding cache of a small KG ahead of its first turn (the score stage's cost), by
gathering and verbalizing each entity's candidates as a turn naming it would.

The warming costs about 8 ms of CPU per text on a laptop core, a text or two per fact: the
973-triple office world 12 CPU s, an 18,000-triple KG two minutes. Larger KGs are not warmed:
each turn embeds its own candidates' texts (at most a few hundred, a second or two the first
time, kept in memory and, for a store on disk, beside the store), so the wait before the first
question does not grow with the KG, and a user asks about few of a large KG's entities anyway."""

from __future__ import annotations

from datetime import datetime

from engine.context import TurnContext
from engine.nlp.encoder import encoder_for
from engine.nlp.sentences import predicate_key, relation_phrase, verbalize
from engine.stages.candidates import gather
from engine.stages.score.features import near_texts
from engine.state import Mention, TurnState

PREFETCH_MAX_TRIPLES = 1_500


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
