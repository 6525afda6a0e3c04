"""Words that point at something spoken of ("those six members", "that one", "there", "it"): where a
determiner's noun starts, and when a demonstrative, "there" or "it" points at nothing."""

from __future__ import annotations

import re

from engine.nlp.heard import Token
from engine.state import Mention

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


def class_named(classes: dict[str, str], words: str) -> str | None:
    """The KG class (IRI) that `words` (normalized) name: the class of that label, else the first
    whose label ends with them ("clinic": "veterinary clinic", "airline": "regional airline")."""
    if not words:
        return None
    if words in classes:
        return classes[words]
    tail = " " + words
    return next((classes[label] for label in sorted(classes) if label.endswith(tail)), None)


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


def pointing_determiner(text: str, start: int) -> re.Match | None:
    """The pointing determiner right before offset `start` of `text`, if any."""
    return _POINTING_BEFORE.search(text, 0, start)


_POINTING_BEFORE = re.compile(r"\b(that|this|these|those|the)\s+$", re.IGNORECASE)
