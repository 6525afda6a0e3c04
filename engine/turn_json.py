"""The JSON shape of a turn (docs/design.md, "Headless interface"): what `kgchat retrieve`, `ask`
and `check` print and the app's export writes. It lives in the engine so that every front end
reads one definition."""

from __future__ import annotations

from typing import Any

from engine.state import Check, TurnState


def retrieval_json(state: TurnState) -> dict[str, Any]:
    """A replayed user turn: what it linked, derived and retrieved."""
    return {
        "turn": state.turn, "speaker": "user", "text": state.text, "rewritten": state.rewritten or state.text,
        "mentions": [{"text": m.text, "entity": m.entity, "label": m.label, "p": round(float(m.p), 4),
                      **({"together": list(m.together)} if m.together else {})} for m in state.mentions],
        "derived": [{"predicate": d.predicate, "args": list(d.args), "p": round(float(d.p), 4), "text": d.text,
                     "restates_kg_fact": d.restates} for d in state.derived],
        "retrieved": [{"s": c.fact.s, "p": c.fact.p, "o": c.fact.o, "s_label": c.s_label, "p_label": c.p_label,
                       "o_label": c.o_label, "text": c.text, "score": round(float(c.score), 4),
                       "derived": bool(c.derived), "also_derived": list(c.also_derived)} for c in state.retrieved],
        "timings_ms": {k: round(v, 1) for k, v in state.timings_ms.items()},
        "meeting": state.meeting,
    }


def checks_json(checks: list[Check]) -> list[dict[str, Any]]:
    return [{"claim": c.claim, "verdict": c.verdict, "evidence": c.evidence, "reason": c.reason} for c in checks]


def answer_json(state: TurnState) -> dict[str, Any]:
    """The retrieval turn, plus what answering added."""
    refined = None
    if state.refined:
        refined = dict(state.refined)
        refined["checks"] = checks_json(refined.get("checks") or [])
    composed = None
    if state.composed:
        composed = dict(state.composed)
        composed["checks"] = checks_json(composed.get("checks") or [])
    out = retrieval_json(state)
    # "response" stays the model's own reply (empty when the model was not asked); "answer" is
    # what a user is shown, and "answer_source" says whose it is.
    out.update({"response": state.response, "cut": state.cut, "error": state.error,
                "checks": checks_json(state.checks), "checks_truncated": state.checks_truncated,
                "fact_score": state.fact_score, "neip": state.neip,
                "refined": refined, "device": state.device, "answer": state.shown_reply,
                "answer_source": state.answer_source, "composed": composed})
    return out
