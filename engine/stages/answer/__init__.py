"""Stage "answer": the one place that decides which reply the user is shown.

It runs twice in a turn. `before_model`, ahead of generate: when the model is not to be asked
(nothing found; a relation the entity lacks; `--answer facts`) kgchat's own answer is set here
and generate, check and refine have nothing to do. `run`, after refine: the candidates are the
model's reply (its refinement when there is one) and, with `--answer auto` when the checks say
the model's cannot be trusted, kgchat's own (the answer of the relation paths the question asks
for, else the best facts about it, else "not found"); one is picked, `state.shown_reply` and
`state.answer_source` are set, and one AnswerShown event tells the front ends. A new kind of
answer is one more candidate here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.context import TurnContext, stage
from engine.events import AnswerShown
from engine.nlp.kinds import possessive
from engine.stages.answer import missing
from engine.stages.answer.asked import Asked, asked_relation
from engine.stages.answer.asked_class import narrow
from engine.stages.answer.compose import (
    asked_words,
    compose_text,
    facts_about_question,
    select,
)
from engine.stages.answer.judge import (
    DOMINANT_P,
    contradicting_evidence,
    replacement_reason,
)
from engine.stages.answer.missing import (
    lacking_relation,
    missing_answer,
    not_found_answer,
    nothing_found,
    relation_matcher,
    relation_missing,
    unmet,
)
from engine.stages.answer.operation import computed_answer
from engine.stages.answer.paths import missing_from, path_text
from engine.state import (
    KNOWLEDGE_PLANS,
    AnswerSource,
    Candidate,
    Check,
    Composed,
    TurnState,
)


@dataclass
class Reply:
    """A reply the user could be shown: the model's (refined or not) or kgchat's own."""

    text: str
    source: AnswerSource
    checks: list[Check] = field(default_factory=list)
    refined: bool = False
    composed: Composed | None = None  # kgchat's own answer, when it is one


def own(composed: Composed) -> Reply:
    return Reply(composed.response, composed.source, composed.checks, composed=composed)


def model_reply(state: TurnState) -> Reply:
    """The model's last word: its refinement when the checks asked for one, else its reply."""
    if state.refined:
        return Reply(state.refined.response, AnswerSource.LLM, state.refined.checks, refined=True)
    return Reply(state.response, AnswerSource.LLM if state.response else AnswerSource.NONE, state.checks)


def facts_answer(state: TurnState, ctx: TurnContext, facts: list[Candidate], reason: str) -> Composed:
    """The facts about the question, composed; checked as a model's reply would be."""
    from engine.checking import verify_reply

    chosen = select(facts, asked_words(state))
    text = compose_text(chosen, lambda iri: possessive(ctx, iri))
    checks, fact_score, neip = verify_reply(state, ctx, text)
    return Composed(text, AnswerSource.FACTS, facts=[c.text for c in chosen], reason=reason, checks=checks,
                    fact_score=fact_score, neip=neip)


def said_facts(state: TurnState, asked: Asked, facts: list[Candidate]) -> list[Candidate]:
    """The facts of the relations that say what the question asks of its entity, when the turn's
    relation paths take none of them ("Who was X's father?" read as X's spouse, where the KG lists
    X among someone's children); else none: the paths answer. `asked` has it (its `near`: the
    relations that say it)."""
    sides = {(side.label, side.forward) for side in asked.near}
    if any((step.label, step.forward) in sides for p in state.paths for step in p.steps):
        return []
    return [c for c in facts if (c.p_label, c.fact.s == asked.entity) in sides
            and asked.entity in (c.fact.s, c.fact.o)]


def path_answer(state: TurnState, ctx: TurnContext, reason: str) -> Composed | None:
    """The answer of the relation paths the question asks for; None without any."""
    from engine.checking import verify_reply

    text, facts = path_text(state, ctx.background, lambda iri: possessive(ctx, iri)) if state.paths else ("", [])
    if not text:
        return None
    checks, fact_score, neip = verify_reply(state, ctx, text)  # the text shown, as a model's reply is
    return Composed(text, AnswerSource.FACTS, facts=facts, reason=reason, checks=checks, fact_score=fact_score,
                    neip=neip)


def operation_answer(state: TurnState, ctx: TurnContext) -> Composed | None:
    """The result of what the question computes (a count, a comparison, the most of a class, a
    filter, yes or no), said by kgchat: a model cannot be trusted to count or compare. None when
    the question computes nothing the KG's values can answer."""
    from engine.checking import verify_reply

    done = computed_answer(state, ctx)
    if done is None:
        return None
    checks, fact_score, neip = verify_reply(state, ctx, done.text)
    return Composed(done.text, AnswerSource.FACTS, facts=done.facts, checks=checks, fact_score=fact_score, neip=neip,
                    reason=f"the question computes ({done.operator}): the result is read from the knowledge graph")


def without_model(state: TurnState, ctx: TurnContext) -> Composed | None:
    """Before the model: say what the question computes, say plainly that nothing was found, or
    (`--answer facts`) compose the answer. None when the model is to be asked."""
    answer = ctx.config.answer
    if answer != "llm" and state.plan in KNOWLEDGE_PLANS:
        computed = operation_answer(state, ctx)
        if computed:
            return computed
    if answer != "llm" and nothing_found(state):
        return not_found_answer(state, ctx)
    if answer == "auto" and state.plan in KNOWLEDGE_PLANS:
        facts = facts_about_question(state)
        asked = asked_relation(state, ctx, relation_matcher(ctx)) if facts else None
        if asked is not None:
            # One relation asked of one entity by a noun or a verb: whether it has it is decided
            # there ("Who is X's goalkeeping coach?" beside its head coach: not found).
            if not asked.has:
                return missing_answer(state, facts, below=missing.MISSING_P, asked=asked)
            said = said_facts(state, asked, facts) if state.paths else []
            return facts_answer(state, ctx, said, "the relation paths read another relation than the one asked") \
                if said else None
        lacking = lacking_relation(state, ctx) if facts else ""
        other = unmet(state, ctx) if facts and not lacking else ""
        if other:
            return missing_answer(state, facts, below=missing.MISSING_P, relation=state.paths[0].relations, about=other)
        if facts and state.paths_turned and not state.paths:
            # "Who was X's mentor?" where the KG says whom X mentored: what it has is the other way round
            return missing_answer(state, facts, below=missing.MISSING_P, relation=state.paths_turned[0])
        # A path: the KG has a relation that reads like the question (but the one it names in full).
        if lacking or (not state.paths and relation_missing(state, ctx, facts, missing.MISSING_P,
                                                             relation_matcher(ctx))):
            return missing_answer(state, facts, below=missing.MISSING_P, relation=lacking)
    if answer == "facts" and state.plan in KNOWLEDGE_PLANS:
        composed = path_answer(state, ctx, "--answer facts: always composed from the knowledge graph")
        if composed:
            return composed
        facts = facts_about_question(state)
        if facts:
            return facts_answer(state, ctx, facts, "--answer facts: always composed from the knowledge graph")
        return not_found_answer(state, ctx)
    return None


def replacement(state: TurnState, ctx: TurnContext, model: Reply) -> Composed | None:
    """With `--answer auto`: kgchat's own answer when the model's cannot be shown, else None."""
    # Small talk and questions about the dialogue need no fact, but a contradiction is never shown.
    looks_up = state.plan in KNOWLEDGE_PLANS
    facts = facts_about_question(state) if looks_up else []
    dialogue = " ".join([t for who, t in state.history if who == "user"] + [state.text]) if looks_up else None
    known = " ".join(c.text for c in state.candidates) if looks_up else ""
    if state.paths and model.text:
        # The paths say what is asked, two hops or a whole list included: a reply that names what
        # they lead to answers, one that leaves it out does not (the facts about the named entity
        # alone would judge a two-hop answer as off the question).
        reason = (replacement_reason(model.checks, model.text, state.error, [], dialogue=dialogue, known=known)
                  or missing_from(model.text, state, ctx.background))
    else:
        reason = replacement_reason(model.checks, model.text, state.error, facts, asked_words(state), dialogue, known)
    if not reason:
        return None
    composed = path_answer(state, ctx, reason)
    if composed:
        return composed
    # The model could not answer from the facts either: unless one of them is sure enough to be
    # the answer, or the question names its relation, say that the KG has no such fact, with the
    # closest ones, rather than present them as the answer.
    asked = asked_relation(state, ctx, relation_matcher(ctx)) if facts else None
    if (asked is None and relation_missing(state, ctx, facts, DOMINANT_P, relation_matcher(ctx))
            or asked is not None and not asked.has):
        return missing_answer(state, facts, below=DOMINANT_P, why=reason, asked=asked)
    if asked is not None and (said := said_facts(state, asked, facts)):
        return facts_answer(state, ctx, said, reason)
    if facts:
        return facts_answer(state, ctx, facts, reason)
    evidence = contradicting_evidence(model.checks)
    if not evidence:  # invented, and nothing retrieved about the question
        return not_found_answer(state, ctx, why=reason)
    # Contradicted, and nothing retrieved about the question: what the graph said instead is all we have.
    text = " ".join(e.rstrip(". ") + "." for e in evidence)
    return Composed(text, AnswerSource.FACTS, facts=evidence, reason=reason)


def choose(state: TurnState, ctx: TurnContext) -> Reply:
    """The reply to show, among kgchat's own answer given before the model, the model's (refined)
    reply, and kgchat's own when `--answer auto` replaces the model's."""
    if state.composed:
        return own(state.composed)
    model = model_reply(state)
    if ctx.config.answer != "auto" or state.cut:
        return model
    composed = replacement(state, ctx, model)
    return own(composed) if composed else model


def _report(state: TurnState) -> dict:
    return {"answer": state.shown_reply, "answer_source": state.answer_source, "composed": state.composed}


@stage("answer", report=_report)
def before_model(state: TurnState, ctx: TurnContext) -> None:
    narrow(state, ctx)
    composed = without_model(state, ctx)
    if composed:
        state.composed, state.answer_source = composed, composed.source


@stage("answer", report=_report)
def run(state: TurnState, ctx: TurnContext) -> None:
    shown = choose(state, ctx)
    state.composed = shown.composed
    state.shown_reply, state.answer_source = shown.text, shown.source
    if shown.text:
        ctx.emit(AnswerShown(shown.text, shown.source, refined=shown.refined))
