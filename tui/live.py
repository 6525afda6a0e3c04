"""The app's side of a running turn: frozen views of `Session.current` that travel to the UI
thread in messages."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.state import TurnState


@dataclass
class TurnView:
    """A copy of a TurnState safe to read on the UI thread, plus the labels the panes need
    (looked up in the worker, since the store is not touched from the UI thread)."""

    state: TurnState
    labels: dict[str, str] = field(default_factory=dict)


def freeze(state: TurnState, store=None) -> TurnView:
    """Copy the lists of `state` (the objects in them are shared: stages only add fields)."""
    copy = replace(
        state,
        mentions=list(state.mentions), derived=list(state.derived), candidates=list(state.candidates),
        retrieved=list(state.retrieved), subgraph_nodes=list(state.subgraph_nodes),
        bridging_nodes=list(state.bridging_nodes), checks=list(state.checks), paths=list(state.paths),
        timings_ms=dict(state.timings_ms), history=list(state.history),
    )
    labels = _candidate_labels(copy)
    missing = [n for n in copy.subgraph_nodes if n not in labels]
    if store is not None and missing:
        try:
            labels.update(store.labels(missing))
        except Exception:  # labels are cosmetic: a store fault must not end the turn view
            pass
    return TurnView(copy, labels)


def _candidate_labels(state: TurnState) -> dict[str, str]:
    out: dict[str, str] = {}
    for c in state.retrieved or state.candidates:
        if c.s_label:
            out.setdefault(c.fact.s, c.s_label)
        if c.o_label and not c.fact.o_literal:
            out.setdefault(c.fact.o, c.o_label)
    for m in state.mentions:
        if m.entity and m.label:
            out.setdefault(m.entity, m.label)
    return out
