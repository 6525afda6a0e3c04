"""The answer a relation path gives (`state.paths`, best first, one per asked relation): one
sentence per path, said by the realizer, every value of a list named ("Jon Ek and Ada Lind play for
FC Nord"; a long one cut with its count said, "A, B, … H and 4 more"), and the chain said for two
hops ("FC Nord's head coach is Ida Berg; Jon Ek plays for FC Nord"). Also whether a reply names
what the paths lead to.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.nlp.realize import LISTED, Said, clause, is_noun
from engine.nlp.sentences import literal_text, predicate_key, sentence
from engine.state import Candidate, RelationPath, TurnState
from kgstore.terms import Fact


class Labels:
    """Labels of the nodes a turn's candidates and mentions name, the background's for others."""

    def __init__(self, state: TurnState, background) -> None:
        self.background = background
        self.known: dict[str, str] = {}
        self.sentences: dict[tuple[str, str, str], str] = {}
        for c in state.candidates:
            self._take(c)
        for m in state.mentions:
            if m.entity and m.label:
                self.known.setdefault(m.entity, m.label)

    def _take(self, c: Candidate) -> None:
        f = c.fact
        if c.s_label:
            self.known.setdefault(f.s, c.s_label)
        if c.p_label:
            self.known.setdefault(f.p, c.p_label)
        if c.o_label and not f.o_literal:
            self.known.setdefault(f.o, c.o_label)
        if c.text and not c.derived:
            self.sentences.setdefault(f.key, c.text)

    def of(self, iri: str) -> str:
        if iri not in self.known:
            self.known[iri] = self.background.label(iri) if self.background is not None else iri
        return self.known[iri]

    def node(self, fact: Fact, subject: bool) -> str:
        if subject:
            return self.of(fact.s)
        return literal_text(fact.o, fact.datatype) if fact.o_literal else self.of(fact.o)

    def said(self, fact: Fact) -> str:
        """The fact's sentence as the verbalize stage wrote it from a template, else realized
        from its labels ("Arsenal's head coach is Mikel Arteta"), never "X: relation Y"."""
        text = self.sentences.get(fact.key) or sentence(self.node(fact, True), predicate_key(fact.p),
                                                        self.of(fact.p), self.node(fact, False))
        text = text.strip().rstrip(".")
        if " — " in text:  # the fallback "X — relation — Y" has no template: the realizer says it
            text = self.realized(fact)
        return text

    def realized(self, fact: Fact, pronoun: str = "") -> str:
        return clause(Said(self.node(fact, True), self.of(fact.p), (self.node(fact, False),)), pronoun=pronoun)

    def hops(self, facts: list[Fact], possessive: Callable[[str], str]) -> list[str]:
        """The facts' sentences in turn; one about the thing the sentence before opened with says
        it by its pronoun ("Moth & Lamp is published by Kettle & Crane. Its award is ...")."""
        out, before = [], ""
        for f in facts:
            subject, said = self.node(f, True), self.said(f)
            opens = said.startswith(subject)
            out.append(self.realized(f, possessive(f.s)) if opens and subject == before else said)
            before = subject if opens else ""
        return out


def value_of(path: RelationPath, chain: list[Fact], labels: Labels) -> str:
    """The node a chain ends at, as read: the far end of its last fact."""
    return labels.node(chain[-1], subject=not path.steps[-1].forward)


def values_of(path: RelationPath, labels: Labels) -> list[str]:
    return list(dict.fromkeys(value_of(path, chain, labels) for chain in path.chains if chain))


def path_sentence(path: RelationPath, labels: Labels, again: bool = False,
                  possessive: Callable[[str], str] = lambda iri: "its", told: set[Fact] | None = None) -> str:
    """One sentence for one path: the fact itself for one value, the values listed for several;
    with two or three hops, the hops that lead to the answer said after it, but for those in `told`
    (said by an earlier path of the answer; the hops said here join it). `again`: the sentence before
    had the same subject, so one relation of it is said of its `possessive` ("its", "his", "her", "their")."""
    told = set() if told is None else told
    chains = [c for c in path.chains if c]
    if not chains:
        return ""
    first = path.steps[0]
    if again and len(path.steps) == 1 and first.forward:
        values = tuple(values_of(path, labels))
        return clause(Said(path.start_label, first.label, values, total=path.total or len(chains)), pronoun=possessive(path.start)) + "."
    if len(chains) == 1 and path.total <= 1:
        chain = chains[0]
        # the hops that lead there, nearest first, each its own sentence: after a ";" a parse
        # reads the next hop's words as going on from the clause before
        facts = [chain[-1], *(f for f in reversed(chain[:-1]) if f not in told)]
        told.update(chain[:-1])
        return _sentences(labels.hops(facts, possessive))
    last = path.steps[-1]
    values = tuple(values_of(path, labels))
    total = path.total or len(chains)
    if len(path.steps) == 1:
        return clause(Said(path.start_label, first.label, values, forward=first.forward, total=total)) + "."
    hops = list(dict.fromkeys(labels.said(f) for c in chains for f in c[:-1] if f not in told))
    told.update(f for c in chains for f in c[:-1])
    if len(path.steps) == 2 and first.forward and not is_noun(first.label):
        return _through(path, chains, hops, labels)
    owner = f"{path.start_label}'s {first.label}" if first.forward else f"the {first.label} of {path.start_label}"
    before = list(dict.fromkeys(labels.node(c[-1], subject=last.forward) for c in chains))
    if len(path.steps) > 2 and len(before) == 1:
        owner = before[0]  # three hops to one node: the last relation is said of it by name
    text = clause(Said(owner, last.label, values, forward=last.forward, total=total))
    return _sentences([text, *hops])


def _sentences(clauses: list[str]) -> str:
    return " ".join(text[:1].upper() + text[1:] + "." for text in clauses)


def _through(path: RelationPath, chains: list[list[Fact]], hops: list[str], labels: Labels) -> str:
    """Two hops whose first relation is an action ("popularized by", "plays for"): no noun names
    the thing in between ("Pad Thai's popularized by" is no English), so the hop is said first and
    the thing it reaches is the subject of the answer ("Pad Thai is popularized by X. X's birth
    year is 1897.")."""
    last = path.steps[-1]
    by_middle: dict[str, list[str]] = {}
    for chain in chains:
        middle = labels.node(chain[0], subject=False)
        by_middle.setdefault(middle, []).append(value_of(path, chain, labels))
    said = [clause(Said(m, last.label, tuple(dict.fromkeys(vs)), forward=last.forward))
            for m, vs in list(by_middle.items())[:LISTED]]
    return _sentences([*hops[:LISTED], *said])


def asked_paths(state: TurnState) -> list[RelationPath]:
    """The paths the answer says: each asked relation once, with values at its end."""
    seen: set[tuple] = set()
    out = []
    for path in state.paths:
        key = (path.start, tuple((s.predicate, s.forward) for s in path.steps))
        if key in seen or not any(path.chains):
            continue
        seen.add(key)
        out.append(path)
    return out


def path_text(state: TurnState, background, possessive: Callable[[str], str] = lambda iri: "its"
              ) -> tuple[str, list[str]]:
    """The answer of the turn's paths, and the fact sentences it rests on ("" when none).
    `possessive(iri)`: the pronoun a subject said again takes ("his" of a man the KG knows)."""
    labels = Labels(state, background)
    paths = asked_paths(state)
    told: set[Fact] = set()
    sentences = [s for s in (path_sentence(p, labels, again=i > 0 and paths[i - 1].start == p.start,
                                           possessive=possessive, told=told)
                             for i, p in enumerate(paths)) if s]
    facts = list(dict.fromkeys(labels.said(f) for p in paths for chain in p.chains for f in chain))
    return " ".join(sentences), facts


def _said(reply: str, value: str) -> bool:
    """A value named in a reply, case and spacing aside; a date by its year and day."""
    norm = " ".join(reply.casefold().split())
    value = " ".join(value.casefold().split())
    if value and value in norm:
        return True
    date = re.fullmatch(r"\w+ (\d{1,2}) (\w+) (\d{4})", value)  # "wednesday 20 february 1957"
    return date is not None and date.group(3) in norm and f"{date.group(1)} {date.group(2)}" in norm


def missing_from(reply: str, state: TurnState, background) -> str:
    """What a reply leaves out of what the paths lead to: the asked relation none of whose values
    it names, or, for a list question, the values it leaves out ("names 1 of the 3 ..."); ""
    when it names them."""
    labels = Labels(state, background)
    for path in asked_paths(state):
        values = values_of(path, labels)
        named = [v for v in values if _said(reply, v)]
        what = path.relations
        if not named:
            return f"the model's reply does not name the {what} of {path.start_label} ({values[0]})"
        total = max(path.total, len(values))
        if path.asks_all and len(named) < total:
            return (f"the model's reply is incomplete: it names {len(named)} of the {total} values of "
                    f"{what} of {path.start_label} that the knowledge graph has")
    return ""
