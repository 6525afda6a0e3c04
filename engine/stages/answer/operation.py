"""The answer of a question that computes (engine/compute): the operation's result said first, in
the realizer's computed forms, then the facts it was read from. A comparison of named entities
and a yes/no run over the turn's relation paths; a count over a path's values (those of a class the
question names, when it names one); a superlative or a filter over the members of the class the
question names. None when the question computes nothing, or nothing fits: the other answers
then take the turn."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.compute.members import (
    Klass,
    MemberOperation,
    class_labels,
    class_size,
    class_tiers,
    first_members,
    keys,
    linked_members,
    members_of,
    operate_members,
)
from engine.compute.operators import Operator, detect, names_said
from engine.compute.run import Result, measured, rank
from engine.compute.values import read
from engine.context import TurnContext, select
from engine.nlp.realize import (
    LISTED,
    Said,
    answered_no,
    answered_yes,
    compared,
    counted,
    filtered,
    graded_head,
    joined,
    label_words,
    lacking_value,
    not_listed,
)
from engine.nlp.sentences import TYPE_PREDICATES
from engine.relations import relation_kind
from engine.stages.answer.missing import relation_matcher
from engine.stages.answer.paths import Labels, asked_paths, value_of
from engine.state import RelationPath, TurnState

CLASSES = "class_labels"


@dataclass(frozen=True)
class Computed:
    text: str
    facts: list[str]
    operator: str
    winners: tuple[str, ...] = ()  # compare/argmax/argmin: the one(s) the graded word picks


def _groups(paths: list[RelationPath]) -> list[list[RelationPath]]:
    """The paths of one relation chain from several starts, in the paths' order (best first)."""
    groups: dict[tuple, list[RelationPath]] = {}
    for p in paths:
        groups.setdefault(tuple((s.predicate, s.forward) for s in p.steps), []).append(p)
    return list(groups.values())


def _one(path: RelationPath, values: tuple[str, ...]) -> Said:
    last = path.steps[-1]
    subject = path.start_label if len(path.steps) == 1 else f"{path.start_label}'s {path.steps[0].label}"
    return Said(subject, last.label, values, forward=last.forward)


def _ranked(op: Operator, group: list[RelationPath], labels: Labels) -> Computed | None:
    """compare (or a superlative among named entities): the values each start's path reaches;
    values that cannot be ordered (a band's members) are counted when the question asks for
    more or fewer of them."""
    by_start = {p.start_label: [value_of(p, c, labels) for c in p.chains if c] for p in group}
    if len(by_start) < 2:
        return None
    label = group[0].steps[-1].label
    result = rank(op, by_start, label)
    if not result.winners and op.graded in ("more", "most", "less", "least", "fewer", "fewest"):
        totals = {p.start_label: [str(max(p.total, len(by_start[p.start_label])))] for p in group}
        result = rank(op, totals)
    if not result.winners:
        return None
    paths = {p.start_label: p for p in group}
    order = [e for e, _ in result.ranked]
    head = graded_head(result.winners, op.graded or "first", op.noun)
    facts = [_one(paths[e], tuple(by_start[e])) for e in order]
    lacking = lacking_value(result.missing, label)
    text = compared(head, facts, lacking=lacking)
    return Computed(text, [], op.name, result.winners)


def _plain(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def _yesno(state: TurnState, ctx: TurnContext, asked: list[RelationPath], labels: Labels) -> Computed | None:
    """Does a path reach the value the question names (another entity it links, or a value it
    says word for word)? Yes; else "No" for a relation with one value, else the open world's
    answer. Paths from the entity said first (the question's subject) are read first; with no
    path, a fact joining two named entities says yes."""
    text = state.rewritten or state.text
    named = {m.entity: m.label or m.text for m in state.mentions if m.entity}
    said_at = {m.entity: m.start for m in state.mentions if m.entity}
    question = f" {_plain(text)} "
    paths = sorted(asked, key=lambda p: said_at.get(p.start, len(text)))
    for path in paths:
        values = [value_of(path, c, labels) for c in path.chains if c]
        others = {_plain(n) for iri, n in named.items() if iri != path.start}
        hit = next((v for v in values if _plain(v) in others or (_plain(v) and f" {_plain(v)} " in question
                                                                 and _plain(v) != _plain(path.start_label))), None)
        if hit is not None:
            return Computed(answered_yes(_one(path, (hit,))), [], "yesno")
    for path in paths:
        others_named = [n for iri, n in named.items() if iri != path.start]
        reached = tuple(dict.fromkeys(value_of(path, c, labels) for c in path.chains if c))
        if not others_named or not reached:
            continue
        if len(reached) == 1 and path.total <= 1:
            return Computed(answered_no(_one(path, reached)), [], "yesno")
        said = _one(path, reached)
        return Computed(not_listed(others_named[0], Said(said.subject, said.label, reached, said.forward,
                                                         path.total)), [], "yesno")
    joining = next((c for c in state.candidates if c.fact.s in named and c.fact.o in named and c.fact.s != c.fact.o
                    and c.fact.p not in TYPE_PREDICATES), None)
    if joining is not None:
        fact = labels.said(joining.fact)
        return Computed(f"Yes: {fact[:1].upper() + fact[1:]}.", [], "yesno")
    return _of_the_named_kind(state, ctx, named, said_at)


def _of_the_named_kind(state: TurnState, ctx: TurnContext, named: dict[str, str],
                       said_at: dict[str, int]) -> Computed | None:
    """A yes/no whose relation only a preposition says ("Is X in Y?", "Is X from Y?", "Is X in
    <a film>?"): the relation of the entity said first whose values are of the kind (class) of the
    other named one; of several, the one whose label has the preposition said before that one.
    Yes when that one is among its values; else "No" with the one value of a relation that has
    one, the open world's answer for more. None when no relation, or no one relation, fits."""
    order = sorted(named, key=lambda iri: said_at.get(iri, 0))
    if len(order) != 2:
        return None
    subject, other = order
    types = " ".join(f"<{p}>" for p in TYPE_PREDICATES)
    rows = select(ctx.background, f"SELECT DISTINCT ?p ?v ?fw WHERE {{ VALUES ?t {{ {types} }} <{other}> ?t ?c . "
                                  f"{{ <{subject}> ?p ?v . BIND(\"1\" AS ?fw) }} UNION {{ ?v ?p <{subject}> . "
                                  f"BIND(\"0\" AS ?fw) }} ?v ?t ?c . FILTER(!sameTerm(?p, ?t)) }}")
    relations: dict[tuple[str, bool], list[str]] = {}
    for r in rows:
        if "p" in r and "v" in r and r["p"] not in TYPE_PREDICATES:
            relations.setdefault((r["p"], r.get("fw") == "1"), []).append(r["v"])
    if not relations:
        return None
    names = ctx.background.labels([p for p, _ in relations] + [v for vs in relations.values() for v in vs] + order)
    text = state.rewritten or state.text
    before = re.findall(r"\w+", text[:said_at.get(other, 0)].casefold())[-1:]
    marked = [k for k in relations if before and before[0] in label_words(names.get(k[0], k[0])).casefold().split()]
    fitting = marked or list(relations)
    if len(fitting) != 1:
        reaching = [k for k in fitting if other in relations[k]]
        if len(reaching) != 1:
            return None
        fitting = reaching
    predicate, forward = fitting[0]
    reached = tuple(dict.fromkeys(names.get(v, v) for v in relations[fitting[0]]))
    said = Said(names.get(subject, subject), names.get(predicate, predicate), reached, forward)
    if other in relations[fitting[0]]:
        return Computed(answered_yes(Said(said.subject, said.label, (names.get(other, other),), forward)), [], "yesno")
    if len(reached) == 1:
        return Computed(answered_no(said), [], "yesno")
    return Computed(not_listed(names.get(other, other), said), [], "yesno")


def _class_tiers(state: TurnState, ctx: TurnContext) -> list[list[Klass]]:
    classes = ctx.resource(CLASSES, lambda: class_labels(ctx.background))
    linked = [str(m.value) for m in state.mentions if m.kind == "type" and m.value]
    text = state.rewritten or state.text
    # the words of a name say no class: "Space Agency" of "the Solvik Space Agency"
    for m in state.mentions:
        if m.kind == "name" and m.entity and m.text and not m.text.islower():
            text = text.replace(m.text, " xentity ")
    return class_tiers(text, classes, linked)


def _classes(state: TurnState, ctx: TurnContext) -> list[Klass]:
    tiers = _class_tiers(state, ctx)
    return tiers[0] if tiers else []


def _count(op: Operator, state: TurnState, ctx: TurnContext, paths: list[RelationPath],
           labels: Labels) -> Computed | None:
    """How many: the values of the best path (of the class the question names, when it names
    one); with no path, the members of the class."""
    if paths and measured(op.noun, paths[0].steps[-1].label, paths[0].values):
        return None  # a number the KG states ("the venue's seating capacity"): the path's value answers
    classes = _classes(state, ctx)
    asked = keys(state.rewritten or state.text)
    # Paths to things (a count is of things, not of a literal), those whose every label word the
    # question says first ("members", not "former members"), else in the route's order.
    paths = sorted((p for p in paths if any(not c[-1].o_literal for c in p.chains if c)),
                   key=lambda p: not all(keys(s.label) <= asked for s in p.steps))
    of_class = set(members_of(ctx.background, classes)) if classes else set()
    for path in paths:
        ends = [c[-1].s if not path.steps[-1].forward else c[-1].o for c in path.chains if c]
        values = [value_of(path, c, labels) for c in path.chains if c]
        total = max(path.total, len(dict.fromkeys(values)))
        if classes:
            if total > len(values):
                continue  # a cut list cannot be narrowed to the class: the class's own count below
            values = [v for e, v in zip(ends, values, strict=True) if e in of_class]
            if not values:
                continue
            total = len(dict.fromkeys(values))
        said = _one(path, tuple(dict.fromkeys(values)))
        noun = classes[0].said if classes else op.noun
        return Computed(counted(total, noun, Said(said.subject, said.label, said.values, said.forward, total)),
                        [], "count")
    kinds = {k.iri for tier in _class_tiers(state, ctx) for k in tier}
    start = next((m.entity for m in state.mentions if m.entity and m.kind == "name" and m.entity not in kinds), None)
    if classes and start:
        found = linked_members(ctx.background, classes, start, state.rewritten or state.text, relation_matcher(ctx).grid)
        if found is None:
            return None
        label, forward, joined_to = found
        names = ctx.background.labels(joined_to[:LISTED])
        listing = Said(labels.of(start), label, tuple(names.get(m, m) for m in joined_to[:LISTED]), forward,
                       len(joined_to))
        return Computed(counted(len(joined_to), classes[0].said, listing), [], "count")
    if classes:
        # every member counted by the store, only those listed read
        size, first = class_size(ctx.background, classes), first_members(ctx.background, classes, LISTED)
        names = ctx.background.labels(first)
        listed = joined([names.get(m, m) for m in first], size)
        return Computed(f"{size} {classes[0].said}: {listed}.", [], "count")
    return None


def _over_members(op: Operator, state: TurnState, ctx: TurnContext) -> Computed | None:
    """A superlative or a filter over the members of the class the question names (the surest
    reading of its words whose members have a fitting relation; naming none, over every entity
    that has the relation it asks about)."""
    grid = relation_matcher(ctx).grid
    question = state.rewritten or state.text
    done: MemberOperation | None = None
    for classes in [*_class_tiers(state, ctx), []]:
        done = operate_members(op, question, ctx.background, grid, classes, ctx.background.labels)
        if done is not None and (done.result.winners or op.name != "filter"):
            break
    if done is None:
        return None
    result: Result = done.result
    label = done.label
    if op.name == "filter":
        facts = [Said(w, label, done.values.get(w, ())) for w in result.winners]
        bound = read(op.bound)
        in_time = bound.kind == "date" or (bound.kind == "number" and not bound.measure and 1000 <= bound.key[0] < 3000)
        text = filtered(result.winners, label, op.below, op.bound, facts, in_time, total=result.count)
        lacking = lacking_value(result.missing, label, more=result.unlisted)
        return Computed(text + (f" {lacking}" if lacking else ""), [], "filter")
    return _said_ranked(op, done)


def _graded_words(op: Operator, label: str, counted: bool) -> tuple[str, str]:
    """The graded word and the noun a head says: "the most awards" of a counted relation or of one
    the noun names ("the most platforms" of a platform count); a word after "most" that names no
    relation is part of the graded words ("the most recent")."""
    # a count the relation holds ("maximum capacity") is had as the noun says: "the most people"
    if counted or (op.noun and (keys(op.noun) & keys(label) or relation_kind(label, "1") == "count")):
        return op.graded or "first", op.noun
    if op.graded in ("most", "least") and op.noun:
        # an adverb after "most" is said as its adjective: "X is the most recent", not "recently"
        noun = op.noun[:-2] if op.noun.endswith("ly") and len(op.noun) > 5 else op.noun
        return f"{op.graded} {noun}", ""
    return op.graded or "first", ""


def _said_ranked(op: Operator, done: MemberOperation, every: bool = False) -> Computed | None:
    """A superlative (the winners' values, the one that comes next) or, `every`, a comparison
    (every compared one's values)."""
    result, label = done.result, done.label
    if not result.winners:
        return None
    head = graded_head(result.winners, *_graded_words(op, label, done.counted))
    facts = [Said(w, label, done.values[w] if done.counted else (v.text,), done.forward)
             for w, v in result.ranked if every or w in result.winners]
    rest = [e for e, _ in result.ranked if e not in result.winners]
    runner = rest[0] if rest and not every else ""
    lacking = lacking_value(result.missing, label, more=result.unlisted)
    return Computed(compared(head, facts, runner, lacking), [], op.name, result.winners)


def _compare_named(op: Operator, state: TurnState, ctx: TurnContext) -> Computed | None:
    """A comparison no relation path reads like ("Who is older, A or B?"): the relation of the
    named entities that fits the graded word (a date for "older"), chosen as for a class."""
    named = list(dict.fromkeys(m.entity for m in state.mentions if m.entity and m.kind == "name"))
    if len(named) < 2:
        return None
    done = operate_members(op, state.rewritten or state.text, ctx.background, relation_matcher(ctx).grid, [],
                           ctx.background.labels, only=named)
    return _said_ranked(op, done, every=True) if done is not None else None


def _answered(op: Operator, state: TurnState, done: Computed | None) -> Computed | None:
    """A comparison asked as yes or no ("Is A older than B?"): yes when the one named first is
    the one alone that the graded word picks, else no; the comparison follows as its reason."""
    if done is None or not op.yes_no:
        return done
    first = min((m for m in state.mentions if m.entity and m.kind == "name"), key=lambda m: m.start, default=None)
    if first is None:
        return done
    yes = len(done.winners) == 1 and _plain(done.winners[0]) == _plain(first.label or first.text)
    return Computed(("Yes: " if yes else "No: ") + done.text, done.facts, "yesno", done.winners)


def computed_answer(state: TurnState, ctx: TurnContext) -> Computed | None:
    """The answer of the operation the question asks for; None when it computes nothing or
    nothing fits."""
    op = detect(state.rewritten or state.text, names_said(state.mentions))
    if op.yes_no:
        return _answered(op, state, _computed(op, state, ctx))
    return _computed(op, state, ctx)


def _computed(op: Operator, state: TurnState, ctx: TurnContext) -> Computed | None:
    paths = asked_paths(state)
    if op.name == "value" or len({p.part for p in paths if p.part}) > 1:
        return None  # a compound question: each clause is answered as asked, by its own path
    labels = Labels(state, ctx.background)
    if op.name == "yesno":
        return _yesno(state, ctx, paths, labels)
    if op.name == "count":
        return _count(op, state, ctx, paths, labels)
    for group in _groups(paths):
        if len({p.start for p in group}) > 1 and op.name != "filter":
            done = _ranked(op, group, labels)
            if done is not None:
                return done
    if op.name == "compare":
        return _compare_named(op, state, ctx)
    if any(read(v).kind == "text" for v in (op.bound,) if op.name == "filter"):
        return None
    return _over_members(op, state, ctx)
