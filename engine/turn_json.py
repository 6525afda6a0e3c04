"""The JSON shape of a turn (docs/design.md, "Headless interface"): what `kgchat retrieve`, `ask`
and `check` print and the app's export writes. It lives in the engine so that every front end
reads one definition."""

from __future__ import annotations

from typing import Any

from engine.state import Check, Composed, Refinement, RelationPath, TurnState


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
        "paths": [path_json(p) for p in state.paths], "paths_note": state.paths_note,
        "timings_ms": {k: round(v, 1) for k, v in state.timings_ms.items()},
        "meeting": state.meeting,
    }


def path_json(path: RelationPath) -> dict[str, Any]:
    """A relation path the question asks for: its start, its steps in order (`forward` false: the
    relation followed from object to subject), and each value's chain of facts from the start."""
    return {"start": path.start, "start_label": path.start_label,
            "steps": [{"predicate": s.predicate, "label": s.label, "forward": s.forward} for s in path.steps],
            "score": round(float(path.score), 4), "asks_all": path.asks_all,
            "values": list(path.values), "part": path.part,
            "chains": [[{"s": f.s, "p": f.p, "o": f.o} for f in chain] for chain in path.chains],
            "total": path.total, "cut": path.cut,
            "operation": None if path.operation is None else {
                "operator": path.operation.operator, "values": list(path.operation.values),
                "result": path.operation.result, "cut": path.operation.cut}}


def checks_json(checks: list[Check]) -> list[dict[str, Any]]:
    return [c.to_json() for c in checks]


def refined_json(refined: Refinement) -> dict[str, Any]:
    return {"response": refined.response, "checks": checks_json(refined.checks), "fact_score": refined.fact_score,
            "neip": refined.neip, "dropped": list(refined.dropped), "added": list(refined.added),
            "steps": refined.steps, "cut": refined.cut}


def composed_json(composed: Composed) -> dict[str, Any]:
    out = {"response": composed.response, "source": str(composed.source), "facts": list(composed.facts),
           "reason": composed.reason, "matches": list(composed.matches), "checks": checks_json(composed.checks),
           "fact_score": composed.fact_score, "neip": composed.neip}
    if composed.asked is not None:  # said only by the answers that found nothing
        out["asked"] = composed.asked
    return out


def answer_json(state: TurnState) -> dict[str, Any]:
    """The retrieval turn, plus what answering added."""
    refined = refined_json(state.refined) if state.refined else None
    composed = composed_json(state.composed) if state.composed else None
    out = retrieval_json(state)
    # "response" stays the model's own reply (empty when the model was not asked); "answer" is
    # what a user is shown, and "answer_source" says whose it is.
    out.update({"response": state.response, "cut": state.cut, "error": state.error,
                "checks": checks_json(state.checks), "checks_truncated": state.checks_truncated,
                "fact_score": state.fact_score, "neip": state.neip,
                "refined": refined, "device": state.device, "answer": state.shown_reply,
                "answer_source": str(state.answer_source), "composed": composed})
    return out
