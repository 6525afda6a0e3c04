"""Route stage: the relation path(s) the question asks for, before retrieval picks its facts.

From the entities the turn names or points at (or, when it names none, the previous turn's),
over the scored candidates: every path of one or two relations in either direction, and of
three from the likeliest two (engine/stages/route/third.py), scored against the question with the
names masked (engine/stages/route/paths.py). Fills `state.paths` (best first,
one per clause of a compound question, with every value found at the end) and `state.paths_note`
(what bounded the search). On a one-hop neighbourhood (a large or remote background) the second
hop of the likeliest first steps is fetched here, bounded, and joins the candidates.
"""

from __future__ import annotations

import re

from engine.compute.operators import names_said
from engine.compute.run import operate
from engine.context import TurnContext, stage
from engine.focus import linked_now, radius
from engine.recent import record_asked_for
from engine.relations import RelationMatcher
from engine.stages.route.paths import Question, search
from engine.state import TurnState

MATCHER = "path_matcher"


def matcher_for(ctx: TurnContext):
    """The relation-label scorer (the shared relation matcher over the session's encoder), built
    once per session; a test or another scorer may set it."""
    from engine.nlp.encoder import encoder_for

    return ctx.resource(MATCHER, lambda: RelationMatcher(encoder_for(ctx)).grid)


def starts_of(state: TurnState, ctx: TurnContext) -> dict[str, str]:
    """IRI -> label of the entities the paths start from, likeliest first. A class the turn
    names ("coach" in "Where was the coach of X born?") is no start: its word says what is asked."""
    from engine.nlp.sentences import TYPE_PREDICATES

    classes = {c.fact.o for c in state.candidates if c.fact.p in TYPE_PREDICATES}
    text = state.rewritten or state.text
    # "the curator of the exhibition that ...", "the curator who was born in X": a common noun
    # that an of-phrase or a relative "who" describes, beside a name, is a relation of what
    # follows it, not a thing to start from (an occupation the KG also has)
    relational = {m.entity for m in state.mentions if m.entity and m.text.islower() and _opens_of(text, m.text)}
    named = any(m.entity and not m.text.islower() and m.entity not in relational for m in state.mentions)
    now = {iri: p for iri, p in linked_now(state).items() if iri not in classes and not (named and iri in relational)}
    seeds = now or state.focus.previous(state.turn)
    labels: dict[str, str] = {}
    for c in state.candidates:
        labels.setdefault(c.fact.s, c.s_label)
        if not c.fact.o_literal:
            labels.setdefault(c.fact.o, c.o_label)
    for m in state.mentions:
        if m.entity and m.label:
            labels.setdefault(m.entity, m.label)
    return {iri: labels.get(iri) or iri for iri in sorted(seeds, key=lambda i: -seeds[i])}


def _opens_of(text: str, said: str) -> bool:
    """Does the text say "the <said> of" or "the <said> who"?"""
    return re.search(rf"\bthe\s+{re.escape(said)}\s+(?:of|who)\b", text, re.I) is not None


def question_of(state: TurnState, starts: dict[str, str]) -> Question:
    from engine.nlp.answer_type import asks_list

    text = state.rewritten or state.text
    names = list(starts.values()) + [m.text for m in state.mentions if m.entity in starts and m.kind == "name"]
    earlier = state.history[-1][1] if state.history else ""
    return Question(text, names, earlier=earlier, asks_list=asks_list(text))


def _report(state: TurnState) -> dict:
    return {"paths": [p.relations for p in state.paths], "note": state.paths_note}


@stage("route", report=_report)
def run(state: TurnState, ctx: TurnContext) -> None:
    state.paths, state.paths_note, state.paths_turned = [], "", []
    if state.plan in ("none", "dialogue") or not state.candidates:
        return
    starts = starts_of(state, ctx)
    if not starts:
        return
    timed = next((m for m in state.mentions if m.kind == "time" and m.value is not None), None)
    wanted = next((m for m in state.mentions if m.kind == "type"), None)
    if timed is not None and wanted is not None:
        # "What meetings do I have today?": a relation's values are not cut to the time asked,
        # the facts of that time are
        state.paths_note = f"no relation path: “{wanted.text}” asked for at a time (“{timed.text}”)"
        return
    found = search(state.candidates, starts, question_of(state, starts), matcher_for(ctx),
                   background=ctx.background, one_hop=radius(ctx) < 2)
    if found.extra:
        state.candidates = state.candidates + found.extra
    state.paths, state.paths_turned = found.paths, found.turned
    state.paths_note = "; ".join(found.notes)
    operate(state.rewritten or state.text, state.paths, names_said(state.mentions))
    # what a reply to the question answers with, which the next turn's pronouns take up
    record_asked_for(ctx, state.session_id, state.turn, state.paths)
