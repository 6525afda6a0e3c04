"""The operator a question asks for, read from its structure, not from the words of a domain:
"how many" counts; a question opening with an auxiliary verb and naming no alternatives asks yes
or no; a comparative (-er, more, fewer, less) between named alternatives ("A or B") compares; a
comparative beside a number or a date filters ("under 30 minutes", "before 1900"); a superlative
(-est, most, least, fewest) picks the most or least of a class; anything else reads a value."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.nlp.units import UNITS
from engine.state import Mention

AUXILIARIES = frozenset("is are was were am do does did has have had can could will would shall should may might must".split())
# The English comparatives and superlatives that point down a scale (and, for dates, back in
# time): the grammar of the scale's direction, the same in every domain.
_DOWN = frozenset("less least fewer fewest lower lowest smaller smallest shorter shortest lighter lightest cheaper "
                  "cheapest younger youngest newer newest later latest".split())
_BACK_IN_TIME = frozenset("older oldest earlier earliest first".split())
_FORWARD_IN_TIME = frozenset("younger youngest newer newest later latest last".split())
_COMPARATIVE = re.compile(r"\b(?:more|less|fewer|\w{2,}er)\b(?=\s+(?:than|\w+\s+than))|\b(?:more|less|fewer)\b"
                          r"|\b(?:older|younger|earlier|later|bigger|smaller|longer|shorter|larger|higher|lower|"
                          r"heavier|lighter|newer|cheaper)\b", re.I)
# The measures an adjective of size grades ("longer": a length or a duration): the grammar of
# English scales, the same in every domain.
_SCALES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("long", "short"), ("length", "duration")),
    **dict.fromkeys(("tall", "high", "low", "wide", "narrow", "deep", "shallow"), ("length",)),
    **dict.fromkeys(("heavy", "light"), ("mass",)),
    **dict.fromkeys(("cheap", "expensive", "dear"), ("money",)),
    **dict.fromkeys(("big", "large", "small"), ("area", "length", "mass")),
    **dict.fromkeys(("fast", "slow", "quick"), ("speed",)),
}
_SUPERLATIVE = re.compile(r"\b(?:most|least|fewest|\w{2,}est)\b", re.I)
# A bound a filter compares with: a number (with a unit or not) or a year, after a comparison word.
_BOUND = re.compile(r"\b(?:than|over|under|above|below|before|after|since|at least|at most|more than|less than|"
                    r"fewer than)\s+(?:a\s+|an\s+)?(\d[\d,.]*|an?\b|one|two|three|four|five|six|seven|eight|nine|ten)",
                    re.I)
# Words ending in -er/-est that are no comparison: a list would be a wording; these are the common
# nouns and verbs of questions whose ending only looks like one.
_NOT_GRADED = frozenset("after under over other whether either neither never number member members ever however "
                        "where whatever together rest best interest latest west test contest forest guest request "
                        "honest modest harvest".split())


@dataclass(frozen=True)
class Operator:
    name: str  # value, count, compare, argmax, argmin, filter, yesno
    alternatives: tuple[str, ...] = ()  # compare: the named alternatives, as said (of "Is A born earlier than
    # B?", the words between the auxiliary and the graded word: "A born")
    bound: str = ""  # filter: the bound as said ("30 minutes", "1900")
    below: bool = False  # filter: the values under the bound are wanted
    least: bool = False  # compare/argmax/argmin: the graded word points down its scale (fewer, shortest)
    time_back: bool | None = None  # the graded word points back in time (older), forward (newer), or neither
    graded: str = ""  # compare/argmax/argmin: the graded word as said ("older", "most")
    noun: str = ""  # the noun after "more"/"most" or after "how many" ("tracks"), "" when none
    yes_no: bool = False  # compare asked as "Is A older than B?": answered yes or no by whether A wins


def _graded(words: list[str], pattern: re.Pattern[str], text: str, named: frozenset[str] = frozenset()) -> str:
    """The first graded word of `text` that is no word of a name: of one `named`, or capitalised
    past the first word ("Who headlined Gullfest 2020?", a name the KG may lack)."""
    for m in pattern.finditer(text):
        w = m.group(0).lower()
        if w not in _NOT_GRADED and w in words and w not in named and not (m.start() and m.group(0)[0].isupper()):
            return w
    return ""


def measures(graded: str) -> tuple[str, ...]:
    """The measures a graded adjective weighs ("longer", "biggest", "heavier": its base word's
    `_SCALES`), () for one of no size ("older", "more")."""
    w = graded.lower()
    for end in ("est", "er"):
        if w.endswith(end):
            stem = w[:-len(end)]
            for base in (stem, stem[:-1], stem[:-1] + "y", stem + "e"):
                if base in _SCALES:
                    return _SCALES[base]
    return ()


def asked_scale(question: str) -> tuple[str, ...]:
    """The measures "how <adjective>" asks for ("How long is X?": a length or a duration, "How
    heavy": a mass), () when the question asks none so."""
    m = re.search(r"\bhow\s+(\w+)", question, re.I)
    return _SCALES.get(m.group(1).lower(), ()) if m else ()


def names_said(mentions: Iterable[Mention]) -> list[str]:
    """The names a turn says, as said and as the KG writes them: a word of a name ("Harbourfest",
    "Greatest Hits") grades nothing."""
    return [n for m in mentions if m.kind == "name" for n in (m.text, m.label or "") if n]


def _time(word: str) -> bool | None:
    return True if word in _BACK_IN_TIME else False if word in _FORWARD_IN_TIME else None


def _after(words: list[str], marks: tuple[str, ...]) -> str:
    """The word after the first of `marks` when it is no function word ("the most tracks" ->
    "tracks", "how many games" -> "games")."""
    for i, w in enumerate(words[:-1]):
        if w in marks and words[i + 1] not in AUXILIARIES and words[i + 1] not in ("than", "the", "a", "of", "to"):
            return words[i + 1]
    return ""


def detect(question: str, names: Iterable[str] = ()) -> Operator:
    """The operator the question asks for (see the module's docstring); a word of one of `names`
    (names_said) is no graded word."""
    text = question.strip()
    words = re.findall(r"[\w'-]+", text.lower())
    named = frozenset(w for n in names for w in re.findall(r"[\w'-]+", n.lower()))
    if not words:
        return Operator("value")
    if re.search(r"\bhow many\b|\bnumber of\b", text, re.I) and not _BOUND.search(text):
        return Operator("count", noun=_after(words, ("many", "of")))
    superlative = _graded(words, _SUPERLATIVE, text, named)
    comparative = _graded(words, _COMPARATIVE, text, named)
    if not comparative and re.search(r"\bor\b", text, re.I):
        # "Which opened first, A or B?": an order in time between named alternatives
        comparative = next((w for w in ("first", "last") if w in words), "")
    # "Which is older, A or B?" / "Does A or B have more tracks?"
    alternatives = (re.search(r"(?:,|:|\bbetween)\s*(.+?)\s*,?\s+(?:or|and)\s+(.+?)\s*\??$", text)
                    or re.match(r"^\w+\s+(.+?)\s+or\s+(.+?)\s+\w+\s+(?:the\s+)?" + re.escape(comparative) + r"\b",
                                text, re.I) if comparative else None)
    if comparative and alternatives:
        return Operator("compare", tuple(a.strip() for a in alternatives.groups()[:2]), least=comparative in _DOWN,
                        time_back=_time(comparative), graded=comparative, noun=_after(words, (comparative,)))
    if comparative and not alternatives and words[0] in AUXILIARIES:
        # "Is A older than B?" / "Does A have more tracks than B?": the comparison of the two named
        # ones, asked as yes or no (a number after "than" is a bound, below)
        asked = re.match(r"^\w+\s+(.+?)\s+" + re.escape(comparative)
                         + r"(?:\s+[\w'-]+)?\s+than\s+(?!\d)(.+?)\s*[?.!]*$", text, re.I)
        if asked:
            return Operator("compare", (asked.group(1), asked.group(2)), least=comparative in _DOWN,
                            time_back=_time(comparative), graded=comparative, noun=_after(words, (comparative,)),
                            yes_no=True)
    if superlative and not (comparative in ("first", "last") and alternatives):
        down = superlative in _DOWN
        return Operator("argmin" if down else "argmax", least=down, time_back=_time(superlative), graded=superlative,
                        noun=_after(words, (superlative,)))
    bound = _BOUND.search(text)
    if bound:
        said = bound.group(0).lower()
        word = said.split()[0]
        below = word in ("under", "below", "before", "less", "fewer") or said.startswith("at most")
        if word == "than":  # "longer than", "older than"
            below = comparative in _DOWN or comparative in _BACK_IN_TIME
        after = text[bound.end(1):].split()
        unit = after[0].strip("?.,!") if after and after[0].strip("?.,!").lower() in UNITS else ""
        return Operator("filter", bound=f"{bound.group(1)} {unit}".strip(), below=below)
    if words[0] in AUXILIARIES and not re.search(r"\bor\b", text, re.I):
        return Operator("yesno")
    return Operator("value")


def graded(statement: str) -> Operator | None:
    """The graded word of a statement ("X is older", "X has the most tracks", "A and B are tied
    for the longest") as the operator it says: a superlative ranks a class, a comparative the
    things it names; None without one. The checker reads computed claims with it."""
    words = re.findall(r"[\w'-]+", statement.lower())
    word = _graded(words, _SUPERLATIVE, statement) or _graded(words, _COMPARATIVE, statement)
    # "X is first": an order in time said as the whole predicate (not "the first woman to ...")
    ordinal = re.search(r"\b(?:is|are|was|were|came|comes)\s+(first|last)\s*(?:[.!:;]|$)", statement, re.I)
    word = word or (ordinal.group(1).lower() if ordinal else "")
    if not word:
        return None
    down = word in _DOWN
    ranked = _SUPERLATIVE.fullmatch(word) or not (_COMPARATIVE.fullmatch(word) or ordinal)
    name = "argmin" if ranked and down else "argmax" if ranked else "compare"
    return Operator(name, least=down, time_back=_time(word), graded=word, noun=_after(words, (word,)))
