"""The recognizer's other hypotheses of a spoken turn: which names they heard, and where those
words line up with the best hypothesis (engine/stages/observe.py weighs the votes)."""

from __future__ import annotations

from collections import defaultdict

from engine.nlp.mentions import LabelIndex, detect_names, tokenize


def nbest_votes(alternatives: list[str], index: LabelIndex, floor: float = 0.8) -> dict[str, list[tuple[str, int, int]]]:
    """For each entity named (with a name-match score of at least `floor`) in the recognizer's
    other hypotheses: where, as (hypothesis, start, end), one entry per hypothesis."""
    votes: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
    for hypothesis in alternatives:
        seen: set[str] = set()
        for m in detect_names(hypothesis, index):
            for iri, score in m.candidates[:1]:
                if score >= floor and iri not in seen:
                    seen.add(iri)
                    votes[iri].append((hypothesis, m.start, m.end))
    return votes


def align_span(source: str, start: int, end: int, target: str) -> tuple[int, int] | None:
    """The span of `target` that the words source[start:end] line up with (the hypotheses of one
    utterance differ in a few words), or None when those words have no counterpart."""
    from difflib import SequenceMatcher

    src, dst = tokenize(source), tokenize(target)
    inside = [i for i, t in enumerate(src) if t.start >= start and t.end <= end]
    if not inside or not dst:
        return None
    matcher = SequenceMatcher(a=[t.norm for t in src], b=[t.norm for t in dst], autojunk=False)
    mapped: list[int] = []
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        lo, hi = max(a0, inside[0]), min(a1, inside[-1] + 1)
        if lo >= hi:
            continue
        if tag == "equal":
            mapped += [b0 + (i - a0) for i in range(lo, hi)]
        elif tag == "replace" and b1 > b0:
            mapped += list(range(b0, b1))
    if not mapped:
        return None
    return dst[min(mapped)].start, dst[max(mapped)].end
