"""Partial lists: a reply that names some of the values of the list its question asks for.

Naming some values of a relation is a true claim ("Amara teaches Machine Learning" of someone
who teaches three courses), so each claim keeps its verdict; the reply as a whole is marked
incomplete, which is not a verdict and counts in neither the fact score nor NEIP.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.factcheck.kg import KGView
from engine.state import Check, Incomplete, Verdict

_IRI = re.compile(r"^(?:urn|https?):\S+$")


def mark_incomplete(checks: Sequence[Check], kg: KGView) -> Incomplete | None:
    """When the reply's supported claims name fewer values of one relation of one thing than
    the KG holds, set `incomplete` on those claims and return it; else None. Call it only for a
    turn whose question asks for a list (engine.nlp.answer_type.asks_list)."""
    groups: dict[tuple[str, str, str], dict[str, list[Check]]] = {}
    for c in checks:
        if c.verdict != Verdict.SUPPORTED or c.evidence.source == "dialogue":
            continue
        for e in (c.evidence, *c.evidence.more):
            if e.triple is None:
                continue
            groups.setdefault((e.s, e.p, "out"), {}).setdefault(e.o, []).append(c)
            if _IRI.match(e.o):
                groups.setdefault((e.o, e.p, "in"), {}).setdefault(e.s, []).append(c)
    if not groups:
        return None
    (anchor, p, direction), named = max(groups.items(), key=lambda kv: (len(kv[1]), kv[0][2] == "out"))
    slot = next((s for (_, d), s in kg.slots(anchor).items() if d == direction and s.facts[0].fact.p == p), None)
    if slot is None or len(slot.others) < 2:
        return None
    missing = [kf for kf in slot.facts if kf.other not in named]
    if not missing:
        return None
    found = Incomplete(relation=slot.facts[0].p_label, named=len(slot.others) - len({kf.other for kf in missing}),
                       total=len(slot.others), missing=list(dict.fromkeys(kg.value_label(kf) for kf in missing)))
    for claims in named.values():
        for c in claims:
            c.incomplete = found
    return found
