"""kgchat's own answer from the KG's facts: which facts answer the question, and how they are
said. Only what the graph says, in the sentences the verbalize stage already wrote, so a user
never has to tell an invented answer from a fact. Deterministic: the same facts give the same words.
"""

from __future__ import annotations

from engine.nlp.answer_type import asked_records, is_name_noise, recorded
from engine.nlp.sentences import is_node_fact, relation_and_value
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


def _parts(c: Candidate) -> tuple[str, str, str]:
    """(lead entity, joiner, rest) of a fact's sentence: "Ada Lind" + " " + "attends Design
    Review"; a fallback verbalization ("X — relation — Y") becomes "X" + ": " + "relation Y";
    a sentence that starts with no entity, or with two ("X and Y are both connected to Z": what
    follows is not said of X alone), is all rest."""
    text = c.text.strip().rstrip(".").strip()
    if " — " in text and c.s_label and text.casefold().startswith(c.s_label.casefold()):
        return text[:len(c.s_label)], ": ", relation_and_value(c.p_label, c.o_label, c.fact.o_literal)
    for label in (c.s_label, c.o_label):
        if label and text[:len(label) + 1].casefold() == label.casefold() + " ":
            rest = text[len(label) + 1:]
            if rest.split(" ", 1)[0].casefold() in ("and", "or", "&"):
                break
            return text[:len(label)], " ", rest
    return "", "", text


def compose_text(facts: list[Candidate]) -> str:
    """The facts as a few sentences: those that start with the same entity share it ("Design
    Review will be held in Room Beta, starts at 14:00 and is organized by Mark Taylor")."""
    items: list[tuple[str, str, list[str]]] = []  # (lead, joiner, rests)
    for c in facts:
        lead, joiner, rest = _parts(c)
        same = next((item for item in items if lead and item[0].casefold() == lead.casefold()
                     and item[1] == joiner), None)
        if same is not None:
            same[2].append(rest)
        else:
            items.append((lead, joiner, [rest]))
    sentences = []
    for lead, joiner, parts in items:
        sep = "; " if joiner == ": " else ", "
        body = parts[0] if len(parts) == 1 else sep.join(parts[:-1]) + (sep if joiner == ": " else " and ") + parts[-1]
        sentence = f"{lead}{joiner}{body}"
        sentences.append(sentence[:1].upper() + sentence[1:] + ".")
    return " ".join(sentences)
