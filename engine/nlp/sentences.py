"""Fact sentences: every candidate fact as one plain English sentence (the verbalize stage
fills them in; retrieval, answering and checking read the same words).

The sentences are what the scorer embeds and BM25 matches, and what the prompt shows the
model, so they read like the user's own words ("Omar Haddad's phone number is +47 ...")
rather than like triples.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, time
from functools import cache

from engine.nlp.units import label_unit
from engine.state import Candidate
from kgstore.store import TYPE_PREDICATES as STORE_TYPE_PREDICATES
from kgstore.terms import Fact
from kgstore.vocab import (
    LABEL_PREDICATES,
    OFFICE,
    WD,
    WDT,
    XSD,
    local_name,
    readable_name,
)

# Type facts (rdf:type, Wikidata P31) are nodes' own verbalizations ("X is a film"), not edges.
TYPE_PREDICATES = frozenset(STORE_TYPE_PREDICATES)
NODE_PREDICATES = frozenset((*TYPE_PREDICATES, *LABEL_PREDICATES))


def is_node_fact(fact: Fact) -> bool:
    """A node's own verbalization ("X is a person"), mapped to the node, not to an edge."""
    return fact.p in NODE_PREDICATES


# Templates keyed by predicate key: an office predicate's local name, or a Wikidata P-id.
# "{s}" and "{o}" are the subject's and object's labels.
TEMPLATES: dict[str, str] = {
    # office domain
    "member_of": "{s} is a member of the {o} group",
    "office": "{s}'s office is {o}",
    "location": "{s} will be held in {o}",
    "organizer": "{s} is organized by {o}",
    "attendee": "{o} attends {s}",
    "group": "{s} is an event of the {o} group",
    "email": "{s}'s e-mail address is {o}",
    "phone": "{s}'s phone number is {o}",
    "date": "{s} takes place on {o}",
    "start_time": "{s} starts at {o}",
    "end_time": "{s} ends at {o}",
    # common Wikidata properties
    "P31": "{s} is an instance of {o}",
    "P279": "{s} is a subclass of {o}",
    "P106": "{s} works as {o}",
    "P161": "{o} is a cast member of {s}",
    "P57": "{s} was directed by {o}",
    "P58": "{s} was written for the screen by {o}",
    "P86": "the music of {s} was composed by {o}",
    "P162": "{s} was produced by {o}",
    "P50": "{s} was written by {o}",
    "P19": "{s} was born in {o}",
    "P20": "{s} died in {o}",
    "P569": "{s} was born on {o}",
    "P570": "{s} died on {o}",
    "P27": "{s} is a citizen of {o}",
    "P17": "{s} is in the country {o}",
    "P131": "{s} is located in {o}",
    "P36": "the capital of {s} is {o}",
    "P641": "{s} plays the sport {o}",
    "P54": "{s} plays for {o}",
    "P413": "{s} plays as {o}",
    "P166": "{s} received the award {o}",
    "P1411": "{s} was nominated for {o}",
    "P1346": "{o} is the winner of {s}",
    "P735": "{s}'s given name is {o}",
    "P734": "{s}'s family name is {o}",
    "P1303": "{s} plays the {o}",
    "P136": "the genre of {s} is {o}",
    "P577": "{s} was published on {o}",
    "P1082": "{s} has a population of {o}",
    "P26": "{s} is married to {o}",
    "P22": "{s}'s father is {o}",
    "P25": "{s}'s mother is {o}",
    "P40": "{s}'s child is {o}",
    "P69": "{s} was educated at {o}",
    "P108": "{s} works for {o}",
    "P102": "{s} is a member of the political party {o}",
    "P39": "{s} held the position {o}",
    "P800": "{s} is known for the work {o}",
    "P495": "{s} comes from the country {o}",
    "P364": "the original language of {s} is {o}",
    "P1412": "{s} speaks {o}",
    "P21": "{s}'s gender is {o}",
    "P272": "{s} was made by the company {o}",
    "P750": "{s} was distributed by {o}",
    "P2047": "{s} lasts {o}",
    "P1343": "{s} is described by the source {o}",
    "P856": "the official website of {s} is {o}",
    "P18": "{s} has the image {o}",
    "P937": "{s} worked in {o}",
    "P463": "{s} is a member of {o}",
    "P527": "{s} has the part {o}",
    "P361": "{s} is part of {o}",
    "P150": "{s} contains the administrative area {o}",
    "P1376": "{s} is the capital of {o}",
    "P6": "the head of government of {s} is {o}",
    "P35": "the head of state of {s} is {o}",
    "P112": "{s} was founded by {o}",
    "P571": "{s} was founded on {o}",
    "P176": "{s} is made by {o}",
    "P710": "{o} took part in {s}",
    "P1344": "{s} took part in {o}",
    "P118": "{s} plays in the league {o}",
    "P286": "the coach of {s} is {o}",
    "P115": "the home venue of {s} is {o}",
}

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


def predicate_key(p: str) -> str:
    """The template key of a predicate IRI: office local name, Wikidata P-id, else ''."""
    if p.startswith(OFFICE):
        return p[len(OFFICE):]
    for prefix in (WDT, WD):
        if p.startswith(prefix):
            return p[len(prefix):]
    m = re.search(r"/(P\d+)$", p)
    return m.group(1) if m else ""


def literal_text(value: str, datatype: str | None) -> str:
    """A literal as a person would say it: dates with their weekday, times as HH:MM."""
    try:
        if datatype == XSD + "date":
            d = date.fromisoformat(value[:10])
            return f"{WEEKDAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]} {d.year}"
        if datatype == XSD + "time":
            t = time.fromisoformat(value)
            return t.strftime("%H:%M")
        if datatype == XSD + "dateTime":
            d = date.fromisoformat(value[:10])
            rest = value[11:16]
            return f"{WEEKDAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]} {d.year} {rest}".strip()
    except ValueError:
        pass
    # Wikidata dumps write years as +1994-00-00T00:00:00Z; keep what is readable.
    m = re.fullmatch(r"[+]?(\d{4})-00-00(T.*)?", value)
    if m:
        return m.group(1)
    return value


def with_article(noun: str) -> str:
    noun = noun.strip()
    if not noun:
        return noun
    if noun[:1].isupper() and not noun.isupper() and " " not in noun:
        noun = noun.lower()
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


_NUMBER = re.compile(r"[+-]?\d[\d,]*(\.\d+)?")


def name_and_unit(p_label: str, value: str) -> tuple[str, str]:
    """(relation words, unit) of a relation whose name ends with the unit of its numeric value
    ("running time minutes" or "running time (minutes)", 142 -> "running time", "minutes"); the
    unit is '' otherwise. The
    unit goes after the number ("45 minutes"), not before it."""
    words = p_label.split()
    unit = words[-1][1:-1] if words and words[-1][:1] == "(" and words[-1][-1:] == ")" else words[-1] if words else ""
    if len(words) < 2 or not label_unit(unit) or not _NUMBER.fullmatch(value.strip()):
        return p_label, ""
    name = words[:-1]
    if len(name) > 1 and name[-1].casefold() == "in":  # "length in km"
        name = name[:-1]
    return " ".join(name), unit


def sentence(s: str, p_key: str, p_label: str, o: str) -> str:
    """One fact as a sentence: its template, or the readable fallback `s — relation — o` (a
    unit in the relation's name goes after the value: "s — cooking time — 45 minutes")."""
    template = TEMPLATES.get(p_key)
    if template:
        text = template.format(s=s, o=o)
    else:
        name, unit = name_and_unit(p_label, o)
        text = f"{s} — {name} — {o} {unit}" if unit else f"{s} — {p_label} — {o}"
    return text[:1].upper() + text[1:]


@cache  # asked once per candidate fact of every turn, of a few dozen keys
def relation_phrase(p_key: str) -> str:
    """A template's words without its two ends ("was founded on" for P571, whose label is
    "inception"); '' for a predicate without a template."""
    template = TEMPLATES.get(p_key, "")
    return " ".join(re.sub(r"\{[so]\}('s)?", " ", template).split())


def derived_sentence(predicate: str, arg_labels: list[str]) -> str:
    """Fallback for a derived predicate whose rule gave no text: `a is <predicate> b ...`."""
    words = predicate.replace("_", " ")
    if not arg_labels:
        return words
    rest = " ".join(arg_labels[1:])
    return f"{arg_labels[0]}: {words} {rest}".strip()


def _disambiguated_labels(labels: dict[str, str], candidates: list[Candidate], background=None) -> dict[str, str]:
    """Give same-named entities a distinguishing suffix: an event's date, else what it is when
    their classes differ ("Springfield (station)", "Springfield (city)"), else the IRI's local
    name."""
    by_label: dict[str, list[str]] = {}
    for iri, label in labels.items():
        by_label.setdefault(label.casefold(), []).append(iri)
    groups = [iris for iris in by_label.values() if len(iris) > 1]
    if not groups:
        return labels
    clashes = {iri for iris in groups for iri in iris}
    dates = {c.fact.s: literal_text(c.fact.o, c.fact.datatype) for c in candidates
             if c.fact.o_literal and predicate_key(c.fact.p) == "date" and c.fact.s in clashes}
    out = dict(labels)
    for iris in groups:
        kinds = _class_names(iris, background) if background is not None else {}
        for iri in iris:
            out[iri] = f"{labels[iri]} ({dates.get(iri) or kinds.get(iri) or local_name(iri)})"
    return out


def _class_names(iris: list[str], background) -> dict[str, str]:
    """Per entity, the name of a class of it that none of the others has ({} when they cannot
    be told apart so)."""
    try:
        types = {iri: background.types(iri) for iri in iris}
        names = background.labels({t for ts in types.values() for t in ts})
    except Exception:  # a remote background that fails: the local names still tell them apart
        return {}
    def name(t: str) -> str:
        n = names.get(t) or readable_name(t)
        return n.lower() if n[:1].isupper() and not n.isupper() and " " not in n else n

    out = {}
    for iri in iris:
        others = {name(t).casefold() for other in iris if other != iri for t in types[other]}
        unique = [n for n in map(name, types[iri]) if n.casefold() not in others]
        if not unique:
            return {}
        out[iri] = unique[0]
    return out


def _verbatim(text: str) -> Callable[[re.Match[str]], str]:
    """A re.sub replacement that is `text` as is (a label's backslashes are not escapes)."""
    return lambda _: text


def _told_apart(c: Candidate, plain: dict[str, str], told: dict[str, str]) -> str:
    """A rule's sentence names its entities by their plain labels; a same-named one gets its
    distinguishing suffix there too, so "Michael Okafor organizes Staff Meeting" says which."""
    text = c.text
    args = [c.fact.s] + ([] if c.fact.o_literal else c.fact.o.split())
    for iri in dict.fromkeys(args):
        name, full = plain.get(iri), told.get(iri)
        if name and full and full != name:
            text = re.sub(rf"(?<!\w){re.escape(name)}(?![\w(]| \()", _verbatim(full), text, count=1)
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
    entity_labels = _disambiguated_labels(plain, candidates, background)
    labels.update(entity_labels)
    for c in candidates:
        f = c.fact
        c.s_label = labels[f.s]
        c.p_label = labels[f.p]
        c.o_label = literal_text(f.o, f.datatype) if f.o_literal else labels[f.o]
        if f.o_literal and f.datatype == XSD + "date" and c.o_label != f.o and not f.p.startswith(OFFICE):
            # A KG's date also as it writes it, so that it can be found as written; the calendar's
            # own dates are said as a person schedules ("Friday 24 February 2017").
            c.o_label += f" ({f.o[:10]})"
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
