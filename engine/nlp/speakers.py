"""Who is speaking: the name a speaker introduces themselves with ("my name is Mark Morris",
"I'm Professor Allen", "it's not Robert, it's Isabelle Palmer"), and a turn that asks for it."""

from __future__ import annotations

import re

from engine.nlp.mentions import STOPWORDS
from engine.state import Mention

SPEAKER_PATTERNS = re.compile(r"\b(?:my name is|my name's|i am|i'm|im|this is|it's|it is|call me)\s+$", re.I)
# An introduction that names the speaker even when the name is no one in the KG; the name is the
# capitalised words that follow (recognizers and transcribers capitalise names).
INTRODUCTION = re.compile(r"\b(?:my name is|my name's|call me|this is|i am|i'm)\s+", re.I)
_NAME_WORD = re.compile(r"[A-Z][\w'-]*")
# "it's not Robert, it's Isabelle Palmer", "not Robert but Isabelle": the name after the correction
CORRECTION = re.compile(r"\bnot\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?\s*,?\s*(?:it'?s|it is|i'?m|i am|but|my name is)\s+")
TITLE = re.compile(r"(?:professor|prof\.?|doctor|dr\.?|mr\.?|mrs\.?|ms\.?|miss)\s+(?=[A-Z])", re.I)


def speaker_name(text: str, names: list[Mention]) -> Mention | None:
    """The named mention right after "my name is" / "I'm" / "this is", if any."""
    for m in names:
        if m.kind == "name" and SPEAKER_PATTERNS.search(text[:m.start]):
            return m
    return None


def introduced_name(text: str) -> tuple[int, int, str] | None:
    """(start, end, name) of the name the speaker introduces themselves with ("my name is Mark
    Morris and ..."): up to three capitalised words right after the introduction, a title
    before them left out ("I'm Professor Allen"). A correction after it wins ("it's not
    Robert, it's Isabelle Palmer"), and a name said again in full right after replaces its
    first part ("my name is Ryan, Mark Ryan")."""
    found = next(filter(None, (_name_words(text, m.end()) for m in INTRODUCTION.finditer(text))), None)
    for match in CORRECTION.finditer(text):
        named = _name_words(text, match.end())
        if named and (found is None or named[0] > found[0]):
            found = named
    if found is None:
        return None
    again = re.match(r"\s*,\s*", text[found[1]:])
    if again:
        repeated = _name_words(text, found[1] + again.end())
        if repeated and set(found[2].lower().split()) < set(repeated[2].lower().split()):
            return found[0], repeated[1], repeated[2]
    return found


def titled(text: str, start: int) -> bool:
    """A title stands right before the name at `start` ("Professor Allen")."""
    return bool(re.search(r"\b(?:professor|prof|doctor|dr|mr|mrs|ms|miss)\.?\s+$", text[:start], re.I))


ASKS_SPEAKER = re.compile(r"\b(?:your name|who (?:am i|are you) (?:speaking|talking) (?:to|with)|"
                          r"who is (?:this|speaking)|may i ask who)\b", re.I)


def _name_words(text: str, pos: int) -> tuple[int, int, str] | None:
    title = TITLE.match(text, pos)
    if title:
        pos = title.end()
    words: list[str] = []
    start = end = pos
    while len(words) < 3:
        word = _NAME_WORD.match(text, pos)
        if word is None or word.group(0).lower() in STOPWORDS or word.group(0) == "I":
            break
        words.append(word.group(0))
        end = word.end()
        pos = end + (1 if text[end:end + 1] == " " else 0)
    return (start, end, " ".join(words)) if words else None
