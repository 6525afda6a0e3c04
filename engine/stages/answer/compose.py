"""kgchat's own answer from the KG's facts: which facts answer the question, and how they are
said. Only what the graph says, in the sentences the verbalize stage wrote from its templates or
the realizer's, so a user never has to tell an invented answer from a fact. Deterministic: the same facts give the same words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.nlp.answer_type import asked_records, is_name_noise, recorded
from engine.nlp.realize import Said, clause
from engine.nlp.sentences import is_node_fact
from engine.state import Candidate, TurnState
from kgstore.vocab import split_words

MORE_FACTS = 2  # facts after the best one and its siblings
MAX_SIBLINGS = 6  # values of the best fact's relation listed together (a film's cast)

def text_key(text: str) -> str:
    """Two verbalizations that differ only in case, spacing or a final full stop say the same."""
    return " ".join(text.casefold().rstrip(" .").split())


# --- which facts ---------------------------------------------------------------------------

# Irregular forms the 5-letter cut cannot bring together ("where was X born" / "place of birth").
IRREGULAR = {"born": "birth", "died": "death", "dead": "death", "die": "death", "dies": "death"}
# Words of name records and bookkeeping relations, whatever a KG calls them ("given name",
# "familyName", "speaksLanguage", "described_by"): a fact of theirs is rarely what was asked.


def content_words(text: str) -> set[str]:
    """Content words of a text, cut to 5 letters so that "organizes" meets "organizer"."""
    from engine.nlp.mentions import STOPWORDS, tokenize

    return {IRREGULAR.get(t.norm, t.norm)[:5] for t in tokenize(text) if t.norm not in STOPWORDS and len(t.norm) >= 3}


def stems(words: set[str]) -> set[str]:
    """The words without a final "s", so that the label "plays instrument" is named by "play"."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words}


def is_noise(p_label: str) -> bool:
    """A name record or bookkeeping relation (given name, described by source ...): said last."""
    return is_name_noise(split_words(p_label))


def asked_as_record(c: Candidate, records: set[str]) -> bool:
    """Is the fact a record of a kind the question asks for in other words (answer_type.asked_records)?"""
    return recorded(split_words(c.p_label)) in records


def relation_words(c: Candidate) -> set[str]:
    """The words a fact's sentence says about the relation (its entities' names left out)."""
    text = c.text
    for label in (c.s_label, c.o_label):
        if label:
            text = text.replace(label, " ")
    return content_words(text) | content_words(c.p_label)


def asked_words(state: TurnState) -> set[str]:
    """What the question says about the relation it asks: its content words, less the names of
    what it mentions ("Who organizes the Staff Meeting?" -> organizes)."""
    names: set[str] = set()
    for m in state.mentions:
        names |= content_words(m.text) | (content_words(m.label) if m.label else set())
    return content_words(state.rewritten or state.text) - names


def facts_about_question(state: TurnState) -> list[Candidate]:
    """Facts between entities (not "X is a person") that touch what the turn links, each sentence
    once, best first: the records the question asks for in other words ("What does she do for a
    living?": her occupations); then those whose value is not of another type than the question
    asks for ("Who founded it?" is not answered by a year); among them, those whose relation the
    question names in so many words, then the retrieved ones, then the other candidates about the
    linked entities, each group by relevance. Name records and bookkeeping ("given name",
    "described by source") go last unless asked about. A turn that links nothing itself (a type
    request, a follow-up on the last turn's focus) takes the retrieved facts only."""
    linked = set(state.linked_entities)
    asked = asked_words(state)
    retrieved = {id(c) for c in state.retrieved}
    named: dict[int, int] = {}
    out: dict[str, Candidate] = {}
    for c in sorted(state.retrieved, key=lambda c: -c.score) + sorted(state.candidates, key=lambda c: -c.score):
        if not c.text or is_node_fact(c.fact):
            continue
        if linked and c.fact.s not in linked and c.fact.o not in linked:
            continue
        if not linked and id(c) not in retrieved:
            continue
        named[id(c)] = len(asked & relation_words(c))
        out.setdefault(text_key(c.text), c)

    records = asked_records(state.text)

    def rank(c: Candidate) -> tuple[bool, bool, bool, int, bool, float]:
        as_record = asked_as_record(c, records)
        noise = is_noise(c.p_label) and not named[id(c)] and not as_record
        clash = c.features.get("atype_clash", 0.0) > 0
        return noise, not as_record, clash, -named[id(c)], id(c) not in retrieved, -c.score

    return sorted(out.values(), key=rank)


def select(facts: list[Candidate], asked: set[str] | frozenset[str] = frozenset()) -> list[Candidate]:
    """The best fact and the other values of its relation (so a list answer is whole); then,
    unless the question names that relation (`asked`: its words, and so has its answer), the
    next best few."""
    if not facts:
        return []
    top = facts[0]
    siblings = [c for c in facts if c.fact.p == top.fact.p and (c.fact.s == top.fact.s or c.fact.o == top.fact.o)]
    chosen = siblings[:MAX_SIBLINGS]
    if asked & relation_words(top):
        return chosen
    rest = [c for c in facts if c not in chosen]
    return chosen + rest[:MORE_FACTS]


@dataclass(frozen=True)
class _Part:
    """One clause of a composed sentence: `lead` the entity it is said of ("" when it opens
    with no one entity), `full` the clause with its subject, `after` the clause as it goes on
    after a clause about the same lead ("attends Design Review", "its head coach is Mikel
    Arteta"), `verb` whether `after` goes on from the subject with no pronoun, `listed` whether
    it lists several values."""

    lead: str
    full: str
    after: str
    verb: bool
    listed: bool = False


def _groups(facts: list[Candidate]) -> list[list[Candidate]]:
    """The facts by the relation of one subject they say (the values of a list together); a
    relation that several subjects share towards one object ("Saka and Saliba play for
    Arsenal") said from that object."""
    by_subject: dict[tuple[str, str], list[Candidate]] = {}
    by_object: dict[tuple[str, str], list[Candidate]] = {}
    for c in facts:
        by_subject.setdefault((c.fact.s, c.fact.p), []).append(c)
        by_object.setdefault((c.fact.o, c.fact.p), []).append(c)
    out: dict[int, list[Candidate]] = {}
    for c in facts:
        group = by_subject[(c.fact.s, c.fact.p)]
        if len(group) == 1 and not c.fact.o_literal and len(by_object[(c.fact.o, c.fact.p)]) > 1:
            group = by_object[(c.fact.o, c.fact.p)]
        out.setdefault(id(group[0]), group)
    return list(out.values())


def _template_part(c: Candidate) -> _Part | None:
    """A fact said by the verbalize stage's template, cut after the entity it opens with ("Ada
    Lind" + "attends Design Review"; "Bo" + "'s phone number is 2"); None for the fallback
    "X — relation — Y", which the realizer says."""
    text = c.text.strip().rstrip(".").strip()
    if " — " in text:
        return None
    for label in (c.s_label, c.o_label):
        if not label or text[:len(label)].casefold() != label.casefold():
            continue
        rest = text[len(label):]
        if rest.startswith(" ") and rest.split()[0].casefold() not in ("and", "or", "&"):
            return _Part(text[:len(label)], text, rest[1:], verb=True)
        if rest.startswith(("'s ", "’s ")):
            return _Part(text[:len(label)], text, "Its " + rest[3:], verb=False)
        break  # two entities open it ("X and Y are both ..."): what follows is not said of X alone
    return _Part("", text, text, verb=False)


def _part(group: list[Candidate], possessive: Callable[[str], str]) -> _Part:
    """One group of facts as one clause: a lone fact as its template says it when it opens with
    an entity, else the realizer's."""
    c = group[0]
    template = _template_part(c) if len(group) == 1 else None
    # a template that opens with no entity ("The genre of X is Y") could not share its subject;
    # a derived fact has no one relation label the realizer could say
    if template is not None and (template.lead or c.derived or not (c.s_label and c.o_label and c.p_label)):
        return template
    forward = len(group) == 1 or all(g.fact.s == c.fact.s for g in group)
    subject = c.s_label if forward else c.o_label
    values = tuple(dict.fromkeys((g.o_label if forward else g.s_label) for g in group))
    said = Said(subject, c.p_label or split_words(c.fact.p), values, forward=forward)
    full = clause(said)
    pronoun = possessive(c.fact.s if forward else c.fact.o)
    mine = clause(said, pronoun=pronoun)
    lead = subject if full.startswith(subject) and (full.startswith(subject + " ") or mine.startswith(pronoun.capitalize())) else ""
    if not lead:
        return _Part("", full, full, verb=False)
    verb = full.startswith(subject + " ")
    return _Part(lead, full, full[len(subject) + 1:] if verb else mine, verb, listed=len(values) > 1)


def compose_text(facts: list[Candidate], possessive: Callable[[str], str] = lambda iri: "its") -> str:
    """The facts as a few sentences, through the realizer: the values of one relation listed
    ("A, B and C"); the facts about one entity named once, what goes on from it in one sentence
    ("Design Review will be held in Room Beta, starts at 14:00 and is organized by Mark
    Taylor"), each of its relations said as a noun in a sentence of its own that opens with
    "Its" ("Its head coach is Mikel Arteta"), or the `possessive` of the entity ("His", "Their")."""
    runs: list[list[_Part]] = []
    for part in (_part(group, possessive) for group in _groups(facts)):
        run = next((r for r in runs if part.lead and r[0].lead.casefold() == part.lead.casefold()), None)
        if run is None:
            runs.append([part])
        else:
            run.append(part)
    sentences = []
    for run in runs:
        # a list last among the verb phrases, so that its "and" ends the sentence ("... and has
        # ingredient bulgur and onion"), and no sentence after it hangs on it
        verbs = sorted((p for p in run if p.verb), key=lambda p: p.listed)
        nouns = [p for p in run if not p.verb]
        first, *rest = verbs + nouns
        clauses = [first.full] + [p.after for p in verbs[1:]]
        body = clauses[0] if len(clauses) == 1 else ", ".join(clauses[:-1]) + " and " + clauses[-1]
        sentences.append(body[:1].upper() + body[1:] + ".")
        sentences += [p.after + "." for p in rest if not p.verb]
    return " ".join(sentences)
