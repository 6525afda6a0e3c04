"""The question's side of the relation paths: its clauses, the answer types each asks for, and
the spans of words a relation label is scored against, with the entities' names masked."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache

from engine.factcheck.relations import qualifiers
from engine.nlp.answer_type import PLACE_NOUN
from engine.relations import glosses
from engine.words import american

# Words that carry no relation: question words, fillers, what a list question adds.
_FILLER = frozenset("""xentity a an the is are was were be been being of to in on at for and or what who whom whose which
when where how do does did i you me my your it its this that these those can could would will please s tell
give show list all every each else also any there their they them he she him her his has have had about from
by with as some know let want like us we our one ones much many number""".split())
_WORD = re.compile(r"\w+", re.UNICODE)
_AUXILIARIES = frozenset("is are was were does do did has have had will can".split())
_QUESTION_WORDS = frozenset("where when what which who whom how".split())
PREPOSITIONS = frozenset("in at on for from by with to during since into under".split())


def stems(text: str) -> set[str]:
    """Content words without a plural "s", cut to five letters ("directed", "director" -> "direc",
    "plays" -> "play"), in American spelling ("centre" -> "cente")."""
    out = set()
    for w in _WORD.findall(text.casefold()):
        if len(w) > 2 and w not in _FILLER:
            w = american(w)
            out.add((w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)[:5])
    return out


@dataclass
class Span:
    text: str
    words: frozenset[int]  # positions of its content words: two steps need disjoint spans
    asked_noun: bool = False  # only the noun of "which city", "what instrument": the answer's kind


ENTITY = "xentity"  # what a start entity's name becomes in the question
_PRONOUNS = frozenset("it he she they him them".split())
_POSSESSIVES = frozenset("its his their".split())
_DETERMINERS = frozenset("the a an".split())
_DEMONSTRATIVES = frozenset("that this those these".split())
# A word before the entity that ends the phrase describing the middle entity there ("the singer
# of X"); any other word there starts a relative clause that goes on after it ("the team X plays
# for", "the team that X plays for": a relative pronoun before the entity opens the clause too).
_LINKS = frozenset("of behind for from by in at with on to whose".split())


def _content(text: str) -> tuple[list[str], list[int]]:
    """The tokens of a text, lower-cased, and the positions of its content words."""
    raw = [w.casefold() for w in _WORD.findall(text)]
    return raw, [i for i, w in enumerate(raw) if w not in _FILLER and w != ENTITY and not w.isdigit()]


def described(text: str) -> frozenset[int]:
    """The content words (by their order among the content words) that describe the entity the
    question reaches through the named one: "team ... plays" of "the manager of the team X plays
    for", "singer" of "the lead singer of X", "team" of "X's team". A two-step path walks these
    first, then the rest; a question without them asks one step."""
    raw, content = _content(text)
    at = {r: k for k, r in enumerate(content)}
    marks = [i for i, w in enumerate(raw) if w == ENTITY] or [i for i, w in enumerate(raw)
                                                             if w in _PRONOUNS or w in _POSSESSIVES]
    if not marks:
        return frozenset()
    m = marks[0]
    if raw[m] in _POSSESSIVES or raw[m + 1:m + 2] == ["s"]:
        after = m + (1 if raw[m] in _POSSESSIVES else 2)
        # One word: the next may be the second relation's already ("X's coach born").
        return frozenset(at[i] for i in range(after, min(after + 1, len(raw))) if i in at)
    following = [at[i] for i in range(m + 1, len(raw)) if i in at]
    if m and raw[m - 1] in _LINKS and len(following) > 1 and re.fullmatch(r"\w{3,}(?:ed|en)", raw[m + 1]):
        return frozenset(following)  # "the release dates of X written films": the films X wrote
    edge, det = _opening(raw, m)
    if det is None:
        return frozenset()
    inside = {at[i] for i in range(det + 1, edge) if i in at}
    if inside and raw[edge - 1] not in _LINKS:
        if not following and edge == m and inside == {at.get(m - 1)}:
            return frozenset()  # "Who directed the film X?": the noun before the name is its kind
        if len(following) > 1 and _asked_by_auxiliary(raw[:det]):
            # "Where is the play X wrote staged?": the auxiliary before the subject wants its own
            # verb, the last word; the clause about the play is the words before it
            following = following[:-1]
        inside |= set(following)
    return frozenset(inside)


def _asked_by_auxiliary(opening: list[str]) -> bool:
    """A question whose words before the subject are a question word (and its noun: "in which
    year") and then an auxiliary: "where is", "when was", "in which year did"."""
    return len(opening) >= 2 and opening[-1] in _AUXILIARIES and any(w in _QUESTION_WORDS for w in opening[:-1])


def possessed(text: str) -> tuple[str, ...]:
    """The words of the noun the question says the entity has: "mentor" of "Who was xentity's
    mentor?" and of "Who was the mentor of xentity?". The relation it asks has the entity on the
    left: xentity -mentor-> ?, never ? -mentor-> xentity."""
    raw = [w.casefold() for w in _WORD.findall(text)]
    for i, w in enumerate(raw):
        if w != ENTITY:
            continue
        if raw[i + 1:i + 2] == ["s"]:
            run = list(itertools.takewhile(lambda x: x not in _FILLER, raw[i + 2:]))
        elif i and raw[i - 1] == "of":
            run = list(itertools.takewhile(lambda x: x not in _FILLER, raw[i - 2::-1] if i > 1 else []))[::-1]
        else:
            continue
        if run:
            return tuple(run)
    return ()


def _opening(raw: list[str], m: int) -> tuple[int, int | None]:
    """Where the words before the entity at `m` end (before the name's own article: "houses the
    xentity") and the determiner that opens the phrase they belong to, if one does."""
    edge = m - 1 if m and raw[m - 1] in _DETERMINERS else m
    return edge, next((i for i in range(edge - 1, max(-1, edge - 8), -1) if raw[i] in _DETERMINERS), None)


def outer(text: str) -> frozenset[int]:
    """The content words (by their order among them) of the phrase around the one that describes
    the entity's neighbour: "lead singer" of "the lead singer of the band behind xentity", "movies
    written" of "the movies written by the screenwriter of xentity": the words the relation from
    that neighbour onwards is said in. Empty when no determiner opens the inner phrase."""
    raw, content = _content(text)
    at = {r: k for k, r in enumerate(content)}
    m = next((i for i, w in enumerate(raw) if w == ENTITY), None)
    if m is None:
        return frozenset()
    det = _opening(raw, m)[1]
    if det is None:
        return frozenset()
    before = next((i for i in range(det - 1, -1, -1) if raw[i] in _DETERMINERS), -1)
    return frozenset(at[i] for i in range(before + 1, det) if i in at)


def after_entity(text: str) -> frozenset[int]:
    """The content words (by their order among them) after the first entity: the verb of a
    clause about it ("the city where xentity died") or, when a verb came before the entity
    already ("the rocket that launched xentity built"), the words of the clause around it."""
    raw, content = _content(text)
    m = next((i for i, w in enumerate(raw) if w == ENTITY), None)
    return frozenset() if m is None else frozenset(k for k, i in enumerate(content) if i > m)


def demonstrated(text: str) -> frozenset[int]:
    """"publisher" of "when was that publisher founded?" in a clause after "Who published X": the
    thing the clause before led to, reached through the entity spoken of. (In a turn of its own,
    "that publisher" is a mention the rules link.)"""
    raw, content = _content(text)
    at = {r: k for k, r in enumerate(content)}
    dem = next((i for i, w in enumerate(raw[:-1]) if w in _DEMONSTRATIVES and i + 1 in at), None)
    return frozenset({at[dem + 1]}) if dem is not None and ENTITY not in raw else frozenset()


def place_described(text: str) -> frozenset[int]:
    """"born" of "In which country was X born?": the words after the entity, when the question
    asks for a place by its noun before it; the second step must then say that noun itself (the
    country of the place X was born in, not the country X died in for "which city")."""
    raw, content = _content(text)
    at = {r: k for k, r in enumerate(content)}
    m = next((i for i, w in enumerate(raw) if w == ENTITY), None)
    if m is None or not PLACE_NOUN.search(" ".join(raw[:m])):
        return frozenset()
    return frozenset(at[i] for i in range(m + 1, len(raw)) if i in at)


def spans_of(text: str, longest: int = 2) -> list[Span]:
    """The question's content-word n-grams (1..`longest`), in order, and the whole of it."""
    raw, content = _content(text)
    words = [raw[i] for i in content]
    asked = {asked_run(raw, content, k, text)[-1] for k, i in enumerate(content) if _after_which(raw, i)}
    # "area" of "the telephone area code": a word said only to qualify the next one is no span of
    # its own, nor the end of one ("telephone area"); "coach" of "X's coach born" qualifies no
    # verb, so the parse has the last say where it reads one
    qualifying = qualifiers(text)
    if qualifying:
        qualifying = qualifying - before_verbs(text)
    out = []
    for n in range(1, longest + 1):
        for i in range(len(words) - n + 1):
            chunk = words[i:i + n]
            if chunk[-1] in qualifying:
                continue
            out.append(Span(" ".join(chunk), frozenset(range(i, i + n)), asked_noun=n == 1 and i in asked))
    # "come from", "signed to": a verb with its particle says what the verb alone does not
    out += [Span(f"{raw[i]} {raw[i + 1]}", frozenset({k})) for k, i in enumerate(content)
            if i + 1 < len(raw) and raw[i + 1] in PREPOSITIONS]
    # the whole clause, whose function words may make an idiom of its one word ("in charge of it")
    # or of none ("Where is it from?")
    if len(words) > 1 or (words and len(raw) > len(words) + 1) or (not words and glosses(text)):
        out.append(Span(" ".join(text.replace(ENTITY, "it").split()), frozenset(range(len(words)))))
    return out


@lru_cache(maxsize=1024)
def _tagged(text: str) -> tuple[tuple[str, str], ...]:
    """The words of the text (lower-cased) and the parser's part of speech of each; () without
    the parser."""
    from engine.nlp.dependency import parser

    nlp = parser()
    return () if nlp is None else tuple((t.text.casefold(), t.pos_) for t in nlp(text) if not t.is_punct)


def before_verbs(text: str) -> frozenset[str]:
    """The words the parser reads as followed by a verb; none without the parser."""
    tagged = _tagged(text)
    return frozenset(a for (a, _), (_, pos) in zip(tagged, tagged[1:], strict=False) if pos in ("VERB", "AUX"))


def verbs_in(text: str) -> frozenset[str]:
    """The words the parser reads as verbs; none without the parser."""
    return frozenset(w for w, pos in _tagged(text) if pos == "VERB")


def asked_run(raw: list[str], content: list[int], k: int, text: str = "") -> list[int]:
    """The content words (by their order among them) of the noun that "which"/"what" before the
    k-th asks for: "game nights" of "which game nights were hosted", whose last word is the noun;
    one word when no function word ends the run ("which stadium hosts X": "hosts" is a verb), or
    when the parser reads a verb in it (`text`: "hosted" of "Which gallery hosted the ...")."""
    end = k
    while end + 1 < len(content) and content[end + 1] == content[end] + 1:
        end += 1
    after = content[end] + 1
    if not (after < len(raw) and raw[after] in _FILLER and raw[after] != ENTITY):
        return [k]
    if end > k and text:
        verbs = verbs_in(text)
        end = next((j - 1 for j in range(k + 1, end + 1) if raw[content[j]] in verbs), end)
    return list(range(k, end + 1))


def verb_of(text: str) -> frozenset[int]:
    """The content word (by its order among them) right after the entity, whose subject the
    entity is: "play" of "Where does xentity play its home games?"."""
    return _beside_entity(text, 1)


def object_verb(text: str) -> frozenset[int]:
    """The content word (by its order among them) right before the entity, whose object the
    entity is: "runs" of "Who runs xentity?"."""
    return _beside_entity(text, -1)


def _beside_entity(text: str, step: int) -> frozenset[int]:
    raw, content = _content(text)
    at = {r: k for k, r in enumerate(content)}
    return frozenset(at[i + step] for i, w in enumerate(raw) if w == ENTITY and i + step in at)


def asked_words(text: str) -> set[str]:
    """The stems of the noun a "which"/"what" question asks for (`asked_run`)."""
    raw, content = _content(text)
    return {s for k, i in enumerate(content) if _after_which(raw, i)
            for j in asked_run(raw, content, k, text) for s in stems(raw[content[j]])}


def _after_which(raw: list[str], i: int) -> bool:
    """Is the i-th word the first of the noun "which"/"what" asks for, right after it or after a
    name that qualifies it ("Which German state ...": the name is masked)?"""
    before = raw[i - 2:i] if i >= 2 else raw[:i]
    return bool(before) and (before[-1] in ("which", "what") or before == ["which", ENTITY] or before == ["what", ENTITY])


@dataclass
class Part:
    """One clause of the question: its words and the answer types it asks for."""

    text: str
    spans: list[Span]
    types: set[str]
    described: frozenset[int] = frozenset()  # the words a two-step path's first step must fit (`described`)
    borrowed: bool = False  # a clause of question words only, scored on another clause's words
    verb: frozenset[int] = frozenset()  # the word right after the entity: its verb ("does xentity play")
    asked: frozenset[str] = frozenset()  # the stems of the noun "which"/"what" asks for (`asked_words`)
    meant: frozenset[str] = frozenset()  # class labels that noun means in other words ("records": Music Album)
    named: frozenset[str] = frozenset()  # the entities the question names: none is the thing "which" asks for
    names: tuple[str, ...] = ()  # the words it names them with (the clause's text has them masked)
    noun_last: bool = False  # `described` by `place_described`: a second step says the asked noun
    outer: frozenset[int] = frozenset()  # the words of the phrase around the described one (`outer`)
    owned: tuple[str, ...] = ()  # the noun the question says the entity has (`possessed`)

    @property
    def head(self) -> set[str]:
        """The stems of the asked noun itself, without what qualifies it: "Which Japanese space
        centre" asks for a centre."""
        return set().union(*(stems(s.text) for s in self.spans if s.asked_noun))


def question_clauses(masked: str) -> list[str]:
    """The clauses of a compound question: "when and where ..." and "who wrote it and when",
    and "the population and the area of it" (an "and" between two things asked of one entity)."""
    from engine.nlp.answer_type import question_parts

    parts = question_parts(masked)
    out: list[str] = []
    for p in parts:
        sides = [s for s in re.split(r"\s+and\s+|\s*&\s*", p) if s.strip()]
        if len(sides) == 2 and all(stems(s) for s in sides):
            out.extend(sides)
        else:
            out.append(p)
    return out


def parts_of(masked: str) -> list[Part]:
    """The clauses as scored: a clause of question words only ("When" of "When and where was it
    built?") asks its type of the next clause's words."""
    from engine.nlp.answer_type import asked_types

    clauses = question_clauses(masked)
    parts = []
    for i, c in enumerate(clauses):
        inner, noun_last = described(c) or (demonstrated(c) if i else frozenset()), False
        if not inner:
            inner = place_described(c)
            noun_last = bool(inner)
        parts.append(Part(c, spans_of(c), asked_types(c), inner, asked=frozenset(asked_words(c)), verb=verb_of(c),
                          noun_last=noun_last, owned=possessed(c), outer=outer(c)))
    for i, part in enumerate(parts):
        if not part.spans:
            donor = next((p for p in parts[i + 1:] + parts[:i][::-1] if p.spans), None)
            if donor is not None and part.types:
                part.spans, part.borrowed = donor.spans, True
        elif i and (prep := _elliptic(part.text)):
            part.spans = part.spans + _verb_spans(parts[i - 1].text, prep, len(_content(part.text)[1]))
    return [p for p in parts if p.spans]


def _elliptic(clause: str) -> str:
    """The preposition of a clause that is a preposition, "which"/"what" and the noun asked for
    and nothing else ("in which city?" of "When was it formed, and in which city?"): its relation
    is the verb of the clause before, with this preposition ("formed in"). Empty for any other."""
    raw, content = _content(clause)
    if len(raw) < 3 or raw[0] not in PREPOSITIONS or raw[1] not in ("which", "what") or not content:
        return ""
    return raw[0] if len(raw) == 2 + len(content) and content == [content[k] for k in asked_run(raw, content, 0)] else ""


def _verb_spans(before: str, prep: str, first: int) -> list[Span]:
    """The content words of the clause before, each with the elliptic clause's preposition, as
    spans of their own (their positions from `first`, past the clause's own words, so a two-step
    path never takes them as the words describing a middle entity)."""
    raw, content = _content(before)
    return [Span(f"{raw[i]} {prep}", frozenset({first + k})) for k, i in enumerate(content)]


def masked(text: str, names: list[str]) -> str:
    """The text with every name replaced by ENTITY, a possessive "'s" kept ("xentity's team")."""
    out = text
    # a mention said with its possessive ("Tottenham's") is masked without it: the "'s" says a
    # relation of the name follows ("xentity's stadium")
    bare = {re.sub(r"['’]s$", "", n.strip()) for n in names if n}
    for name in sorted({n for n in bare if len(n) > 1}, key=len, reverse=True):
        out = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", ENTITY, out, flags=re.I)
    # "How many people in the graph were born in X?": where the things are looked up describes
    # none of them (a name containing the words was masked above)
    return " ".join(_IN_THE_KG.sub(" ", out).split())


_IN_THE_KG = re.compile(r"\b(?:in|from|of)\s+(?:the|this|your|my)\s+(?:graph|kg|knowledge\s+(?:graph|base)|database)\b",
                        re.I)
