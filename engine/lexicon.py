"""English word relations from WordNet 3.0, when its database files are on the machine.

The relation matcher asks which words of a KG's relation labels a phrase says in other words:
"painted" is a way of creating (the label "creator"), "restored" names the "restorer", "costs"
the "price". WordNet ties a word to its synonyms, to the words derived from it ("illustrate" ~
"illustrator") and to the more general words it is a kind of ("paint" is a kind of "create"),
for any word of the language: no list is kept here of which words mean which relations.

The database is optional: the Debian package `wordnet-base` installs it in /usr/share/wordnet
(`make wordnet`, run as root, installs it), `KGCHAT_WORDNET` may name another folder holding
WordNet 3.0's `index.*`, `data.*` and `*.exc` files, or be `none` (WordNet not read, to measure
what it brings). Without it `lexicon()` is None and the
matcher reads label words and the sentence encoder only.

API::

    lex = lexicon()                       # the shared reader, None without the database
    lex.near(word) -> dict[str, float]    # lemma -> how close (NEAR or FAR), the word's own
                                          # lemmas at 1.0
    lex.lemmas(word) -> list[tuple[str, str]]  # (lemma, part of speech) the word inflects
    lex.nouns(word) -> frozenset[str]     # the nouns it may be, and their synonyms
    lex.opposites(word) -> frozenset[str] # the nouns opposite to it or to what it is a kind of
    lex.groups(word, pos) -> frozenset[str]  # WordNet's lexicographer files of the word's most
                                          # frequent senses ("sold": {"verb.possession", ...})
"""

from __future__ import annotations

import mmap
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DEFAULT_DIRS = ("/usr/share/wordnet",)
ENV = "KGCHAT_WORDNET"
POS = ("n", "v")  # relation words are nouns and verbs; adjectives mostly qualify ("head", "former")
_FILES = {"n": "noun", "v": "verb"}
SENSES = 3  # a word's most frequent senses read: rarer ones tie it to unrelated notions
NEAR = 0.8  # a synonym, a word derived from it, a participle: says the notion in other words
FAR = 0.6  # a more general word, or a word derived from one: says a broader notion
# Pointers followed one step: derivation, participle, pertainym, attribute; hypernyms ('@') at
# FAR, and from a verb the words derived from its hypernyms too ("paint" is a kind of "create":
# "creator"); antonyms and hyponyms never (a "coach" is a "trainer", not every trainer a coach).
_LEXICAL = frozenset({"+", "<", "\\", "="})
_DETACH = {"n": (("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
                 ("ies", "y"), ("s", "")),
           "v": (("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
                 ("s", ""))}


@dataclass(frozen=True)
class _Synset:
    words: tuple[str, ...]
    group: str  # the lexicographer file it is in ("verb.motion", "noun.person")
    pointers: tuple[tuple[str, int, str, int, int], ...]  # (symbol, offset, pos, source word, target word)


class Lexicon:
    """A reader of WordNet 3.0's database files: index and exception lists read once, synsets
    read from the data files by offset as asked."""

    def __init__(self, root: Path):
        self.root = root
        self._exceptions: dict[str, dict[str, tuple[str, ...]]] = {}
        for pos in POS:
            exc: dict[str, tuple[str, ...]] = {}
            with open(root / f"{_FILES[pos]}.exc", encoding="utf-8") as f:
                for line in f:
                    fields = line.split()
                    if len(fields) > 1:
                        exc[fields[0]] = tuple(fields[1:])
            self._exceptions[pos] = exc
        # mapped, not read: an index is searched in place (its lines are sorted), a synset read
        # by its offset, from any thread, with nothing loaded up front
        self._index: dict[str, mmap.mmap] = {}
        self._data: dict[str, mmap.mmap] = {}
        for pos in POS:
            for kind, into in (("index", self._index), ("data", self._data)):
                with open(root / f"{kind}.{_FILES[pos]}", "rb") as f:
                    into[pos] = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)

    def senses(self, lemma: str, pos: str) -> tuple[int, ...]:
        """The offsets of a lemma's synsets, most frequent sense first; () when WordNet lacks it."""
        return _senses(self, pos, lemma)

    def lemmas(self, word: str) -> list[tuple[str, str]]:
        """The lemmas a word form inflects, with their part of speech ("painted" -> paint, v)."""
        w = word.lower()
        out: list[tuple[str, str]] = []
        for pos in POS:
            forms = [w, *self._exceptions[pos].get(w, ())]
            forms += [w[: -len(suf)] + rep for suf, rep in _DETACH[pos] if w.endswith(suf) and len(w) > len(suf) + 1]
            out += [(f, pos) for f in dict.fromkeys(forms) if self.senses(f, pos)]
        return list(dict.fromkeys(out))

    def _synset(self, pos: str, offset: int) -> _Synset:
        return _read(self, pos, offset)

    def nouns(self, word: str) -> frozenset[str]:
        """The nouns a word form may be ("players": player; "play": play), with the words that
        share a synset with them in their most frequent senses ("coach": manager, handler)."""
        return _nouns(self, word.lower())

    def near(self, word: str) -> dict[str, float]:
        """The lemmas one step from the word in its most frequent senses, by closeness: its own
        lemmas 1.0; synonyms and the words derived from its lemma NEAR; a verb's hypernyms, and
        the words derived from them, FAR."""
        return dict(_near(self, word.lower()))

    def kinds(self, noun: str) -> frozenset[str]:
        """The more general notions the noun's most frequent sense is a kind of, all the way up
        ("playwright": dramatist, writer, communicator, person, organism, ...)."""
        return _above(self, noun.lower(), None)

    def broader(self, noun: str, steps: int) -> frozenset[str]:
        """The more general notions at most `steps` up from the noun's most frequent sense
        ("company": institution, organization)."""
        return _above(self, noun.lower(), steps)

    def groups(self, word: str, pos: str) -> frozenset[str]:
        """The lexicographer files (WordNet's broad classes of meaning: "verb.motion",
        "verb.possession", "noun.person") of the most frequent senses of the lemmas the word
        form inflects as part of speech `pos`."""
        return frozenset(self._synset(pos, offset).group for lemma, p in self.lemmas(word) if p == pos
                         for offset in self.senses(lemma, pos)[:SENSES])

    def opposites(self, word: str) -> frozenset[str]:
        """The nouns WordNet calls the opposite of the word's noun senses, or of the more general
        notions they are kinds of: "father" is a parent, whose opposite is "child"."""
        return _opposites(self, word.lower())


def _add(out: dict[str, float], word: str, weight: float) -> None:
    if out.get(word, 0.0) < weight:
        out[word] = weight


@lru_cache(maxsize=16384)
def _near(lex: Lexicon, word: str) -> tuple[tuple[str, float], ...]:
    out: dict[str, float] = {}
    for lemma, pos in lex.lemmas(word):
        _add(out, lemma, 1.0)
        for offset in lex.senses(lemma, pos)[:SENSES]:
            syn = lex._synset(pos, offset)
            own = [i for i, w in enumerate(syn.words, 1) if w == lemma]
            for w in syn.words:
                _add(out, w, NEAR)
            for symbol, target, tpos, source, tword in syn.pointers:
                if tpos not in POS:
                    continue
                if symbol in _LEXICAL and (source == 0 or source in own):
                    words = lex._synset(tpos, target).words
                    _add(out, words[tword - 1] if tword else words[0], NEAR)
                elif symbol == "@":
                    general = lex._synset(tpos, target)
                    for w in general.words:
                        _add(out, w, FAR)
                    for s2, t2, p2, _, w2 in general.pointers if pos == "v" else ():
                        if s2 == "+" and p2 in POS and w2:
                            _add(out, lex._synset(p2, t2).words[w2 - 1], FAR)
    return tuple(out.items())


@lru_cache(maxsize=16384)
def _nouns(lex: Lexicon, word: str) -> frozenset[str]:
    out = set()
    for lemma, pos in lex.lemmas(word):
        if pos == "n":
            out.add(lemma)
            for offset in lex.senses(lemma, pos)[:SENSES]:
                out.update(lex._synset(pos, offset).words)
    return frozenset(out)


@lru_cache(maxsize=16384)
def _above(lex: Lexicon, noun: str, steps: int | None) -> frozenset[str]:
    """The words of the notions at most `steps` (None: any number) up from the noun's most
    frequent sense, level by level."""
    out: set[str] = set()
    lemma = next((lemma for lemma, pos in lex.lemmas(noun) if pos == "n"), None)
    level = set(lex.senses(lemma, "n")[:1]) if lemma else set()
    seen, step = set(level), 0
    while level and (steps is None or step < steps):
        level = {target for offset in level for symbol, target, tpos, _, _ in lex._synset("n", offset).pointers
                 if symbol in ("@", "@i") and tpos == "n"} - seen
        seen |= level
        for offset in level:
            out.update(lex._synset("n", offset).words)
        step += 1
    return frozenset(out)


@lru_cache(maxsize=16384)
def _opposites(lex: Lexicon, word: str) -> frozenset[str]:
    out = set()
    for lemma, pos in lex.lemmas(word):
        if pos != "n":
            continue
        for offset in lex.senses(lemma, pos)[:SENSES]:
            syn = lex._synset(pos, offset)
            tiers = [syn, *(lex._synset(p, t) for s, t, p, _, _ in syn.pointers if s == "@" and p == "n")]
            for tier in tiers:
                for symbol, target, tpos, _, tword in tier.pointers:
                    if symbol == "!" and tpos == "n":
                        words = lex._synset(tpos, target).words
                        out.add(words[tword - 1] if tword else words[0])
    return frozenset(out)


@lru_cache(maxsize=65536)
def _senses(lex: Lexicon, pos: str, lemma: str) -> tuple[int, ...]:
    """Binary search of the sorted index file for the lemma's line."""
    index, key = lex._index[pos], lemma.encode("utf-8") + b" "
    lo, hi = 0, len(index)
    while lo < hi:
        mid = (lo + hi) // 2
        start = index.rfind(b"\n", 0, mid) + 1
        end = index.find(b"\n", start)
        end = len(index) if end < 0 else end
        line = index[start:end]
        if line.startswith(key):
            fields = line.split()
            senses = int(fields[2])
            return tuple(int(o) for o in fields[-senses:])
        if line < key:
            lo = end + 1
        else:
            hi = start
    return ()


@lru_cache(maxsize=65536)
def _read(lex: Lexicon, pos: str, offset: int) -> _Synset:
    data = lex._data[pos]
    fields = data[offset:data.find(b"\n", offset)].decode("utf-8").split(" | ")[0].split()
    n_words = int(fields[3], 16)
    words = tuple(fields[4 + 2 * i].lower().split("(")[0] for i in range(n_words))
    at = 4 + 2 * n_words
    n_ptr = int(fields[at])
    pointers = []
    for i in range(n_ptr):
        symbol, target, tpos, st = fields[at + 1 + 4 * i: at + 5 + 4 * i]
        pointers.append((symbol, int(target), "v" if tpos == "v" else "n" if tpos == "n" else tpos,
                         int(st[:2], 16), int(st[2:], 16)))
    return _Synset(words, _GROUPS[int(fields[1])] if int(fields[1]) < len(_GROUPS) else "", tuple(pointers))


# WordNet's lexicographer files, by number (the second field of a synset's line; `lexnames`).
_GROUPS = tuple("""adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body
noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive noun.object
noun.person noun.phenomenon noun.plant noun.possession noun.process noun.quantity noun.relation noun.shape noun.state
noun.substance noun.time verb.body verb.change verb.cognition verb.communication verb.competition verb.consumption
verb.contact verb.creation verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative
verb.weather adj.ppl""".split())


def _root() -> Path | None:
    if os.environ.get(ENV, "").lower() == "none":
        return None
    for d in ([os.environ[ENV]] if os.environ.get(ENV) else []) + list(DEFAULT_DIRS):
        path = Path(d)
        if all((path / f"{kind}.{name}").is_file() for name in _FILES.values() for kind in ("index", "data")):
            return path
    return None


@lru_cache(maxsize=1)
def lexicon() -> Lexicon | None:
    """The shared WordNet reader, built on first use; None when the database is absent."""
    root = _root()
    return Lexicon(root) if root is not None else None
