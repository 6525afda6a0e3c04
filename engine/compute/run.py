"""An operator run over the values a relation path reaches, bounded Python over values already
read from the store. The answer stage says the result (engine/nlp/realize.py's computed forms)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.compute.operators import Operator, detect
from engine.compute.values import Value, compare, read
from engine.relations import content_stems, relation_kind
from engine.state import Operation, RelationPath


@dataclass(frozen=True)
class Result:
    operator: str
    winners: tuple[str, ...] = ()  # compare/argmax/argmin: the best (more than one is a tie); filter: those kept
    ranked: tuple[tuple[str, Value], ...] = ()  # every entity with a comparable value, best first
    missing: tuple[str, ...] = ()  # entities without the value (or with one that cannot be compared)
    count: int = 0
    answer: bool | None = None  # yesno: True, False, or None when the KG does not say (open world)
    found: tuple[str, ...] = ()  # yesno: the values the path does reach
    cut: int = 0  # how many listed values a cap left out of the sentence (never out of a count)
    unlisted: int = 0  # entities without the value past those named in `missing` (a large class's)


def wants_max(op: Operator, values: Sequence[Value]) -> bool:
    """Does the operator want the greatest value? Over dates (or years), a word pointing back in
    time ("older", "earliest") wants the least, one pointing forward the greatest."""
    if op.time_back is not None and values and all(
            v.kind == "date" or (v.kind == "number" and not v.measure and 1000 <= v.key[0] < 3000) for v in values):
        return not op.time_back
    return not op.least


def rank(op: Operator, values: Mapping[str, Sequence[str]], label: str = "") -> Result:
    """compare / argmax / argmin: every entity's value (the first comparable one of a many-valued
    relation), best first; ties are all winners; entities without a value are named."""
    read_values = {e: [read(t, label) for t in ts] for e, ts in values.items()}
    have = {e: vs[0] for e, vs in read_values.items() if vs and vs[0].kind != "text"}
    missing = tuple(e for e in values if e not in have)
    best_high = wants_max(op, list(have.values()))
    order = sorted(have.items(), key=lambda item: item[1].key, reverse=best_high)
    if not order:
        return Result(op.name, missing=missing)
    top = order[0][1]
    winners = tuple(e for e, v in order if compare(v, top) == 0)
    return Result(op.name, winners=winners, ranked=tuple(order), missing=missing, count=len(order))


def measured(noun: str, label: str, values: Sequence[str]) -> bool:
    """Does "how many <noun>" ask for a number the KG states rather than for things to count? The
    relation's label says the counted noun ("seats" of "seating capacity", "parking" of "parking
    spaces") or holds a count, and each of its values is a number: "How many seats does the
    venue of X have?" reads the venue's capacity, it does not count venues."""
    said = content_stems(noun)
    if not values or not said or not all(read(v, label).kind == "number" for v in values):
        return False
    # or the relation holds a count of something ("maximum capacity", "population"): "How many
    # people fit in the stadium of X?" reads it, whatever the noun counted
    return bool(said & content_stems(label)) or relation_kind(label, values[0].replace(",", "")) == "count"


def count(members: Sequence[str], cap: int = 10) -> Result:
    """How many: every member counted, a cap only shortens the names listed."""
    distinct = tuple(dict.fromkeys(members))
    return Result("count", winners=distinct[:cap], count=len(distinct), cut=max(0, len(distinct) - cap))


def keep(op: Operator, values: Mapping[str, Sequence[str]], label: str = "") -> Result:
    """filter: the entities whose value is under (or over) the bound; those without a comparable
    value are named, never silently dropped."""
    bound = read(op.bound, label)
    kept, missing = [], []
    for entity, texts in values.items():
        sides = [s for s in (compare(read(t, label), bound) for t in texts) if s is not None]
        if not sides:
            missing.append(entity)
        elif any(s < 0 if op.below else s > 0 for s in sides):
            kept.append(entity)
    return Result("filter", winners=tuple(kept), missing=tuple(missing), count=len(kept))


def ask(named: str, reached: Sequence[str], many_valued: bool) -> Result:
    """yesno: does the path reach the named value? A many-valued relation that lists others only
    says the KG does not list it (open world); a single-valued one with another value says no."""
    hit = any(content_stems(named) and content_stems(named) <= content_stems(r) for r in reached)
    if hit:
        return Result("yesno", answer=True, found=tuple(reached))
    if not reached or many_valued:
        return Result("yesno", answer=None, found=tuple(reached))
    return Result("yesno", answer=False, found=tuple(reached))


def operate(question: str, paths: Sequence[RelationPath], names: Sequence[str] = ()) -> None:
    """Attach to each path what the question computes over its values: paths of the same
    relations from several starts are compared (compare, argmax, argmin) or filtered together;
    `names` are the names the question says (operators.names_said)."""
    op = detect(question, names)
    groups: dict[tuple[str, ...], list[RelationPath]] = {}
    for path in paths:
        groups.setdefault(tuple(s.predicate for s in path.steps), []).append(path)
    for same in groups.values():
        label = same[0].steps[-1].label if same[0].steps else ""
        by_start = {p.start_label: list(p.values) for p in same}
        for path in same:
            values = list(path.values)
            if op.name == "count" and measured(op.noun, label, values):
                path.operation = Operation("value", values, ", ".join(values))
            elif op.name == "count":
                total = max(path.total, len(values))
                path.operation = Operation("count", values, str(total), max(0, total - len(values)))
            elif op.name in ("compare", "argmax", "argmin"):
                ranked = rank(op, by_start, label)
                path.operation = Operation(op.name, values, " and ".join(ranked.winners))
            elif op.name == "filter":
                kept = keep(op, by_start, label)
                path.operation = Operation("filter", values, " and ".join(kept.winners))
            elif op.name == "yesno":
                q = content_stems(question)
                named = next((v for v in values if content_stems(v) and content_stems(v) <= q), "")
                verdict = ask(named or question, values, many_valued=len(values) > 1) if named else \
                    Result("yesno", answer=None if len(values) != 1 else False, found=tuple(values))
                path.operation = Operation("yesno", values, {True: "yes", False: "no", None: "not listed"}[verdict.answer])
            else:
                name = "list" if path.asks_all else "value"
                path.operation = Operation(name, values, ", ".join(values), max(0, path.total - len(values)))
