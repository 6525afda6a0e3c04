"""Words that point at something spoken of ("those six members", "that one", "there", "it"): where a
determiner's noun starts, and when a demonstrative, "there" or "it" points at nothing."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol

from engine.nlp.heard import STOPWORDS, Token
from engine.state import Mention
from rules.similarity import norm

DETERMINERS = frozenset({"the", "that", "this", "those", "these", "same"})

# Words that may stand between a determiner and its noun: numbers ("those six members") and
# adjectives that point back or describe ("the other two meetings", "that big room"); not those
# of time ("the next meeting" is a new one, not one spoken of).
NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten eleven twelve both several".split())
REFERENCE_ADJECTIVES = frozenset("other same above mentioned remaining whole entire big small large".split())
MODIFIERS_BETWEEN = 2


def determiner_before(lower: list[str], i: int, tokens: list[Token], used: list[bool]) -> int | None:
    """The token position of the determiner of the noun at `i` ("those" in "those six members"),
    past at most two numbers or adjectives of reference; None when there is none."""
    j = i - 1
    while j >= 0 and i - j <= MODIFIERS_BETWEEN and not used[tokens[j].start] and (
            lower[j] in NUMBER_WORDS or lower[j] in REFERENCE_ADJECTIVES or lower[j].isdigit()):
        j -= 1
    return j if j >= 0 and lower[j] in DETERMINERS and not used[tokens[j].start] else None


def named_after(tokens: list[Token], j: int, used: list[bool]) -> bool:
    """"the meeting Weekly Sync": the noun is only the head of a name that follows; "the members of
    The Glass Harbour": it says what is asked of the name that follows, and points at nothing."""
    j += int(j + 1 < len(tokens) and tokens[j].norm == "of")
    return j < len(tokens) and used[tokens[j].start]


DEMONSTRATIVES = frozenset({"that", "this"})
PLURAL_DEMONSTRATIVES = frozenset({"those", "these"})


def stands_for_one(lower: list[str], i: int) -> bool:
    """"that is the one", "that's the one I mean", "this one": the demonstrative stands for a
    thing just named, not for a clause ("that sounds great") or before a noun ("that meeting")."""
    return lower[i + 2:i + 4] == ["the", "one"] and lower[i + 1] in ("is", "s", "was") or lower[i + 1:i + 2] == ["one"]


_EXISTENTIAL = frozenset("is are was were s will would be been any a an some no".split())


def place_there(lower: list[str], i: int) -> bool:
    """"there" that points at a place ("How many people live there?", "Who will be there?"), not
    the one that says something exists ("Is there a room free?", "there are two")."""
    before, after = lower[max(i - 1, 0):i], lower[i + 1:i + 2]  # [] at either end of the turn
    return not _EXISTENTIAL.intersection(after) and not {"is", "are", "was", "were", "s"}.intersection(before)


def dummy_it(lower: list[str], i: int) -> bool:
    """"it" that points at nothing: "is it possible", "make it", "it is 3 pm"."""
    nxt = lower[i + 1:i + 3]
    return bool(nxt) and (nxt[0] in ("possible", "okay", "ok") or nxt[:2] in (["is", "possible"], ["s", "possible"]))


# A determiner that points a KG class's noun back at a thing of that class spoken of: "that
# airline", "this clinic", "the orchestra". After "the" the noun may as well say what a name
# that follows is, start a description of something else, or be the first noun of a compound:
# "the band Kestrel Lane", "the city of Leeds", "the city with the most people", "the station
# manager". So after "the" it points back only where its noun phrase plainly ends: at the end of
# a clause or the turn, before "'s", a form of "be" or "have", a participle ("When was the company
# founded?"), or, in a question asked with "do" or a modal, before its verb ("When did the
# airport open?").
POINTING = frozenset({"that", "this", "these", "those", "the"})
_DESCRIBED_AFTER = frozenset("of with in at on from for that which who whose where named called".split())
_ENDS_NOUN_PHRASE = frozenset("is are was were be been has have had and or but s".split())
_ASKED_WITH = frozenset("do does did will would can could should may might must".split())


def _singulars(words: str) -> tuple[str, ...]:
    """The words with their last one read as a plural ("clubs", "ferries", "boxes"): each singular
    it may be, for a vocabulary to pick from."""
    *head, last = words.split()
    if len(last) < 4 or not last.endswith("s") or last.endswith("ss"):
        return ()
    forms = (last[:-3] + "y" if last.endswith("ies") else "", last[:-2] if last.endswith("es") else "", last[:-1])
    return tuple(" ".join((*head, f)) for f in forms if f)


def class_named(classes: dict[str, str], words: str, plural: bool = True) -> str | None:
    """The KG class (IRI) that `words` (normalized) name: the class of that label, else the first
    whose label ends with them ("clinic": "veterinary clinic", "airline": "regional airline");
    with `plural`, also in the plural ("those clubs": "chess club")."""
    if not words:
        return None
    for said in (words, *(_singulars(words) if plural else ())):
        if said in classes:
            return classes[said]
        tail = " " + said
        label = min((label for label in classes if label.endswith(tail)), default=None)
        if label is not None:
            return classes[label]
    return None


CALENDAR_NOUNS = frozenset("year years month months week weeks day days hour hours minute minutes season seasons "
                           "decade decades century centuries morning evening night weekend".split())


def relation_named(relations: dict[str, str], word: str) -> str | None:
    """The KG relation (IRI) whose label (normalized) ends with the noun `word`, or its singular:
    "that arbiter" after "The chief arbiter was Helga Brandt." calls her by the relation the
    question asked for. A word any clause says ("time", "name"), or one of the calendar ("this
    year" is a time, whatever "founding year" a KG has), calls nothing so."""
    if word in STOPWORDS or word in CALENDAR_NOUNS:
        return None
    for said in (word, *_singulars(word)):
        tail = " " + said
        label = min((label for label in relations if label == said or label.endswith(tail)), default=None)
        if label is not None:
            return relations[label]
    return None


def points_back(text: str, start: int, end: int, named_before: bool = False) -> bool:
    """Whether the determiner at `start` of `text` and the class noun ending at `end` point at a
    thing spoken of. "the" after a name of the same turn ("When did Lumen-1 launch and how long did
    the mission last?") is that name, said again: nothing to take up from earlier turns."""
    determiner = text[start:].split(maxsplit=1)[0].casefold()
    if determiner not in POINTING:
        return False
    if determiner != "the":
        return True
    if named_before:
        return False
    after = re.match(r"\s*'?([A-Za-z]+)", text[end:])
    if after is None or re.match(r"\s*[^\sA-Za-z']", text[end:]):
        return True
    word = after.group(1)
    if word[0].isupper() or word.casefold() in _DESCRIBED_AFTER:
        return False
    asked = {w.casefold() for w in re.findall(r"[A-Za-z]+", text[:start])} & _ASKED_WITH
    return word.casefold() in _ENDS_NOUN_PHRASE or word.endswith("ed") or bool(asked)


def class_mention(text: str, start: int, end: int, cls: str, noun: str) -> Mention:
    """The definite noun phrase `text[start:end]` that points at a thing of class `cls`."""
    from rules.kinds import kind_of_types

    return Mention(text=text[start:end], start=start, end=end, kind="definite",
                   value=(kind_of_types([cls], {cls: noun}),), label=cls)


class ClassIndex(Protocol):
    """The KG's classes by their normalized labels (engine/nlp/mentions.py's LabelIndex)."""

    classes: dict[str, str]
    class_iris: frozenset[str]


_BETWEEN = "|".join(sorted(NUMBER_WORDS | REFERENCE_ADJECTIVES)) + r"|\d+"
_POINTING_BEFORE = re.compile(rf"\b(that|this|these|those|the)\s+(?:(?:{_BETWEEN})\s+){{0,{MODIFIERS_BETWEEN}}}$",
                              re.IGNORECASE)


def demonstrated(m: Mention, text: str, index: ClassIndex, named_before: bool) -> Mention:
    """A KG class named after "that", "this" or "the" ("What's the area of that city?", "those
    two clubs") is no name of the class: it points back at the thing (or things) of that class
    spoken of, as "that meeting" does; `label` keeps the class. So is a class noun said in the
    plural that is also a word of some other name ("those ferries" when the KG has ferries and
    Kirkhaven Ferries): the name would be said whole."""
    before = _POINTING_BEFORE.search(text, 0, m.start)
    words = norm(m.text)
    cls = class_named(index.classes, words)
    if before is None or cls is None or not points_back(text, before.start(), m.end, named_before):
        return m
    if m.candidates and m.candidates[0][0] not in index.class_iris and (
            class_named(index.classes, words, plural=False) or norm(m.label or "") == words):
        return m
    return class_mention(text, before.start(), m.end, cls, m.text)


FREE_WORDS = frozenset({"free", "available", "empty", "vacant"})


def asks_free(lower: list[str], i: int, width: int, noun: str) -> bool:
    """A noun asked for by whether it is free asks for the instances of its type: "an available
    conference room", "a free room", and plural, "the meeting rooms available at that time"; not
    the thing spoken of ("is the room free?", "are those rooms available?")."""
    prev, after = lower[max(0, i - 2):i], lower[i + width:i + width + 1]
    if len(prev) == 2 and prev[0] in ("a", "an", "some") and prev[1] in FREE_WORDS:
        return True
    j = i - 1  # past "two", "small": "those two small rooms" are rooms spoken of
    while j >= 0 and i - j <= MODIFIERS_BETWEEN and lower[j] in NUMBER_WORDS | REFERENCE_ADJECTIVES:
        j -= 1
    return (noun.endswith("s") and bool(after) and after[0] in FREE_WORDS
            and not (j >= 0 and lower[j] in ("these", "those", "that", "this")))


def noun_pointing_back(text: str, tokens: list[Token], lower: list[str], i: int, used: list[bool]) -> Mention | None:
    """"that firm", "this dog": a demonstrative right before a common noun (in lower case, as the
    tagger reads the turn) that names no class of the KG points back all the same, at the thing spoken of that the
    noun fits (`engine.recent.called_so`; `label` keeps the noun). English says what the noun
    may take up: a person where WordNet files it under person, else a thing or a group; a noun
    of neither a thing one can point at nor an organization ("that date", "this way", "that
    option") points at nothing the KG holds."""
    from engine.lexicon import lexicon

    word, lex = lower[i], lexicon()
    if i == 0 or lower[i - 1] not in DEMONSTRATIVES or used[tokens[i - 1].start] or used[tokens[i].start] \
            or lex is None or not tokens[i].text.islower() or not word.isalpha() or word in STOPWORDS or word in CALENDAR_NOUNS \
            or (word, "n") not in lex.lemmas(word) or named_after(tokens, i + 1, used):
        return None
    kinds = lex.kinds(word)
    if "person" not in kinds and not {"physical_entity", "social_group"} & kinds:
        return None
    if i not in _determined_nouns(tuple(lower)):
        return None
    s, e = tokens[i - 1].start, tokens[i].end
    return Mention(text=text[s:e], start=s, end=e, kind="definite", label=word,
                   value=("person",) if "person" in kinds else ("thing", "group", "room"))


@lru_cache(maxsize=256)
def _determined_nouns(words: tuple[str, ...]) -> frozenset[int]:
    """The positions of the nouns the tagger reads after a word that is no pronoun ("who founded
    that firm": "firm"; not "runs" of "the company that runs it", nor "works" of "that works")."""
    from engine.nlp.dependency import parsed_words

    doc = parsed_words(words)
    if doc is None:
        return frozenset()
    return frozenset(t.i for t in doc if t.pos_ == "NOUN" and t.i > 0 and doc[t.i - 1].pos_ != "PRON")
