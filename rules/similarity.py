"""Name similarity measures and safe ProbLog constants, without importing ProbLog.

Names travel into ProbLog as quoted atoms whose text is percent-encoded (`encode`), so quotes,
apostrophes, backslashes and non-ASCII letters can never break a program; `decode` gives the
text back. Mention detection and the rule builtins (`rules/builtins.py`) share `norm` and
`measures`, so both sides agree on what "similar" means.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Characters allowed verbatim inside a quoted ProbLog atom; everything else is %XX-encoded
# (UTF-8 bytes), which ProbLog's parser and printer both leave alone.
_SAFE = re.compile(r"[A-Za-z0-9 _.,:;/#?&=+\-()\[\]{}<>!@$^*|~\"]")


_ALL_SAFE = re.compile(r"[A-Za-z0-9 _.,:;/#?&=+\-()\[\]{}<>!@$^*|~\"]*")


@lru_cache(maxsize=200_000)
def encode(text: str) -> str:
    """The functor of a quoted ProbLog atom whose text is `text`, safe for any input."""
    if _ALL_SAFE.fullmatch(text):
        return "'" + text + "'"
    out = []
    for ch in text:
        if _SAFE.fullmatch(ch):
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
    return "'" + "".join(out) + "'"


_PCT = re.compile(r"(?:%[0-9A-F]{2})+")


def decode(functor: str) -> str:
    """Inverse of `encode` (also accepts a bare, unquoted atom)."""
    if len(functor) >= 2 and functor[0] == functor[-1] and functor[0] in "'\"":
        functor = functor[1:-1]
    return _PCT.sub(lambda m: bytes.fromhex(m.group(0).replace("%", "")).decode("utf-8", "replace"), functor)


# Letters that Unicode does not decompose into a base letter and an accent: spelled as an English
# transcript spells them ("Sørensen" is "sorensen", not "s rensen" and a one-letter word "s").
_UNDECOMPOSED = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ß": "ss",
                               "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th",
                               "Þ": "Th", "ı": "i", "ħ": "h", "Ħ": "H"})


_NOT_WORD = re.compile(r"[^0-9a-z]+")


def _fold(text: str) -> str:
    """Lower case, accents and punctuation removed: what an ASR transcript keeps of a name."""
    if not text.isascii():  # ASCII has no accents to take off (most names: 10^5 of them in a table)
        text = unicodedata.normalize("NFKD", text.translate(_UNDECOMPOSED))
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(_NOT_WORD.sub(" ", text.lower()).split())


def norm(text: str) -> str:
    """The normalized form every matcher compares (shared with mention detection)."""
    return _fold(text)


@lru_cache(maxsize=65536)
def _pair_measures(a: str, b: str) -> tuple[float, int, int, int, int]:
    """(Jaro-Winkler, Levenshtein, longest common substring, shared words, mention words
    missing from the name) of two normalized strings; cached since rules ask for several."""
    from rapidfuzz.distance import JaroWinkler, Levenshtein

    jw = JaroWinkler.similarity(a, b)
    lev = Levenshtein.distance(a, b)
    lcs = _longest_common_substring(a, b)
    wa, wb = a.split(), b.split()
    shared = len(set(wa) & set(wb))
    missing = sum(1 for w in wa if w not in wb and not any(_close_word(w, x) for x in wb))
    return jw, lev, lcs, shared, missing


# A name word typed with a capital stands for a label's word only this alike: a typed name whose
# word differs wholly ("Karin" for "Henrik") is someone else's, however alike the whole names read
# (a transcript's words may be misheard beyond that).
NAME_WORD_ALIKE = 0.8


def word_alike(word: str, others) -> float:
    """The best Jaro-Winkler similarity of `word` to any of `others` (0 without any)."""
    from rapidfuzz.distance import JaroWinkler

    return max((JaroWinkler.similarity(word, o) for o in others), default=0.0)


def _close_word(a: str, b: str) -> bool:
    from rapidfuzz.distance import Levenshtein

    return len(a) >= 4 and (Levenshtein.distance(a, b) <= (1 if len(a) < 7 else 2) or sound_alike(a, b))


_SOUND_GROUPS = {ch: str(i) for i, letters in enumerate(("bfpv", "cgjkqsxz", "dt", "l", "mn", "r"), 1)
                 for ch in letters}
SOUND_MIN_LETTERS = 5


@lru_cache(maxsize=65536)
def sound_key(word: str) -> str:
    """The word as it sounds, roughly (Soundex without its cut to four characters): the first
    letter, then the consonant groups, vowels dropped and repeats merged; "hubbard" and "hebert"
    are both "h163". Empty for a word too short to tell, or with fewer than three consonant
    groups, whose key too many words would share."""
    if len(word) < SOUND_MIN_LETTERS or not word.isalpha():
        return ""
    codes, last = [], _SOUND_GROUPS.get(word[0], "")
    for ch in word[1:]:
        code = _SOUND_GROUPS.get(ch, "")
        if code and code != last:
            codes.append(code)
        if ch not in "hw":  # h and w do not separate two letters of one group
            last = code
    return word[0] + "".join(codes) if len(codes) >= 3 else ""


@lru_cache(maxsize=65536)
def sound_keys(word: str) -> tuple[str, ...]:
    """The keys a word heard is looked up by: its `sound_key`, and its Metaphone code, which reads
    English spelling ("nieuwham" and "newham" are both NHM), from three sounds up (fewer, too many
    words share it)."""
    import jellyfish

    keys = [f"s{key}"] if (key := sound_key(word)) else []
    if len(word) >= SOUND_MIN_LETTERS and word.isalpha() and len(code := jellyfish.metaphone(word)) >= 3:
        keys.append(f"m{code}")
    return tuple(keys)


def sound_alike(a: str, b: str) -> bool:
    """Two name words a recognizer may take for each other ("Hubbard" heard for "Hebert")."""
    key = sound_key(a)
    return bool(key) and key == sound_key(b)


_VOWELS = frozenset("aeiouy")


@lru_cache(maxsize=65536)
def first_sounds(word: str) -> str:
    """The word's consonant groups with its first sound, a vowel of any spelling as one ("ayrik"
    and "eirik" are both "a62"): how a name word heard by ear may still be told, where
    `sound_key` keeps the first letter as written. Empty for fewer than two consonant groups."""
    if len(word) < 4 or not word.isalpha():
        return ""
    first = _first_sound(word)
    codes, last = [], _SOUND_GROUPS.get(word[0], "")
    for ch in word[1:]:
        code = _SOUND_GROUPS.get(ch, "")
        if code and code != last:
            codes.append(code)
        if ch not in "hw":
            last = code
    return first + "".join(codes) if len(codes) >= 2 else ""


def heard_as(word: str, others) -> bool:
    """Does `word` sound like one of `others`: the same `first_sounds`, or alike by the Match
    Rating Approach, a phonetic comparison made for names ("seizure" heard for "caesar")?"""
    import jellyfish

    key = first_sounds(word)
    return any((key and first_sounds(o) == key)
               or (len(word) >= SOUND_MIN_LETTERS and len(o) >= SOUND_MIN_LETTERS and _first_sound(word) == _first_sound(o)
                   and jellyfish.match_rating_comparison(word, o))
               for o in others if o.isalpha() and word.isalpha())


def _first_sound(word: str) -> str:
    """A vowel of any spelling, or the consonant group (`_SOUND_GROUPS`) of the first letter."""
    return "a" if word[0] in _VOWELS else _SOUND_GROUPS.get(word[0], word[0])


def _longest_common_substring(a: str, b: str) -> int:
    best = 0
    prev = [0] * (len(b) + 1)
    for ca in a:
        cur = [0] * (len(b) + 1)
        for j, cb in enumerate(b, 1):
            if ca == cb:
                cur[j] = prev[j - 1] + 1
                if cur[j] > best:
                    best = cur[j]
        prev = cur
    return best


def measures(mention: str, name: str) -> tuple[float, int, int, int, int]:
    return _pair_measures(norm(mention), norm(name))


# Endings of the adjective and noun forms of a field's name: mathematic-al / mathematic-s,
# biolog-ical / biolog-y, philosoph-ical / philosoph-y.
_FORM_ENDING = re.compile(r"(?:ically|ical|ics|ic|al|ies|y|ist|ists|s)$")


def word_stem(word: str) -> str:
    return _FORM_ENDING.sub("", word)


def max_edits(word: str) -> int:
    return 0 if len(word) <= 3 else (1 if len(word) <= 6 else 2)


def trigrams(word: str) -> set[str]:
    w = f" {word} "
    return {w[i:i + 3] for i in range(len(w) - 2)}
