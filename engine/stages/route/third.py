"""Paths of three relations: "Where was the lead singer of the band behind X born?" walks X's
band, the band's lead singer, the singer's birthplace; "the films written by the writer of X"
walks X's writer and back to the writer's other films before the relation asked of them.

Each relation is read on a span of the question of its own, as two are (`paths._two_steps`): the
first among the words that describe the first middle entity (`inner_words`), the second in the
phrase around them (`Part.outer`: "lead singer" of "the lead singer of the band behind X"), the
third on any other span, all apart; a first pair that is one relation walked out and back may
have both its spans among the inner words ("the films starred by actors in X"), or share the
one span that a word of sharing governs ("the films that share actors with X"). A path is worth
its three fits less twice the hop cost, so it wins over its first two steps only when the third
relation is asked too.

The third step is not enumerated from everything: the candidates reach two hops at most, so the
facts of the ends of the few two-step paths that read most like the first two relations of a
three-relation question (PREFIXES) are read from the background, bounded (ENDS entities,
FACTS facts each, TIME_BUDGET_S), and the signatures one step longer kept up to MAX_THIRD; what
cut the search is said in the route's note.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.stages.route.clauses import Part, after_entity
from engine.stages.route.graph import Found, Graph, end_of, extend, read_into
from engine.state import Candidate

PREFIXES = 3  # two-step paths, likeliest first, whose ends get a third step
ENDS = 40  # entities at the ends of those paths whose facts are read, in all
FACTS = 60  # facts read per entity
MAX_THIRD = 150  # three-step signatures kept
TOP = 5  # spans tried per step, best first
TIME_BUDGET_S = 0.25  # reading the ends' facts

Near = Callable[[Part, str], list[int]]
"""(clause, relation label) -> the spans a word of sharing governs, when it governs that label's words."""


def inner_words(part: Part) -> frozenset[int]:
    """The words a three-step path's first step is read on: those that describe the first
    middle entity (`Part.described`), without the words after the entity when the phrase has a
    verb of its own before it ("the exhibition that featured X", whose "born" after X is the
    asked relation's in "Where was the curator of the exhibition that featured X born?"). A
    clause whose verb follows X ("the race X ran") holds that one verb: the words after it are
    the clause around ("based" of "Where is the club that organises the race X ran based?")."""
    after = after_entity(part.text)
    head = part.described - after
    if len(head) > 1:
        return head
    following = sorted(part.described & after)
    return head | set(following[:1]) if head and len(following) > 1 else part.described


def asks_three(part: Part, near: Near) -> bool:
    """May the clause ask three relations: three content words at least, and words describing a
    middle entity or a word of sharing?"""
    words = {i for s in part.spans for i in s.words}
    return len(words) >= 3 and bool(part.described or near(part, ""))


def three_steps(rows: Sequence[np.ndarray], part: Part, hop_cost: float, back: bool, near: list[int],
                claimed: frozenset[int] = frozenset()) -> float:
    """The three steps' fits (`rows`: each step's label against the clause's spans) less twice
    `hop_cost`, each fit above it, on spans apart as the module says; 0 when none are. `back`:
    the first two steps are one relation out and back; `near`: the spans a word of sharing
    governs, which then carry both."""
    spans = part.spans
    first, second, third = (np.asarray(r, dtype=float) for r in rows)
    if near:
        used = frozenset().union(*(spans[j].words for j in near))
        shared = float(max(first[j] for j in near))
        # the noun asked for ("Which books have the same illustrator as X?") names what the way
        # back reaches, no third relation
        rest = [float(third[j]) for j, s in enumerate(spans) if s.words and not s.words & used and not s.asked_noun]
        fit = max(rest, default=0.0)
        return 2 * shared + fit - 2 * hop_cost if min(shared, fit) > hop_cost else 0.0
    inner = inner_words(part)
    if not inner:
        return 0.0

    def top(keep: Callable[[frozenset[int]], bool], row: np.ndarray) -> list[int]:
        return sorted((j for j, s in enumerate(spans) if s.words and keep(s.words)), key=lambda j: -row[j])[:TOP]

    # the second relation is said in the phrase around the inner one ("the movies written by" of
    # "the movies written by the screenwriter of X starred who"), or after the entity when the
    # inner phrase has its verb before it ("built" of "the rocket that launched X built"); a
    # relation walked back may be said inside the inner phrase too ("films starred by actors in X"),
    # though neither of the two on the noun that opens it: "films" names what the way back
    # reaches, no relation
    head = frozenset({min(inner)})
    # when the phrase around is only the noun asked for ("In which country is the supplier of X
    # headquartered?"), the clause's verb after X says the second relation, the noun the third
    asked = frozenset(i for s in spans if s.asked_noun for i in s.words)
    around = after_entity(part.text) - inner if part.outer <= asked else frozenset()
    said = part.outer | (part.described - inner) | around | (inner - head if back else frozenset())
    firsts = top(lambda w: w <= inner, first)
    seconds = top((lambda w: w <= said) if part.outer else (lambda w: back or not w & inner), second)
    thirds = top(lambda w: not w & inner, third)
    best = 0.0
    for a in firsts:
        for b in seconds:
            if (spans[a].words & spans[b].words or min(first[a], second[b]) <= hop_cost
                    or (back and spans[b].words <= inner and spans[a].words == head)):
                continue
            for c in thirds:
                wa, wb, wc = spans[a].words, spans[b].words, spans[c].words
                if (wc & (wa | wb) or third[c] <= hop_cost
                        or any(x | y <= claimed for x, y in ((wa, wb), (wb, wc), (wa, wc)))):
                    continue
                best = max(best, float(first[a] + second[b] + third[c]) - 2 * hop_cost)
    return best


@dataclass
class Third:
    """What the third step found: the three-step signatures, the facts read for them, and what
    bounded the search."""

    found: list[Found] = field(default_factory=list)
    extra: list[Candidate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def third_steps(graph: Graph, found: list[Found], parts: list[Part], matcher, background,
                usable: Callable[[Candidate], bool], hop_cost: float, near: Near) -> Third:
    """The three-step paths from the two-step ones in `found` that read likeliest as the first
    two relations of a clause that may ask three, over `graph` and the facts of their ends read
    from `background` (bounded; added to `graph`)."""
    out = Third()
    asking = [p for p in parts if asks_three(p, near)]
    twos = [f for f in found if len(f.labels) == 2]
    if not asking or not twos:
        return out
    labels = sorted({label for f in twos for label in f.labels})
    texts = list(dict.fromkeys(s.text for p in asking for s in p.spans))
    matrix = matcher(labels, texts)
    row, column = {label: k for k, label in enumerate(labels)}, {t: j for j, t in enumerate(texts)}
    # per clause: its spans' columns, and those a first step may be read on
    clauses = [(p, cols := [column[s.text] for s in p.spans],
                [c for c, s in zip(cols, p.spans, strict=True) if s.words and s.words <= inner_words(p)])
               for p in asking]
    ranked: list[tuple[float, int, Found]] = []
    fits: dict[tuple, float] = {}
    for i, f in enumerate(twos):
        back = f.signature[0][0] == f.signature[1][0] and f.signature[0][1] != f.signature[1][1]
        key = (*f.labels, back)
        if key not in fits:
            fits[key] = 0.0
            first, second = row[f.labels[0]], row[f.labels[1]]
            for p, cols, firsts in clauses:
                if not back and (not firsts or matrix[first, firsts].max() <= hop_cost
                                 or matrix[second, cols].max() <= hop_cost):
                    continue  # no span reads like the first relation, or none like the second
                # any span left over may carry the third relation: its fit is not known yet
                fits[key] = max(fits[key], three_steps([matrix[first, cols], matrix[second, cols], np.ones(len(cols))],
                                                       p, hop_cost, back, near(p, f.labels[0]) if back else []))
        if fits[key] > 0:
            ranked.append((fits[key], i, f))
    prefixes = [f for _, _, f in sorted(ranked, key=lambda r: (-r[0], r[1]))[:PREFIXES]]
    if not prefixes:
        return out
    ends = list(dict.fromkeys(end_of(c, f.start) for f in prefixes for c in f.chains
                              if not (c[-1].fact.o_literal and end_of(c, f.start) == c[-1].fact.o)))
    if len(ends) > ENDS:
        out.notes.append(f"third relations read from {ENDS} of {len(ends)} entities")
    if background is not None:
        out.extra, note = _read(graph, ends[:ENDS], background, usable)
        if note:
            out.notes.append(note)
    out.found, cut = extend(graph, prefixes, MAX_THIRD)
    if cut:
        out.notes.append(f"three-relation paths cut at {MAX_THIRD}")
    return out


def _read(graph: Graph, ends: list[str], background, usable: Callable[[Candidate], bool]) -> tuple[list[Candidate], str]:
    """The facts of `ends` not in `graph` yet, read from the background and added to it."""
    started = time.perf_counter()
    read = read_into(graph, ends, background, usable, FACTS, 3, lambda: time.perf_counter() - started > TIME_BUDGET_S)
    if read.failed:
        return read.facts, f"no third relations: {read.failed}"
    if read.done < len(ends):
        return read.facts, f"third relations read for {read.done} of {len(ends)} entities: {TIME_BUDGET_S * 1000:.0f} ms spent"
    return read.facts, ""
