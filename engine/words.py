"""Words as the relation matcher reads them: function words, a crude stable stemmer, a phrase's
content words, and how much of a relation label a phrase says, in its words or (with WordNet,
`engine.lexicon`) in others. `engine.relations` builds its scores on these."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.lexicon import lexicon
from kgstore.vocab import split_words

# Nouns that make a number a count of things.
COUNT_NOUNS = frozenset("""people persons person inhabitants residents citizens students pupils members employees staff
workers spectators fans visitors listeners followers subscribers tracks songs albums books films pages chapters
episodes seats beds rooms copies units players games goals matches titles credits servings portions calories
ingredients items times children""".split())
# Function words: no content of their own.
STOP = frozenset("""a an the of in on at by for to from with into onto as is are was were be been being am has have had
do does did it its it's this that these those they them their he him his she her hers we our you your i my me
and or but so also too which who whom whose what when where how why there here than then not no yes just only
very really quite about around roughly nearly almost approximately some over under more less most least
can could will would shall should may might must currently now still ever already each every any all both
one ones s t""".split())

# Forms the suffix rules below do not bring to their stem. They stay with WordNet: the stemmer
# serves every caller with or without it, and a few tie a verb to its noun ("born": birth, "died":
# death, "writer": write) where a KG's labels use the noun.
IRREGULAR = {"born": "birth", "bore": "birth", "died": "death", "dead": "death", "dies": "death", "die": "death",
             "wrote": "write", "written": "write", "writer": "write", "sang": "sing", "sung": "sing", "taught": "teach",
             "led": "lead", "made": "make", "held": "hold", "ran": "run", "began": "begin", "begun": "begin",
             "gave": "give", "given": "give", "won": "win", "winner": "win", "built": "build", "spoke": "speak",
             "spoken": "speak", "speaker": "speak", "left": "leave", "met": "meet", "sold": "sell", "told": "tell",
             "grew": "grow", "grown": "grow", "drew": "draw", "drawn": "draw", "knew": "know", "known": "know",
             "took": "take", "taken": "take", "went": "go", "gone": "go", "came": "come", "lives": "live",
             "children": "child", "people": "people", "men": "man", "women": "woman", "headquartered": "headquart",
             "headquarters": "headquart", "capital": "capit", "capacity": "capac"}
_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "ers", "ors", "ies", "ied", "ed", "er", "or", "es",
             "s", "e", "y")


_AMERICAN = re.compile(r"^(\w{2,})(tre)(?=s?$)|^(\w{3,})(our)(?=s?$)")  # British spellings, read as American ones


def american(word: str) -> str:
    """A lower-case word in American spelling where British differs by its ending ("centre",
    "colours"), so that both spellings meet."""
    return _AMERICAN.sub(lambda m: m.group(1) + "ter" if m.group(1) else m.group(3) + "or", word)


def singular(word: str) -> str:
    """A plural noun's singular, its regular -ies or -s taken off ("cities" -> "city", "works" ->
    "work"); a word with no such ending as it is."""
    if len(word) > 4 and word.lower().endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if len(word) > 3 and word.lower().endswith("s") and not word.lower().endswith("ss") else word


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A crude, stable stem: irregular forms first, then one suffix off, cut to five letters, so
    that "directed", "director" and "directs" meet, and "publication" meets "published"."""
    w = word.lower()
    if w in IRREGULAR:
        return IRREGULAR[w]
    w = american(w)
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            w = w[: -len(suf)]
            break
    return w[:5]


def letters(text: str) -> list[str]:
    """A text's words, lower-case, accents off, split at case changes ("recordLabel")."""
    plain = unicodedata.normalize("NFKD", split_words(text).lower())  # "maître" reads as "maitre"
    return re.findall(r"[a-z]+", "".join(c for c in plain if not unicodedata.combining(c)))


@lru_cache(maxsize=8192)
def content_stems(text: str) -> frozenset[str]:
    """The stems of a text's content words (function words and one-letter words out)."""
    return frozenset(stem(w) for w in letters(text) if w not in STOP and len(w) >= 2)


def words_of(text: str) -> tuple[str, ...]:
    """A text's content words in order (function words and one-letter words out)."""
    return tuple(w for w in letters(text) if w not in STOP and len(w) >= 2)


@lru_cache(maxsize=16384)
def forms(word: str) -> frozenset[str]:
    """The stems a word is read as: its own, and with WordNet those of its lemmas ("runs": run)."""
    lex = lexicon()
    return frozenset({stem(word)} | ({stem(lemma) for lemma, _ in lex.lemmas(word)} if lex is not None else set()))


@lru_cache(maxsize=16384)
def near_stems(word: str) -> dict[str, float]:
    """The stems of the words WordNet puts one step from a word (`engine.lexicon`), by
    closeness; empty without WordNet. Phrases of several words ("set up") are left out: their
    parts alone mean other things."""
    lex = lexicon()
    if lex is None:
        return {}
    own = forms(word)
    out: dict[str, float] = {}
    for w, weight in lex.near(word).items():
        if w.isalpha() and (s := stem(w)) not in own and out.get(s, 0.0) < weight:
            out[s] = weight
    return out


MASK = "xentity"  # a name masked in a question (engine.stages.route.clauses.ENTITY): no modifier


QUANTIFIERS = frozenset("much many few several more less enough".split())  # they count; they name no kind


def _narrowed(words: Sequence[str]) -> frozenset[int]:
    """The positions of content words said right after another content word ("goalkeeping
    coach", "head coach"): the pair names a kind of what the last word names, which WordNet's
    relations of that word alone do not say. A quantity ("how many people fit") is no kind."""
    return frozenset(i for i in range(1, len(words))
                     if words[i - 1] != MASK and words[i - 1] not in QUANTIFIERS and words[i - 1] not in COUNT_NOUNS)


@dataclass(frozen=True)
class _Said:
    """What a phrase says, read once for every label it meets."""

    stems: frozenset[str]  # its words' and its glosses' stems
    forms: frozenset[str]  # the stems of its words said without a modifier, and of their lemmas
    near: dict[str, float]  # the stems WordNet puts one step from those words, by closeness


@lru_cache(maxsize=4096)
def _said(phrase: str, glossed: str) -> _Said:
    words = words_of(phrase)
    narrowed = _narrowed(words)
    plain = [w for i, w in enumerate(words) if i not in narrowed and w != MASK]
    near: dict[str, float] = {}
    for w in plain:
        for s, weight in near_stems(w).items():
            if near.get(s, 0.0) < weight:
                near[s] = weight
    plural = frozenset(stem(singular(w)) for w in words)  # "sets": "set", which the stemmer leaves whole
    return _Said(content_stems(phrase) | content_stems(glossed) | plural, frozenset().union(*map(forms, plain)), near)


@lru_cache(maxsize=65536)
def said_share(label: str, phrase: str, glossed: str = "") -> float:
    """The share of a label's content words that a phrase (or its `glossed` paraphrases) says: 1
    for each word it says (the same stem), WordNet's closeness for each the phrase says in other
    words (`near_stems`, either way: "painted" is a way to create, "creator"; a "price" is what
    something "costs"), else 0. A phrase word with a modifier before it says no other word."""
    own = content_stems(label)
    if not own:
        return 0.0
    said = _said(phrase, glossed)
    mine = {stem(w): w for w in words_of(label)}
    total = 0.0
    for s in own:
        if s in said.stems:
            total += 1.0
        elif said.forms:
            back = near_stems(mine[s]) if s in mine else {}
            total += max([said.near.get(s, 0.0)] + [back.get(f, 0.0) for f in said.forms])
    return total / len(own)
