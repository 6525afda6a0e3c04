"""Saying that the KG has no answer: nothing about what the question names (with the closest
names it has), or no fact of the relation it asks for (with what it does have)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.context import TurnContext
from engine.focus import focused
from engine.nlp.answer_type import MEASURE, TIME, asked_records, asked_types, asks_for_a_noun, asks_overview, says_when
from engine.relations import Relation, RelationMatcher, asked_measure, measure_kind, other_measure, other_modifier
from engine.stages.answer.asked import Asked
from engine.stages.answer.compose import (
    asked_as_record,
    asked_words,
    compose_text,
    content_words,
    facts_about_question,
    is_noise,
    relation_words,
    stems,
)
from engine.state import KNOWLEDGE_PLANS, AnswerSource, Candidate, Composed, TurnState

MATCHES = 3  # close names offered when nothing was found
FUZZY_CUTOFF = 70  # rapidfuzz ratio (0-100) of a whole label to the name asked about
# Under this calibrated relevance no fact about a focused question that no relation path reads
# like answers it: none is more likely than not the answer, and no relation says what is asked.
# On the generated out-of-domain dev split (shipped model), of the focused questions with no
# path, 0.5 says "not found" for 4 of the 6 about a relation the KG lacks and for 2 of the 270
# answerable questions (0.2: 2 of 6, and none).
MISSING_P = 0.5
# ... and for a question that asks for a thing by its name ("What is X's yearly salary?", "Which
# river ...?") that no relation of the entity reads like: the scorer rates the entity's other
# measures and places highly there. On the same split, of the 15 such questions with no path,
# 0.8 says "not found" for all 5 about a relation the KG lacks and for 3 of the 10 answerable ones
# ("What is X's hometown?", of "place of birth"); 0.5 for 4 and 1.
NOUN_MISSING_P = 0.8
# Under this score of the relation matcher (label words, WordNet's words for them, the
# encoder's meaning), no relation of the facts about a focused question that no relation path
# reads like is what it asks for, however the relevance scorer rates the facts: "How much does
# <game> cost?" of a game with players, a playing time and mechanics. Chosen on the hand-written
# dev sets (ood, ood2), over the focused questions that take no path: 0.25 sends 9 of the 16
# about what the KG lacks on ood and 5 of 6 on ood2 to "not found", and 1 of 153 answerable ones
# on ood (a paraphrase: "behind the mixing desk", its producer), none of 66 on ood2; 0.35 takes
# 3 more lacking ones on ood and 2 more answerable ones.
RELATION_MIN = 0.25
CLOSEST_FACTS = 2  # what the KG does have, offered with "not found"
RELATIONS_NAMED = 6  # and the relations it has about the entity
_WHICH = re.compile(r"\b(?:which|what)\s+([a-z]+)")  # the noun a "which" question asks for
WHEN_WORDS = frozenset(("date", "year"))  # what a question asking "when" says of a relation's label


def asked_about(text: str) -> str:
    """The words of the question that name what was looked for: its capitalised run of words
    (past the first word), else its last run of words that are not function words."""
    return _named(text) or _named(text, capitalised=False)


def _named(text: str, capitalised: bool = True) -> str:
    """The longest capitalised run of words past the first word, or (`capitalised` False) the
    last run of words that are not function words."""
    from engine.nlp.mentions import STOPWORDS, TYPE_NOUNS, tokenize

    tokens = tokenize(text)
    runs: list[list] = []  # content words in a row ("bandwidth meeting": a type noun may close one)
    caps: list[list] = []  # capitalised words in a row, the sentence's first word left out
    in_run = in_caps = False
    for i, t in enumerate(tokens):
        content = t.norm not in STOPWORDS or (in_run and t.norm in TYPE_NOUNS)
        if content and in_run:
            runs[-1].append(t)
        elif content:
            runs.append([t])
        # a number goes on a capitalised run: "Gullfest 2020" is one name, another than Gullfest 2019
        capital = i > 0 and (t.text[:1].isupper() or in_caps and t.norm.isdigit()) and t.norm not in STOPWORDS
        if capital and in_caps:
            caps[-1].append(t)
        elif capital:
            caps.append([t])
        in_run, in_caps = content, capital
    pick = (max(caps, key=len) if caps else []) if capitalised else (runs[-1] if runs else [])
    return text[pick[0].start:pick[-1].end] if pick else ""


def close_matches(text: str, index, limit: int = MATCHES) -> list[str]:
    """KG labels that share a word, or a word within a couple of typing errors, with the
    question's content words (the same fuzzy word index the mention detector uses)."""
    from rapidfuzz import fuzz, process

    from engine.nlp.mentions import STOPWORDS, tokenize
    from rules.similarity import norm

    words = [t.norm for t in tokenize(text) if t.norm not in STOPWORDS and len(t.norm) >= 3]
    score: dict[int, float] = {}
    for word in dict.fromkeys(words):
        for close, edits in index.close_words(word):
            for i in index.by_word.get(close, ())[:200]:
                score[i] = score.get(i, 0.0) + 1.0 / (1 + edits)
    phrase = " ".join(words)
    ranked = sorted(score, key=lambda i: (-score[i], -fuzz.ratio(phrase, index.labels[i].norm), index.labels[i].text))
    # Misspellings beyond the word index's edits ("Desing Reveiw"): the whole name, fuzzily.
    asked = norm(asked_about(text))
    if asked:
        found = process.extract(asked, [lab.norm for lab in index.labels], scorer=fuzz.ratio,
                                limit=limit, score_cutoff=FUZZY_CUTOFF)
        ranked += [i for _, _, i in found]
    out: dict[str, None] = {}
    for i in ranked:
        out.setdefault(index.labels[i].text, None)
        if len(out) >= limit:
            break
    return list(out)


def not_found_text(what: str, matches: list[str]) -> str:
    text = (f"I found nothing about “{what}” in the knowledge graph." if what
            else "I found nothing in the knowledge graph for this question.")
    if matches:
        names = matches[0] if len(matches) == 1 else ", ".join(matches[:-1]) + " or " + matches[-1]
        text += f" Did you mean {names}?"
    return text


def relation_missing(state: TurnState, ctx: TurnContext, facts: list[Candidate], below: float,
                     matcher: RelationMatcher | None = None) -> bool:
    """A focused question (one question about an entity it names: a pronoun's entity is less
    sure) whose entity the KG has, but no fact of which the learned scorer gives even `below` of
    answering it, nor one whose relation it names in so many words, nor a record it asks for in
    other words ("In what tongue is it?": its language): "What is Berlin's average annual
    rainfall?". With a `matcher`, also one where no relation of the facts reads like the question
    (`relation_fit` under RELATION_MIN), however the scorer rates them."""
    from engine.nlp.mentions import label_index

    if (ctx.config.scorer != "learned" or not facts or not focused(state, kinds=("name",))
            or asks_overview(state.text)):  # "Tell me about X" asks for no one relation
        return False
    if asks_for_a_noun(state.text, [m.text for m in state.mentions if m.kind == "name" and m.entity],
                       lambda: frozenset(label_index(ctx).classes)):
        below = max(below, NOUN_MISSING_P)
    if matcher is not None and relation_fit(state, facts, matcher) < RELATION_MIN:
        return True
    asked, records = asked_words(state), asked_records(state.text)
    when = TIME in asked_types(state.text)
    measure = asked_measure(state.text)
    return all(c.score < below and not _names(asked, c, state.text) and not asked_as_record(c, records)
               for c in facts if not (when and _between_things(c)) and not _other_measure(measure, c)
               # "Who is X's goalkeeping coach?" is not answered by its head coach, however sure the scorer
               and not other_modifier(c.p_label, state.text))


def relation_fit(state: TurnState, facts: list[Candidate], matcher: RelationMatcher) -> float:
    """How well the question, its names left out, reads like the likeliest relation of the facts
    (`RelationMatcher.rank`'s score: 0..1)."""
    text = state.rewritten or state.text
    for m in state.mentions:
        if m.kind == "name" and m.entity and m.text:
            text = text.replace(m.text, " ")
    from engine.factcheck.relations import qualified_only

    # a label said only by a qualifier ("country" for the "area" of "telephone area code") is not asked for
    relations = [Relation(label) for label in dict.fromkeys(c.p_label for c in facts if c.p_label)
                 if not qualified_only(label, text)]
    ranked = matcher.rank(text, relations)
    return ranked[0].score if ranked else 0.0


def relation_matcher(ctx: TurnContext) -> RelationMatcher:
    """The relation matcher over the session's encoder, built once per session."""
    from engine.nlp.encoder import encoder_for

    return ctx.resource("relation_matcher", lambda: RelationMatcher(lambda: encoder_for(ctx)))


def _other_measure(asked: str, c: Candidate) -> bool:
    """A fact that holds another measure than the one the question asks for: however sure the
    scorer, "How much does Pad Thai cost?" is not answered by its servings."""
    return other_measure(asked, measure_kind(c.p_label, c.o_label if c.fact.o_literal else None))


def _names(asked: set[str], c: Candidate, text: str) -> bool:
    """Does the question name the fact's relation in so many words: not only as the first word of
    a compound noun (the area of "What is the telephone area code of Warsaw?")?"""
    from engine.factcheck.relations import qualified_only

    return bool(asked & relation_words(c)) and not qualified_only(c.p_label, text)


def _between_things(c: Candidate) -> bool:
    """A fact between two things: however sure the scorer, no answer to a question that asks
    "when" ("When was it first made?" is not answered by who made it)."""
    return not c.fact.o_literal and not c.derived and not MEASURE.match(c.o_label)


def lacking_relation(state: TurnState, ctx: TurnContext) -> str:
    """The label of a relation of the KG that a focused question names in so many words (every
    word of its label, a final "s" aside: "What instruments does Eleanor Voss play?" names "plays
    instrument") and that no entity the turn names has, either way: that entity lacks what the
    question asks. Empty when the question names no such relation, when one of the entities has
    it (the guitar in "Who plays the guitar in X?" has "plays instrument" edges), or when the
    turn's relation paths take it, or without paths when a retrieved fact has it (the answer may
    lie a step further: "Which stadium does <player> play at?"). A path of other relations does
    not answer a relation named in more of the question's words than the path's labels share
    with it ("Who is the station master at X?" is not answered by the station next to X; "Which
    team does X play for?" is by "plays for", whatever other relation is called "team")."""
    from engine.nlp.mentions import label_index
    if not focused(state, kinds=("name",)):
        return ""
    own = stems(asked_words(state))
    asked = set(own)
    if TIME in asked_types(state.rewritten or state.text) and not any(says_when(v, seasons=False) for p in state.paths for v in p.values):
        # "When did X die?" names "death date" as "Where was X born?" does not; so does "When is
        # the Databases exam?" "exam date", over a path that gives no day ("semester: Autumn")
        asked |= WHEN_WORDS
    named = [(len(words), label, p) for p, label in label_index(ctx).relations.items()
             if (words := stems(content_words(label))) and words <= asked and words & own]
    entities = {m.entity for m in state.mentions if m.kind == "name" and m.entity}
    if state.paths:
        taken = {s.predicate for path in state.paths for s in path.steps}
        said = max(len(stems(content_words(" ".join(s.label for s in path.steps))) & asked) for path in state.paths)
        named = named if not {p for *_, p in named} & taken else []
        named = [n for n in named if n[0] > said]
        # "Which publisher is based in Girona?": the relation the noun asked for names says what
        # the values are (the press publishes books), not what is asked of Girona
        which = {w for m in _WHICH.finditer((state.rewritten or state.text).casefold())
                 for w in stems(content_words(m.group(1)))}
        ends = path_ends(state)
        named = [n for n in named if not (stems(content_words(n[1])) <= which and ends and len(ends) <= UNMET_ASKS
                                          and _takes_part(ctx, n[2], ends))]
    elif {p for *_, p in named} & {c.fact.p for c in state.retrieved}:
        return ""
    if not named or not entities:
        return ""
    for *_, p in named:
        for e in entities:
            if ctx.background.query(f"ASK {{ {{ <{e}> <{p}> ?o }} UNION {{ ?s <{p}> <{e}> }} }}") is not False:
                return ""  # it has it (or the KG could not say)
    return max(named, key=lambda n: n[0])[1]


# path values asked about (their link to another entity the question names, or their part in a
# relation it names); past it, none is
UNMET_ASKS = 20


def unmet(state: TurnState, ctx: TurnContext) -> str:
    """The name of an entity a one-clause question names beside where its paths start, to which no
    value of the paths is linked either way ("Who plays drums in Kestrel Lane?", where the KG's
    drummers play in other bands): the values do not answer it. "" when they are linked, when the
    question names no other entity by its name, or when the values are not things (a literal, a
    date)."""
    if not state.paths or len({p.part for p in state.paths}) > 1:
        return ""
    on_paths = {p.start for p in state.paths} | {n for p in state.paths for chain in p.chains for f in chain
                                                for n in (f.s, f.o)}
    # a name said as one ("Kestrel Lane"); a common noun that meets a label ("the lead singer of",
    # "the city where") describes what is asked
    others = {m.entity: m.label or m.text for m in state.mentions
              if m.kind == "name" and m.entity and m.entity not in on_paths and m.text != m.text.lower()}
    ends = path_ends(state)
    if not others or not ends or len(ends) > UNMET_ASKS or any(p.total > len(p.chains) for p in state.paths):
        return ""  # more values than are asked about (or than were kept): no verdict
    for other, name in others.items():
        linked = " UNION ".join(f"{{ <{v}> ?p <{other}> }} UNION {{ <{other}> ?p <{v}> }}" for v in ends)
        if ctx.background.query(f"ASK {{ {linked} }}") is False:
            return name
    return ""


def path_ends(state: TurnState) -> list[str]:
    """The entities the turn's relation paths lead to (literals aside), each once."""
    return list(dict.fromkeys(chain[-1].o if p.steps[-1].forward else chain[-1].s
                              for p in state.paths for chain in p.chains
                              if chain and not (p.steps[-1].forward and chain[-1].o_literal)))


def _takes_part(ctx: TurnContext, predicate: str, nodes: list[str]) -> bool:
    """Is one of the nodes subject or object of a `predicate` edge (or can the KG not say)?"""
    either = " UNION ".join(f"{{ <{v}> <{predicate}> ?o }} UNION {{ ?s <{predicate}> <{v}> }}" for v in nodes)
    return ctx.background.query(f"ASK {{ {either} }}") is not False


def missing_text(what: str, about: list[str], closest: str, relations: Sequence[str] = ()) -> str:
    """`closest`: the composed sentences of the nearest facts; `relations`: what the KG does have
    about the entities, by relation (each quoted, a long list cut with its count said)."""
    from engine.nlp.realize import joined, label_words

    subject = " and ".join(about)
    text = (f"I found no fact on “{what}” about {subject} in the knowledge graph." if what and subject
            else "I found no fact in the knowledge graph that answers this.")
    text += f" The closest it has is this. {closest}" if closest else ""
    if relations and subject:
        named = [f"“{label_words(r)}”" for r in relations[:RELATIONS_NAMED]]
        text += f" For {subject} it has facts of {joined(named, len(relations))}."
    return text


def relations_of(entities: set[str], facts: list[Candidate]) -> list[str]:
    """The relations the KG has about the entities (their facts' labels, each once, names and
    bookkeeping last): what a "not found" can offer instead."""
    touching = [c for c in facts if c.p_label and (c.fact.s in entities or c.fact.o in entities)]
    ranked = sorted(touching, key=lambda c: is_noise(c.p_label))
    return list(dict.fromkeys(c.p_label for c in ranked))


def unknown_name(state: TurnState) -> str:
    """A capitalised name in a turn that links no name said with a capital (a common word that
    meets a label, "prizes" for "Meridian Translation Prize", names no one): no mention covers
    it (not a day, a type or a pronoun), it does not introduce the speaker ("I'm Peter
    Fischer"), and no retrieved fact says it."""
    from engine.nlp.speakers import INTRODUCTION

    name = _named(state.text)
    if not name or any(m.kind == "name" and m.entity and m.text != m.text.lower() for m in state.mentions):
        return ""
    if any(name.casefold() in c.text.casefold() for c in state.retrieved):
        return ""
    start = state.text.find(name)
    end = start + len(name)
    if any(m.start < end and start < m.end for m in state.mentions):
        return ""
    if any(intro.end() == start for intro in INTRODUCTION.finditer(state.text)):
        return ""
    return name


def nothing_found(state: TurnState) -> bool:
    """A turn that looks something up and found no fact about it: it names nothing the KG has
    (or only things without facts, such as a relation's own name), and asks for no type of
    thing ("which rooms"), whose answer would be the entities themselves; or it names someone
    by a capitalised name the KG does not have and links no name at all ("In which city was
    Xiomara Quill born?": the cities of others are no answer)."""
    if state.plan not in KNOWLEDGE_PLANS:
        return False
    if unknown_name(state):
        return True
    if any(m.kind == "type" and m.value for m in state.mentions):
        return False
    return not facts_about_question(state)




def not_found_answer(state: TurnState, ctx: TurnContext, why: str = "") -> Composed:
    """"Nothing about what the question names", with close names. `why`: what came first (the
    model's reply not shown)."""
    from engine.nlp.mentions import label_index

    what = asked_about(state.text)
    linked = {m.label for m in state.mentions if m.entity and m.label}
    matches = [m for m in close_matches(state.text, label_index(ctx), MATCHES + len(linked)) if m not in linked]
    matches = matches[:MATCHES]
    reason = "the knowledge graph has no fact about what the question names"
    return Composed(not_found_text(what, matches), AnswerSource.NOT_FOUND, matches=matches, asked=what,
                    reason=f"{why}; {reason}" if why else reason)


def missing_answer(state: TurnState, facts: list[Candidate], *, below: float, relation: str = "",
                   why: str = "", about: str = "", asked: Asked | None = None) -> Composed:
    """"No fact on X about E", with the closest facts. `relation`: the KG's relation the question
    names and its entity lacks; else the question's own words for what no fact scoring `below` or
    more answers. `about`: the entity the question names to which no value of `relation` is
    linked (`unmet`). `asked`: what the question asks of its entity, judged lacking (its nearest
    relations are the closest facts). `why`: what came first (the model's reply not shown)."""
    from engine.nlp.mentions import tokenize

    touched = {c.fact.s for c in facts} | {c.fact.o for c in facts}
    names = {m.label or m.text for m in state.mentions if m.entity in touched and m.kind == "name"}
    if asked is not None:
        names = {asked.name}
        what, reason = asked.words, asked.reason
    elif about:
        names = {about}
        what, reason = relation, f"no value of “{relation}” the knowledge graph has is linked to {about}"
    elif relation:
        what, reason = relation, f"the question asks for “{relation}”, which the knowledge graph has, but not for it"
    else:
        words = asked_words(state)
        what = " ".join(t.text for t in tokenize(state.text) if content_words(t.text) & words)
        reason = f"no fact about the question scores {below} or more as its answer, nor names what it asks"
    reason = f"{why}; {reason}" if why else reason
    closest = facts[:CLOSEST_FACTS]
    if asked is not None:
        near = {(side.label, side.forward) for side in asked.near}
        closest = [c for c in facts if (c.p_label, c.fact.s == asked.entity) in near][:CLOSEST_FACTS] or closest
    entities = {m.entity for m in state.mentions if m.entity in touched and m.kind == "name"}
    relations = relations_of(entities, facts)
    return Composed(missing_text(what, sorted(names), compose_text(closest), relations), AnswerSource.NOT_FOUND,
                    facts=[c.text for c in closest], asked=what, reason=reason)
