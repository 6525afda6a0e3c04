"""What a question asks for, what a fact answers, and which words are names (for masking).

Domain-free cues shared by the relevance features: the answer type a question wants ("where" a
place, "when" a date or time, "how many" a number, "who" a person or an organisation), the type
of the value a fact gives, relations that only describe a name or a record (given name, sex or
gender, described by source ...: they match any question about their subject by the subject's
name alone), and the entity names to take out of a text so that what is left is the relation
being asked about.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet

from engine.nlp.timeexpr import MONTHS, WEEKDAYS
from engine.state import Candidate
from kgstore.vocab import XSD
from rules.kinds import PERSON_WORDS

PLACE, TIME, NUMBER, PERSON, ORGANIZATION = "place", "time", "number", "person", "organization"
RECORD = "record"  # a name, gender or source record: what no "where/when/how many/who" asks for
ANSWER_TYPES = (PLACE, TIME, NUMBER, PERSON, ORGANIZATION)

# A place asked for by its noun ("Which city ...?", "Which German state ...?", "Which lecture
# theatre ...?"), which, unlike "where", opens no relative clause.
PLACE_NOUN = re.compile(r"\b(what|which) (?:[a-z]+ )?(place|city|town|country|room|venue|stadium|ground|location|building"
                        r"|region|state|village|theatre|theater|hall|auditorium|classroom|municipality|district|county"
                        r"|province|island|continent|neighbou?rhood|suburb|borough)\b|\bin (what|which) (city|town|country|room|place)\b")

# Question cues, tried in order on each clause; the first that matches gives the clause's types.
# "Who" asks for an agent: a person, or an organisation ("Who published it?", "Who owns it?").
_ASKS: tuple[tuple[re.Pattern, tuple[str, ...]], ...] = (
    # an age or a time since, answered by a number or by the date it counts from
    (re.compile(r"\bhow old\b|\bhow long (?:has|have)\b[^?.!]*\bbeen\b|\bsince when\b"), (NUMBER, TIME)),
    (re.compile(r"\bhow (many|much)\b|\bhow (big|large|old|tall|long|far|heavy|high)\b|\bwhat (number|amount|size)\b"
                r"|\bnumber of\b|\bpopulation\b|\bcapacity\b"), (NUMBER,)),
    (re.compile(r"\bwhen\b|\bwhat (time(?! ?zone)|date|day|year|month)\b|\bwhich (day|date|year|month)\b|\bwhat's the date\b"
                r"|\bin (what|which) year\b|\bwhat hour\b|\bdate of\b|\bbirthday\b"), (TIME,)),
    (re.compile(r"\bwhere\b|" + PLACE_NOUN.pattern +
                r"|\bhome ?town\b|\bbirthplace\b|\bplace of birth\b|\bheadquarters\b|\bwhereabouts\b"), (PLACE,)),
    (re.compile(r"\b(what|which) (company|firm|publisher|label|studio|organi[sz]ation|corporation|business)\b"),
     (ORGANIZATION,)),
    (re.compile(r"\bwhich (person|people|player|actor|man|woman)\b"), (PERSON,)),
    (re.compile(r"\bwho\b|\bwhom\b|\bwhose\b"), (PERSON, ORGANIZATION)),
)
# Clauses of a compound question ("who organizes it and where is it"): a conjunction before a
# question word starts a new part.
_CLAUSE = re.compile(r"\s*(?:,|;|\band\b|\balso\b|\bplus\b)\s+(?=(?:(?:in|at|on|from|to|by|for|of|with|into|since)\s+"
                     r"(?:which|what|whom|whose|where|when|how)\b|(?:who|whom|whose|what|which|where|when|how|is|are|"
                     r"was|were|does|do|did|can|could|tell)\b))", re.I)

_PLACE_WORDS = frozenset("""place city town village country room stadium venue arena ground building location region
state province district municipality capital island continent hall park street address area site campus office
restaurant theatre theater museum airport station county territory nation kingdom republic neighbourhood
neighborhood club school university""".split())
_ORGANIZATION_WORDS = frozenset("""company corporation firm business enterprise conglomerate publisher publishing label
studio organization organisation agency institution foundation association society band ensemble orchestra
broadcaster network manufacturer brand bank newspaper magazine""".split())
_PERSON_WORDS = PERSON_WORDS
_PLACE_RELATION = re.compile(r"\b(place|location|located|venue|born in|birthplace|city|country|room|stadium|ground|"
                             r"headquarters|address|held in|origin|capital|where)\b")
_TIME_RELATION = re.compile(r"\b(date|time|year|day|when|born on|founded|inception|start|end|published|released|"
                            r"created|opened|established|dob)\b")
_PERSON_NOISE_KEYS = frozenset(("P21", "P735", "P734"))
_NOISE = re.compile(r"\b(given|first|family|last|middle|birth|nick|sur|fore)\s*names?\b|^names?$|\bname in\b|"
                    r"\bsex\b|\bgender\b|\bdescribed (by|at)\b|\bsource\b|\blanguages?\b|\boccupations?\b|"
                    r"\bsurname\b|\bforename\b|\bwebsite\b|\burl\b|\bimage\b|\bidentifier\b|\bid$")
_NOISE_PIDS = frozenset("P21 P735 P734 P1343 P973 P1412 P103 P106 P1559 P1477 P18 P856 P214 P227 P244 P646".split())
_DATE = re.compile(r"^[+-]?\d{4}(-\d{2}(-\d{2})?)?(T[\d:]+Z?)?$")
_CLOCK = re.compile(r"^\d{1,2}:\d{2}(:\d{2})?$")
_NUMBER = re.compile(r"^[+-]?\d+([.,]\d+)?$")
# A label that is a number or a date: an entity minted for a value, which can answer "when" or "how much".
MEASURE = re.compile(r"^\W*\d")
# What a text value says when it says when: a year, a date, a time of day, a day, a month ...
_WHEN = re.compile(r"\b(1\d{3}|20\d{2})\b|\b\d{1,2}[:./]\d{2}\b|\b(" + "|".join(WEEKDAYS + MONTHS) + r")s?\b", re.I)
# ... or only a season of it
_SEASON = re.compile(r"\b(spring|summer|autumn|fall|winter|semester|term|century|decade)s?\b", re.I)
_TIME_TYPES = frozenset(XSD + t for t in ("date", "dateTime", "time", "gYear", "gYearMonth", "duration"))
_NUMBER_TYPES = frozenset(XSD + t for t in ("integer", "decimal", "double", "float", "int", "long",
                                            "nonNegativeInteger", "positiveInteger"))


def question_parts(text: str) -> list[str]:
    """The clauses of a question: one for a plain question, two or more for a compound one."""
    parts = [p.strip() for p in _CLAUSE.split(text) if p and p.strip()]
    return parts or [text]


def asked_types(text: str) -> set[str]:
    """The answer types the question's clauses ask for (empty: none recognized)."""
    out: set[str] = set()
    for part in question_parts(text):
        low = part.casefold()
        for pattern, kinds in _ASKS:
            if pattern.search(low):
                out.update(kinds)
                break
    return out


# The narrow core of name noise: records of a name, a gender or a source, which answer nothing
# but a question about them (occupation and languages are noise to the features, yet a question
# may well ask "what is her profession", "in which language was it written").
_RECORD = re.compile(r"\b(given|first|family|last|middle|birth|nick|sur|fore)\s*names?\b|^names?$|\bsex\b|"
                     r"\bgender\b|\bdescribed (by|at)\b|\bsource\b|\bsurname\b|\bforename\b")
_RECORD_PIDS = frozenset(("P21", "P735", "P734", "P1343"))
_ASKS_RECORD = re.compile(r"\b(names?|named|called|spell|spelled|surname|forename|gender|sex|source|sources)\b", re.I)


def is_record(p_label: str, p_key: str = "") -> bool:
    """A name, gender or source record ("given name", "sex or gender", "described by source")."""
    return p_key in _RECORD_PIDS or bool(_RECORD.search(p_label.casefold()))


def asks_record(text: str) -> bool:
    """Does the question ask about a name, a gender or a source?"""
    return bool(_ASKS_RECORD.search(text))


# A question after every value of a relation: "who else", "all", "list", "which rooms", "what
# films" (a plural after which/what; not "what is", "which class", "what status").
_LIST = re.compile(r"\b(who|what|which|where|anyone|anybody|anything) else\b|\b(all|every|list|others?)\b"
                   r"|\bwho are\b|\b(which|what) (?!(does|goes)\b)([a-z]{2,}[^su\W]s|[a-z]+ies)\b")


_OVERVIEW = re.compile(r"\b(?:tell|know|describe|information|info|overview|anything|everything)\b", re.I)


def asks_overview(text: str) -> bool:
    """Does the turn ask for what there is about a thing ("Tell me about X", "What do you know
    about X?") rather than for one relation of it?"""
    return bool(_OVERVIEW.search(text))


def asks_list(text: str) -> bool:
    """Does the question ask for every value of a relation ("What films has she been in?")?"""
    return bool(_LIST.search(text.casefold()))


def is_name_noise(p_label: str, p_key: str = "", question: str = "") -> bool:
    """A relation that describes a name, a record or a biography line rather than a relation of
    the domain (given name, sex or gender, described by source, occupation, languages ...), unless
    `question` names what it records: "In which language was it written?" asks for the very
    relation ("language of work or name") that is noise to every other question."""
    what = recorded(p_label, p_key)
    if what is None:
        return False
    return not question or not what or what not in {w[:5] for w in re.findall(r"[a-z]{3,}", question.casefold())}


def recorded(p_label: str, p_key: str = "") -> str | None:
    """What a name-noise relation records: the last word of its cue ("birth name": a name, not a
    birth) to its first five letters ("language"/"languages", "described"/"describes"); "" for
    a noise property known by its id only; None for a relation of the domain."""
    label = p_label.casefold()
    match = _NOISE.search(label)
    if not match and p_key not in _NOISE_PIDS:
        return None
    words = re.findall(r"[a-z]{3,}", match.group(0) if match else label)
    return words[-1][:5] if words else ""


# Ways of asking for what a record holds without its word: "What does she do for a living?" asks
# for an occupation, "In what tongue is it written?" for a language. Read by retrieval and the
# composer only: the relevance features see the record as noise to such a question all the same.
_ASKED_AS = {"occup": re.compile(r"\b(professions?|jobs?|careers?|for a living|line of work|earns? (money|a living)|"
                                 r"works? as)\b"),
             "langu": re.compile(r"\b(tongues?|speaks?)\b")}


def asked_records(question: str) -> set[str]:
    """The records (as `recorded` names them) a question asks for in other words."""
    low = question.casefold()
    return {what for what, cue in _ASKED_AS.items() if cue.search(low)}


def persons(candidates: list[Candidate]) -> set[str]:
    """Entities that look like people: typed as one, or carrying given/family name or gender facts."""
    from engine.nlp.sentences import predicate_key

    out: set[str] = set()
    for c in candidates:
        key = predicate_key(c.fact.p)
        label = c.p_label.casefold()
        if key in _PERSON_NOISE_KEYS or re.search(r"\b(given|family) name\b|\bsex or gender\b|^gender$", label):
            out.add(c.fact.s)
        elif c.fact.p.endswith(("#type", "/P31")) and _words(c.o_label) & _PERSON_WORDS:
            out.add(c.fact.s)
    return out


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.casefold()))


def value_type(c: Candidate, answer_is_subject: bool, people: set[str], classes: dict[str, str]) -> str:
    """The type of the end of the fact that would answer a question about the other end: "place",
    "time", "number", "person", "organization", "record" (the value of a name or gender record:
    "What is her hometown?" is not answered by her family name), or "" when nothing tells."""
    from engine.nlp.sentences import predicate_key

    f = c.fact
    relation = c.p_label.casefold()
    if not answer_is_subject and is_record(c.p_label, predicate_key(f.p)):
        return RECORD
    if not answer_is_subject and f.o_literal:
        value = f.o.strip()
        if f.datatype in _TIME_TYPES or _DATE.match(value) or _CLOCK.match(value):
            return TIME
        if f.datatype in _NUMBER_TYPES or _NUMBER.match(value):
            if re.fullmatch(r"\d{4}", value) and _TIME_RELATION.search(relation):
                return TIME
            return NUMBER
        return ""
    iri = f.s if answer_is_subject else f.o
    if iri in people:
        return PERSON
    words = _words(classes.get(iri, ""))
    if words & _PERSON_WORDS:
        return PERSON
    if words & _PLACE_WORDS:
        return PLACE
    if words & _ORGANIZATION_WORDS:
        return ORGANIZATION
    if not answer_is_subject and _PLACE_RELATION.search(relation):
        return PLACE
    return ""


def mask(text: str, names: list[str], placeholder: str = "it") -> str:
    """`text` with every occurrence of the names (case-insensitive, longest first) replaced by
    the placeholder, so that what is left is the relation and the other value."""
    out = text
    for name in sorted({n for n in names if n and len(n.strip()) > 1}, key=len, reverse=True):
        out = re.sub(r"(?<!\w)" + re.escape(name.strip()) + r"(?:'s)?(?!\w)", placeholder, out, flags=re.I)
    return out


def says_when(value: str, seasons: bool = True) -> bool:
    """Can this value answer "when"? A plain number or date does; a text only when it says a year,
    a date, a clock time, a day, a month ("Wednesday 14:00-15:30") or (`seasons`) a season
    ("Spring"), not an address that starts with a house number."""
    value = value.strip()
    return bool(_DATE.match(value) or _NUMBER.match(value) or _CLOCK.match(value) or _WHEN.search(value)
                or (seasons and _SEASON.search(value)))


_NOT_NOUN = (r"(?!(?:is|are|was|were|does|did|do|has|have|had|can|could|will|would|should|of|year|date|time|day|"
             r"month|kind|sort|type)\b)")
# A thing asked for by its name: "What is X's yearly salary?", "the budget of X", "Which river ...",
# "How much fibre ...", not a property asked with an adjective ("How old is X?") or a verb ("Who
# founded X?").
_ASKS_NOUN = re.compile(r"\b(?:what|who|which)\s+(?:is|was|are|were)\s+xentity\s+(?![a-z]+ed\b|(?:known|born|made|for|in|at|on)\b)[a-z]+"
                        r"|\bthe\s+(?:[a-z]+\s+){0,3}?[a-z]+\s+of\s+xentity\b"
                        r"|\b(?:which|what)\s+" + _NOT_NOUN + r"(?P<kind>[a-z]+)\s+"  # a verb takes a preposition
                        r"(?!(?:into|to|in|on|at|for|from|with|by|of|about|up|out|the|a|an|xentity)\b)"  # or an object
                        r"|\bhow\s+(?:much|many)\s+" + _NOT_NOUN + r"[a-z]+")


def asks_for_a_noun(text: str, names: list[str], kinds: Callable[[], AbstractSet[str]] = frozenset) -> bool:
    """Does the question ask for a thing by a noun ("What is X's yearly salary?", "Which river
    flows through X?", "How much fibre is in X?"), rather than by an adjective or a verb ("What
    goes into X?")? "Which person ..." and "which" before another of `kinds()` (the KG's classes)
    ask for a thing of that kind, not for a property by its name."""
    for m in _ASKS_NOUN.finditer(mask(text, names, "xentity").casefold()):
        kind = m.group("kind")
        if not kind or not ({kind, kind[:-1] if kind.endswith("s") else kind} & (PERSON_WORDS | kinds())):
            return True
    return False

