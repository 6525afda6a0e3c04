"""The kind of value a relation path leads to ("place", "time", "person" ...), which kinds
cannot answer which questions, the class a question's noun means, and the things a question
names, which are no answer to its "which"."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Protocol

import numpy as np

from engine.stages.route.clauses import Part, stems
from engine.state import Candidate


class Found(Protocol):
    """What these functions read of a path (paths.Found, which imports this module)."""

    start: str
    signature: tuple[tuple[str, bool], ...]
    labels: list[str]
    chains: list[list[Candidate]]


ENTITY_VALUE = "entity"  # a path's values are entities of no known type: not a date nor a number
_COUNTS = re.compile(r"\bhow many\b|\bnumber of\b", re.I)  # a number of things: the things counted
_ASKS_WHO = re.compile(r"\s*(?:and\s+|but\s+)?(?:who|whom)\b", re.I)  # opening the clause, it asks (no relative clause)
ENDS_READ = 8  # end facts of a path read for the kind of its values
CLASS_MEANT = 0.75  # the matcher's fit of a class label to the asked noun that says it in other words
CLASS_MARGIN = 0.3  # and how far ahead of the next class it must be
_CHOICE = re.compile(r"\bor\b", re.I)  # "Which is bigger, X or Y?": the named things are the choices


def ends_of(f: Found) -> tuple[bool, list[Candidate]]:
    """Whether the path's last step goes forward, and its first end facts (ENDS_READ)."""
    return f.signature[-1][1], [chain[-1] for chain in f.chains[:ENDS_READ]]


def value_of(c: Candidate, forward: bool) -> str:
    """The node an end fact gives as the path's value."""
    return c.fact.o if forward else c.fact.s


def clashes(kind: str, asked: set[str], question: str = "") -> bool:
    """Can a value of this kind not answer a question asking for these types? A date or a number
    is never an entity, unless the number counts them ("How many members ...?"); a place asked
    for by its noun ("Which city ...?") is no person, organization, date or number; "who" that
    opens the question asks for no date or number. (Not "where", nor "who" inside it: they also
    open relative clauses, "the city where X died", so they say less surely what is asked.)"""
    from engine.nlp.answer_type import NUMBER, ORGANIZATION, PERSON, PLACE, PLACE_NOUN, RECORD, TIME

    if NUMBER in asked and _COUNTS.search(question):
        return False
    if asked == {PLACE} and kind in (PERSON, ORGANIZATION, TIME, NUMBER) and PLACE_NOUN.search(question.casefold()):
        return True
    if asked <= {PERSON, ORGANIZATION} and kind in (TIME, NUMBER) and _ASKS_WHO.match(question):
        return True  # "Who founded X?" asks no date, however alike "founded" and "founding date"
    return bool(kind and asked and asked <= {TIME, NUMBER}
                and kind in (PERSON, PLACE, ORGANIZATION, RECORD, ENTITY_VALUE))


def timeless(f: Found) -> bool:
    """Are the path's values all texts that say no time ("40 Brunswick Street" for "In what year
    did it open?")? Its relation is not what a question asking "when" asks, however alike the
    words; entities and typed values are left to their kinds."""
    from engine.nlp.answer_type import says_when

    forward, ends = ends_of(f)
    return bool(ends) and all(forward and c.fact.o_literal and not says_when(c.o_label) for c in ends)


def measure_of(f: Found) -> str:
    """The measure a one-step path's values hold, read from its relation's label and values
    ("length" for "elevation m: 3733"; `measure_kind`); "" for entities and longer paths."""
    from engine.relations import measure_kind

    forward, ends = ends_of(f)
    if len(f.signature) != 1 or not forward or not ends or not all(c.fact.o_literal for c in ends):
        return ""
    kinds = {measure_kind(c.p_label, c.o_label) for c in ends}
    return kinds.pop() if len(kinds) == 1 else ""


def typer(candidates: list[Candidate]) -> Callable[[Found], str]:
    """The type of a path's values ("place", "time", "person" ...), read from its end facts."""
    from engine.nlp.answer_type import MEASURE, persons, value_type
    from engine.nlp.sentences import TYPE_PREDICATES

    about: dict[str, list[Candidate]] = {}
    for c in candidates:
        about.setdefault(c.fact.s, []).append(c)
    classes = {c.fact.s: c.o_label for c in candidates if c.fact.p in TYPE_PREDICATES}
    known: dict[int, str] = {}

    def kind(f: Found) -> str:
        if id(f) in known:
            return known[id(f)]
        forward, ends = ends_of(f)
        values = {value_of(c, forward) for c in ends}
        people = persons([c for v in values for c in about.get(v, ())])  # only the values' own facts
        counts: dict[str, int] = {}
        for c in ends:
            k = value_type(c, not forward, people, classes)
            if k:
                counts[k] = counts.get(k, 0) + 1
        entities = not counts and ends and all(not (forward and c.fact.o_literal) and not MEASURE.match(
            c.o_label if forward else c.s_label) for c in ends)
        known[id(f)] = max(counts, key=counts.__getitem__) if counts else (ENTITY_VALUE if entities else "")
        return known[id(f)]

    return kind


@dataclass(frozen=True)
class Classes:
    """The labels of the classes the values of a path are typed with ("Game Night" for the nights
    a member hosted), and of every class the turn's facts type anything with."""

    of: dict[str, frozenset[str]] = field(default_factory=dict)  # node -> its class labels

    def __call__(self, f: Found) -> set[str]:
        """The classes of the path's values, and the names of those that are entities: a thing
        named "Department of Linguistics" is a department, whatever types it has or lacks."""
        forward, ends = ends_of(f)
        names = {c.o_label if forward else c.s_label for c in ends if not (forward and c.fact.o_literal)}
        return {label for c in ends for label in self.of.get(value_of(c, forward), ())} | names

    @cached_property
    def labels(self) -> frozenset[str]:
        return frozenset(label for own in self.of.values() for label in own)


NO_CLASSES = Classes()


def value_classes(candidates: list[Candidate]) -> Classes:
    """The classes of the nodes the candidates' type facts type."""
    from engine.nlp.sentences import TYPE_PREDICATES

    classes: dict[str, set[str]] = {}
    for c in candidates:
        if c.fact.p in TYPE_PREDICATES and c.o_label:
            classes.setdefault(c.fact.s, set()).add(c.o_label)
    return Classes({node: frozenset(own) for node, own in classes.items()})


def value_roles(candidates: list[Candidate]) -> Classes:
    """What each node is by the relations it takes part in: the object of a relation named by a
    noun ("publisher": the press is a publisher), the subject of one that ends in a preposition
    ("painted by": the picture is a painting; "member of": the person is a member)."""
    from engine.nlp.realize import LABEL_PREPOSITIONS
    from engine.nlp.sentences import TYPE_PREDICATES

    roles: dict[str, set[str]] = {}
    for c in candidates:
        words = c.p_label.casefold().split()
        if not words or c.fact.p in TYPE_PREDICATES or c.fact.o_literal or c.derived:
            continue
        node = c.fact.s if words[-1] in LABEL_PREPOSITIONS else c.fact.o
        roles.setdefault(node, set()).add(c.p_label)
    return Classes({node: frozenset(own) for node, own in roles.items()})


def only_named(f: Found, part: Part) -> bool:
    """Are the path's values all things the question names, other than the one it starts at: an
    entity it links, or a place it says by its adjective ("German" of "Which German state ...",
    linked to the language)? Not in a question that offers a choice ("... Berlin or Hamburg?")."""
    if _CHOICE.search(part.text):
        return False
    forward, ends = ends_of(f)
    adjectives = [w for w in part.names if " " not in w]
    for c in ends:
        name = (c.o_label if forward else c.s_label) if not (forward and c.fact.o_literal) else ""
        if value_of(c, forward) in part.named - {f.start}:
            continue
        if name and " " not in name and any(adjective_of(w, name) for w in adjectives):
            continue
        return False
    return bool(ends)


def adjective_of(word: str, name: str) -> bool:
    """"German" of Germany, "Italian" of Italy, "Canadian" of Canada: most of the shorter word
    begins both (not "French" of France, nor "Spanish" of Spain: their forms part too early)."""
    a, b = word.casefold(), name.casefold()
    if a == b:
        return False
    common = len(os.path.commonprefix([a, b]))
    return common >= 4 and common >= 0.8 * min(len(a), len(b))


def meaning_classes(part: Part, classes: Classes, matcher: Callable[[list[str], list[str]], np.ndarray],
                    relations: set[str]) -> Part:
    """The part with the class its asked noun means when no class label says that noun: "What
    records has X made?" asks for Music Albums (the encoder reads them alike), and so not for its
    record label. Only a class clearly nearer than every other, so that "players" is no Person;
    only for a noun of no answer type; and not when a relation ends in that noun ("What industry is
    X in?" asks for its "industry", not a Company, however alike the encoder reads the two)."""
    nouns = [s.text for s in part.spans if s.asked_noun]
    labels = sorted(classes.labels)
    # a noun of a kind the question types already ("Which state ...": a place) is near every
    # class of that kind to the encoder ("state" reads like "city")
    if (not nouns or not labels or part.types or any(part.asked <= stems(c) for c in labels)
            or any(part.head <= stems(r.split()[-1]) for r in relations if r.split())):
        return part
    fit = matcher(labels, nouns).max(axis=1)
    order = np.argsort(-fit)
    best = float(fit[order[0]])
    second = float(fit[order[1]]) if len(labels) > 1 else 0.0
    if best < CLASS_MEANT or best - second < CLASS_MARGIN:
        return part
    return replace(part, meant=frozenset({labels[int(order[0])]}))
