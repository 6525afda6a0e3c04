"""Stage "refine": when the checks contradict the reply (or support too little of it), rework the
evidence and answer again; both replies are kept (which one is shown is the answer stage's call).

Each retrieved fact is weighed by relevance (its retrieval score) times consistency with the
reply (1 when it supports a claim of the reply, 0.5 when no claim touches it). The weakest
facts are dropped and the next best candidates pulled in. A fact that contradicts a claim is
the graph's own answer to what the reply got wrong, so it is kept, and pulled in when the
checker found it outside the retrieved set; the regeneration is told which claims were wrong.
"""

from __future__ import annotations

import dataclasses
import math

from engine.checking import check_turn
from engine.context import TurnContext, stage
from engine.events import ChecksDone, ReplyDone, TurnError
from engine.llm import LLMError, backend
from engine.llm.prompt import correction_note
from engine.llm.reply import build_prompt, complete
from engine.state import Candidate, Check, Evidence, Refinement, TurnState
from kgstore.terms import Fact

UNTOUCHED = 0.5  # consistency of a fact no claim of the reply touches
MIN_RELEVANCE = 0.01  # bridging facts carry no score of their own; keep them comparable


def needs_refining(checks: list[Check], fact_score: float | None, threshold: float) -> bool:
    return any(c.verdict == "contradicted" for c in checks) or (fact_score is not None and fact_score < threshold)


# What evidence and candidates are matched by: a fact's triple, or a sentence.
Key = tuple[str, str, str] | str


def _evidence_key(evidence: Evidence) -> Key | None:
    """What a verdict's evidence points at: its triple when it names one, else its sentence;
    None for evidence that is not knowledge (what someone said in the dialogue)."""
    if evidence.source == "dialogue":
        return None
    return evidence.triple or evidence.text or None


def _evidence_keys(evidence: Evidence) -> list[Key]:
    """The main evidence and the further triples the checker gave (`more`)."""
    found = [_evidence_key(evidence)] + [_evidence_key(e) for e in evidence.more]
    return [k for k in found if k is not None]


def _keys(c: Candidate) -> set[Key]:
    return {c.fact.key, c.text}


def evidence_weights(facts: list[Candidate], checks: list[Check]) -> tuple[list[float], set[int]]:
    """relevance × consistency per fact, and the indices of the facts that contradict a claim."""
    supporting, contradicting = set(), set()
    for check in checks:
        keys = _evidence_keys(check.evidence)
        if check.verdict == "supported":
            supporting.update(keys)
        elif check.verdict == "contradicted":
            contradicting.update(keys[:1])  # the fact the claim disagrees with
    weights: list[float] = []
    pinned: set[int] = set()
    for i, fact in enumerate(facts):
        fact_keys = _keys(fact)
        if fact_keys & contradicting:
            pinned.add(i)
        consistency = 1.0 if fact_keys & supporting else UNTOUCHED
        weights.append(max(fact.score, MIN_RELEVANCE) * consistency)
    return weights, pinned


def _contradicting_facts(checks: list[Check], pool: list[Candidate]) -> list[Candidate]:
    """The facts the checker contradicted claims with, as candidates (from the pool when there)."""
    by_key: dict[Key, Candidate] = {}
    for c in pool:
        for k in _keys(c):
            by_key.setdefault(k, c)
    found = []
    for check in checks:
        if check.verdict != "contradicted":
            continue
        key = _evidence_key(check.evidence)
        if key is None:
            continue
        if key in by_key:
            found.append(by_key[key])
        else:
            ev = check.evidence
            fact = Fact(*key) if isinstance(key, tuple) else Fact("", "", key, o_literal=True)
            found.append(Candidate(fact=fact, text=ev.text or " ".join(key), score=1.0,
                                   s_label=ev.s_label, p_label=ev.p_label, o_label=ev.o_label))
    return found


def rework_evidence(facts: list[Candidate], checks: list[Check], candidates: list[Candidate],
                    used: set) -> tuple[list[Candidate], list[Candidate], list[Candidate]]:
    """(new facts, dropped, added): the weakest quarter (at least one) of the facts that do not
    contradict the reply go; the contradicting evidence and the next best unused candidates come in."""
    weights, pinned = evidence_weights(facts, checks)
    droppable = sorted((i for i in range(len(facts)) if i not in pinned), key=lambda i: weights[i])
    n_drop = min(len(droppable), max(1, math.ceil(len(facts) / 4)))
    gone = set(droppable[:n_drop])
    dropped = [facts[i] for i in sorted(gone)]
    kept = [f for i, f in enumerate(facts) if i not in gone]
    have = set().union(*(_keys(f) for f in kept)) if kept else set()
    added: list[Candidate] = []
    for c in _contradicting_facts(checks, candidates):
        if not _keys(c) & have:
            added.append(c)
            have |= _keys(c)
    for c in sorted(candidates, key=lambda c: -c.score):
        if len(added) >= max(n_drop, 1):
            break
        if c.text and not _keys(c) & (have | used):
            added.append(c)
            have |= _keys(c)
    return kept + added, dropped, added


def recheck(state: TurnState, ctx: TurnContext, reply: str, facts: list[Candidate]) -> TurnState:
    """Check another reply over other evidence, as the check stage would, on a copy of the turn."""
    trial = dataclasses.replace(state, response=reply, retrieved=facts, checks=[], fact_score=None, neip=None,
                                refined=None, timings_ms={})
    trial.checks, trial.checks_truncated, trial.fact_score, trial.neip = check_turn(trial, ctx, reply)
    return trial


@stage("refine", report=lambda s: s.refined)
def run(state: TurnState, ctx: TurnContext) -> None:
    config = ctx.config
    if (config.refine_steps <= 0 or not state.checks or not state.response or state.cut or state.error
            or not needs_refining(state.checks, state.fact_score, config.refine_threshold)):
        return
    llm = backend(ctx)
    facts, reply = list(state.retrieved), state.response
    checks, fact_score, neip = state.checks, state.fact_score, state.neip
    used = set().union(*(_keys(f) for f in facts)) if facts else set()
    all_dropped: list[Candidate] = []
    all_added: list[Candidate] = []
    steps, cut = 0, False
    for _ in range(config.refine_steps):
        facts, dropped, added = rework_evidence(facts, checks, state.candidates, used)
        for c in dropped + added:
            used |= _keys(c)
        contradicted = [c.claim for c in checks if c.verdict == "contradicted"]
        messages, max_tokens = build_prompt(state, llm, config, facts, correction_note(reply, contradicted))
        try:
            streamed = complete(llm, messages, ctx, max_tokens=max_tokens, temperature=config.temperature)
            text, cut = streamed.text, streamed.cut
        except LLMError as exc:
            ctx.emit(TurnError("refine", str(exc)))
            break
        if not text:
            break
        steps += 1
        all_dropped += dropped
        all_added += added
        reply = text
        if cut:
            break
        trial = recheck(state, ctx, reply, facts)
        checks, fact_score, neip = trial.checks, trial.fact_score, trial.neip
        if not needs_refining(checks, fact_score, config.refine_threshold):
            break
    if not steps:
        return
    state.refined = Refinement(reply, [] if cut else checks, None if cut else fact_score, None if cut else neip,
                               dropped=[c.text for c in all_dropped], added=[c.text for c in all_added],
                               steps=steps, cut=cut)
    ctx.emit(ReplyDone(reply, cut=cut, refined=True))
    if not cut:
        ctx.emit(ChecksDone(checks, fact_score, neip, refined=True))
