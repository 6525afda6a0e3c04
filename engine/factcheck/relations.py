"""Which relation a claim expresses: cue words per predicate, and which predicates take one value.

Keys are `engine.nlp.sentences.predicate_key` values (office local names, Wikidata P-ids). A
predicate with no entry here is recognised by the words of its own label, as the relation matcher
reads them (`engine.words.said_share`: the same stem, or with WordNet a word for it in other
words: "painted by" for "creator"). The cues left say what neither reaches: prepositions and
auxiliaries that a slot's value follows ("from", "until", "is a"), phrases ("came out", "based
in"), and words WordNet does not tie to the label ("wrote" to "screenwriter", "starred" to "cast
member").
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.relations import MATCH_MIN, content_stems, other_modifier, said_share
from kgstore.vocab import split_words

CUES: dict[str, str] = {
    # office
    "location": r"\b(?:held|takes? place|taking place|located|happens?|happening|venue|location|where|in|host(?:s|ed|ing)?)\b",
    "start_time": r"\b(?:starts?|starting|started|begins?|beginning|began|from|at)\b",
    "end_time": r"\b(?:ends?|ending|ended|finish(?:es|ed)?|until|till|to|over)\b",
    "date": r"\b(?:on|date|day|today|tomorrow|yesterday)\b",
    "organizer": r"\b(?:organi[sz](?:es|ed|er|ers|ing|e)|host(?:s|ed|ing)?|run by|runs|running|leads?|led by|chair(?:s|ed)?|in charge)\b",
    "attendee": r"\b(?:attend(?:s|ing|ed|ees?)?|going to|goes to|participa\w*|join(?:s|ing)?|ha(?:s|ve)|with|also)\b",
    "member_of": r"\b(?:members?|belongs?|works? (?:in|for|at)|part of|group|team|department|in)\b",
    "email": r"\b(?:e-?mail|mail|address)\b",
    "phone": r"\b(?:phone|number|call|telephone|mobile|reach(?:ed)?)\b",
    "group": r"\b(?:group|team|department|of the)\b",
    # Wikidata
    "P19": r"\b(?:born in|birthplace|place of birth|comes from|native of|from)\b",
    "P20": r"\b(?:died in|place of death)\b",
    "P569": r"\b(?:born|birth|birthday)\b",
    "P570": r"\b(?:died|death)\b",
    "P577": r"\b(?:released|release|published|publication|came out|premiered?|premiere|from)\b",
    "P58": r"\b(?:wr(?:ote|itten|iter)|screenplay|screenwriter|script)\b",
    "P161": r"\b(?:star(?:s|red|ring)?|cast|act(?:ed|s|ing)|appear(?:s|ed)|played in|role)\b",
    "P136": r"\b(?:genre|is an?)\b",
    "P641": r"\b(?:plays?|played|sport|athlete)\b",
    "P1082": r"\b(?:population|inhabitants|people|residents|lives?)\b",
    "P17": r"\b(?:country|in)\b",
    "P27": r"\b(?:citizen(?:ship)?|nationality|national)\b",
    "P106": r"\b(?:works? as|occupation|profession|job|is an?|was an?)\b",
    "P166": r"\b(?:won|wins?|award(?:ed|s)?|received|prize)\b",
    "P54": r"\b(?:plays? for|played for|team|club|signed)\b",
    "P26": r"\b(?:married|spouse|wife|husband)\b",
    "P2047": r"\b(?:minutes|long|duration|runtime|running time|lasts?)\b",
    "P495": r"\b(?:country of origin|from|made in)\b",
    "P364": r"\b(?:language|in english|in french|in spanish)\b",
    "P159": r"\b(?:headquarter(?:s|ed)?|based in)\b",
    "P31": r"\b(?:is an?|was an?|instance)\b",
    "P735": r"\b(?:first name|given name|forename)\b",
    "P734": r"\b(?:surname|family name|last name)\b",
    "P1412": r"\b(?:speaks?|spoke|language)\b",
}
_COMPILED = {k: re.compile(v, re.IGNORECASE) for k, v in CUES.items()}

# One value per subject: another value is a contradiction.
FUNCTIONAL = frozenset({"email", "phone", "date", "start_time", "end_time", "location", "organizer", "office",
                        "member_of", "group", "P19", "P20", "P569", "P570", "P577", "P1082", "P2047", "P36",
                        "P21", "P159", "P571", "P576", "P2046"})
# Usually one value: a contradiction when the KG lists exactly one and the claim names another.
MOSTLY_SINGLE = frozenset({"P57", "P50", "P27", "P495", "P364", "P17", "P131", "P26", "P54", "P641"})
# A time said after "from"/"starts" is a start, after "until"/"ends" an end.
TIME_SLOTS = {"start": frozenset({"start_time"}), "end": frozenset({"end_time"})}
# "4 members", "three attendees": a count of one relation's values.
COUNT_NOUNS = {"member": ("member_of", "in"), "members": ("member_of", "in"), "people": ("member_of", "in"),
               "persons": ("member_of", "in"), "employees": ("member_of", "in"), "staff": ("member_of", "in"),
               "attendees": ("attendee", "out"), "participants": ("attendee", "out"), "films": ("P161", "in")}

_STOP = {"of", "the", "a", "an", "in", "on", "at", "by", "for", "to", "is", "has", "was", "and", "or", "with"}


@lru_cache(maxsize=4096)
def _label_cue(label: str) -> re.Pattern | None:
    words = [w for w in re.findall(r"[a-z]+", label.lower()) if w not in _STOP and len(w) >= 3]
    if not words:
        return None
    # Crude stemming: "directed"/"director" share "direct"; "birth"/"born" do not, CUES covers those.
    stems = sorted({w[:max(4, len(w) - 3)] if len(w) > 6 else w for w in words}, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(s) for s in stems) + r")\w*", re.IGNORECASE)


def cued(key: str, label: str, text: str) -> bool:
    """Does `text` (with entity names and values blanked) use words of this relation?"""
    rx = _COMPILED.get(key)
    if rx is not None and any(not modifier(text, m) for m in rx.finditer(text)):
        return True
    if not label or other_modifier(label_words(label), text):
        return False
    by_label = _label_cue(label)
    return bool(by_label and any(not modifier(text, m) for m in by_label.finditer(text))) or (
        said_share(label_words(label), text) >= MATCH_MIN and not said_as_modifier(label, text))


# Nouns that only restate what kind of value follows: "phone number", "capital city", "birth date"
# still say phone, capital, birth.
GENERIC_HEADS = frozenset("""number numbers name names date dates year years time times day days city town country place
value figure amount total count size level address""".split())
_NEXT_WORD = re.compile(r" ([a-z]+)\b(?!')")  # one space: a blanked name or value between ends the compound
_VERBS = frozenset("""is are was were be been has have had does did do covers covered measures spans lies lay stands
holds counts totals reaches grew fell rose""".split())


def modifier(text: str, m: re.Match) -> bool:
    """A cue of one word said only as the first word of a compound noun ("telephone area code",
    "population density"): the compound names another notion, not this relation."""
    said = m.group(0).strip().lower()
    if " " in said or said in WEAK or said in _STOP or text[max(m.start() - 1, 0):m.start()] == "-":
        return False  # a phrase, a preposition, or the unit of a measure ("a 15-credit course")
    nxt = _NEXT_WORD.match(text, m.end())
    if nxt is None:
        return False
    word = nxt.group(1)
    return not (word in _STOP or word in WEAK or word in _FILLER or word in _VERBS or word in GENERIC_HEADS
                or word.endswith(("ed", "ing", "ly")))


def functional(key: str, n_values: int) -> bool:
    return key in FUNCTIONAL or (key in MOSTLY_SINGLE and n_values == 1)


# Cue words that are only a preposition or an auxiliary: they allow a relation, but do not
# state one ("in" fits a room, a group, a country alike).
WEAK = frozenset("in at on from to with over has have also of the is a is an was a was an where people lives live "
                 "until till day date today".split())
@lru_cache(maxsize=4096)
def label_words(label: str) -> str:
    """A relation label or bare local name as lower-case words: "monthlyListeners" → "monthly listeners"."""
    return split_words(label).lower()


def stated(key: str, label: str, text: str, glossed: str) -> float:
    """How plainly the claim states this relation: 1 for a cue word that is more than a
    preposition, else the share of the words of the relation's label (or local name) that the
    claim or its glosses say, as the relation matcher reads them (`said_share`: "former member"
    is only half said by "member"; "painted by" says "creator" in other words)."""
    rx = _COMPILED.get(key)
    if rx is not None and any(m.group(0).lower() not in WEAK and not modifier(text, m) for m in rx.finditer(text)):
        return 1.0
    words = content_stems(label_words(label)) if label else frozenset()
    if not words:
        return 0.0
    if said_as_modifier(label, text) or other_modifier(label_words(label), text):
        return 0.0  # "telephone area code" does not say "area"; "goalkeeping coach" is no "head coach"
    return said_share(label_words(label), text, glossed)


def said_in_own_words(key: str, label: str, text: str) -> bool:
    """Does the claim say a cue of the relation, or a word of its label (the same stem), rather
    than only words WordNet ties to them ("produced" read as "formed")?"""
    rx = _COMPILED.get(key)
    if rx is not None and any(m.group(0).lower() not in WEAK for m in rx.finditer(text)):
        return True
    return bool(content_stems(label_words(label)) & content_stems(text)) if label else False


def said_as_modifier(label: str, text: str) -> bool:
    """The one word of a relation's label is in the claim, but only as the first word of a
    compound noun ("area" of "telephone area code")."""
    cue = _label_cue(label) if label and len(content_stems(label_words(label))) == 1 else None
    found = list(cue.finditer(text)) if cue is not None else []
    return bool(found) and all(modifier(text, m) for m in found)


_OPENERS = frozenset("the a an its his her their s which what whose".split())  # what opens a noun phrase
_AUXILIARIES = frozenset("is are was were does did do has have had will would can could should s".split()) | {""}
_ASKING = frozenset("""what which who whom whose when where how why does did do much many xentity through into under
during since near between across after before behind onto upon within without via per""".split())


@lru_cache(maxsize=1024)  # the path search asks it of one question for every relation label
def qualifiers(question: str) -> frozenset[str]:
    """The words of a question said only to qualify the next word of a noun phrase that an
    article, a possessive or "which"/"what" opens ("the telephone area code", "its record
    label"): each names another notion than its own, and no relation. A verb before its object
    ("does it play home games") opens no noun phrase and qualifies nothing."""
    words = re.findall(r"[a-z]+", question.lower())

    def content(w: str) -> bool:
        return len(w) > 2 and not (w in _STOP or w in WEAK or w in _FILLER or w in _ASKING or w in _OPENERS)

    said: set[str] = set()
    other: set[str] = set()
    # "When did X's supervisor start?": a question asked with "do" ends on its bare verb, which
    # heads no noun phrase
    last = max((i for i, w in enumerate(words) if content(w)), default=-1)
    verb_at = last if any(w in ("do", "does", "did") for w in words[:last]) else -1
    for i, w in enumerate(words):
        if not content(w):
            continue
        j = i
        while j and content(words[j - 1]):
            j -= 1
        nxt = words[i + 1] if i + 1 < len(words) else ""
        head = content(nxt) and i + 1 != verb_at and not (nxt in _VERBS or nxt in GENERIC_HEADS
                                                           or nxt.endswith(("ed", "ing", "ly")))
        after = words[i + 2] if i + 2 < len(words) else ""
        if j and words[j - 1] in ("which", "what") and after not in _AUXILIARIES:
            head = False  # "Which players play for X?": the noun asked for, then its verb ("Which record label is")
        (said if j and words[j - 1] in _OPENERS and head else other).add(w)
    return frozenset(said - other)


@lru_cache(maxsize=8192)  # the path search asks it of one question for every relation label
def qualified_only(label: str, question: str) -> bool:
    """A relation label the question says only through its qualifiers (`qualifiers`): "area" in
    "What is the telephone area code of X?", and "country", which WordNet gives for "area", where
    no word of the label is said; the qualifier says what kind of thing the next word names, no
    relation."""
    quals = qualifiers(question)
    if not quals:
        return False
    words = label_words(label)
    own = content_stems(words)
    if len(own) == 1 and own <= content_stems(" ".join(sorted(quals))):
        return True
    if own & content_stems(question):
        return False  # a label of several words, one said as a qualifier ("home" of "its home games")
    rest = " ".join(w for w in re.findall(r"[a-z]+", question.lower()) if w not in quals)
    return said_share(words, rest) == 0.0 and any(said_share(words, q) > 0.0 for q in quals)


def custom(key: str) -> bool:
    """A relation of a user's own KG (not the office schema, not a Wikidata property)."""
    return ":" in key


def relation_phrase(blank: str) -> str:
    """The words of a claim that say its relation: names and values blanked, function words out."""
    words = [w for w in re.findall(r"[a-z]+", blank.lower()) if w not in _STOP and w not in _FILLER]
    return " ".join(words)


_FILLER = frozenset("about around roughly nearly almost approximately some over just currently now still also "
                    "really very quite it its this that they their he she his her there which who be been being are "
                    "were will would can could should may might not yes sure".split())
