"""Operations over the members of a class ("Which album has the most tracks?", "Which dishes take
less than 30 minutes?"): the class the question names, read from the KG's own class labels as
linking reads names; its members; the relation the question asks about, chosen among the
members' relations by the relation matcher (and by the kind of value the operator needs: a date
for "oldest", the bound's measure for a filter); the operator run over every member's values.
Counts and rankings read every member (SPARQL, no cap); only the sentence shortens its lists."""

from __future__ import annotations

import re
import weakref
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from engine.compute.operators import Operator
from engine.compute.run import Result, keep, rank, wants_max
from engine.compute.values import Value, compare, keys_of, read
from engine.context import Background, select
from engine.relations import relation_kind
from engine.words import singular, stem, words_of
from kgstore.store import TYPE_PREDICATES

Grid = Callable[[Sequence[str], Sequence[str]], np.ndarray]  # the relation matcher's grid(labels, phrases)
_TYPES = " ".join(f"<{p}>" for p in TYPE_PREDICATES)
SAMPLED = 500  # members whose relations are read to choose the relation asked about
LARGE = 2000  # members past which a ranking of typed values is left to the store (ORDER BY ... LIMIT)
TOP = 50  # the best values the store returns for such a ranking: ties and the runner-up are among them
# Datatypes the store orders as engine/compute/values reads them (dates by date, numbers by value).
_ORDERED = frozenset(f"http://www.w3.org/2001/XMLSchema#{t}" for t in (
    "date", "dateTime", "gYear", "integer", "int", "long", "decimal", "double", "float", "nonNegativeInteger",
    "positiveInteger"))


COLUMNS = 8  # ordered columns kept (the latest used): a few classes and relations a session asks about


@dataclass(frozen=True)
class Column:
    """Every member's value of one relation of a class of more than LARGE members, all of one
    datatype the store orders, read once and kept in the order engine/compute reads values: a
    superlative reads its ends, a filter bisects it. Kept for the store's `revision` it was read
    at (a load or an edit of the background reads it again)."""

    members: int
    ordered: tuple[tuple[tuple[float, ...], str, str], ...]  # (key, member IRI, value), least first
    lacking: tuple[str, ...]  # the first TOP members without a value
    without: int  # how many members have no value


# What is kept of each background (while it lives): its columns and class sizes, by what they
# were read for; a background that keeps no `revision` (a remote endpoint) is read each time.
_kept: weakref.WeakKeyDictionary[object, dict[tuple, Column | None | int]] = weakref.WeakKeyDictionary()


def _memo(background: Background) -> dict[tuple, Column | None | int] | None:
    if getattr(background, "revision", None) is None:
        return None
    try:
        return _kept.setdefault(background, {})
    except TypeError:  # no weak reference to it can be kept
        return None


def _remember(memo: dict[tuple, Column | None | int], key: tuple, value: Column | None | int) -> None:
    memo[key] = value
    while len(memo) > COLUMNS:
        del memo[next(iter(memo))]


@dataclass(frozen=True)
class Klass:
    iri: str
    label: str
    said: str  # the words of the question that name it ("board games")


@dataclass(frozen=True)
class MemberOperation:
    """An operator run over every member of a class: the relation read, whether its values were
    counted (the most awards) rather than compared, and the result."""

    klass: Klass | None  # None: every entity that has the relation
    members: int
    relation: str  # predicate IRI
    label: str
    forward: bool
    counted: bool
    result: Result
    values: dict[str, tuple[str, ...]]


def class_labels(background: Background) -> dict[str, str]:
    """Every class of the KG (IRI -> label): one aggregate over the type facts."""
    rows = select(background, f"SELECT DISTINCT ?c WHERE {{ VALUES ?t {{ {_TYPES} }} ?s ?t ?c . FILTER(isIRI(?c)) }}")
    iris = [r["c"] for r in rows if "c" in r]
    return background.labels(iris) if iris else {}


def _key(word: str) -> str:
    """A word's stem, its plural's the same as its singular's (the stemmer keeps a short "jobs")."""
    return stem(singular(word.lower()))


def keys(text: str) -> set[str]:
    """The keys (`_key`) of a text's content words."""
    return {_key(w) for w in words_of(text)}


def class_tiers(question: str, classes: dict[str, str], linked: Sequence[str] = ()) -> list[list[Klass]]:
    """The classes the question may name, surest first: a class linking found; the classes whose
    label's words it says in full (the longest such labels); those whose head noun it says
    ("games" for "board game"); those whose one-word label ends in a noun it says ("works" for
    "artwork")."""
    said = words_of(question)
    stems = [_key(w) for w in said]
    known = set(stems)
    said_any = known | set(re.findall(r"\w+", question.lower()))  # a word said at all, stemmed or as is
    found = [Klass(iri, classes.get(iri, iri), classes.get(iri, iri)) for iri in linked if iri in classes]
    full: list[tuple[int, Klass]] = []
    head: list[Klass] = []
    compound: list[Klass] = []
    for iri, label in classes.items():
        words = keys(label)
        if not words:
            continue
        # "e-bike" ends in the noun "bike" as "road bike" does; its "e" is a word the question
        # must say for the label to be said in full
        last = re.split(r"[\s-]+", label.strip())[-1].lower()
        run = _said(label, said, stems) if words <= known or _key(last) in known else ""
        # a label said in full is said as one phrase: "films ... direct" says no "film director"
        if words <= known and keys(run) >= words and set(re.findall(r"\w+", label.lower())) <= said_any:
            full.append((len(words), Klass(iri, label, run)))
        elif _key(last) in known:
            head.append(Klass(iri, label, run))
        else:
            ends = [w for w in said if len(w) >= 4 and last != (one := singular(w.lower())) and last.endswith(one)]
            if ends and len(label.split()) == 1:
                compound.append(Klass(iri, label, ends[0]))
    most = max((n for n, _ in full), default=0)
    tiers = [found, [k for n, k in full if n == most], head, compound]
    return [t for t in tiers if t]


def named_classes(question: str, classes: dict[str, str], linked: Sequence[str] = ()) -> list[Klass]:
    """The surest of `class_tiers`, [] when the question names no class."""
    tiers = class_tiers(question, classes, linked)
    return tiers[0] if tiers else []


def _said(label: str, words: Sequence[str], stems: Sequence[str]) -> str:
    """The question's words for the class: its longest run of words of the label ("board games";
    "missions" of "How many missions has the Solvik Space Agency operated?", not "missions space")."""
    mine = keys(label)
    runs: list[list[str]] = [[]]
    for w, s in zip(words, stems, strict=True):
        if s in mine:
            runs[-1].append(w)
        elif runs[-1]:
            runs.append([])
    longest: list[str] = max(runs, key=len)
    return " ".join(longest) or label


def class_size(background: Background, classes: Sequence[Klass]) -> int:
    """How many members the classes have: one aggregate, kept for the store's `revision` (read
    each time from a background without one)."""
    memo = _memo(background)
    key = ("size", getattr(background, "revision", None), tuple(k.iri for k in classes))
    if memo is not None and isinstance(known := memo.get(key), int):
        return known
    size = _count(background, _scope(classes))
    if memo is not None:
        _remember(memo, key, size)
    return size


def first_members(background: Background, classes: Sequence[Klass], cap: int) -> list[str]:
    """`cap` members of the classes, the first the store lists (no ordering of every member)."""
    iris = " ".join(f"<{k.iri}>" for k in classes)
    rows = select(background, f"SELECT DISTINCT ?s WHERE {{ VALUES ?t {{ {_TYPES} }} VALUES ?c {{ {iris} }} ?s ?t ?c }} LIMIT {cap}")
    return [r["s"] for r in rows if "s" in r]


def members_of(background: Background, classes: Sequence[Klass]) -> list[str]:
    iris = " ".join(f"<{k.iri}>" for k in classes)
    rows = select(background, f"SELECT DISTINCT ?s WHERE {{ VALUES ?t {{ {_TYPES} }} VALUES ?c {{ {iris} }} ?s ?t ?c }}")
    return sorted(r["s"] for r in rows if "s" in r)


def _scope(classes: Sequence[Klass], only: Sequence[str] = ()) -> str:
    """The SPARQL pattern binding ?s to the members weighed: named entities, or a class's members,
    or (neither) anything."""
    if only:
        return f"VALUES ?s {{ {' '.join(f'<{e}>' for e in only)} }}"
    if classes:
        return f"VALUES ?t {{ {_TYPES} }} VALUES ?c {{ {' '.join(f'<{k.iri}>' for k in classes)} }} ?s ?t ?c ."
    return ""


def _sampled(classes: Sequence[Klass], only: Sequence[str]) -> str:
    """`_scope`, a class's first SAMPLED members only: which relations the members have, and
    whether one holds several values a member, is read off them; what is counted or ranked is
    read off every member."""
    if only or not classes:
        return _scope(classes, only)
    return f"{{ SELECT DISTINCT ?s WHERE {{ {_scope(classes)} }} LIMIT {SAMPLED} }}"


def _relations(background: Background, where: str) -> list[tuple[str, bool, str]]:
    """(predicate, forward, one value) of every relation the members have, both directions."""
    out = []
    for forward in (True, False):
        triple = "?s ?p ?o" if forward else "?o ?p ?s"
        rows = select(background, f"SELECT ?p (SAMPLE(?o) AS ?v) WHERE {{ {where} {triple} . "
                                  f"FILTER(?p NOT IN ({', '.join(f'<{p}>' for p in TYPE_PREDICATES)})) }} GROUP BY ?p")
        out += [(r["p"], forward, r.get("v", "")) for r in rows if "p" in r]
    return out


def _most_values(background: Background, where: str, predicate: str, forward: bool) -> int:
    """The most values of the relation one member has (an aggregate, every member read)."""
    triple = f"?s <{predicate}> ?o" if forward else f"?o <{predicate}> ?s"
    rows = select(background, f"SELECT (MAX(?n) AS ?m) WHERE {{ SELECT ?s (COUNT(?o) AS ?n) WHERE {{ {where} {triple} }} "
                              "GROUP BY ?s }")
    return int(float(rows[0].get("m", 0))) if rows and rows[0].get("m") else 0


def _orderable(value: str) -> bool:
    return read(value).kind != "text"


def _year_or_date(value: Value) -> bool:
    return value.kind == "date" or (value.kind == "number" and not value.measure and 1000 <= value.key[0] < 3000)


def wanted_kind(op: Operator, label: str, sample: str) -> bool:
    """Can this relation's values be what the operator weighs? A word pointing in time wants a
    date (or a year); a filter's bound wants a value of its own kind."""
    value = read(sample, label)
    if op.name == "filter":
        bound = read(op.bound, label)
        if bound.measure:
            return value.kind == "number" and value.measure == bound.measure
        if _year_or_date(bound):
            return _year_or_date(value)
        return value.kind == "number"
    if op.time_back is not None:
        return _year_or_date(value)
    return True


def operate_members(op: Operator, question: str, background: Background, grid: Grid,
                    classes: Sequence[Klass], iri_labels: Callable[[Sequence[str]], dict[str, str]],
                    only: Sequence[str] = ()) -> MemberOperation | None:
    """argmax / argmin / filter over the members of the classes (or, with none, over every entity
    that has the relation), compare over the `only` entities named: None when no relation of
    theirs fits."""
    where = _scope(classes, only)
    sampled = _sampled(classes, only)
    relations = [(p, fw, v) for p, fw, v in _relations(background, sampled) if p]
    if not relations:
        return None
    labels = iri_labels([p for p, _, _ in relations])
    # A counting word and the bound say the operator, not the relation ("fewest" is no kind of
    # track); an adjective graded ("longest", "heaviest") also says what is measured.
    counting = op.graded in ("most", "least", "fewest", "more", "less", "fewer")
    told = {op.graded if counting else "", *op.bound.lower().split()} - {""}
    kept = [w for w in words_of(question)
            if w.lower() not in told and not any(_key(w) in keys(k.label) for k in classes)]
    # Each word and each pair of words the question says, as the route reads spans: a word of
    # context ("in the graph") does not read as a modifier of the relation's noun.
    spans = list(dict.fromkeys(kept + [" ".join(kept[i:i + 2]) for i in range(len(kept) - 1)])) or [question]
    scores = grid([labels.get(p, p) for p, _, _ in relations], spans).max(axis=1, keepdims=True)
    asked = keys(question)
    fitting: list[tuple[float, int, str, bool, bool]] = []
    for (p, forward, sample), row in zip(relations, scores, strict=True):
        orderable = forward and _orderable(sample)
        if orderable and not wanted_kind(op, labels.get(p, p), sample):
            continue
        if not orderable and (op.name == "filter" or op.time_back is not None):
            continue
        # Ties of the matcher (a synonym reads as well as the word) go to the label the question says.
        said = len(keys(labels.get(p, p)) & asked)
        fitting.append((float(row[0]), said, p, forward, not orderable))
    by_kind = op.name == "filter" or op.time_back is not None
    fitting.sort(key=lambda f: (f[0], f[1]), reverse=True)
    spreads: dict[tuple[str, bool], int] = {}

    def spread(f: tuple[float, int, str, bool, bool]) -> int:
        """The most values one member has of a counted relation (0 for an ordered one)."""
        if (f[2], f[3]) not in spreads:
            spreads[(f[2], f[3])] = _most_values(background, sampled, f[2], f[3]) if f[4] else 0
        return spreads[(f[2], f[3])]

    if counting and op.noun and not any(f[4] and keys(op.noun) & keys(labels.get(f[2], f[2])) for f in fitting):
        # "the most people" of a room: a relation holding a count ("capacity"), the one that reads
        # most like the question, when no counted relation says the noun (the courses taught in
        # the room are no people)
        samples = {(p, fw): v for p, fw, v in relations}
        holding = [f for f in fitting if not f[4] and relation_kind(labels.get(f[2], f[2]), samples[(f[2], f[3])]) == "count"]
        fitting = holding or fitting
        by_kind = by_kind or bool(holding)
    # A counted relation of one value a member ("name", "label", the one band each member is in)
    # tells no member apart: every one would tie, so it is passed over.
    first = next((f for f in fitting if not f[4] or spread(f) > 1), None)
    # The kind of value alone decides when one relation has it ("oldest": the one date).
    if first is None or (first[0] <= 0 and not (by_kind and len(fitting) == 1)):
        return None
    top = [f for f in fitting if f[:2] == first[:2] and (not f[4] or spread(f) > 1)]
    best = max(top, key=lambda f: (not f[4], spread(f)))
    _, _, predicate, forward, counted = best
    label = labels.get(predicate, predicate)
    triple = f"?s <{predicate}> ?o" if forward else f"?o <{predicate}> ?s"
    if classes and not only and not counted and op.name in ("argmax", "argmin", "filter"):
        by_store = (_kept_by_store if op.name == "filter" else _ranked_by_store)(op, background, classes, triple, label,
                                                                                 iri_labels)
        if by_store is not None:
            return MemberOperation(classes[0], by_store[0], predicate, label, forward, counted, by_store[1], by_store[2])
    members = list(only) if only else members_of(background, classes) if classes else []
    rows = select(background, f"SELECT ?s ?o WHERE {{ {where} {triple} }}")
    found: dict[str, list[str]] = {m: [] for m in members}
    for r in rows:
        if "s" in r and "o" in r:
            found.setdefault(r["s"], []).append(r["o"])
    names = iri_labels(list(found) + ([o for vs in found.values() for o in vs] if counted else []))
    by_name: dict[str, tuple[str, ...]] = {}
    for s, vs in found.items():
        shown = tuple(names.get(v, v) for v in vs) if counted else tuple(vs)
        by_name.setdefault(names.get(s, s), shown)
    if counted:
        result = rank(op, {n: [str(len(vs))] for n, vs in by_name.items()})
    elif op.name == "filter":
        result = keep(op, by_name, label)
    else:
        result = rank(op, by_name, label)
    return MemberOperation(classes[0] if classes else None, len(by_name), predicate, label, forward, counted,
                           result, by_name)


def _count(background: Background, pattern: str) -> int:
    rows = select(background, f"SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {{ {pattern} }}")
    return int(float(rows[0]["n"])) if rows and rows[0].get("n") else 0


def column(background: Background, classes: Sequence[Klass], triple: str, label: str) -> Column | None:
    """The ordered column of the relation (`triple`, from ?s to ?o) over the members of the
    classes: read from the store once per `revision` of it (a background without one is read
    each time); None for a class of LARGE members or fewer, or values not all of one datatype
    the store orders (Python ranks those, `rank`)."""
    memo = _memo(background)
    key = ("column", getattr(background, "revision", None), tuple(k.iri for k in classes), triple, label, LARGE)
    if memo is not None and key in memo:
        kept = memo.pop(key)
        memo[key] = kept  # the latest used last
        return kept if isinstance(kept, Column) else None
    where = _scope(classes)
    found: Column | None = None
    members = _count(background, where)
    if members > LARGE:
        kinds = select(background, f"SELECT ?d (COUNT(DISTINCT ?s) AS ?n) WHERE {{ {where} {triple} "
                                   "BIND(IF(isLiteral(?o), DATATYPE(?o), \"\") AS ?d) } GROUP BY ?d")
        if len(kinds) == 1 and kinds[0].get("d") in _ORDERED:
            with_value = int(float(kinds[0].get("n", 0)))
            rows = select(background, f"SELECT ?s ?o WHERE {{ {where} {triple} }}")
            pairs = [(r["s"], r["o"]) for r in rows if "s" in r and "o" in r]
            keys = keys_of([o for _, o in pairs], label)
            ordered = sorted(((k, e, o) for k, (e, o) in zip(keys, pairs, strict=True)), key=lambda e: e[0])
            lacking = select(background, f"SELECT DISTINCT ?s WHERE {{ {where} FILTER NOT EXISTS {{ {triple} }} }} "
                                         f"LIMIT {TOP}") if with_value < members else []
            found = Column(members, tuple(ordered), tuple(r["s"] for r in lacking if "s" in r), members - with_value)
    if memo is not None:
        _remember(memo, key, found)
    return found


def _ranked_by_store(op: Operator, background: Background, classes: Sequence[Klass], triple: str, label: str,
                     iri_labels: Callable[[Sequence[str]], dict[str, str]]
                     ) -> tuple[int, Result, dict[str, tuple[str, ...]]] | None:
    """argmax / argmin over a large class (`column`): the TOP best values, every one tied for the
    best among them; those without the value counted, their first names listed. None when the
    class has no such column."""
    col = column(background, classes, triple, label)
    if col is None or not col.ordered:
        return None
    descending = wants_max(op, [read(col.ordered[0][2], label)])
    best = list(reversed(col.ordered[-TOP:])) if descending else list(col.ordered[:TOP])
    top = best[0][0]
    if best[-1][0] == top:  # more are tied for the best than TOP: every one of them
        best = [e for e in col.ordered if e[0] == top]
    names = iri_labels([s for _, s, _ in best] + list(col.lacking))
    by_name: dict[str, tuple[str, ...]] = {}
    for _, s, o in best:
        by_name.setdefault(names.get(s, s), (o,))
    result = rank(op, by_name, label)
    missing = tuple(names.get(s, s) for s in col.lacking)
    return col.members, replace(result, missing=missing, unlisted=col.without - len(missing)), by_name


def _kept_by_store(op: Operator, background: Background, classes: Sequence[Klass], triple: str, label: str,
                   iri_labels: Callable[[Sequence[str]], dict[str, str]]
                   ) -> tuple[int, Result, dict[str, tuple[str, ...]]] | None:
    """A filter over a large class (`column`): the members on the bound's side found by bisecting
    the ordered values (compared as `compare` compares them: a year against dates by their year),
    the first TOP of them named, all of them counted. None when the class has no such column or
    its values do not compare with the bound."""
    col = column(background, classes, triple, label)
    if col is None or not col.ordered:
        return None
    bound, first = read(op.bound, label), read(col.ordered[0][2], label)
    if compare(first, bound) is None:
        return None
    # the bound's key in the column's terms: a year against dates, to the coarser precision
    depth = min(len(first.key), len(bound.key))
    edge = bound.key[:depth]
    if op.below:
        kept = col.ordered[:bisect_left(col.ordered, edge, key=lambda e: e[0][:depth])]
    else:
        kept = col.ordered[bisect_right(col.ordered, edge, key=lambda e: e[0][:depth]):]
    shown = kept[:TOP]
    names = iri_labels([s for _, s, _ in shown] + list(col.lacking))
    by_name: dict[str, tuple[str, ...]] = {names.get(s, s): (o,) for _, s, o in shown}
    missing = tuple(names.get(s, s) for s in col.lacking)
    result = Result("filter", winners=tuple(by_name), missing=missing, count=len(kept),
                    cut=len(kept) - len(by_name), unlisted=col.without - len(missing))
    return col.members, result, by_name


def linked_members(background: Background, classes: Sequence[Klass], entity: str, question: str,
                   grid: Grid) -> tuple[str, bool, list[str]] | None:
    """The members of the classes joined to the entity by one relation, the relation the question
    reads most like (the one joining most of them when none reads like it): (its label, whether the
    entity is the relation's subject, the members, every one: no cap). None when none is joined."""
    where = _scope(classes)
    joined: dict[tuple[str, bool], set[str]] = {}
    for triple, forward in ((f"?s ?p <{entity}>", False), (f"<{entity}> ?p ?s", True)):
        for r in select(background, f"SELECT DISTINCT ?s ?p WHERE {{ {where} {triple} }}"):
            if "s" in r and "p" in r and r["p"] not in TYPE_PREDICATES:
                joined.setdefault((r["p"], forward), set()).add(r["s"])
    if not joined:
        return None
    relations = list(joined)
    labels = background.labels([p for p, _ in relations])
    words = [w for w in words_of(question) if not any(_key(w) in keys(k.label) for k in classes)] or [question]
    scores = grid([labels.get(p, p) for p, _ in relations], words).max(axis=1)
    best = max(range(len(relations)), key=lambda i: (float(scores[i]), len(joined[relations[i]])))
    predicate, forward = relations[best]
    return labels.get(predicate, predicate), forward, sorted(joined[relations[best]])
