"""Mention detection: what in a turn names or points at something.

Names are matched against every label and alias of the background (`KGStore.label_entries()`) through
a `LabelIndex`: an exact lookup of normalized word sequences, plus a fuzzy path for ASR-like errors (a
word a letter or two off, or one that sounds the same, "Hubbard" for "Hebert"; accents lost, "O'Brien"
heard as "O Brien") that only compares against the vocabulary words sharing a letter trigram, so a
turn costs the same on 100 labels as on 100,000. Partial names ("Omar" for "Omar Haddad", "Beta" for
"Meeting Room Beta") count when the words heard are distinctive; spoken forms ("kay ell four oh two")
and names the KG lacks ("Anna B.") are engine/nlp/heard.py's. Besides names: pronouns, definite
noun phrases ("that meeting"), first-person words, requests for a type ("which rooms"), and time
expressions (engine/nlp/timeexpr.py). Linking proper is the rules' job; the scores here are priors.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise

from engine.nlp import heard as hearing
from engine.nlp.deixis import (
    DEMONSTRATIVES,
    PLURAL_DEMONSTRATIVES,
    asks_free,
    class_mention,
    class_named,
    demonstrated,
    determiner_before,
    dummy_it,
    named_after,
    noun_pointing_back,
    place_there,
    points_back,
    relation_named,
    stands_for_one,
)
from engine.nlp.heard import CLAUSE_BREAK, STOPWORDS, Token, other_initial, split_unknown, spoken_tokens
from engine.nlp.minilm import common_words
from engine.nlp.plural import plural_of
from engine.nlp.timeexpr import MONTHS, WEEKDAYS
from engine.state import Mention
from engine.words import stem
from kgstore import vocab
from kgstore.errors import BadInput, RemoteUnavailable
from kgstore.gcpause import gc_paused
from rules.similarity import max_edits, measures, norm, sound_keys, trigrams, word_stem

PRONOUNS: dict[str, tuple[str, ...]] = {
    "he": ("person",), "him": ("person",), "his": ("person",), "himself": ("person",),
    "she": ("person",), "her": ("person",), "hers": ("person",), "herself": ("person",),
    "they": ("person", "group"), "them": ("person", "group"), "their": ("person", "group"),
    "theirs": ("person", "group"),
    "it": ("event", "room", "group", "thing"), "its": ("event", "room", "group", "thing"),
}
FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
REQUEST_WORDS = frozenset({"which", "what", "any", "all", "every", "list", "free", "available", "other",
                           "some", "empty", "open"})
# Nouns of the office domain: kind, and the class a request for them means.
TYPE_NOUNS: dict[str, str] = {
    "meeting room": "room", "meeting rooms": "room", "room": "room", "rooms": "room",
    "meeting": "event", "meetings": "event", "event": "event", "events": "event",
    "appointment": "event", "appointments": "event", "session": "event", "seminar": "event",
    "seminars": "event", "workshop": "event", "workshops": "event", "lecture": "event", "lectures": "event",
    "presentation": "event", "presentations": "event", "conference room": "room", "conference rooms": "room",
    "group": "group", "groups": "group", "team": "group", "teams": "group",
    "department": "group", "departments": "group",
    "person": "person", "people": "person", "colleague": "person", "colleagues": "person",
    "employee": "person", "employees": "person", "member": "person", "members": "person",
}
GROUP_MEMBERS = frozenset({"members", "colleagues", "employees", "people"})
ORDINAL_WORDS = frozenset({"first", "second", "third", "fourth", "fifth", "last"})
ANY_KIND = ("person", "event", "room", "group")
CANDIDATES_PER_MENTION = 8
# Predicates that name things or types, not relations a question asks for.
NOT_RELATIONS = frozenset(vocab.LABEL_PREDICATES + vocab.ALIAS_PREDICATES + (vocab.RDF_TYPE, vocab.WDT + "P31"))

_WORD = re.compile(r"[^\W_]+")



def tokenize(text: str) -> list[Token]:
    out = []
    last = 0
    for m in _WORD.finditer(text):
        n = norm(m.group(0))
        for j, part in enumerate(n.split()):  # a ligature or accent can fold into two words; keep offsets
            out.append(Token(m.group(0), part, m.start(), m.end(), "" if j else text[last:m.start()]))
        last = m.end()
    return out


@dataclass
class _Label:
    norm: str
    words: tuple[str, ...]
    text: str
    iris: list[str]


class LabelIndex:
    """Normalized labels with a word index and a trigram index over the label vocabulary."""

    def __init__(self, entries, classes: dict[str, str] | None = None, relations: dict[str, str] | None = None):
        with gc_paused():
            self._index(entries)
        self._grams: dict[str, list[str]] | None = None
        self.n = max(len(self.labels), 1)
        self.classes = classes or {}  # normalized class label -> class IRI
        self.class_iris = frozenset(self.classes.values())
        # The KG's relations (IRI -> label) and their words: in "the production company of X" or
        # "whose home ground", "company" and "ground" ask for the relation and name no "Gannet
        # Film Company".
        self.relations = relations or {}
        self.relation_words = frozenset(w for label in self.relations.values() for w in norm(label).split()) - STOPWORDS
        self.relation_stems = frozenset(map(stem, self.relation_words))  # "director" is a form of "directed by"
        self.relation_labels = {norm(label): iri for iri, label in sorted(self.relations.items())}
        self.per_turn = False  # names must be looked up per turn (see turn_index)
        self._close_cache: dict[str, list[tuple[str, int]]] = {}
        self._stems: dict[str, list[str]] | None = None
        self._sounds: dict[str, list[str]] | None = None
        self._joined: dict[str, tuple[str, str]] | None = None

    def _index(self, entries) -> None:
        by_norm: dict[str, _Label] = {}
        folded: dict[str, str] = {}  # a text said by many entries is normalized once
        for e in entries:
            n = folded.get(e.text)
            if n is None:
                n = folded[e.text] = norm(e.text)
            if not n:
                continue
            lab = by_norm.get(n)
            if lab is None:
                lab = by_norm[n] = _Label(n, tuple(n.split()), e.text, [])
            if e.iri not in lab.iris:
                lab.iris.append(e.iri)
        self.labels = list(by_norm.values())
        self.by_norm = by_norm
        self._names: dict[str, list[str]] = defaultdict(list)
        self.by_word: dict[str, list[int]] = defaultdict(list)
        for i, lab in enumerate(self.labels):
            for iri in lab.iris:
                self._names[iri].append(lab.text)
            for w in set(lab.words) if len(lab.words) > 1 else lab.words:
                self.by_word[w].append(i)

    @property
    def grams(self) -> dict[str, list[str]]:
        """The label words of four letters or more by their letter trigrams, built when a word
        is first looked up by its spelling: a table of 10^5 rows names as many words. A number
        is no misspelled word (nor is a word a misspelled number), so numbers are left out."""
        if self._grams is None:
            self._grams = defaultdict(list)
            for w in self.by_word:
                if len(w) >= 4 and not w.isdigit():
                    for g in trigrams(w):
                        self._grams[g].append(w)
        return self._grams

    def same_stem(self, word: str) -> list[tuple[str, int]]:
        """Label words of which `word` is another form ("mathematical", "biological", "statistical"
        for "Mathematics", "Biology", "Statistics"), each counted as one edit."""
        stem = word_stem(word)
        if len(stem) < 4 or len(word) < 6:
            return []
        if self._stems is None:
            self._stems = defaultdict(list)
            for w in self.by_word:
                if len(w) >= 6 and w not in STOPWORDS:
                    self._stems[word_stem(w)].append(w)
        return [(w, 1) for w in self._stems.get(stem, ()) if w != word]

    def sounding_like(self, word: str, written: bool = False) -> list[tuple[str, int]]:
        """Label words that sound like `word` (`sound_keys`; a `written` word, typed with a capital,
        by its Soundex-like key alone), spelled too differently for `close_words` ("Hubbard" heard
        for "Hebert"), each counted as two edits."""
        if self._sounds is None:
            self._sounds = defaultdict(list)
            for w in self.by_word:
                for key in sound_keys(w):
                    self._sounds[key].append(w)
        keys = [key for key in sound_keys(word) if not (written and key.startswith("m"))]
        alike = dict.fromkeys(w for key in keys for w in self._sounds.get(key, ()))
        return [(w, 2) for w in alike if w != word and w not in STOPWORDS]

    @property
    def joined(self) -> dict[str, tuple[str, str]]:
        """Two words a label says in a row, as one word ("vanhoek": "van", "hoek"), built when first asked."""
        if self._joined is None:
            self._joined = {a + b: (a, b) for lab in reversed(self.labels) for a, b in pairwise(lab.words)}
        return self._joined

    def names_of(self, iri: str) -> list[str]:
        return self._names.get(iri, [])

    def df(self, word: str) -> int:
        return len(self.by_word.get(word, ()))

    def close_words(self, word: str) -> list[tuple[str, int]]:
        """Vocabulary words equal to `word` or within its allowed edits, with the edit count."""
        hit = self._close_cache.get(word)
        if hit is not None:
            return hit
        from rapidfuzz.distance import Levenshtein

        out = [(word, 0)] if word in self.by_word else []
        k = max_edits(word)
        if k:
            grams = trigrams(word)
            counts: dict[str, int] = defaultdict(int)
            for g in grams:
                for w in self.grams.get(g, ()):
                    counts[w] += 1
            need = max(1, len(grams) - 3 * k)
            for w, c in counts.items():
                if c >= need and w != word and abs(len(w) - len(word)) <= k:
                    d = Levenshtein.distance(word, w, score_cutoff=k)
                    if d <= k:
                        out.append((w, d))
        if len(self._close_cache) > 50000:
            self._close_cache.clear()
        self._close_cache[word] = out
        return out


def build_index(store) -> LabelIndex:
    entries = store.label_entries()
    classes: dict[str, str] = {}
    try:
        rows = store.query(
            # the classes things are, and those a relation's range says its objects are (no datatype)
            "SELECT DISTINCT ?c WHERE {{ {{ ?s <{}>|<{}> ?c }} UNION {{ ?p <{}> ?c FILTER(!STRSTARTS(STR(?c), \"{}\") "
            "&& !STRSTARTS(STR(?c), \"{}\")) }} FILTER(isIRI(?c) && !STRSTARTS(STR(?c), \"{}\")) }} LIMIT 5000"
            .format(vocab.RDF_TYPE, vocab.WDT + "P31", vocab.RDFS + "range", vocab.XSD, vocab.RDFS, vocab.KGC))
        for row in rows or []:
            c = row.get("c")
            if c:
                label = norm(store.label(c))
                if label:
                    classes.setdefault(label, c)
    except (BadInput, RemoteUnavailable):  # an endpoint may refuse it; type requests then use office nouns only
        classes = {}
    try:
        relations = store.labels(p for p in store.relations() if p not in NOT_RELATIONS)
    except (BadInput, RemoteUnavailable):
        relations = {}
    return LabelIndex(entries, classes, relations)


def label_index(ctx) -> LabelIndex:
    """The index of the context's background, rebuilt when a file is loaded or removed. A remote endpoint
    too big (or too slow) to list its labels gives an empty index: names are then looked up per turn (`turn_index`)."""
    store = ctx.background
    key = tuple(store.background_graphs()) if hasattr(store, "background_graphs") else ("remote",)
    cached = ctx.resources.get("label_index")
    if cached is None or cached[0] != key:
        try:
            index = build_index(store)
        except RemoteUnavailable:
            index = LabelIndex([])
            index.per_turn = True
        cached = (key, index)
        ctx.resources["label_index"] = cached
    return cached[1]


def turn_index(ctx, text: str) -> LabelIndex:
    """The index to detect the names of `text` with: the background's, or for a remote one
    that could not list its labels, the labels that match words of the text exactly."""
    index = label_index(ctx)
    if not index.per_turn or not hasattr(ctx.background, "find_labels"):
        return index
    try:
        return LabelIndex(ctx.background.find_labels(text))
    except RemoteUnavailable:
        return index


@dataclass
class _Hit:
    start: int  # token positions, end exclusive
    end: int
    label: _Label
    score: float
    whole: bool = True  # the words heard are the whole label, not a part of it ("Omar" of "Omar Haddad")


def _name_hits(tokens: list[Token], index: LabelIndex, lacking: list[tuple[int, int]]) -> list[_Hit]:
    """Every (span, label) pair where the words heard match a label fully or distinctively;
    `lacking` gets the spans that say part of a label beside a word of another whole name."""
    matches: list[dict[str, int]] = []  # per token: label word -> edits
    for t in tokens:
        if t.norm in STOPWORDS and t.norm not in index.by_word:
            matches.append({})
            continue
        if t.norm in index.by_word:  # heard as a word the labels use: take it as said
            close = [(t.norm, 0)]
        elif singular := plural_of(t.norm, index.by_word):  # "politicians": the label's word, many
            close = [(singular, 0)]
        elif t.norm in index.relation_words or plural_of(t.norm, index.relation_words):
            close = []  # "genres" says the relation "has genre", not "gamers" misheard
        elif hearing.is_code(t) or t.norm.isdigit():  # a code or a number: "7C" is not "7B" misheard
            close = []
        elif t.norm in common_words():  # so is a common English word: "made" is not "male" misheard
            close = index.same_stem(t.norm)  # ... but "mathematical" is the Mathematics group
        else:  # misheard: keep only the closest spellings
            close = index.close_words(t.norm) or index.same_stem(t.norm) \
                or index.sounding_like(t.norm, t.text[:1].isupper())
            fewest = min((d for _, d in close), default=0)
            close = [(w, d) for w, d in close if d == fewest]
        matches.append(dict(close))
    hits: list[_Hit] = []
    seen: set[tuple[int, int, str]] = set()
    typed = any(t.text[:1].isupper() for t in tokens)
    # names written capitalised past the turn's first word: a common word in lower case is no title
    capitalised = any(t.text[:1].isupper() for t in tokens[1:])
    for i, t in enumerate(tokens):
        if t.norm in STOPWORDS or t.norm in TYPE_NOUNS or not matches[i]:
            continue
        label_ids: set[int] = set()
        for w in matches[i]:
            label_ids.update(index.by_word[w])
        if len(label_ids) > 400:  # a word in hundreds of labels names none of them
            continue
        for li in label_ids:
            lab = index.labels[li]
            words = set(lab.words)
            # The window around word i that hears most of the label, every word of it matching
            # one of the label's ("one meeting: Board Meeting" is "Board Meeting", not "meeting Board").
            best_window = None
            for a in range(max(0, i - len(lab.words) + 1), i + 1):
                for b in range(i + 1, min(len(tokens), a + len(lab.words)) + 1):
                    if not all(set(matches[j]) & words for j in range(a, b)):
                        continue
                    got = {w for j in range(a, b) for w in matches[j] if w in words}
                    heard = " ".join(tok.norm for tok in tokens[a:b])
                    rank = (len(got), measures(heard, lab.norm)[0])
                    if best_window is None or rank > best_window[0]:
                        best_window = (rank, a, b)
            if best_window is None:
                continue
            start, end = best_window[1], best_window[2]
            key = (start, end, lab.norm)
            if key in seen:
                continue
            seen.add(key)
            whole = True
            covered = {w for j in range(start, end) for w in matches[j] if w in words}
            heard = " ".join(tok.norm for tok in tokens[start:end])
            # "Movie Movie" heard as "movie" is heard in part: a word the label repeats is said as often
            if covered >= words and (end - start >= len(lab.words) or len(words) == len(lab.words)):
                if capitalised and end - start == 1 and not lab.text.islower() and _common_word(tokens[start]) \
                        and not _typed_by_next(tokens, end):
                    continue  # "who starred together with Sharon Tate": not the film "Together"
                # "Kettleby Junction" typed is a place the KG lacks, not the Kettleby it has.
                if end - start == len(lab.words) and typed and _unknown_name_beside(tokens, start, end, index):
                    continue
                jw, lev, *_ = measures(heard, lab.norm)
                score = max(jw, 1 - lev / max(len(lab.norm), 1))
            else:
                # Extend by unmatched words at either side when that makes the whole name
                # closer (a badly misheard first name before a recognized surname).
                best = (start, end, measures(heard, lab.norm)[0])
                missing = len(lab.words) - (end - start)
                for a in range(max(0, start - missing), start + 1):
                    for b in range(end, min(len(tokens), end + missing) + 1):
                        if (a, b) == (start, end) or b - a > len(lab.words) or not _may_extend(tokens, matches, a, b, start, end):
                            continue
                        text = " ".join(tok.norm for tok in tokens[a:b])
                        jw = measures(text, lab.norm)[0]
                        if jw > best[2]:
                            best = (a, b, jw)
                if best[1] - best[0] == len(lab.words) and hearing.completes(
                        tokens[best[0]:start] + tokens[end:best[1]], words - covered, best[2]):
                    start, end, score = best[0], best[1], best[2]
                else:
                    said = {w: tokens[j] for j in range(start, end) for w in matches[j] if w in words}
                    distinctive = any(index.df(w) <= 2 and w not in STOPWORDS and w not in TYPE_NOUNS
                                      and w not in index.relation_words and not _common_word(said[w])
                                      for w in covered)
                    # "Morag Reid" names someone the KG lacks, not the Callum Reid it has; so does
                    # "Anna B." when the KG has Anna K.
                    # two words of a label in a row say it even when common ("harwick open 2010")
                    if (distinctive or end - start > 1) and (
                            _unknown_name_beside(tokens, start, end, index)
                            or other_initial(tokens, start, end, words - covered)
                            or hearing.other_name_beside(tokens, start, end, lab.words, index)):
                        lacking.append((start, end))
                        continue
                    if not distinctive:
                        continue
                    idf = lambda w: math.log(1 + index.n / max(index.df(w), 1))
                    content = [w for w in words if w not in STOPWORDS] or words  # "of" tells no department
                    coverage = sum(idf(w) for w in covered) / sum(idf(w) for w in content)
                    score = 0.45 + 0.4 * coverage
                    whole = False
            edits = sum(matches[j].get(w, 0) for j in range(start, end) for w in words if w in matches[j])
            if edits and len(lab.words) == 1 and lab.text.islower():
                continue  # a one-word concept ("curator") is said as it is: "curated" is another word
            if whole and len(lab.words) == 1 and lab.text.islower() and stem(lab.norm) in index.relation_stems \
                    and _common_word(tokens[start]):
                continue  # "the languages spoken in X", "its director" ask for a relation, not the tag "language"
            if edits:
                score -= 0.02 * edits
            hits.append(_Hit(start, end, lab, score, whole))
    return hits


# Words before a name that are no part of it ("Professor Reid", "Reid on Monday").
TITLES = frozenset("mr mrs ms miss mister dr doctor prof professor sir dame lady madam".split())
NOT_NAME_WORDS = TITLES | frozenset(WEEKDAYS) | frozenset(MONTHS)


def _may_extend(tokens: list[Token], matches: list[dict[str, int]], a: int, b: int, start: int, end: int) -> bool:
    """Can the words a..start and end..b join the span as a misheard part of the same name? Not
    a word that is itself a word of some label ("Michael, James and Kayla": James is a name of
    its own, not Jacobs misheard), nor across a comma or other punctuation between the words."""
    return not any(matches[j] for j in range(a, b) if not start <= j < end) \
        and not any(CLAUSE_BREAK.search(tokens[j].gap) for j in range(a + 1, b))


def _typed_by_next(tokens: list[Token], end: int) -> bool:
    """Is the word after a span a noun for a kind of thing ("Tomas Berg and the acoustics team",
    "the maple room")? A common word said before it is the name of that thing, in lower case as
    people type names of groups and rooms."""
    return end < len(tokens) and tokens[end].norm in TYPE_NOUNS and not CLAUSE_BREAK.search(tokens[end].gap)


def _common_word(t: Token) -> bool:
    """A frequent English word said in lower case: "harbour", "curated", never a name's own."""
    return t.text.islower() and t.norm in common_words()


def _unknown_name_beside(tokens: list[Token], start: int, end: int, index: LabelIndex) -> bool:
    """Does a word that reads as part of a name, and is no word of any label, stand right
    before or after the span (no punctuation between)? Then the span is part of a longer name the KG does not have."""
    lowercase = not any(t.text[:1].isupper() for t in tokens)  # a transcript: names are not capitalised
    for j in (start - 1, end):
        if not 0 <= j < len(tokens) or CLAUSE_BREAK.search(tokens[max(j, start)].gap):
            continue  # "Petra, Lindberg and Ines": a comma ends a name
        t = tokens[j]
        if t.norm in STOPWORDS or t.norm in TYPE_NOUNS or t.norm in NOT_NAME_WORDS or t.norm in index.by_word:
            continue
        if hearing.is_code(t):
            return True
        if len(t.norm) < 3 or t.norm.isdigit():
            continue
        common = t.norm in common_words()
        if t.text[:1].isupper() and (j > 0 or not common):
            return True
        if lowercase and (not common or j == end and hearing.compound_after(tokens, end)):
            return True
    return False


def detect_names(text: str, index: LabelIndex, tokens: list[Token] | None = None) -> list[Mention]:
    """Named mentions in text order (where spans overlap the longest match wins), each with up
    to 8 candidate entities and their name-match scores as priors."""
    tokens = spoken_tokens(tokens if tokens is not None else tokenize(text), index)
    by_span: dict[tuple[int, int], dict[str, tuple[float, str]]] = defaultdict(dict)
    whole: set[tuple[int, int]] = set()  # spans that hear some label whole
    lacking: list[tuple[int, int]] = []
    for h in _name_hits(tokens, index, lacking):
        if any(a <= h.start and h.end <= b and h.end - h.start < b - a for a, b in lacking):
            continue  # "Harwick" of "Harwick Open 2010", an edition the KG lacks: no town of its own
        if h.whole:
            whole.add((h.start, h.end))
        for iri in h.label.iris:
            old = by_span[(h.start, h.end)].get(iri)
            if old is None or h.score > old[0]:
                by_span[(h.start, h.end)][iri] = (h.score, h.label.text)
    # longest first, by the words that name (a span that hears part of "Quillmarch: Ink and Ash" in
    # "Quillmarch and who" is no longer than the whole name "Quillmarch" for its "and")
    def named_words(s: tuple[int, int]) -> int:
        return sum(tokens[k].norm not in STOPWORDS for k in range(*s)) or s[1] - s[0]

    order = sorted(by_span, key=lambda s: (-named_words(s), -max(v[0] for v in by_span[s].values()), s[0]))
    # spans by their first token: the ones inside a span are found in its own few tokens, not by
    # a scan of all of them (a text repeating one name thousands of times was quadratic)
    by_start: dict[int, list[tuple[int, int]]] = defaultdict(list)
    position: dict[tuple[int, int], int] = {}
    for i, span in enumerate(by_span):
        by_start[span[0]].append(span)
        position[span] = i
    taken = [False] * len(tokens)
    out: list[Mention] = []
    partial: set[int] = set()  # where mentions that hear only part of a name start
    for span in order:
        if any(taken[span[0]:span[1]]):
            continue
        cands = sorted(by_span[span].items(), key=lambda kv: -kv[1][0])
        # Candidates from overlapping shorter spans join in (the same name heard partly).
        inside = sorted((o for k in range(*span) for o in by_start[k] if o != span and o[1] <= span[1]), key=position.__getitem__)
        for other in inside:
            for iri, v in by_span[other].items():
                if iri not in by_span[span]:
                    cands.append((iri, (v[0] * 0.9, v[1])))
        cands.sort(key=lambda kv: -kv[1][0])
        if cands[0][1][0] < 0.5:
            continue
        for j in range(*span):
            taken[j] = True
        s, e = tokens[span[0]].start, tokens[span[1] - 1].end
        out.append(Mention(text=text[s:e], start=s, end=e, kind="name",
                           candidates=[(iri, round(min(v[0], 1.0), 4)) for iri, v in cands[:CANDIDATES_PER_MENTION]],
                           label=cands[0][1][1], heard=" ".join(tokens[k].norm for k in range(*span))))
        if span not in whole:
            partial.add(s)
    out.sort(key=lambda m: m.start)
    out = [m for i, m in enumerate(out) if not hearing.head_noun_before(m, out[i + 1] if i + 1 < len(out) else None, text)]
    return split_unknown(text, out, {i for i, m in enumerate(out) if m.start in partial})


def detect(text: str, index: LabelIndex) -> list[Mention]:
    """All mentions of a user turn except time expressions, in text order."""
    tokens = tokenize(text)
    found = detect_names(text, index, tokens)
    # a class heard as a verb ("Who captains the two ferries?") names nothing that "the" says again
    things = [n for n in found if not (n.candidates and n.candidates[0][0] in index.class_iris)]
    names = [_requested_class(demonstrated(m, text, index, any(n.end <= m.start for n in things)), text, index) for m in found]
    used = [False] * len(text)
    for m in names:
        for k in range(m.start, m.end):
            used[k] = True
    out = list(names)
    lower = [t.text.lower() for t in tokens]
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if used[t.start]:
            i += 1
            continue
        word = lower[i]
        if word in ORDINAL_WORDS and i > 0 and lower[i - 1] == "the" and i + 1 < len(tokens):
            # "the first one", "the second meeting": a definite noun phrase with a position
            head = lower[i + 1]
            if head == "one" or head in TYPE_NOUNS:
                kinds: tuple[str, ...] = ANY_KIND if head == "one" else (TYPE_NOUNS[head],)
                s, e = tokens[i - 1].start, tokens[i + 1].end
                out.append(Mention(text=text[s:e], start=s, end=e, kind="definite", value=kinds))
                i += 2
                continue
        two = " ".join(lower[i:i + 2]) if i + 1 < len(tokens) else ""
        noun, width = (two, 2) if two in TYPE_NOUNS else ((word, 1) if word in TYPE_NOUNS else (None, 0))
        if noun and not any(used[tokens[i + width - 1].start:tokens[i + width - 1].end]):
            kind = TYPE_NOUNS[noun]
            prev = lower[max(0, i - 2):i]
            s, e = t.start, tokens[i + width - 1].end
            if (any(w in REQUEST_WORDS for w in prev) and noun.endswith("s")) or (prev and prev[-1] in ("which", "any")) \
                    or asks_free(lower, i, width, noun):
                out.append(Mention(text=text[s:e], start=s, end=e, kind="type",
                                   value=vocab.OFFICE_CLASSES.get(kind), label=kind))
            elif (d := determiner_before(lower, i, tokens, used)) is not None and not named_after(tokens, i + width, used):
                s = tokens[d].start
                # "these members" are the group whose members were just spoken of
                kinds = (kind, "group") if noun in GROUP_MEMBERS else (kind,)
                out.append(Mention(text=text[s:e], start=s, end=e, kind="definite", value=kinds))
            i += width
            continue
        if (d := determiner_before(lower, i, tokens, used)) is not None and (cls := class_named(index.classes, word) or (
                lower[d] in DEMONSTRATIVES | PLURAL_DEMONSTRATIVES and relation_named(index.relation_labels, word))) \
                and points_back(text, tokens[d].start, t.end, any(n.end <= tokens[d].start for n in things)):
            out.append(class_mention(text, tokens[d].start, t.end, cls, t.text))  # "that clinic", "the two clubs"
            i += 1
            continue
        if (back := noun_pointing_back(text, tokens, lower, i, used)) is not None:
            out.append(back)  # "that firm", "this dog": no class of the KG, yet pointing back
        elif word in DEMONSTRATIVES and stands_for_one(lower, i):
            width = 2 if lower[i + 1:i + 2] == ["one"] else 1
            e = tokens[i + width - 1].end
            out.append(Mention(text=text[t.start:e], start=t.start, end=e, kind="pronoun", value=ANY_KIND))
            i += width
            continue
        if word in PRONOUNS and not (word == "it" and dummy_it(lower, i)):
            out.append(Mention(text=t.text, start=t.start, end=t.end, kind="pronoun", value=PRONOUNS[word]))
        elif word == "there" and place_there(lower, i):
            out.append(Mention(text=t.text, start=t.start, end=t.end, kind="pronoun", value=("room", "thing")))
        elif word in FIRST_PERSON:
            out.append(Mention(text=t.text, start=t.start, end=t.end, kind="first_person"))
        elif word in index.classes and i > 0 and lower[i - 1] in REQUEST_WORDS:
            out.append(Mention(text=t.text, start=t.start, end=t.end, kind="type", value=index.classes[word],
                               label=word))
        i += 1
    out.sort(key=lambda m: m.start)
    return out


def _requested_class(m: Mention, text: str, index: LabelIndex) -> Mention:
    """A KG class named after a request word ("which conference rooms", "any lecture hall") is no
    name of the class: it asks for the class's instances, as "which rooms" does."""
    cls = m.candidates[0][0] if m.kind == "name" and m.candidates else None
    if cls is None or cls not in index.class_iris:
        return m
    before = re.findall(r"[\w']+", text[:m.start].lower())[-2:]
    if not (before and before[-1] in ("which", "any")
            or any(w in REQUEST_WORDS for w in before) and m.text.lower().endswith("s")):
        return m
    return Mention(text=m.text, start=m.start, end=m.end, kind="type", value=cls, label=m.text.lower())
