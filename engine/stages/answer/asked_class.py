"""The kind of thing a list question asks for ("Which telescopes does X operate?"): a relation's
values that are not of the class the question names are not its answer (an observatory the
university also operates is no telescope). Read from the KG's own classes, by the noun phrase
after "which"/"what"; a path is narrowed only when some of its values are of the class and some
are not, so a KG without types, or a class word that fits none of the values, changes nothing."""

from __future__ import annotations

import re

from engine.compute.members import class_labels, class_tiers, members_of
from engine.compute.operators import AUXILIARIES
from engine.context import TurnContext
from engine.stages.answer.operation import CLASSES
from engine.state import RelationPath, TurnState


def asked_noun_phrase(question: str) -> str:
    """The words between "which"/"what" and the verb or auxiliary that follows them ("Which
    telescopes does X operate?" -> "telescopes"); "" when the question opens otherwise."""
    words = re.findall(r"[\w'-]+", question.lower())
    if not words or words[0] not in ("which", "what"):
        return ""
    phrase: list[str] = []
    for w in words[1:]:
        if w in AUXILIARIES:
            break
        phrase.append(w)
    return " ".join(phrase)


def _ends(path: RelationPath) -> list[str]:
    forward = path.steps[-1].forward
    return [(c[-1].o if forward else c[-1].s) if c else "" for c in path.chains]


def narrow(state: TurnState, ctx: TurnContext) -> None:
    """Keep, of each list path, the values of the class the question asks for (see the module)."""
    phrase = asked_noun_phrase(state.rewritten or state.text)
    lists = [p for p in state.paths if p.asks_all and p.steps and len(p.chains) > 1 and p.total <= len(p.chains)]
    if not phrase or not lists:
        return
    classes = ctx.resource(CLASSES, lambda: class_labels(ctx.background))
    tiers = class_tiers(phrase, classes) if classes else []
    if not tiers:
        return
    of_class = set(members_of(ctx.background, [k for tier in tiers for k in tier]))
    for path in lists:
        keep = [e in of_class for e in _ends(path)]
        if any(keep) and not all(keep):
            path.chains = [c for c, k in zip(path.chains, keep, strict=True) if k]
            if len(path.values) == len(keep):
                path.values = [v for v, k in zip(path.values, keep, strict=True) if k]
            path.total = len(path.chains)
