"""Verbalize stage: every candidate fact becomes one plain English sentence.

The sentences are what the scorer embeds and BM25 matches, and what the prompt shows the
model, so they read like the user's own words ("Omar Haddad's phone number is +47 ...")
rather than like triples.
"""

from __future__ import annotations

import re

from engine.sentences import (  # noqa: F401 (names the other stages read from here)
    MONTHS,
    literal_text,
    predicate_key,
    relation_phrase,
    sentence,
    with_article,
)
from engine.stage import TurnContext, stage
from engine.state import Candidate, TurnState
from kgstore.store import TYPE_PREDICATES
from kgstore.vocab import LABEL_PREDICATES, local_name, readable_name


def derived_sentence(predicate: str, arg_labels: list[str]) -> str:
    """Fallback for a derived predicate whose rule gave no text: `a is <predicate> b ...`."""
    words = predicate.replace("_", " ")
    if not arg_labels:
        return words
    rest = " ".join(arg_labels[1:])
    return f"{arg_labels[0]}: {words} {rest}".strip()


def _disambiguated_labels(labels: dict[str, str], candidates: list[Candidate]) -> dict[str, str]:
    """Give same-named entities a distinguishing suffix: an event's date, else the IRI's local name."""
    by_label: dict[str, list[str]] = {}
    for iri, label in labels.items():
        by_label.setdefault(label.casefold(), []).append(iri)
    clashes = {iri for iris in by_label.values() if len(iris) > 1 for iri in iris}
    if not clashes:
        return labels
    dates = {c.fact.s: literal_text(c.fact.o, c.fact.datatype) for c in candidates
             if c.fact.o_literal and predicate_key(c.fact.p) == "date" and c.fact.s in clashes}
    out = dict(labels)
    for iri in clashes:
        out[iri] = f"{labels[iri]} ({dates.get(iri) or local_name(iri)})"
    return out


def _told_apart(c: Candidate, plain: dict[str, str], told: dict[str, str]) -> str:
    """A rule's sentence names its entities by their plain labels; a same-named one gets its
    distinguishing suffix there too, so "Michael Okafor organizes Staff Meeting" says which."""
    text = c.text
    args = [c.fact.s] + ([] if c.fact.o_literal else c.fact.o.split())
    for iri in dict.fromkeys(args):
        name, full = plain.get(iri), told.get(iri)
        if name and full and full != name:
            text = re.sub(rf"(?<!\w){re.escape(name)}(?![\w(]| \()", lambda _: full, text, count=1)
    return text


def verbalize(candidates: list[Candidate], background) -> None:
    """Fill labels and text of each candidate in place."""
    iris: dict[str, None] = {}
    for c in candidates:
        iris.setdefault(c.fact.s, None)
        iris.setdefault(c.fact.p, None)
        if not c.fact.o_literal:
            iris.setdefault(c.fact.o, None)
    try:
        labels = dict(background.labels(list(iris))) if iris else {}
    except Exception:  # a remote background that fails leaves us with local names, not a dead turn
        labels = {}
    for iri in iris:
        if not labels.get(iri):
            labels[iri] = readable_name(iri)
    predicates = {c.fact.p for c in candidates}
    plain = {i: l for i, l in labels.items() if i not in predicates}
    entity_labels = _disambiguated_labels(plain, candidates)
    labels.update(entity_labels)
    for c in candidates:
        f = c.fact
        c.s_label = labels[f.s]
        c.p_label = labels[f.p]
        c.o_label = literal_text(f.o, f.datatype) if f.o_literal else labels[f.o]
        if c.derived and c.text:
            c.text = _told_apart(c, plain, entity_labels)
            continue
        if f.p in LABEL_PREDICATES:
            c.o_label = c.s_label
            c.text = c.s_label
        elif f.p in TYPE_PREDICATES:
            c.text = f"{c.s_label} is {with_article(c.o_label)}"
        else:
            c.text = sentence(c.s_label, predicate_key(f.p), c.p_label, c.o_label)


def merge_restatements(candidates: list[Candidate], binary: set | frozenset = frozenset()) -> list[Candidate]:
    """One candidate per fact. A derived fact is merged into a KG fact it restates, its rule and
    probability kept in `also_derived`: same triple, same sentence (an inverse rule giving an
    edge back: "X attends Y" twice), or, for a two-place rule (`binary`: those derived facts'
    keys), the same two entities in the same order ("X belongs to the G group" beside the edge
    "X is a member of the G group"). The KG fact (or the first) stays."""
    def key(c: Candidate) -> str:
        return " ".join(c.text.casefold().rstrip(" .").split())

    kept: dict = {}
    pairs: dict[tuple[str, str], Candidate] = {}
    gone: set[int] = set()
    for c in sorted(candidates, key=lambda c: c.derived):  # KG facts first: they win a tie
        f = c.fact
        first = None
        if c.derived:
            first = kept.get(f.key) or (kept.get(key(c)) if c.text else None)
            if first is None and f.key in binary and not f.o_literal:
                first = pairs.get((f.s, f.o))
        if first is not None:
            first.also_derived.append({"predicate": f.p, "p": c.p, "text": c.text})
            gone.add(id(c))
            continue
        kept.setdefault(f.key, c)
        if c.text:
            kept.setdefault(key(c), c)
        if not c.derived and not f.o_literal and f.p not in TYPE_PREDICATES and f.p not in LABEL_PREDICATES:
            pairs.setdefault((f.s, f.o), c)
    return [c for c in candidates if id(c) not in gone]


def _report(state: TurnState) -> list[str]:
    return [c.text for c in state.candidates]


@stage("verbalize", report=_report)
def run(state: TurnState, ctx: TurnContext) -> None:
    if state.candidates:
        verbalize(state.candidates, ctx.background)
        binary = {d.fact.key for d in state.derived if d.fact is not None and len(d.args) == 2}
        state.candidates = merge_restatements(state.candidates, binary)
        restated = {t["text"] for c in state.candidates for t in c.also_derived}
        for d in state.derived:
            d.restates = d.text in restated
