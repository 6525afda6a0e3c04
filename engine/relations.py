"""The relation matcher: how well a phrase says a KG relation, on any KG.

A *phrase* is the predicate words of a question or a claim with its entity names masked ("when
did it come out", "holds 60,000 people", "was created by"); a *relation* is a KG predicate seen
through its label (an rdfs:label, a Wikidata property label, or a bare local name in any style:
"recordLabel", "date_published", "head of department") and, when known, the kind of values it
holds. Retrieval (which facts a question asks for), answering (which relation path a question
follows) and checking (which relation a claim states) all ask this one module.

Three cues make the score, each domain-free:

- **words**: the share of the label's content words that the phrase says, both stemmed
  ("directed" ~ "director", "born" ~ "birth", "founded" ~ "founder"), the phrase widened by a
  small table of everyday paraphrases no stemmer joins ("came out" ~ "date published",
  "holds ... people" ~ "capacity");
- **meaning**: the cosine of phrase and label under the sentence encoder (the engine's MiniLM
  `Encoder`, or any object with `encode(list[str]) -> unit-norm rows`), mapped to [0, 1]
  between COS_FLOOR and COS_SURE;
- **answer type**: the kind of value the phrase carries or asks for must fit the relation's
  values. A year ("in 1998", "when") only fits a date relation, "60,000 people" a count,
  "about an hour" a duration, "415 km²" an area; a misfit scores 0 whatever the words, a fit of
  a specific kind (anything but an entity or text) adds TYPE_BONUS.

API::

    m = RelationMatcher(encoder=None)        # an encoder, or a zero-argument function building
                                             # one on first need; None: words and type only
    m.score(phrase, relation, value=None, kind=None) -> float          # 0..1
    m.rank(phrase, relations, value=None, kind=None) -> list[Match]    # best first
    m.best(phrase, relations, value=None, kind=None) -> Match | None   # the relation it states:
                                             # score >= MATCH_MIN and MARGIN ahead of the next
    m.grid(labels, phrases) -> array         # rank's kind-free score of every label for every
                                             # phrase, one encoder batch (a route's spans)
    Relation(label, key="", kind="")         # kind: a value kind below, "" when unknown
    relation_kind(label, value=None, datatype=None) -> str  # a relation's kind from its label and
                                             # one of its values (None: the value is an entity)
    value_kind(text) -> str                  # the kind of value a phrase carries or asks for
    fits(value_kind, relation_kind) -> bool | None         # None: nothing to tell
    quantity(text) -> Quantity | None        # "about an hour" -> 60 minutes, "415 km²", "3 t"
    stem(word), content_stems(text), glosses(text)

`value` is the value words of a claim when the caller has them apart from the phrase, `kind` the
value's kind when the caller knows it (an entity it linked: "entity"); without either the kind
is read from the phrase itself.

Value kinds: "date" (a date or a year), "time" (a clock time), "duration", "count" (people,
members, students, tracks ...), "length", "area", "mass", "money", "speed", "number" (no unit said),
"entity" (a named thing), "text" (a literal that is not a number or a date), "" (unknown).

The encoder's thresholds were chosen on the project's generated out-of-domain worlds (films,
football, books, geography, companies; 371 questions, each asked of every relation label of its
domain, with no value kinds to help): with them `best` picks a relation for 39% of the
paraphrased questions (no word of the label said) at 69% precision, against 15% at 57% on label
words alone, and for 70% of the plain ones at 95%. Stricter settings bought no precision there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from engine.lexicon import lexicon
from engine.nlp.units import ROUGH, SCALE, UNITS, YEAR, unit_of
from engine.words import (
    COUNT_NOUNS,
    QUANTIFIERS,
    STOP,
    content_stems,
    letters,
    said_share,
    stem,
    words_of,
)
from kgstore.vocab import split_words

# The encoder's cosine between a phrase and a label that says nothing of it (~COS_FLOOR) and one
# that says it in other words (~COS_SURE); see the module docstring for where they come from.
COS_FLOOR = 0.25
COS_SURE = 0.60
MATCH_MIN = 0.5  # a relation is stated from this score up
MARGIN = 0.08  # how far ahead of the next relation the stated one must be
TYPE_BONUS = 0.15  # a value of the relation's own specific kind (a year for a date relation)

KINDS = ("date", "time", "duration", "count", "length", "area", "mass", "money", "speed", "number", "entity", "text")
NUMERIC = frozenset({"duration", "count", "length", "area", "mass", "money", "speed", "number"})

# Everyday paraphrases of relations that share no stem with a KG's label words, nor does WordNet
# tie them (`said_share` reads single words in other words through it): mostly phrases whose
# words mean something else alone ("came out", "lift off", "hangs in", "based in"), and words
# that call up several labels at once ("born": a birth place and a birth date). Each gloss is
# added to a phrase's words before they meet a label; domain-free notions only. No entry is to
# be added (tests/unit/test_lexicon.py pins the size): a relation said in words none reaches is
# the encoder's, or WordNet's, to read.
_GLOSSES: tuple[tuple[str, str], ...] = (
    (r"\bfront(?:s|ed|ing)?\b|\bfront(?:man|woman|person)\b|\bsings?\b|\bsang\b|\bsinger\b|\bvocal", "lead vocalist singer"),
    (r"\bcame out\b|\bcomes? out\b|\bdropped\b|\breleas|\bissued\b|\bpublish|\bhit (?:the )?shelves\b|\bput out\b",
     "date published release date publication"),
    (r"\b(?:released|issued|published|put out) by\b|\b(?:came|comes|is|was) out on\b", "record label publisher"),
    (r"\bborn\b|\bbirth", "birth place birth date"),
    (r"\bdied\b|\bdeath\b|\bpassed away\b", "death place death date"),
    (r"\bformed\b|\bfound(?:ed|ing)\b|\bgot together\b|\bestablish|\bset up\b|\bstarted out\b|\bopened\b|\bbuilt\b"
     r"|\bbeen around\b|\bexist(?:ed|s)?\b|\bin existence\b|\bin business\b",
     "formed founding date founded inception established opening"),
    (r"\b(?:get|got|gets|getting) started\b|\bbegan\b", "formed founded inception"),
    (r"\bhow old\b|\bsince when\b", "birth date founding date inception established"),
    (r"\blisteners\b|\bstreams\b|\bmonthly\b", "monthly listeners"),
    (r"\bsigned (?:to|with)\b|\blabel\b", "record label"),
    (r"\bopened for\b|\bopening for\b|\bsupport(?:ed|ing|s)?\b|\bwarm(?:ed|s|ing)? up\b", "opened for support act"),
    (r"\bplayed (?:at|the)\b|\bheadlin\w*|\bperform(?:s|ed)? at\b|\bfestival", "performed at festival"),
    (r"\bplays?\b|\bplayed\b|\bon (?:guitar|bass|drums|keys|keyboards|violin|piano)\b", "plays instrument"),
    (r"\bplay(?:s|ed|ing)? for\b|\bplayers?\b|\broster\b|\bsquad\b|\blineup\b", "athlete player sports team"),
    (r"\bmembers?\b|\bin the band\b|\bjoined\b|\bused to be in\b", "member of"),
    (r"\bpart of\b|\bbelongs?\b|\bbelonged\b|\bbelonging\b", "member of part of"),
    (r"\bleft\b|\bformer(?:ly)?\b|\bquit\b|\bex-|\bused to\b", "former member"),
    (r"\bgenre\b|\bstyle\b|\bkind of music\b|\b(?:makes?|made|making|plays?|played)\s+(?:\w+\s+)?music\b", "genre"),
    (r"\btracks?\b|\bsongs\b", "number of tracks track count"),
    (r"\bbased in\b|\bheadquarter", "headquarters location"),
    (r"\bcomes? from\b|\bhails? from\b|\b(?:is|are) from\b|\bhometown\b|\bhome town\b|\boriginally from\b|\boriginat"
     r"|\bwhere (?:is|are|was|were|does|do|did) [^?.!]{1,60}? (?:from|come from)\b",
     "hometown origin country of origin place of origin birthplace"),
    (r"\blives?\b|\bresides?\b|\bliving in\b", "residence lives in"),
    (r"\bwork(?:s|ed|ing)? (?:at|for)\b|\bemploy", "works for employer"),
    (r"\bwork(?:s|ed|ing)? as\b|\bjob\b|\bprofession|\bfor a living\b", "occupation"),
    (r"\bteach(?:es)?\b|\btaught\b|\blectur|\binstruct", "teaches instructor taught by"),
    (r"\bwr(?:ote|itten|iter)\b|\bauthor", "author written by"),
    (r"\bcapacity\b|\bseats?\b|\bholds?\b|\bfits?\b|\baccommodat", "capacity seats"),
    (r"\bpopulation\b|\binhabitants\b|\bresidents\b|\bhome to\b|\bpeople live\b", "population"),
    (r"\bstud(?:y|ies|ying|ied)\b|\benrol|\bstudents\b", "enrolment enrolled students"),
    (r"\bstud(?:y|ied|ying)\b|\bgraduat\w*|\bwent to (?:school|university|college)\b|\balma mater\b", "educated at"),
    (r"\bcosts?\b|\bprice[ds]?\b", "price cost"),
    (r"\bcook(?:s|ed|ing)?\b|\bbakes?\b|\bbaked\b|\bbaking\b|\bready in\b|\bto prepare\b|\bprep(?:aration)?\b|\bput together\b",
     "cooking time preparation time duration"),
    (r"\bserves\b|\bportions?\b|\bservings?\b|\bfeeds\b", "servings"),
    (r"\bserved (?:with|alongside)\b|\bgoes with\b|\bpaired with\b|\baccompan|\b(?:eat|eaten|drink|drunk)\b[\w\s]*\bwith\b",
     "served with accompaniment"),
    (r"\bserved as\b|\bcourse\b|\bstarter\b|\bdessert\b", "course"),
    (r"\b(?:drop|stop|come|pop|swing) (?:by|in|round)\b|\bvisit(?:ing)?\b|\bopen(?:s)? (?:on|at|until)\b",
     "office hours opening hours visiting hours"),
    (r"\bterm\b|\bsemester\b|\btrimester\b", "semester term"),
    (r"\bmayor\b|\bgoverned by\b|\bled by\b|\bleads?\b|\bleader\b|\bin charge\b", "mayor head of government leader head"),
    (r"\bruns\b|\bheads\b|\bboss\b|\bmanages\b|\bin charge\b", "head chief executive director manager"),
    (r"\bruns?\b|\boperat\w*", "operator operated by"),
    (r"\blift(?:s|ed)? off\b|\btakes? off\b|\btook off\b|\bblast(?:s|ed)? off\b|\blaunch\w*", "launched launch"),
    (r"\baim(?:s|ed|ing)? (?:for|at)\b|\bhead(?:s|ed|ing)? (?:for|to)\b|\bbound for\b|\b(?:go|goes|went|gone|going) to\b"
     r"|\btravel\w* to\b", "destination target"),
    (r"\bbuil[dt]\w*|\bmade by\b|\bmanufactur\w*|\bmakers?\b", "manufacturer builder maker"),
    (r"\bborders?\b|\bneighbou?r", "shares border with"),
    (r"\bcreat|\binvent|\bcame up with\b|\bdevis|\bdevelop|\bdesign", "creator inventor created by invented by"),
    (r"\bused\b|\buses\b|\bmade (?:with|from|of)\b|\bcontains?\b|\bingredients?\b|\b(?:go|goes|went|gone) into\b"
     r"|\bconsists? of\b", "ingredient uses contains"),
    (r"\bhangs? in\b|\bhung in\b|\bdisplayed\b|\bhoused\b|\bkept (?:at|in)\b|\bon (?:display|show)\b", "location collection"),
    (r"\bmeets?\b|\bheld\b|\btakes? place\b|\btaught in\b", "room venue"),
    (r"\bcovers?\b|\bspans?\b|\bkm²|\bsquare\b", "area"),
    (r"\b(?:region|province|county|district|municipality|state)\b", "located in contained in part of"),
    (r"\barea code\b|\bdialling code\b|\bdialing code\b|\bphone code\b|\blandline\b|\bdial(?:l?ing|l?ed|s)?\b",
     "local dialing code telephone code"),
    (r"\bspeaks?\b|\bspoke\b|\blanguages?\b|\btongue\b", "languages spoken language"),
    (r"\bsibling\b|\bsister\b|\bbrother\b", "sibling"),
    (r"\bmarried\b|\bwife\b|\bhusband\b|\bspouse\b", "spouse"),
    (r"\bwon\b|\bwins?\b|\bawarded\b|\bprize\b", "award received"),
    (r"\bcalories\b|\bkcal\b", "calories energy"),
    (r"\bspic(?:y|e)\b|\bheat\b|\bhot\b", "spice level"),
    (r"\btechnique\b|\bmethod\b|\bfried\b|\bfrying\b|\bgrilled\b|\broasted\b|\bsteamed\b", "technique cooking method"),
)
_GLOSS_RX = tuple((re.compile(rx, re.IGNORECASE), gloss) for rx, gloss in _GLOSSES)


@lru_cache(maxsize=4096)
def glosses(text: str) -> str:
    """The paraphrase glosses a phrase calls up ("came out in" -> "date published ...")."""
    return " ".join(gloss for rx, gloss in _GLOSS_RX if rx.search(text))


# -- units and answer types -------------------------------------------------------------------

# Words of a relation's label that say what kind of value it holds.
_LABEL_KINDS: tuple[tuple[str, str], ...] = (
    ("duration", r"\b(?:duration|runtime|running time|length of time|time in minutes|minutes|seconds|hours|days|"
                 r"cooking time|preparation time|prep time|baking time|cook time|total time|period)\b"),
    ("area", r"\b(?:area|surface|km2|km²|square|hectares?)\b"),
    ("length", r"\b(?:length|height|elevation|altitude|distance|depth|width|metres?|meters?|km|kilometres?)\b"),
    ("mass", r"\b(?:weight|mass|kg|kilograms?|tonnes?|grams?)\b"),
    ("speed", r"\b(?:speed|velocity|kmh|km/h|mph|knots)\b"),
    ("money", r"\b(?:price|cost|revenue|budget|salary|fee|income|gross)\b"),
    ("count", r"\b(?:capacity|population|number|count|students|members|listeners|employees|inhabitants|seats|"
              r"tracks|credits|servings|calories|attendance|enrolment|enrollment|size)\b"),
    ("date", r"\b(?:date|year|born|birth|death|died|founded|founding|inception|established|opened|published|"
             r"released|release|since|start|end|dissolved|built|created)\b"),
)
_LABEL_KIND_RX = tuple((k, re.compile(rx, re.IGNORECASE)) for k, rx in _LABEL_KINDS)

_NUM = r"(?:\d[\d,]*(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|forty|fifty|half an?|a couple of|a few)"
_WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "twelve": 12, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
                 "half a": 0.5, "half an": 0.5, "a couple of": 2, "a few": 3}
_UNIT_NAMES = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
_QUANTITY = re.compile(rf"(?<![\w.])({_NUM}(?:\s+and\s+a\s+half)?)(?:\s*(thousand|million|billion|bn)\b)?\s*({_UNIT_NAMES})(?![\w²])",
                       re.IGNORECASE)
_DATE = re.compile(r"\b\d{4}-\d{2}(?:-\d{2})?\b|\b\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|"
                   r"oct|nov|dec)[a-z]*\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,4}\b", re.I)
_CLOCK = re.compile(r"\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)(?![a-z])|\bo'clock\b", re.I)
_COUNTED = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?|a dozen|a hundred|one|two|three|four|five|six|seven|eight|nine|ten|"
                      r"eleven|twelve|twenty)(?:\s*(?:thousand|million|billion|k|m|bn)\b)?\s+(?:(?:\w+)\s+)?(\w+)", re.I)
_ASKED = (
    ("duration", re.compile(r"\bhow long\b|\bhow many (?:minutes|hours|seconds|days)\b|\bhow much time\b", re.I)),
    ("date", re.compile(r"\bwhen\b|\b(?:what|which) (?:year|date|day)\b|\bin (?:what|which) year\b|\bhow old\b", re.I)),
    ("time", re.compile(r"\bwhat time\b|\bat what hour\b", re.I)),
    ("speed", re.compile(r"\bhow (?:fast|quick(?:ly)?)\b|\bwhat speed\b|\btop speed\b", re.I)),
    ("length", re.compile(r"\bhow (?:tall|high|far|deep|wide)\b", re.I)),
    ("area", re.compile(r"\bhow (?:big|large)\b.*\barea\b|\bwhat area\b", re.I)),
    ("mass", re.compile(r"\bhow heavy\b|\bhow much\b[^?.!]{0,60}?\bweighs?\b", re.I)),
    ("money", re.compile(r"\bhow much\b[^?.!]{0,60}?\bcosts?\b|\bhow expensive\b|\bwhat price\b|"
                         r"\bwhat (?:does|do|did|will|would)\b[^?.!]{0,60}?\bcost\b", re.I)),
    ("count", re.compile(r"\bhow many\b|\bpopulation\b|\bcapacity\b", re.I)),
)


@dataclass(frozen=True)
class Quantity:
    value: float  # in the kind's base unit (minutes, metres, m², kg, money units)
    kind: str
    rough: bool  # said with "about", "roughly", or in words ("an hour")
    text: str
    unit: str  # the unit as said, a key of UNITS
    start: int
    end: int


def _number(said: str) -> float | None:
    said = said.lower().strip()
    if said.endswith(" half") and (whole := _number(re.sub(r"\s+and\s+a\s+half$", "", said))) is not None:
        return whole + 0.5  # "two and a half hours"
    if said in _WORD_NUMBERS:
        return float(_WORD_NUMBERS[said])
    try:
        return float(said.replace(",", ""))
    except ValueError:
        return None


def quantities(text: str) -> list[Quantity]:
    """Every number said with a unit ("about an hour", "415 km²", "3.5 t", "two days")."""
    out = []
    for m in _QUANTITY.finditer(text):
        n = _number(m.group(1))
        name = m.group(3) if m.group(3) in UNITS else m.group(3).lower()
        unit = UNITS.get(name)
        if n is None or unit is None:
            continue
        gap = text[m.end(2) if m.group(2) else m.end(1):m.start(3)]
        if len(name) == 1 and (not gap or not re.match(r"\d", m.group(1))):
            continue  # "1990s", "a m": a letter right after a number is no unit
        n *= SCALE.get((m.group(2) or "").lower(), 1.0)
        rough = bool(ROUGH.search(text[:m.start()])) or not re.match(r"\d", m.group(1))
        out.append(Quantity(n * unit.factor, unit.kind, rough, m.group(0), name, m.start(), m.end()))
    return out


def quantity(text: str) -> Quantity | None:
    """The first number said with a unit, in its kind's base unit."""
    found = quantities(text)
    return found[0] if found else None


# Measures a question asks for that no other measure answers: "how long" may ask for a time or a
# length, and "how many" for a count or a list, so neither rules a relation out.
TELLING_MEASURES = frozenset(("money", "mass", "area", "length", "speed"))


def asked_measure(text: str) -> str:
    """The measure the question asks for, when only a value of that measure answers it
    ("How tall is X?": length; "How much does X cost?": money), else ""."""
    kind = value_kind(text)
    return kind if kind in TELLING_MEASURES else ""


def other_measure(asked: str, holds: str) -> bool:
    """Does a relation holding values of kind `holds` (`measure_kind`) answer no question asking
    for the measure `asked` (`asked_measure`)? Servings are no price, a length no weight, "oil on
    board" no width; an entity, a text with a number in it or a bare number may still be one."""
    return bool(asked) and holds != asked and holds in _MEASURED


WORDS = "words"  # a text value with no digit in it: no measure
_MEASURED = (NUMERIC - {"number"}) | {"date", "time", WORDS}  # kinds a relation's values are known to measure


def measure_kind(label: str, value: str | None) -> str:
    """`relation_kind`, a text without a digit told apart (WORDS)."""
    kind = relation_kind(label, value)
    return WORDS if kind == "text" and value is not None and not re.search(r"\d", value) else kind


# The dimension a length question asks for, and the words of a label that name each one.
_DIMENSIONS = (("height", r"\bhow (?:tall|high)\b", r"\b(?:height|tall|high|elevation|altitude)\b"),
               ("width", r"\bhow wide\b", r"\b(?:width|wide|breadth)\b"),
               ("depth", r"\bhow deep\b", r"\b(?:depth|deep)\b"),
               ("distance", r"\bhow far\b", r"\b(?:distance|far)\b"))


def other_dimension(question: str, label: str) -> bool:
    """Does the label name another dimension than the one the question asks for ("height cm" for
    "How wide is it?")?"""
    words = split_words(label)
    asked = [name for name, q, _ in _DIMENSIONS if re.search(q, question, re.I)]
    named = [name for name, _, w in _DIMENSIONS if re.search(w, words, re.I)]
    return bool(asked and named and not set(asked) & set(named))


def value_kind(text: str) -> str:
    """The kind of value a phrase carries ("in 1998": date, "60,000 people": count, "about an
    hour": duration) or asks for ("how long": duration, "when": date); "" when it shows none."""
    for kind, rx in _ASKED:
        if rx.search(text):
            return kind
    q = quantity(text)
    if q is not None:
        return q.kind
    if _DATE.search(text) or YEAR.search(text):
        return "date"
    if _CLOCK.search(text):
        return "time"
    for m in _COUNTED.finditer(text):
        if m.group(2).lower() in COUNT_NOUNS:
            return "count"
    if re.search(r"(?<![\w.])\d", text):
        return "number"
    return ""


_ISO_DATE = re.compile(r"^[+-]?\d{4}-\d{2}(?:-\d{2})?(?:T[\d:.]+Z?)?$")
_NUMERIC = re.compile(r"^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$")


def relation_kind(label: str, value: str | None = None, datatype: str | None = None) -> str:
    """The kind of values a relation holds, from its label and one of its values (None: an
    entity). A number under a label that names a unit or a measure takes that kind; integers
    that read as years under a date-like label are dates."""
    if value is None:
        return "entity"
    dt = (datatype or "").rsplit("#", 1)[-1]
    if dt in ("date", "dateTime", "gYear", "gYearMonth") or _ISO_DATE.match(value.strip()):
        return "date"
    if dt == "time" or re.match(r"^\d{1,2}:\d{2}(?::\d{2})?$", value.strip()):
        return "time"
    if dt == "duration":
        return "duration"
    if not (_NUMERIC.match(value.strip()) or dt in ("integer", "decimal", "double", "float", "int", "long")):
        said, rest = quantities(value), value  # "210 km/h", "6 h 40 min": numbers with units, no other words
        for q in reversed(said):
            rest = rest[:q.start] + rest[q.end:]
        kinds = {q.kind for q in said}
        return kinds.pop() if len(kinds) == 1 and not re.search(r"[^\W\d_]", rest) else "text"
    unit = unit_of(label)
    if unit is not None:
        return unit.kind
    words = split_words(label)
    for kind, rx in _LABEL_KIND_RX:
        if rx.search(words):
            if kind == "date":
                try:
                    year = float(value)
                except ValueError:
                    return "number"
                return "date" if year.is_integer() and 1000 <= year <= 2100 else "number"
            return kind
    return "number"


def fits(said: str, holds: str) -> bool | None:
    """Can a value of kind `said` be a value of a relation of kind `holds`? None: one of them
    is unknown, nothing to tell."""
    if not said or not holds:
        return None
    if said == holds:
        return True
    if said == "date":
        return False  # a year or a date is only ever a date relation's value
    if said in NUMERIC:
        if holds == "number":
            return said in ("count", "number")  # a bare number may be any count; a unit must be named
        return said == "number" and holds in NUMERIC
    if said == "entity":
        return holds in ("entity", "text")
    if said == "text":
        return holds in ("text", "entity")
    return False


# -- matching ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Relation:
    label: str
    key: str = ""  # the caller's handle on it (a predicate IRI or key), returned as is
    kind: str = ""  # a value kind, "" when unknown


@dataclass(frozen=True)
class Match:
    relation: Relation
    score: float  # 0..1
    words: float  # the share of the label's words the phrase says
    meaning: float  # the encoder's similarity mapped to 0..1 (0 without an encoder)
    fits: bool | None  # does the phrase's value kind fit the relation's (None: nothing to tell)


def phrase_words(text: str) -> str:
    """A phrase's content words as the encoder should read them: digits, units and function
    words out ("holds 60,000 people" -> "holds people")."""
    words = [w for w in letters(re.sub(r"\d[\d,.]*", " ", text)) if w not in STOP and w not in UNITS]
    return " ".join(words)


_WORD = re.compile(r"[A-Za-z]+(?:['\u2019]s?)?")


def _label_parts(label: str) -> tuple[str, frozenset[str]] | None:
    """A label's head noun's stem (its last content word) and its modifiers' stems; None for a
    label of one content word, which no modifier can narrow."""
    words = [w for w in letters(label) if w not in STOP and len(w) >= 2]
    if len(words) < 2:
        return None
    return stem(words[-1]), frozenset(stem(w) for w in words[:-1])


@lru_cache(maxsize=8192)
def other_modifier(label: str, phrase: str) -> bool:
    """Does the phrase name another kind of the label's head noun: a content word right before
    the head that the label lacks, where the label has a modifier the phrase lacks ("goalkeeping
    coach" against "head coach")? A goalkeeping coach is not a head coach, though both are
    coaches; "coach" alone, or "head coach", still says the label. A head WordNet takes for the
    label's in other words counts as the label's ("assistant manager" against "head coach"). A
    possessor ("Arsenal's coach") and a name before the head (capitalised) are not modifiers of
    the relation."""
    parts = _label_parts(label)
    if parts is None:
        return False
    head, mods = parts
    said = content_stems(phrase)
    if mods <= said:
        return False
    tokens = _WORD.findall(phrase)
    last = words_of(label)[-1]
    for before, word in zip(tokens, tokens[1:], strict=False):
        if not _same_head(word.lower(), last, head):
            continue
        plain = before.lower()
        if ("'" in before or "\u2019" in before or before[0].isupper() or plain in STOP or plain in QUANTIFIERS
                or len(plain) < 2 or stem(plain) in mods):
            continue
        if mods <= content_stems(glosses(f"{plain} {word.lower()}")):
            continue  # the pair says the label's own modifiers in other words ("area code": local dialing code)
        return True
    return False


def _same_head(word: str, last: str, head: str) -> bool:
    """Does a phrase word name the noun the label's last word names: with WordNet, one of the
    same nouns or a synonym ("manager" of "coach"; not the verb "play" of "players"), else the
    same stem?"""
    lex = lexicon()
    mine = lex.nouns(word) if lex is not None else frozenset()
    theirs = lex.nouns(last) if lex is not None else frozenset()
    if not mine or not theirs:
        return stem(word) == head
    return bool(mine & theirs)


class RelationMatcher:
    """Scores phrases against relations; keeps the encoder's vectors of what it has seen."""

    def __init__(self, encoder=None):
        self._encoder = encoder
        self._built = not callable(encoder) or hasattr(encoder, "encode")

    @property
    def encoder(self):
        if not self._built:
            self._encoder, self._built = self._encoder(), True
        return self._encoder

    def _meanings(self, labels: Sequence[str], phrases: Sequence[str]) -> np.ndarray:
        """The encoder's similarity of each label (rows) to each phrase (columns), mapped to
        [0, 1] between COS_FLOOR and COS_SURE; zeros without an encoder, and for a phrase with
        no content words. One encoder batch for the whole grid."""
        out = np.zeros((len(labels), len(phrases)))
        said = [phrase_words(p + " " + glosses(p)) for p in phrases]
        has = np.array([bool(w) for w in said], dtype=bool)
        if self._encoder is None or not labels or not has.any():
            return out
        encoder = self.encoder
        if encoder is None:
            return out
        names = [split_words(label).lower() for label in labels]
        texts = list(dict.fromkeys([w for w in said if w] + names))
        row = {t: i for i, t in enumerate(texts)}
        emb = np.asarray(encoder.encode(texts), dtype=np.float64)
        cos = emb[[row[n] for n in names]] @ emb[[row[w] for w in said if w]].T
        out[:, has] = np.clip((cos - COS_FLOOR) / (COS_SURE - COS_FLOOR), 0.0, 1.0)
        return out

    @staticmethod
    def _words(labels: Sequence[str], phrases: Sequence[str]) -> np.ndarray:
        """The share of each label's stemmed content words (rows) that each phrase, widened by
        its everyday paraphrases, says (columns)."""
        out = np.zeros((len(labels), len(phrases)))
        for i, label in enumerate(labels):
            out[i] = [said_share(label, p, glosses(p)) for p in phrases]
        return out

    def grid(self, labels: Sequence[str], phrases: Sequence[str]) -> np.ndarray:
        """`rank`'s score of every label (rows) for every phrase (columns) at once, kind-free
        (the relations' kinds unknown): the better of label words and meaning. One encoder batch
        for the grid, where `rank` asks once per phrase (a route's question spans)."""
        if not labels or not phrases:
            return np.zeros((len(labels), len(phrases)))
        best = np.maximum(self._words(labels, phrases), self._meanings(labels, phrases))
        return best * ~self._narrowed(labels, phrases)

    @staticmethod
    def _narrowed(labels: Sequence[str], phrases: Sequence[str]) -> np.ndarray:
        """Where a phrase names another kind of a label's head noun (`other_modifier`): no match,
        however close the words or the meaning."""
        return np.array([[other_modifier(label, p) for p in phrases] for label in labels], dtype=bool)

    def rank(self, phrase: str, relations: Iterable[Relation], value: str | None = None,
             kind: str | None = None) -> list[Match]:
        """Every relation scored against the phrase, best first. `kind` is the value's kind when
        the caller knows it (an entity it linked); else it is read from `value`, or the phrase."""
        return self._rank(phrase, list(relations), value, kind, meaning=True)

    def _rank(self, phrase: str, relations: list[Relation], value: str | None, kind: str | None,
              meaning: bool) -> list[Match]:
        if not relations:
            return []
        said = kind if kind is not None else value_kind(value if value is not None else phrase)
        labels = [r.label for r in relations]
        shares = self._words(labels, [phrase])[:, 0]
        meanings = self._meanings(labels, [phrase])[:, 0] if meaning else np.zeros(len(relations))
        narrowed = self._narrowed(labels, [phrase])[:, 0]
        shares, meanings = np.where(narrowed, 0.0, shares), np.where(narrowed, 0.0, meanings)
        out = []
        for rel, share, sense_ in zip(relations, shares, meanings, strict=True):
            words, sense = float(share), float(sense_)
            ok = fits(said, rel.kind)
            score = 0.0
            if ok is not False:
                score = max(words, sense)
                if ok and rel.kind not in ("entity", "text"):
                    score = min(1.0, score + TYPE_BONUS)
            out.append(Match(rel, score, words, sense, ok))
        out.sort(key=lambda m: -m.score)
        return out

    def score(self, phrase: str, relation: Relation, value: str | None = None, kind: str | None = None) -> float:
        return self.rank(phrase, [relation], value, kind)[0].score

    def best(self, phrase: str, relations: Iterable[Relation], value: str | None = None,
             kind: str | None = None) -> Match | None:
        """The one relation the phrase states: MATCH_MIN or more and MARGIN ahead of the next
        relation with another label (two predicates with one label are one relation to a reader)."""
        relations = list(relations)
        # The label words and the value's kind often decide alone; the encoder is asked otherwise.
        top = self._decided(self._rank(phrase, relations, value, kind, meaning=False))
        return top if top is not None else self._decided(self._rank(phrase, relations, value, kind, meaning=True))

    @staticmethod
    def _decided(ranked: list[Match]) -> Match | None:
        if not ranked or ranked[0].score < MATCH_MIN:
            return None
        top = ranked[0]
        rival = next((m for m in ranked[1:] if split_words(m.relation.label).lower()
                      != split_words(top.relation.label).lower()), None)
        if rival is not None and top.score - rival.score < MARGIN:
            return None
        return top
