"""What a loaded knowledge graph is about, for a first screen: its graphs, its entity types with
counts, and a few questions built from its own relations and entities ("Who directed Solaris?",
"Where was Greta Lindahl born?"), each one the app can answer.

Reads the store with a handful of aggregate SPARQL queries (one scan each); a remote endpoint is
not scanned (it may be all of Wikidata): its overview names it and offers no examples."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote

from engine.nlp.answer_type import is_name_noise
from engine.nlp.realize import LABEL_ID, LABEL_PREPOSITIONS
from engine.nlp.sentences import predicate_key
from kgstore.vocab import (
    ALIAS_PREDICATES,
    GRAPH_BG,
    LABEL_PREDICATES,
    RDF_TYPE,
    RDFS_LABEL,
    WDT,
)

EXAMPLES = 4
TYPES_SHOWN = 8
PREDICATES_TRIED = 30
# Relations that say nothing a user would ask about (Wikidata's name records and bookkeeping).
NOISE_LABELS = frozenset({"given name", "family name", "sex or gender", "described by source", "image",
                          "languages spoken, written or signed", "instance of", "subclass of", "type", "label"})
# Questions for relations whose plain "What is the <relation> of X?" reads badly; by label.
QUESTIONS = {
    "attendee": "Who attends {s}?", "organizer": "Who organizes {s}?", "location": "Where is {s}?",
    "member of": "Which group is {s} a member of?", "phone": "What is {s}'s phone number?",
    "email": "What is {s}'s e-mail address?", "office": "Where is {s}'s office?", "date": "When is {s}?",
    "start time": "When does {s} start?", "end time": "When does {s} end?", "group": "Which group holds {s}?",
    "cast member": "Who plays in {s}?", "director": "Who directed {s}?", "screenwriter": "Who wrote {s}?",
    "author": "Who wrote {s}?", "place of birth": "Where was {s} born?", "date of birth": "When was {s} born?",
    "place of death": "Where did {s} die?", "occupation": "What does {s} do for a living?",
    "member of sports team": "Which team does {s} play for?", "award received": "Which awards has {s} received?",
    "country of citizenship": "Which country is {s} a citizen of?", "capital": "What is the capital of {s}?",
    "population": "How many people live in {s}?", "spouse": "Who is {s} married to?",
    "genre": "What genre is {s}?", "publication date": "When was {s} published?",
}


@dataclass
class Overview:
    graphs: list[str] = field(default_factory=list)  # "name (N triples)"
    types: list[tuple[str, int]] = field(default_factory=list)  # (type label, entities), most first
    examples: list[str] = field(default_factory=list)  # questions, one per relation
    triples: int = 0
    remote: str = ""  # the endpoint's URL when the background is remote


# The words a relation label ends in when it is said as a verb phrase ("offered by", "member of").
_VERBS = frozenset("has have had is was are were taught held made built written sung played won".split())


def reads_as_noun(label: str) -> bool:
    """Whether "What is the <label> of X?" reads: not an id ("P47"), not a verb ("teaches",
    "offered by", "located in building")."""
    words = label.casefold().split()
    if not words or LABEL_ID.fullmatch(words[0]) or words[-1] in LABEL_PREPOSITIONS:
        return False
    return words[0] not in _VERBS and not (len(words[0]) > 3 and words[0].endswith(("ed", "es")))


def question(label: str, subject: str) -> str:
    template = QUESTIONS.get(label.casefold())
    if template:
        return template.format(s=subject)
    return f"What is the {label} of {subject}?"


def _in_background(pattern: str) -> str:
    return f'GRAPH ?g {{ {pattern} }} FILTER(STRSTARTS(STR(?g), "{GRAPH_BG}"))'


def overview(ctx, examples: int = EXAMPLES) -> Overview:
    store = ctx.background
    if store is not ctx.store:
        return Overview(remote=str(ctx.config.sparql or "a SPARQL endpoint"))
    out = Overview()
    for g in store.background_graphs():
        n = store.count(g)
        out.triples += n
        out.graphs.append(f"{unquote(g.removeprefix(GRAPH_BG))} ({n:,} triples)")
    if not out.graphs:
        return out
    typed = _in_background(f"?s <{RDF_TYPE}>|<{WDT}P31> ?c")
    rows = store.query(f"SELECT ?c (COUNT(DISTINCT ?s) AS ?n) WHERE {{ {typed} }} GROUP BY ?c ORDER BY DESC(?n) "
                       f"LIMIT {TYPES_SHOWN:d}")
    classes = [(r["c"], int(r["n"])) for r in rows if r.get("c")]
    class_labels = store.labels([c for c, _ in classes])
    out.types = [(class_labels.get(c) or c, n) for c, n in classes]
    skip = {RDF_TYPE, *LABEL_PREDICATES, *ALIAS_PREDICATES}
    rows = store.query(f"SELECT ?p (COUNT(*) AS ?n) WHERE {{ {_in_background('?s ?p ?o')} }} GROUP BY ?p "
                       f"ORDER BY DESC(?n) LIMIT {PREDICATES_TRIED + len(skip):d}")
    predicates = [r["p"] for r in rows if r.get("p") and r["p"] not in skip]
    labels = store.labels(predicates)
    picked: list[tuple[str, str, str]] = []  # (question, subject, subject's type)
    for p in predicates[:PREDICATES_TRIED]:
        label = (labels.get(p) or "").strip()
        if not label or label.casefold() in NOISE_LABELS or is_name_noise(label, predicate_key(p)):
            continue
        if label.casefold() not in QUESTIONS and not reads_as_noun(label):
            continue
        having = _in_background(f"?s <{p}> ?o .")
        found = store.query(f"SELECT DISTINCT ?s ?l WHERE {{ {having} ?s <{RDFS_LABEL}> ?l }} ORDER BY ?l "
                            f"LIMIT {examples + 1:d}")
        used = {s for _, s, _ in picked}
        row = next((r for r in found if r.get("l") and r["l"] not in used), None)
        if row is None:
            continue
        kinds = store.types(row["s"]) if hasattr(store, "types") else []
        picked.append((question(label, row["l"]), row["l"], kinds[0] if kinds else ""))
    # One question per kind of thing first (a person's, an event's, a film's), then the rest.
    seen_types: set[str] = set()
    first: list[str] = []
    rest: list[str] = []
    for q, _, kind in picked:
        (rest if kind in seen_types else first).append(q)
        seen_types.add(kind)
    out.examples = (first + rest)[:examples]
    return out
