"""What a turn is about: the entities it links now, whether it is one question about one of them,
and how far around them to look (shared by candidates, route, retrieval and answering; the
session's memory of earlier turns is `engine.state.Focus`)."""

from __future__ import annotations

import re

from engine.context import TurnContext
from engine.nlp.answer_type import mask, question_parts
from engine.state import TurnState

SMALL_KG = 200_000  # triples; under it the automatic radius is 2 hops
FOCUS_KINDS = ("name", "pronoun", "definite")
_AND = re.compile(r"(?<!^)\band\b|&", re.IGNORECASE)


def linked_now(state: TurnState) -> dict[str, float]:
    """The entities this turn links (IRI -> its best p; 1.0 for a link without one), times aside."""
    out: dict[str, float] = {}
    for m in state.mentions:
        if m.entity and m.kind != "time":
            p = m.p if m.p > 0 else 1.0
            # "their phone numbers": every one of the people meant, not only the first
            for e in [m.entity, *m.together]:
                out[e] = max(out.get(e, 0.0), p)
    return out


def focused(state: TurnState, kinds: tuple[str, ...] = FOCUS_KINDS) -> bool:
    """One question, about an entity the turn names or points at ("And her e-mail?"): the turns
    where the relevance model is surest (a compound question's second part can score far below
    the first). Any "and" between words counts as a second part ("the population and the area of
    Warsaw"); a leading "And" does not, nor one inside a name ("Pride and Prejudice")."""
    text = mask(state.text, [m.text for m in state.mentions if m.kind == "name" and m.entity])
    return (any(m.kind in kinds and m.entity for m in state.mentions)
            and len(question_parts(text)) == 1 and not _AND.search(text))


def radius(ctx: TurnContext) -> int:
    if ctx.config.hops > 0:
        return ctx.config.hops

    def size() -> int:
        try:
            return int(ctx.background.count())
        except Exception:  # a remote endpoint: assume it is large
            return SMALL_KG + 1

    return 2 if ctx.resource("background_size", size) <= SMALL_KG else 1
