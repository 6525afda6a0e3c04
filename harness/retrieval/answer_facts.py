"""What the user sees of retrieval: does the retrieved set state the answer, and how much of it
is name noise.

Answer-fact recall counts a user turn as answered when every gold answer fact is stated by
some retrieved fact, KG edge or derived fact alike, since the prompt gets both: an edge states
(s, p, o) when it is that edge; a derived fact states it when it names s and o among its
arguments (or its sentence holds the literal value), whatever its predicate. Turns without
answer facts (absent questions, greetings, whole-neighbourhood requests) are not counted.

Name-noise share: of all facts retrieved on turns that do not ask about names, the share that
are name records (given name, family name, sex or gender, described by source, languages) or
the node facts of their values ("male", "Wikipedia") that the gold does not need.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.nlp.sentences import is_node_fact
from engine.state import Candidate

_TIME = re.compile(r"(\d{2}:\d{2}):00")


def answer_of(gold: dict) -> dict | None:
    answer = gold.get("answer")
    return answer if answer and answer.get("facts") else None


def _variants(value: str) -> tuple[str, ...]:
    """A literal as rules and sentences may write it ("09:30:00" also as "09:30")."""
    m = _TIME.fullmatch(value)
    return (value, m.group(1)) if m else (value,)


def states(c: Candidate, fact: Iterable[str]) -> bool:
    s, p, o = fact
    f = c.fact
    if f.key == (s, p, o):
        return True
    if not c.derived:
        return False
    names_s = s in (f.s, f.o) or s in f.o.split()
    names_o = o in (f.s, f.o) or o in f.o.split() or any(v in f.o or v in c.text for v in _variants(o))
    return names_s and names_o


def answered(retrieved: list[Candidate], answer: dict) -> bool:
    return all(any(states(c, fact) for c in retrieved) for fact in answer["facts"])


def noise_counts(retrieved: list[Candidate], noise_predicates: set[str], gold_nodes: set[str]) -> tuple[int, int]:
    """(name-noise facts, all facts) among the retrieved ones."""
    if not noise_predicates:
        return 0, len(retrieved)
    values = {c.fact.o for c in retrieved if c.fact.p in noise_predicates}
    noisy = 0
    for c in retrieved:
        if c.fact.p in noise_predicates:
            noisy += 1
        elif is_node_fact(c.fact) and c.fact.s in values and c.fact.s not in gold_nodes:
            noisy += 1
    return noisy, len(retrieved)


class AnswerTally:
    """Accumulates answer-fact recall (overall and single-relation) and name-noise share."""

    SINGLE_KINDS = ("single", "paraphrase", "asr", "pronoun", "name")

    def __init__(self, noise_predicates: set[str] | None = None):
        self.noise_predicates = noise_predicates or set()
        self.turns = self.hits = self.single_turns = self.single_hits = 0
        self.noise = self.facts = 0
        self.by_kind: dict[str, list[int]] = {}

    def add(self, retrieved: list[Candidate], gold: dict) -> None:
        answer = answer_of(gold)
        if answer is not None:
            hit = answered(retrieved, answer)
            self.turns += 1
            self.hits += hit
            kind = answer.get("kind", "single")
            tally = self.by_kind.setdefault(kind, [0, 0])
            tally[0] += hit
            tally[1] += 1
            if kind in self.SINGLE_KINDS:
                self.single_turns += 1
                self.single_hits += hit
        if not (answer or {}).get("asks_name"):
            noisy, total = noise_counts(retrieved, self.noise_predicates, set(gold.get("nodes", [])))
            self.noise += noisy
            self.facts += total

    def result(self) -> dict:
        def ratio(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {"answer_recall": ratio(self.hits, self.turns), "answer_turns": self.turns,
                "answer_recall_single": ratio(self.single_hits, self.single_turns),
                "single_turns": self.single_turns,
                "answer_recall_by_kind": {k: ratio(h, n) for k, (h, n) in sorted(self.by_kind.items())},
                "name_noise_share": ratio(self.noise, self.facts) if self.noise_predicates else None}
