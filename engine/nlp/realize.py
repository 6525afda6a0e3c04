"""Facts said as English sentences: one fact, the values of one relation, a chain of two, several
facts about one subject, and what the graph lacks. Deterministic; the relation label decides the
form by its word shape and the tagger's reading of it (a noun is said "X's head coach is Y", a
verb "Y plays for X", a participle before "by" as a passive), never by a list of domain words."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.nlp.dependency import parser
from engine.nlp.sentences import name_and_unit
from engine.words import singular
from kgstore.vocab import split_words

LISTED = 8
# The prepositions a relation label may end in ("offered by", "located in") and the shape of an id
# label ("p47"): one of each for every reader of labels (the overview's example questions, the
# route's roles, the realizer).
LABEL_PREPOSITIONS = frozenset("by in of at for to from with on into".split())
LABEL_ID = re.compile(r"[a-z]{1,3}\d+")
_PREPOSITIONS = LABEL_PREPOSITIONS | {"as"}  # the realizer also reads "serves as" as a verb
_AUXILIARIES = frozenset("has have had is was are were".split())
# English says the passive of a birth in the past only: "X was born in Y", never "X is born in Y".
_PAST_ONLY = frozenset({"born"})
# A value that is a year, a month or a day: the event a participle label says happened then.
_DATED = re.compile(r"\d{4}(?:-\d{2}(?:-\d{2})?)?")
# The pronoun of a subject said again, by its possessive: as the subject, and after a verb.
_SUBJECT = {"its": "it", "his": "he", "her": "she", "their": "they"}
_OBJECT = {"its": "it", "his": "him", "her": "her", "their": "them"}


@dataclass(frozen=True)
class Said:
    """One relation of a subject and the values it has, as the realizer is handed it: `forward`
    when the subject is the fact's subject, not its object."""

    subject: str
    label: str
    values: tuple[str, ...]
    forward: bool = True
    total: int = 0


def label_words(label: str) -> str:
    """A relation label as words: camelCase and snake_case split, ids kept as they are."""
    return " ".join(split_words(label).split())


@lru_cache(maxsize=4096)
def is_noun(label: str) -> bool:
    """Whether a label names a thing ("head coach", "inception") rather than an action ("plays
    for", "teaches", "written by"): by the shape of its first and last words, and where the word
    shape says a thing, by the tagger's reading of the label between two names."""
    words = label_words(label).casefold().split()
    if not words or LABEL_ID.fullmatch(words[0]) or words[-1] in _PREPOSITIONS or words[0] in _AUXILIARIES:
        return False
    first = words[0]
    if len(first) > 3 and (first.endswith("ed") or (first.endswith("es") and len(words) == 1)):
        return False
    return not _tagged_present_verb(tuple(words)) and not _participle_first(tuple(words))


def _tagged_present_verb(words: tuple[str, ...]) -> bool:
    """"Xqaq serves station Xqbq.": a first word the tagger reads as a verb in the third person
    present is the label's verb ("serves station", "operates route"), which the word shape
    cannot tell from a plural noun ("sports team"). Only a first word with the "-s" of that form
    is put to the tagger (no parser is loaded for "head coach"); without it, the shape decides."""
    first = words[0]
    if len(first) < 3 or not first.endswith("s") or first.endswith(("ss", "us", "is")):
        return False
    tags = _label_tags(words)
    return tags is not None and len(tags) > 1 and tags[1] == "VBZ"


def _participle_first(words: tuple[str, ...]) -> bool:
    """"taught in room", "played at venue": a first word the tagger reads as a participle or a
    past form before a preposition is the label's verb, the noun after it what it is done in."""
    if len(words) < 3 or words[1] not in _PREPOSITIONS or words[-1] in _PREPOSITIONS:
        return False
    tags = _label_tags(words)
    return tags is not None and tags[1] in ("VBN", "VBD")


def _counted_noun(words: tuple[str, ...]) -> bool:
    """Whether the word after "is" of a label is a noun ("is member of"), not a participle
    ("is written by", "is held in"): the tagger's reading between two names; without it, a word
    with the ending of a regular participle or a plural is none."""
    if words[1].endswith(("ed", "s")):
        return False
    tags = _label_tags(words)
    return tags is None or tags[2].startswith("NN")


@lru_cache(maxsize=4096)
def _label_tags(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The tagger's tags of "Xqaq <label words> Xqbq." (a label read between the two names it
    joins), once per label; None without the tagger."""
    nlp = parser()
    return None if nlp is None else tuple(t.tag_ for t in nlp(f"Xqaq {' '.join(words)} Xqbq."))


def _plural_verb(verb: str) -> str:
    """The verb's form after several subjects: "plays for" -> "play for", "teaches" -> "teach"."""
    words = verb.split()
    first = words[0]
    if first.casefold() in ("has", "is", "was"):
        first = {"has": "have", "is": "are", "was": "were"}[first.casefold()]
        if len(words) > 2 and first != "have" and _counted_noun(tuple(w.casefold() for w in words)):
            words[1] += "s"  # "is member of" -> "are members of", not "is written by" -> "are writtens by"
    elif first.endswith(("ches", "shes", "sses", "xes", "zes")):
        first = first[:-2]
    elif first.endswith("ies") and len(first) > 4:
        first = first[:-3] + "y"
    elif first.endswith("s") and not first.endswith("ss"):
        first = first[:-1]
    return " ".join([first, *words[1:]])


def joined(values: list[str] | tuple[str, ...], total: int = 0) -> str:
    """ "A", "A and B", "A, B and C"; past LISTED, "A, B, … H and 4 more"."""
    total = max(total, len(values))
    shown = list(values[:LISTED])
    rest = total - len(shown)
    if rest > 0:
        return f"{', '.join(shown)} and {rest} more"
    if len(shown) <= 1:
        return "".join(shown)
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def _valued(label: str, values: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """A unit in the label's name goes after each number ("cooking time minutes", 45 -> "cooking
    time", "45 minutes")."""
    name, unit = name_and_unit(label, values[0]) if values else (label, "")
    if not unit:
        return label, values
    return name, tuple(f"{v} {unit}" if name_and_unit(label, v)[1] else v for v in values)


def clause(said: Said, pronoun: str = "", plural: bool = False) -> str:
    """The sentence body (no full stop) for one relation's values; `pronoun`, when given, is the
    possessive that stands for the subject ("its", "his", "her", "their"; "it", "he", "she", "they"
    where the subject acts) so a subject is not said twice in a row. Names keep their case where
    they open a sentence ("iPhone"): only the realizer's own words are capitalised. `plural`: the
    one value is said of many ("3 albums")."""
    label, values = _valued(label_words(said.label), said.values)
    many = plural or len(values) > 1 or said.total > 1
    value = joined(values, said.total)
    noun = is_noun(label)
    they = pronoun == "their"
    words = label.split()
    if noun and len(words) > 1 and words[0].casefold() in LABEL_PREPOSITIONS:
        label = " ".join(words[1:])  # "at gym": the noun is the gym, "X's gym is Y"
    if said.forward:
        if noun:
            owner = pronoun.capitalize() if pronoun else f"{said.subject}'s"
            if many and not _plural(label):
                label = _plural_noun(label)
            return f"{owner} {label} {'are' if many or _plural(label) else 'is'} {value}"
        subject = _SUBJECT.get(pronoun, pronoun).capitalize() if pronoun else said.subject
        verb, kind = _verb_and_object(label)
        if kind and values:
            return f"{subject} {_of_they(verb) if they else verb} {_kind_of(kind, value, many)}"
        active = _active(label, values)
        return f"{subject} {_of_they(active) if they else active} {value}"
    if noun:
        if not said.subject[:1].isupper():
            # a value, not a name ("carbon"), said of several: "the frame of A and B is carbon"
            return f"The {label} of {value} is {said.subject}"
        subject = _SUBJECT.get(pronoun, pronoun) if pronoun else said.subject
        # one of several of its kind ("a cast member of A and B"); "the head coach of X" of one
        # (never false, where "the" would be when each of them has others of its kind)
        article = ("an" if label[:1].casefold() in "aeiou" else "a") if many else "the"
        return f"{subject} {'are' if they else 'is'} {article} {label} of {value}"  # the subject is the value's <label>
    verb = _active(label)
    return f"{value} {_plural_verb(verb) if many else verb} {_OBJECT.get(pronoun, pronoun) if pronoun else said.subject}"


def _of_they(verb: str) -> str:
    """The verb after a singular "they": "is written by" -> "are written by", "plays for" -> "play for"."""
    words = verb.split()
    first = {"is": "are", "has": "have", "was": "were"}.get(words[0].casefold())
    return " ".join([first, *words[1:]]) if first else _plural_verb(verb)


def _verb_and_object(label: str) -> tuple[str, str]:
    """A present-tense verb and the noun of what it acts on ("serves station", "operates
    route"): ("serves", "station"); ("", "") for any other label."""
    words = label.split()
    if (len(words) < 2 or words[0].casefold() in _AUXILIARIES - {"has"} or words[-1].casefold() in _PREPOSITIONS
            or not _tagged_present_verb(tuple(w.casefold() for w in words))):
        return "", ""
    return words[0], " ".join(words[1:])


def _kind_of(kind: str, value: str, many: bool) -> str:
    """The values after the verb with the noun the label names: "the stations A, B and C"; a count
    that already names it ("5 stations") as it is."""
    said = kind.casefold().split()[-1]
    counted = value.casefold().split()[-1:]
    if counted and counted[0] != said and singular(counted[0]) == said:
        return value
    return f"the {_plural_noun(kind) if many else kind} {value}"


def _plural(label: str) -> bool:
    """Whether a noun label's head noun (its last word before a preposition) is plural: "club
    colours", "opening hours", not "number of pages", "status", "address"."""
    words = label.casefold().split()
    head = next((i for i, w in enumerate(words) if w in _PREPOSITIONS and i), len(words))
    last = words[head - 1] if head else ""
    return len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is"))


def _plural_noun(label: str) -> str:
    """A noun label said of several values: its head noun plural ("crew member" -> "crew
    members", "number of pages" -> "numbers of pages"; "languages spoken" stays)."""
    words = label.split()
    head = next((i for i, w in enumerate(words) if w.casefold() in _PREPOSITIONS and i), len(words)) - 1
    if any(_plural(w) for w in words[:head]):
        return label  # "languages spoken": the noun before the participle is plural already
    word = words[head]
    if word.endswith(("s", "x", "z", "ch", "sh")):
        word += "es"
    elif word.endswith("y") and word[-2:-1] not in tuple("aeiou"):
        word = word[:-1] + "ies"
    else:
        word += "s"
    return " ".join([*words[:head], word, *words[head + 1:]])


def _active(label: str, values: Sequence[str] = ()) -> str:
    """A verb label as said after its subject: a participle or a label ending in a preposition
    after a noun takes "is" ("is written by", "is member of"); others stand ("plays for"). A
    participle whose values are dates says an event, in the past and with its preposition ("was
    opened in 2009", "was set on 2025-03-02"), as a birth always is ("was born in")."""
    words = label.split()
    first = words[0].casefold()
    if first in _AUXILIARIES:
        return label
    # "made in", "shot in", "held in" are participles as much as past tenses (the tagger reads
    # them as past tenses between two names), so "is" goes before them all
    if (first.endswith("ed") or first in _PAST_ONLY or (words[-1].casefold() in _PREPOSITIONS and not first.endswith("s"))
            or _participle_first(tuple(w.casefold() for w in words))):
        dated = bool(values) and all(_DATED.fullmatch(v.strip()) for v in values)
        if dated and len(words) == 1:
            label += " on" if all(len(v.strip()) == 10 for v in values) else " in"
        return f"{'was' if dated or first in _PAST_ONLY else 'is'} {label}"
    return label


def fact_sentence(said: Said) -> str:
    return clause(said) + "."


def chain_sentence(first: Said, last: Said) -> str:
    """Two hops: the answer first, the hop that leads to it after it ("Mikel Arteta is the head
    coach of Arsenal; Bukayo Saka plays for Arsenal.")."""
    return f"{clause(last)}; {clause(first)}."


def paragraph(facts: list[Said]) -> str:
    """Several relations: each its sentence, the subject named once in a row and then "its"/"it"."""
    out: list[str] = []
    previous = ""
    for said in facts:
        again = said.subject == previous and said.forward
        out.append(clause(said, pronoun="its" if again else "") + ".")
        previous = said.subject
    return " ".join(out)


def not_found(subject: str, label: str, has: Said | None = None) -> str:
    """What the graph lacks, and the nearest it has when given."""
    text = f"The knowledge graph has no {label_words(label)} for {subject}"
    if has is None:
        return text + "."
    return f"{text}; {clause(has)}."


# Computed answers: what an operation over a relation's values found, said first, then the facts
# it rests on (each a sentence the checker can judge).

def graded_head(winners: Sequence[str], graded: str, noun: str = "") -> str:
    """ "Tottenham Hotspur is older", "X has the most tracks", "X is the most recent", "A and B are
    tied for the most tracks". The values come after it, each in a sentence of its own: an amount
    in brackets here would read as a value of the winner's."""
    top = graded.split(" ")[0] in ("most", "least", "fewest") or graded.endswith("est")
    the = "the " if top else ""
    if len(winners) > 1:
        if top:  # tied at the top of a class, not merely level
            return f"{joined(list(winners))} are tied for the {graded} {noun}".rstrip()
        return f"{joined(list(winners))} are tied"
    if noun and graded in ("more", "less", "fewer", "most", "least", "fewest"):
        return f"{winners[0]} has {the}{graded} {noun}"
    return f"{winners[0]} is {the}{graded}"


def compared(head: str, facts: Sequence[Said], runner_up: str = "", lacking: str = "") -> str:
    """The comparison's result, then the values it was read from: "Tottenham Hotspur is older:
    Tottenham Hotspur's inception is 1882; Arsenal's inception is 1886." A superlative names the
    one that comes next ("; next is Y (10)"); entities without the value are said apart."""
    said = "; ".join(clause(f) for f in facts)
    text = f"{head}: {said}" if said else head
    if runner_up:
        text += f"; next is {runner_up}"
    return text + "." + (f" {lacking}" if lacking else "")


def lacking_value(names: Sequence[str], label: str, more: int = 0) -> str:
    """ "The KG has no cooking time for A and B." / "… for A, B, … H and 40 more."; `more`
    lacking it past the names given are counted in."""
    if not names:
        return ""
    name = name_and_unit(label_words(label), "0")[0]
    # every one lacking it is named or counted in ("… and 40 more"): the class's size adds a
    # claim of its own, which a bracket or a colon would cut off from what it counts
    return f"The KG has no {name} for {joined(list(names), len(names) + more)}."


def counted(total: int, noun: str, listing: Said | None = None) -> str:
    """ "Northwire Records is the record label of 3 albums. It is the record label of A, B and C."
    The whole count said with the relation it counts, in a sentence of its own (the checker counts
    it again), then the listing, shortened past LISTED with how many more; the listing says "it"
    where it would open with the subject again."""
    head = f"{total} {_one_of(noun) if total == 1 else noun}".rstrip() if noun else str(total)
    if not listing or not listing.values:
        return f"{head}{'' if noun else ' in all'}."
    if listing.forward and is_noun(label_words(listing.label)) and _names_the_count(listing.label, noun):
        whole = f"{listing.subject} has {head}"  # "The Glass Harbour has 4 members", not "'s members are 4 members"
    else:
        whole = clause(Said(listing.subject, listing.label, (head,), listing.forward), plural=total != 1)
    again = listing.forward or is_noun(label_words(listing.label))
    said = clause(listing, pronoun="its" if again else "")
    return f"{whole[:1].upper() + whole[1:]}. {said[:1].upper() + said[1:]}."


def _names_the_count(label: str, noun: str) -> bool:
    """Does the counted noun say the label's own head noun ("members" of "members", "band
    members" of "member")?"""
    head, counted = label_words(label).casefold().split()[-1:], noun.casefold().split()[-1:]
    return bool(head and counted) and singular(head[0]) == singular(counted[0])


def _one_of(noun: str) -> str:
    """The singular of the plural noun a question counts by ("1 work", "1 city")."""
    words = noun.split()
    return " ".join(words[:-1] + [singular(words[-1])]) if words else noun


def filtered(kept: Sequence[str], label: str, below: bool, bound: str, facts: Sequence[Said] = (),
             in_time: bool = False, total: int = 0) -> str:
    """ "A, B and C have a playing time under 45 minutes. C's playing time is 40 minutes; …" The
    kept entities alone in the first sentence, then the values they were kept for; `total`: how
    many were kept, when only the first of them are given ("A, B, … H and 285 more")."""
    name = label_words(_valued(label_words(label), tuple(f.values[0] for f in facts[:1] if f.values))[0])
    article = "an" if name[:1].lower() in "aeiou" else "a"
    side = ("before" if below else "after") if in_time else ("under" if below else "over")
    # a participle label ("founded"): "A and B were founded before 1970", not "have a founded"
    participle = not is_noun(name) and name.split()[0].casefold().endswith("ed")
    one, many = ("was", "were") if participle else ("has", "have")
    condition = f"{name} {side} {bound}" if participle else f"{article} {name} {side} {bound}"
    if not kept:
        return f"None {one} {condition}."
    head = f"{joined(list(kept), total)} {one if max(total, len(kept)) == 1 else many} {condition}"
    # the values last kept first: a second sentence opening with the name the first opened with
    # would read as a list, not a reason
    said = "; ".join(clause(f) for f in reversed(facts[:LISTED]))
    return f"{head}. {said[:1].upper() + said[1:]}." if said else f"{head}."


def answered_yes(fact: Said) -> str:
    return f"Yes: {clause(fact)}."


def answered_no(fact: Said) -> str:
    """A single-valued relation with another value: "No. X was born in Leeds." """
    return f"No. {clause(fact)}."


def not_listed(named: str, fact: Said) -> str:
    """Open world: the KG lists the relation's values without the one asked about: "The KG does
    not list X among Y's members. Y's members are A and B." """
    label = label_words(fact.label)
    plural = label if not is_noun(label) or _plural(label) else _plural_noun(label)
    owner = f"{fact.subject}'s {plural}" if fact.forward else f"those {label} {fact.subject}"
    head = f"The KG does not list {named} among {owner}."
    if not fact.values:
        return head
    listed = clause(fact)
    return f"{head} {listed[:1].upper() + listed[1:]}."
