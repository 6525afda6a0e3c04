"""How a name was heard, for mention detection (engine/nlp/mentions.py): the words of a turn as
tokens, runs of words that say one label word when spoken ("kay ell four oh two", "de marco"), and
whole names the KG lacks beside the ones it has ("Anna B.", "Ingrid Haugland")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from engine.nlp.minilm import common_words
from engine.nlp.spoken import MAX_RUN, lettered, number_of, spelled
from engine.state import Mention
from rules.similarity import NAME_WORD_ALIKE, heard_as, norm, word_alike


class Label(Protocol):
    @property
    def words(self) -> tuple[str, ...]: ...


class Vocabulary(Protocol):
    """The words of a KG's labels (engine/nlp/mentions.py's LabelIndex)."""

    by_word: dict[str, list[int]]
    classes: dict[str, str]

    @property
    def labels(self) -> Sequence[Label]: ...

    @property
    def relation_words(self) -> frozenset[str]: ...

    @property
    def joined(self) -> dict[str, tuple[str, str]]: ...

    def close_words(self, word: str) -> list[tuple[str, int]]: ...

    def sounding_like(self, word: str, written: bool = False) -> list[tuple[str, int]]: ...

# Words that never start a name match on their own (they may sit inside a full label).
STOPWORDS = frozenset("""
a an the this that these those is are was were be been am do does did have has had can could will would
shall should may might must i me my mine we us our you your he him his she her they them their it its
of in on at to for from with by about as and or but not no yes if then so than what which who whom whose
where when why how there here any all some every each other free available book please thanks thank hi
hello tell show list give find let lets want need like know see meet meeting meetings room rooms today
tomorrow now morning afternoon evening night time day week o clock am pm half past quarter up out s
""".split())
CLAUSE_BREAK = re.compile(r"[,;:.!?()/]")  # no name goes on past these


@dataclass(frozen=True)
class Token:
    text: str
    norm: str
    start: int
    end: int
    gap: str = ""  # what stands between the word before and this one ("" inside a folded word)


def is_code(t: Token) -> bool:
    """Letters and digits in one word ("7C", "B12"): a code, said as it is, never misheard."""
    return any(ch.isdigit() for ch in t.norm) and any(ch.isalpha() for ch in t.norm)


def completes(extra: list[Token], missing: set[str], alike: float) -> bool:
    """Do the words heard beside part of a name (`extra`) say the label's words it lacks
    (`missing`)? The whole near the label in spelling (`alike`: Jaro-Winkler), or each word heard
    as one of them ("ayrik solheim" for Eirik Solheim); a capitalised word close to one in
    spelling, as written, not heard ("Karin" is no typo of "Henrik", "Professor" no "Franz"
    misheard); so is a common English word, heard whole ("ferry leaves" is no "ferry service");
    never a code or a number ("Harbourfest 2020" is another edition than 2021)."""
    if alike < 0.88 and not (extra and all(not t.text[:1].isupper() and heard_as(t.norm, missing) for t in extra)):
        return False
    return all(_says_missing(t, missing) and not is_code(t) and not t.norm.isdigit() for t in extra)


def _says_missing(t: Token, missing: set[str]) -> bool:
    if t.text[:1].isupper():
        return word_alike(t.norm, missing) >= NAME_WORD_ALIKE
    # a common word heard for a name's word starts as it does ("pad tie" for Pad Thai)
    return t.norm not in common_words() or heard_as(t.norm, missing) or any(
        w[:1] == t.norm[:1] and word_alike(t.norm, {w}) >= COMMON_WORD_ALIKE for w in missing)


COMMON_WORD_ALIKE = 0.5


def compound_after(tokens: list[Token], end: int) -> bool:
    """Is the word at `end` a noun that the word before it modifies, as the tagger reads the
    turn ("who captains the tern star": "star", of a Tern Star the KG lacks), rather than a word
    of the clause around a name ("the tern sails", "anna said")? False without the tagger."""
    return 0 < end < len(tokens) and end in _compound_heads(tuple(t.text.casefold() for t in tokens))


@lru_cache(maxsize=256)
def _compound_heads(words: tuple[str, ...]) -> frozenset[int]:
    from engine.nlp.dependency import parsed_words

    doc = parsed_words(words)
    if doc is None:
        return frozenset()
    # an unknown word before a noun reads as its adjective ("tern star", "eilidh morrison"); a
    # noun the parse makes the root of a question ("where does the tern sail") is its verb
    return frozenset(t.i for t in doc if t.pos_ in ("NOUN", "PROPN") and t.i > 0 and t.dep_ != "ROOT"
                     and doc[t.i - 1].dep_ in ("compound", "amod") and doc[t.i - 1].head.i == t.i)


def other_initial(tokens: list[Token], start: int, end: int, missing: set[str]) -> bool:
    """Does an initial ("B." in "Anna B.") stand right beside the span that starts none of the
    label's words the span lacks? Then the name is another one, with a word the KG lacks."""
    for j in (start - 1, end):
        if not 0 <= j < len(tokens) or CLAUSE_BREAK.search(tokens[max(j, start)].gap):
            continue
        t = tokens[j]
        follows = tokens[j + 1].gap if j + 1 < len(tokens) else ""
        if len(t.text) == 1 and t.text.isupper() and (j == len(tokens) - 1 or follows.startswith(".")):
            return not any(w.startswith(t.norm) for w in missing)
    return False


def other_name_beside(tokens: list[Token], start: int, end: int, words: tuple[str, ...], index: Vocabulary) -> bool:
    """Does a word of other names the KG has stand right beside a span that says part of the
    label `words`, a word no label has together with the span's ("Anna Brzezinski" when the KG
    has Anna Kowalczyk and three Brzezinskis, "Bluebird Cargo" beside Bluebird Airlines and Portmoor
    Cargo Terminal), or a number where the label has another? Then the two say one whole name
    the KG lacks. That word stands where it stands in its own names: a later word after the start
    of the span's label (a surname after a first name, not a list of first names, "Michael James
    and Kayla"), or a first word before the end of it; typed, it is capitalised."""
    said = {t.norm for t in tokens[start:end]}
    typed = any(t.text[:1].isupper() for t in tokens)
    for j in (start - 1, end):
        if not 0 <= j < len(tokens) or CLAUSE_BREAK.search(tokens[max(j, start)].gap):
            continue
        t = tokens[j]
        if t.norm.isdigit() and any(w.isdigit() and w not in said for w in words):
            return True  # "Harbourfest 2020" beside Harbourfest 2019: another edition
        if t.norm in STOPWORDS or t.norm in words or t.norm in index.relation_words or t.norm not in index.by_word \
                or t.norm.isdigit():
            continue
        # a class's label is no name ("veterinary clinic"): "Mossgate Veterinary Group" beside
        # Mossgate Holdings and Larchfield Veterinary Clinic is one name the KG lacks
        others = [words for words in (index.labels[i].words for i in index.by_word[t.norm])
                  if " ".join(words) not in index.classes]
        if any(said & set(other) for other in others):
            continue  # a name the KG has says both
        if typed and not (t.text[:1].isupper() and j > 0):
            continue
        if j == end and words[-1] not in said and all(other.index(t.norm) > 0 for other in others):
            return True
        if j < start and words[0] not in said and all(other.index(t.norm) == 0 for other in others):
            return True
    return False


def split_unknown(text: str, out: list[Mention], partial: set[int]) -> list[Mention]:
    """Two partial names side by side that name different entities ("Ingrid Haugland" when the KG
    has Ingrid Solberg and Bjorn Haugland, "Northsound Ferries" beside Northsound Freight and
    Tidewater Ferries) are one whole name the KG lacks: neither links."""
    drop: set[int] = set()
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        # the first heard as the start of its name, the second as a later word of its own: a list
        # of first names ("petra jonas and ines") is no such name
        if {i, i + 1} <= partial and text[a.end:b.start].isspace() \
                and norm(a.text).split()[-1:] != norm(a.label or "").split()[-1:] \
                and norm(b.text).split()[:1] != norm(b.label or "").split()[:1] \
                and not {iri for iri, _ in a.candidates} & {iri for iri, _ in b.candidates}:
            drop |= {i, i + 1}
    return [m for i, m in enumerate(out) if i not in drop]


def _spoken_form(run: list[Token], index: Vocabulary) -> str | None:
    """The label word a run of words says when spoken: a code spelled out ("kay ell four oh two"
    for KL402), a number in words ("twenty nineteen"), a name split in two ("de marco" for
    DeMarco), or heard so ("new ham" for Nieuwham: the one label word the joined sounds are
    closest to, when none of the words is a label word itself)."""
    said = [t.norm for t in run]
    # words a label says in a row are that label's words, not another's one word: "Fear of a Black
    # Hat" beside the film "Blackhat"
    in_a_row = len(said) == 2 and index.joined.get("".join(said)) == tuple(said)
    for form in (spelled(said), lettered(said), number_of(said), None if in_a_row else "".join(said)):
        if form and form in index.by_word:
            return form
    if number := number_of(said):
        return number  # a number no label says, heard as one: "harwick open twenty ten" is 2010's
    joined = "".join(said)
    if len(run) != 2 or len(joined) < 6 or any(w in index.by_word for w in said) or not joined.isalpha():
        return None
    close = index.close_words(joined)
    fewest = min((d for _, d in close), default=0)
    best = {w for w, d in close if d == fewest} or {w for w, _ in index.sounding_like(joined)}
    return best.pop() if len(best) == 1 else None


def _code_said(run: list[Token], index: Vocabulary) -> str | None:
    """The code of the KG's labels, letters and digits, a run of words spells ("seven a" for 7A)."""
    said = [t.norm for t in run]
    code = spelled(said) or lettered(said)
    return code if code and code in index.by_word and any(ch.isdigit() for ch in code) else None


def spoken_tokens(tokens: list[Token], index: Vocabulary) -> list[Token]:
    """The tokens with each run of words that says one label word when spoken as one token
    (longest runs first), so a name heard that way matches as if written."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        for j in range(min(len(tokens), i + MAX_RUN), i + 1, -1):
            run = tokens[i:j]
            if any(t.gap.strip() for t in run[1:]):
                continue
            # a word that starts or ends no name ("a", "i") may still be a letter of a code the KG has ("seven a": 7a)
            form = _code_said(run, index) if any(t.norm in STOPWORDS for t in run[:1] + run[-1:]) \
                else _spoken_form(run, index)
            if form:
                out.append(Token(" ".join(t.text for t in run), form, run[0].start, run[-1].end, run[0].gap))
                i = j
                break
        else:
            out += _unjoined(tokens[i], index)
            i += 1
    return out


def _unjoined(t: Token, index: Vocabulary) -> list[Token]:
    """A word heard as two words of a label said together ("vanhoek" for Van Hoek), as those two;
    a word of some label, a common English word or a code stays one."""
    pair = None if t.norm in index.by_word or t.norm in STOPWORDS or is_code(t) or t.norm in common_words() \
        else index.joined.get(t.norm)
    if pair is None:
        return [t]
    return [Token(t.text, pair[0], t.start, t.end, t.gap), Token(t.text, pair[1], t.start, t.end)]


def head_noun_before(m: Mention, following: Mention | None, text: str) -> bool:
    """Is `m` a common word in lower case that names the capitalised name right after it ("the film Black
    Snake Moan"), rather than the entity of its own that the KG names by it (a tag "film")?"""
    return (following is not None and " " not in m.text and m.text.islower() and bool(m.label)
            and str(m.label).islower() and not text[m.end:following.start].strip()
            and following.text[:1].isupper() and m.text.casefold() in common_words())
