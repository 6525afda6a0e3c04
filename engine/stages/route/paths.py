"""Relation paths: which chain of one or two relations (three: engine/stages/route/third.py),
from which entity of the turn, the question asks for.

The paths are enumerated from the entities the turn names or points at over the facts around
them (the turn's candidates; on a large or remote background, one bounded extra hop): every
relation signature of one edge and of two edges, each edge followed forwards or backwards
("which films did X direct" walks film -> director -> X backwards). Each path's relation labels
are scored against the words of the question with the entities' names masked: a step fits the
span of the question it reads most like (`Matcher`); the two steps of a two-edge path must fit
two different spans, the first among the words that describe the middle entity ("the team X
plays for"), the second outside them, and the path is worth both fits less a cost,
so that the chain wins over its first edge alone when its second relation is asked too ("the
manager of the team X plays for") and not otherwise; a path gains or loses a little when its
values are or are not of the type the question asks for ("where", "when", "who"). A path is kept
when it reads clearly enough (`Weights.floor`); a compound question gives one path per clause; a path
within TIE of the best reads just as well and is kept beside it.

Nothing is generated: with a small chat model the choice must come from scoring. The label
scorer is one injectable piece (`Matcher`), shared with whatever else compares relation labels
with questions.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from engine.compute.operators import asked_scale
from engine.factcheck.relations import qualified_only
from engine.nlp.answer_type import PLACE, TIME, asks_overview
from engine.relations import asked_measure, glosses, other_dimension, other_measure, other_modifier
from engine.stages.route.clauses import ENTITY, Part, masked, parts_of, stems
from engine.stages.route.graph import Found, Graph, Signature, build_graph, end_of, enumerate_paths, read_into
from engine.stages.route.kinds import (
    ENTITY_VALUE,
    NO_CLASSES,
    Classes,
    clashes,
    meaning_classes,
    measure_of,
    only_named,
    timeless,
    typer,
    value_classes,
    value_roles,
)
from engine.stages.route.sides import against_its_verb, other_side, says_a_value
from engine.stages.route.third import third_steps, three_steps
from engine.state import Candidate, PathStep, RelationPath
from kgstore.terms import Fact


@dataclass(frozen=True)
class Weights:
    """The path scorer's settings: set by hand on the matcher's scale (a step fits from about
    0.5); `kgchat eval paths --lodo` chooses them on the generated out-of-domain domains and the
    office benchmark, each domain left out in turn, for a run to confirm or replace them."""

    floor: float = 0.5  # the least score of a kept path: below it, nothing the entity has reads like the question
    hop_cost: float = 0.45  # the least fit of each step of a two-edge path: what the second relation must add
    type_bonus: float = 0.08  # values of the asked type (or a clash with it)


WEIGHTS = Weights()
TIE = 0.02  # paths this close to the best read alike: both are kept
ASKED_NOUN_BONUS = 0.05  # a relation whose label is the noun of "which league", "what instrument"
SAID_BONUS = 0.06  # each word of a relation's label past the first that the question says too
_CONTAINED = re.compile(r"\b(?:locat\w*|contain\w*|situated|within|part of)\b", re.I)  # a place in a larger one
VALUE_BONUS = 0.2  # a relation one of whose values the question says ("Is X a crime novel?": genre)
MAX_PATHS = 300  # relation signatures per start entity
MAX_STARTS = 4  # entities the search starts from
VALUES_CAP = 50  # value chains kept per path (the total is still counted)
EXPAND_RELATIONS = 4  # first steps whose values get a second hop fetched, on a one-hop neighbourhood
EXPAND_ENTITIES = 12  # entities fetched for that second hop, in all
EXPAND_FACTS = 60  # facts per fetched entity
TIME_BUDGET_S = 0.25  # fetching, on a remote background

# Words that say the answer shares a value with the entity: "the same director as X", "films
# that share actors with X", "X co-wrote films with whom", "starred together with X".
_SHARED = re.compile(r"\b(?:same|shar(?:e|es|ed|ing)|co-?(?:direct|star|writ|wrote|act|produc|author|creat|found)\w*"
                     r"|together)\b", re.I)
_NAME_WORDS = frozenset(("name", "calle"))  # stems of a turn that asks for names and no relation
_WH_SAYS = frozenset((PLACE, TIME))  # answer types a question word asks for on its own ("where", "when")
Matcher = Callable[[Sequence[str], Sequence[str]], np.ndarray]
"""(relation labels, question spans) -> similarity in [0, 1], one row per label."""


@dataclass
class Scored:
    found: Found
    score: float
    part: int
    clause: str = ""


def score_paths(found: list[Found], part: Part, sims: dict[str, np.ndarray],
                value_type: Callable[[Found], str], w: Weights = WEIGHTS,
                classes: Classes = NO_CLASSES, roles: Classes = NO_CLASSES) -> list[Scored]:
    """Each path's score against one clause (`sims`: label -> similarity per span of it); a path
    whose values are of the class the question asks for ("Which game nights ...": Game Night)
    gains as one of the asked answer type does, and one whose values are all of other classes,
    when the KG has the class asked for, is no answer ("Which countries does X border?" is not
    answered by the cities in X)."""
    head = part.head
    named_text = part.text.replace(ENTITY, ENTITY.title())  # a masked name reads as a name, not a modifier

    def of_asked(labels: Iterable[str]) -> bool:
        return bool(part.asked) and any(part.asked <= (own := stems(c)) or (head and head <= own) or c in part.meant
                                        for c in labels)

    asked_class = of_asked(classes.labels)
    own = {id(f): classes(f) for f in found} if part.asked else {}
    out = []
    fits: dict[tuple[str, ...], float] = {}  # many paths share their labels
    one_step: dict[tuple[str, Signature], Found] = {(f.start, f.signature): f for f in found if len(f.signature) == 1}
    # "When" of "When was X and who hosted it?" asks for the one relation of X with a date, if X
    # has only one: its words are not in the question.
    claimed = _claimed(found, part)
    typed = [f for f in found if len(f.labels) == 1 and value_type(f) in part.types] if part.borrowed else []
    only = typed[0] if len({f.signature for f in typed}) == 1 else None
    # "Which departments run X?": the one relation of X that leads to things of the class asked for
    # answers it, whatever its words ("offered by").
    of_class = [f for f in found if len(f.labels) == 1 and of_asked(own.get(id(f), ()))]
    if only is None and len({f.signature for f in of_class}) == 1:
        only = of_class[0]
    # "What paintings does the gallery have?": the one relation of it that leads to things that
    # are what is asked for by the relations they take part in (pictures "painted by" someone).
    of_role = [f for f in found if len(f.labels) == 1 and of_asked(roles(f))] if part.asked else []
    if only is None and len({f.signature for f in of_role}) == 1:
        only = of_role[0]
    # "How tall is X?": the one relation of X that holds the measure asked for ("elevation m").
    asked = asked_measure(part.text)
    # "How long is X?" asks for a length or a duration, which no measure alone tells apart: the one
    # relation of X that holds either ("runtime (minutes)") answers it as well
    scale = () if asked else asked_scale(part.text)
    measures = {id(f): measure_of(f) for f in found} if asked or scale else {}  # read once: the loop below asks again
    measured = [f for f in found if (measures[id(f)] == asked if asked else measures.get(id(f)) in scale)
                and (asked or scale) and not other_dimension(part.text, f.labels[0])]
    by_measure = only is None and len({f.signature for f in measured}) == 1
    if by_measure:
        only = measured[0]
    for f in found:
        if by_measure and f is not only and measures[id(f)] != measures[id(only)]:
            continue  # "How heavy was X at launch?": its one mass, not its launch date
        key = tuple(f.labels)
        # a third step's fit depends on whether the first two walk one relation out and back
        cached = (*key, str(there_and_back(f.signature[:2]))) if len(key) == 3 else key
        if cached not in fits:
            rows = [sims[label] for label in key]
            if len(rows) == 1:
                j = int(np.argmax(rows[0]))
                # "In which league does it play?": the relation that the asked noun names in words goes
                # first; one that only means something near it ("continent" for "countries") does not.
                named = any(s.asked_noun and rows[0][k] >= rows[0][j] and stems(s.text) & stems(key[0])
                            for k, s in enumerate(part.spans))
                # "Which countries does X share a border with?": a label that says two of the question's
                # words ("shares border with") reads more of it than one that says one ("country").
                said = max((len(stems(s.text) & stems(key[0])) for s in part.spans if len(s.words) <= 2), default=0)
                fits[cached] = float(rows[0][j]) + (ASKED_NOUN_BONUS if named else 0.0) + SAID_BONUS * max(said - 1, 0)
                if qualified_only(key[0], part.text) or other_modifier(key[0], named_text):
                    # "area" of "the telephone area code of X" names another notion; so does
                    # "goalkeeping coach" beside a "head coach"
                    fits[cached] = 0.0
            elif len(rows) == 2:
                fits[cached] = _two_steps(rows[0], rows[1], part, w.hop_cost, stems(key[0]), claimed)
            else:
                back = there_and_back(f.signature[:2])
                fits[cached] = three_steps(rows, part, w.hop_cost, back, _shared_spans(part, key[0]) if back else [],
                                        claimed)
        fit = fits[cached]
        if (len(key) == 2 and (wh := part.types & _WH_SAYS) and value_type(f) in wh
                and (first := one_step.get((f.start, f.signature[:1]))) is not None and value_type(first) not in wh):
            # "Where is the meeting X organizes held?": the question word alone asks for the
            # second relation, one whose values are places (or times), with no word of its own,
            # when the first relation's are not ("Where is her office?" is answered by the office)
            fit = max(fit, _said_by_question_word(sims[key[0]], part, w, claimed))
        score = max(fit, w.floor) if f is only else fit
        if there_and_back(f.signature) and (near := _shared_spans(part, key[0])):
            # one relation said once beside a word of sharing, walked out and back: both steps fit its span
            score = max(score, 2 * float(np.max(sims[key[0]][near])) - w.hop_cost)
        if len(key) == 2 and part.noun_last and not (part.asked <= stems(key[1])
                                                      or (f.signature[1][1] and _CONTAINED.search(key[1]))):
            continue  # "In which city did X die?": not the country of the city X died in
        if part.asked and only_named(f, part):
            continue  # "Which German state is Munich in?": not Germany, the country it names
        if len(key) == 1 and says_a_value(f, part.text):
            score += VALUE_BONUS
        if score <= 0 or against_its_verb(f, part, sims) or other_side(f, part):
            continue
        kind = value_type(f) if part.types else ""
        if part.borrowed and kind not in part.types:
            continue  # "When" of "Who wrote it and when": only a date answers it
        if (clashes(kind, part.types, part.text) or (not kind and part.types == {TIME} and timeless(f))
                or other_measure(asked, measures.get(id(f), ""))):
            continue  # "When was it first made?" is not answered by who made it, nor a price by servings
        if kind and kind != ENTITY_VALUE and not (by_measure and f is only):  # 3733 m is no year
            score += w.type_bonus if kind in part.types else -w.type_bonus
        if own.get(id(f)):
            if of_asked(own[id(f)]):
                score += w.type_bonus
            elif asked_class:
                continue  # "Which league does X play in?" is not answered by its players
        out.append(Scored(f, score, 0))
    return out


def _said_by_question_word(first: np.ndarray, part: Part, w: Weights, claimed: frozenset[int]) -> float:
    """A two-edge path's fit when its first step reads on the words that describe the middle
    entity (not all of them a label said in full, `_claimed`) and its second is said only by
    "where" or "when" (of `_WH_SAYS`): the first step's fit, and the second the least fit of a
    kept path, less the cost of a hop."""
    inner = part.described
    fit = max((float(first[j]) for j, s in enumerate(part.spans)
               if inner and s.words <= inner and not s.words <= claimed), default=0.0)
    return fit + w.floor - w.hop_cost if fit > w.hop_cost else 0.0


def _shared_spans(part: Part, label: str) -> list[int]:
    """The spans of the words a word of sharing governs ("same director", "share actors with",
    "co-directed"): the relation shared; none when the word is the label's own verb ("Which
    countries does X share a border with?" of "shares border with" asks X's neighbours)."""
    cue = _SHARED.search(part.text)
    if cue is None or stems(cue.group(0)) & stems(label):
        return []
    before = part.text[:cue.start()].split()[-1:]  # "starred together with"
    near = stems(" ".join(before + part.text[cue.start():].split()[:3]))
    return [j for j, span in enumerate(part.spans) if (own := stems(span.text)) and own <= near]


def there_and_back(signature: Signature) -> bool:
    """A relation followed and then followed back: the other things that share its value."""
    return len(signature) == 2 and signature[0][0] == signature[1][0] and signature[0][1] != signature[1][1]


def _claimed(found: list[Found], part: Part) -> frozenset[int]:
    """The words of the question that say in full the label (of two words or more) of a relation
    the start has, side by side or apart: "favourite game" of "What is X's favourite game?",
    "first ascent year" of "What year was the first ascent of X?". A chain of two other relations
    cannot split them between its steps (the game played at a night X won; the year of birth of
    the first climber)."""
    said = stems(part.text)
    full = [own for f in found if len(f.labels) == 1 and len(own := frozenset(stems(f.labels[0]))) > 1 and own <= said]
    return frozenset(i for s in part.spans if len(s.words) <= 2
                     and any(stems(s.text) and stems(s.text) <= own for own in full) for i in s.words)


def _two_steps(first: np.ndarray, second: np.ndarray, part: Part, hop_cost: float,
               first_words: frozenset[str] | set[str] = frozenset(), claimed: frozenset[int] = frozenset()) -> float:
    """Both steps' fits less `hop_cost`: the first step on a span of the words that describe the
    middle entity, the second on a span outside them ("In which country is the city where X was
    born?": the asked noun names the second relation) and not made only of words of the first
    relation's label (`first_words`) that the first span leaves out ("game" of "X's favourite
    game" is said by "favourite game" already), each fit above `hop_cost`; 0 when no such pair
    exists."""
    best = 0.0
    spans, inner = part.spans, part.described
    if not inner:
        return best
    firsts = [j for j, s in enumerate(spans) if s.words <= inner]
    seconds = [j for j, s in enumerate(spans) if not s.words & inner]
    order_a = sorted(firsts, key=lambda j: -first[j])[:6]
    order_b = sorted(seconds, key=lambda j: -second[j])[:6]
    for a in order_a:
        # what of the first label its span leaves unsaid ("game" of "favourite game" read on
        # "favourite"); a word said again is the second step's own ("Who supervises the
        # supervisor of X?": the supervisor's supervisor)
        unsaid = first_words - stems(spans[a].text)
        for b in order_b:
            fa, fb = float(first[a]), float(second[b])
            if (spans[a].words & spans[b].words or min(fa, fb) <= hop_cost or spans[a].words | spans[b].words <= claimed
                    or stems(spans[b].text) <= unsaid):
                continue
            best = max(best, fa + fb - hop_cost)
    return best


@dataclass
class Search:
    """What the path step found this turn."""

    paths: list[RelationPath] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extra: list[Candidate] = field(default_factory=list)  # facts fetched beyond the candidates
    turned: list[str] = field(default_factory=list)  # what is asked of a start, had only the other way round (`_other_side`)


def choose(found: list[Found], parts: list[Part], matcher: Matcher, value_type: Callable[[Found], str],
           w: Weights = WEIGHTS, classes: Classes = NO_CLASSES, roles: Classes = NO_CLASSES) -> list[Scored]:
    """The best path of each clause (and those tied with it), best first, each path once."""
    if not found or not parts:
        return []
    labels = sorted({label for f in found for label in f.labels})
    texts = list(dict.fromkeys(s.text for part in parts for s in part.spans))
    matrix = matcher(labels, texts)  # one call: the scorer batches every label and span of the turn
    column = {t: j for j, t in enumerate(texts)}
    kept: list[Scored] = []
    for i, part in enumerate(parts):
        cols = [column[s.text] for s in part.spans]
        sims = {label: matrix[k, cols] for k, label in enumerate(labels)}
        scored = sorted(score_paths(found, part, sims, value_type, w, classes, roles),
                        key=lambda s: (-s.score, len(s.found.labels)))
        if not scored or scored[0].score < w.floor:
            continue
        top = scored[0].score
        for s in scored:
            if s.score < top - TIE or s.score < w.floor:
                break
            s.part, s.clause = i, part.text
            kept.append(s)
    out: dict[tuple, Scored] = {}
    for s in sorted(kept, key=lambda s: -s.score):
        out.setdefault((s.found.start, s.found.signature), s)
    return list(out.values())


def only_way_in(candidates: list[Candidate], starts: dict[str, str], text: str, earlier: str,
                w: Weights = WEIGHTS) -> list[Scored]:
    """"Who are they?" after "Two people in it are politicians.": a follow-up that asks only for
    names, about one entity spoken of that is reached by one relation only (the occupation of
    people, the course type of dishes, a record or not): the things it is reached from."""
    from engine.nlp.sentences import is_node_fact

    if not earlier or not _names_only(text) or len(starts) != 1 or asks_overview(text):
        return []
    start = next(iter(starts))
    inward = Graph()
    for c in candidates:
        if c.fact.o == start and not c.derived and not is_node_fact(c.fact) and c.p_label:
            inward.add(c)
    relations = {c.fact.p for c in inward.into.get(start, ())}
    if len(relations) != 1:
        return []
    found, _ = enumerate_paths(inward, start, hops=1)
    return [Scored(found[0], w.floor, 0)]


def _names_only(text: str) -> bool:
    """Does the turn ask for names and no relation of its own ("And their names?", not "Where is
    X from?", whose words are all function words but say where one comes from)?"""
    return stems(text) <= _NAME_WORDS and not glosses(text)


def relation_path(s: Scored, start_label: str, asks_all: bool, part: str = "") -> RelationPath:
    f = s.found
    chains, values, seen = [], [], set()
    for chain in f.chains:
        end = end_of(chain, f.start)
        if end not in seen:
            seen.add(end)
            chains.append([c.fact for c in chain])
            last = chain[-1]
            values.append(last.o_label if end == last.fact.o else last.s_label)
    total = len(chains)
    cut = f"{total} values, the first {VALUES_CAP} kept" if total > VALUES_CAP else ""
    steps = [PathStep(p, label, fwd) for (p, fwd), label in zip(f.signature, f.labels, strict=False)]
    return RelationPath(start=f.start, start_label=start_label, steps=steps, score=round(s.score, 4),
                        asks_all=asks_all, chains=chains[:VALUES_CAP], values=values[:VALUES_CAP], total=total,
                        cut=cut, part=part)


def timed_out(started: float) -> bool:
    return time.perf_counter() - started > TIME_BUDGET_S


def fact_candidates(facts: Iterable[Fact], hop: int) -> list[Candidate]:
    return [Candidate(fact=f, hop=hop) for f in facts]


def usable_for(question: str) -> Callable[[Candidate], bool]:
    """Edges a path may take: KG facts between entities or to values, not node facts (types,
    labels), not rules' facts, and not name records (given name, described by source ...)
    unless the question names what they record, in their words or in others ("job": occupation)."""
    from engine.nlp.answer_type import asked_records, is_name_noise, recorded
    from engine.nlp.sentences import is_node_fact, predicate_key

    records = asked_records(question)

    def usable(c: Candidate) -> bool:
        key = predicate_key(c.fact.p)
        return (not c.derived and not is_node_fact(c.fact) and bool(c.p_label)
                and (not is_name_noise(c.p_label, key, question) or recorded(c.p_label, key) in records))

    return usable


@dataclass
class Question:
    """What the path search reads of the turn."""

    text: str  # the user turn (as rewritten)
    names: list[str]  # the names to mask: the start entities' labels and the words the user said for them
    earlier: str = ""  # the turn before (a follow-up that asks "who are they?" names its relation there)
    asks_list: bool = False


def search(candidates: list[Candidate], starts: dict[str, str], question: Question, matcher: Matcher,
           background=None, one_hop: bool = False, w: Weights = WEIGHTS) -> Search:
    """The relation paths the question asks for, from the `starts` (IRI -> label), over the
    candidates; `one_hop`: the candidates hold the starts' own facts only, so the second hop of
    the first steps that read most like the question is fetched from `background` (bounded)."""
    out = Search()
    if not starts:
        return out
    text = masked(question.text, question.names)
    parts = parts_of(text)
    # "And X?", "What about X?" ask the relation the turn before asked for; "Tell me about X" asks
    # for all there is about X
    if not parts and question.earlier and not asks_overview(text):
        parts = parts_of(masked(question.earlier, question.names) + " " + text)
    if not parts:
        return _listed(out, only_way_in(candidates, starts, text, question.earlier, w), starts, question)
    graph = build_graph(candidates, usable_for(text))
    if one_hop and background is not None and any(p.described or _SHARED.search(p.text) for p in parts):  # a chain may be asked
        out.extra, note = expand(graph, list(starts), parts, matcher, background, usable_for(text))
        if note:
            out.notes.append(note)
    first_fit = label_fit(graph, list(starts)[:MAX_STARTS], parts, matcher)
    found: list[Found] = []
    for start in list(starts)[:MAX_STARTS]:
        paths, cut = enumerate_paths(graph, start, max_paths=MAX_PATHS, first_order=lambda l: first_fit.get(l, 0.0))
        found += paths
        if cut:
            out.notes.append(f"path search from {starts[start]} cut at {MAX_PATHS} relation paths")
    if len(starts) > MAX_STARTS:
        out.notes.append(f"paths searched from the first {MAX_STARTS} of {len(starts)} entities")
    third = third_steps(graph, found, parts, matcher, background, usable_for(text), w.hop_cost, _shared_spans)
    found += third.found
    out.extra += third.extra
    out.notes += third.notes
    kind, classes = typer(candidates + out.extra), value_classes(candidates + out.extra)
    roles = value_roles(candidates + out.extra) if any(p.asked for p in parts) else NO_CLASSES  # "which paintings"
    relations = {label for f in found for label in f.labels}
    parts = [replace(meaning_classes(p, classes, matcher, relations), named=frozenset(starts), names=tuple(question.names))
             for p in parts]
    chosen: list[Scored] = []
    if question.earlier and _names_only(text):
        # "And their names?" after "The band has four members.": the relation is in the turn before;
        # the words that ask for names name none ("called" is no telephone call)
        retry = parts_of(masked(question.earlier, question.names) + " " + text)
        chosen = choose(found, retry, matcher, kind, w, classes, roles)
    chosen = chosen or choose(found, parts, matcher, kind, w, classes, roles)
    chosen = chosen or only_way_in(candidates, starts, text, question.earlier, w)
    if not chosen:
        # "Who was X's father?" where the KG says only who X's children are: the relation that
        # reads like the question, read from the side the question does not ask, answers nothing
        out.turned = list(dict.fromkeys(" ".join(p.owned) for f in found for p in parts
                                        if other_side(f, p) and first_fit.get(f.labels[0], 0.0) >= w.floor))
        out.notes += [f"“{owned}” asked of {', '.join(starts.values())}: the knowledge graph has only the relation read the other way round"
                      for owned in out.turned]
    return _listed(out, chosen, starts, question, single=len(parts) == 1)


def _listed(out: Search, chosen: list[Scored], starts: dict[str, str], question: Question, single=True) -> Search:
    """The chosen paths with their values, and what the notes must say of them."""
    for s in chosen:
        many = len({end_of(c, s.found.start) for c in s.found.chains}) > 1
        path = relation_path(s, starts[s.found.start], question.asks_list or many, s.clause)  # all values answer
        if path.cut:
            out.notes.append(f"{_said(path)}: {path.cut}")
        out.paths.append(path)
    tied = [p for p in out.paths[1:] if p.score >= out.paths[0].score - TIE] if out.paths else []
    if tied and single:
        out.notes.append("paths that read alike: " + "; ".join(_said(p) for p in [out.paths[0], *tied]))
    return out


def label_fit(graph: Graph, starts: list[str], parts: list[Part], matcher: Matcher) -> dict[str, float]:
    """How well each relation at the starts reads like some span of the question."""
    labels = sorted({c.p_label for start in starts for c, _ in graph.steps(start)})
    spans = list(dict.fromkeys(s.text for p in parts for s in p.spans))
    if not labels or not spans:
        return {}
    return dict(zip(labels, (float(v) for v in matcher(labels, spans).max(axis=1)), strict=False))


def _said(path: RelationPath) -> str:
    steps = " / ".join(s.label if s.forward else f"{s.label} (of)" for s in path.steps)
    return f"{path.start_label}: {steps}"


def expand(graph: Graph, starts: list[str], parts: list[Part], matcher: Matcher, background,
           usable: Callable[[Candidate], bool]) -> tuple[list[Candidate], str]:
    """Fetch the facts of the entities at the end of the first steps that read most like the
    question (EXPAND_RELATIONS relations, EXPAND_ENTITIES entities, TIME_BUDGET_S), add them to
    `graph`, and say what was left out."""
    started = time.perf_counter()
    firsts: dict[tuple, tuple[str, list[str]]] = {}
    for start in starts[:MAX_STARTS]:
        for c, fwd in graph.steps(start):
            mid = c.fact.o if fwd else c.fact.s
            if not (fwd and c.fact.o_literal):
                firsts.setdefault((start, c.fact.p, fwd), (c.p_label, []))[1].append(mid)
    if not firsts:
        return [], ""
    fit = label_fit(graph, starts[:MAX_STARTS], parts, matcher)
    ranked = sorted(firsts.values(), key=lambda v: -float(fit.get(v[0], 0.0)))[:EXPAND_RELATIONS]
    mids = list(dict.fromkeys(m for _, ms in ranked for m in ms if m not in starts))
    wanted = len(mids)
    mids = mids[:EXPAND_ENTITIES]
    read = read_into(graph, mids, background, usable, EXPAND_FACTS, 2, lambda: timed_out(started))
    if read.failed:
        note = f"path search without second hops: {read.failed}"
    elif read.done < len(mids):
        note = f"path search stopped after {TIME_BUDGET_S * 1000:.0f} ms: second hops of {read.done} of {wanted} entities read"
    elif wanted > len(mids):
        note = f"second hops read for {len(mids)} of {wanted} entities"
    else:
        note = ""
    return read.facts, note
