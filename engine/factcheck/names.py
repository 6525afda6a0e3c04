"""Names in a claim: capitalized runs, the words of a name, trimming what a fuzzy match took in,
and names the KG does not know."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from engine.factcheck import values as V
from engine.state import Mention
from rules.similarity import norm

CAPITALIZED = re.compile(r"(?:\b(?:[A-ZÀ-ÖØ-Þ][\w'’\-]*|O'[A-Z]\w*)(?:\s+(?:de|van|von|der|da|di|le|la|del|bin|al)?\s*(?=[A-ZÀ-ÖØ-Þ])"
                         r"[A-ZÀ-ÖØ-Þ][\w'’\-]*)*(?:\s+\d+\b)?)")
COMMON_CAPS = frozenset("""i it he she they we you the a an this that these those there here his her its their our your my
yes no sure ok okay hello hi hey thanks thank sorry today tomorrow yesterday tonight now then also and but or so done
monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september
october november december am pm mr mrs ms dr prof unfortunately please great perfect well however what which who when
where why how around about roughly approximately nearly almost over some just""".split())
DEMONYMS = {"American": "United States", "British": "United Kingdom", "English": "England", "Scottish": "Scotland",
            "Irish": "Ireland", "French": "France", "German": "Germany", "Italian": "Italy", "Spanish": "Spain",
            "Portuguese": "Portugal", "Dutch": "Netherlands", "Belgian": "Belgium", "Swiss": "Switzerland",
            "Austrian": "Austria", "Swedish": "Sweden", "Norwegian": "Norway", "Danish": "Denmark",
            "Finnish": "Finland", "Polish": "Poland", "Russian": "Russia", "Greek": "Greece", "Serbian": "Serbia",
            "Croatian": "Croatia", "Canadian": "Canada", "Mexican": "Mexico", "Brazilian": "Brazil",
            "Argentine": "Argentina", "Argentinian": "Argentina", "Jamaican": "Jamaica", "Japanese": "Japan",
            "Chinese": "China", "Korean": "South Korea", "Indian": "India", "Australian": "Australia",
            "New Zealander": "New Zealand", "Nigerian": "Nigeria", "Kenyan": "Kenya", "Ethiopian": "Ethiopia",
            "South African": "South Africa", "Egyptian": "Egypt", "Turkish": "Turkey"}


def after_name(before: str) -> bool:
    m = re.search(r"([A-Z][\w'’\-]*)\s$", before)
    return m is not None and m.group(1).lower() not in COMMON_CAPS


def blank_out(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for a, b in spans:
        for i in range(max(a, 0), min(b, len(chars))):
            chars[i] = " "
    return "".join(chars)


def name_words(run: str) -> list[str]:
    """The words of a capitalized run that can be part of a name, possessive "'s" dropped."""
    words = [re.sub(r"['’]s$", "", w) for w in run.split()]
    return [w for w in words if w.lower().strip("'’") not in COMMON_CAPS]


def capitalized(blank: str) -> list[tuple[str, bool]]:
    """Capitalized word runs, each with whether it is only the sentence's first word."""
    out = []
    first = len(blank) - len(blank.lstrip())  # where the text begins: a run there starts it
    for m in CAPITALIZED.finditer(blank):
        words = name_words(m.group(0))
        if not words:
            continue
        at_start = m.start() <= first
        out.append((" ".join(words), len(words) == 1 and (at_start or len(words[0]) < 3 or words[0].isupper())))
    return out


def unknown_names(blank: str) -> list[str]:
    """Capitalized word runs the KG did not recognise: a person or place the reply invented.
    A single capitalized word at the start of the claim is just the sentence's first word."""
    return [name for name, first_word in capitalized(blank) if not first_word]


def trim(m: Mention) -> None:
    """Drop what a fuzzy match took in at the edges: function words, stray letters and a
    possessive ("Amara is" → "Amara", "Lukas's e" → "Lukas")."""
    words = list(re.finditer(r"\S+", m.text))

    def filler(w: str) -> bool:
        return w.lower() in FUNCTION_WORDS or len(w) < 2

    while len(words) > 1 and filler(words[-1].group(0)):
        words.pop()
    while len(words) > 1 and filler(words[0].group(0)):
        words.pop(0)
    a, b = words[0].start(), words[-1].end()
    possessive = re.search(r"['’]s$", m.text[a:b])
    if possessive and b - a > 2:
        b -= 2
    m.start, m.end, m.text = m.start + a, m.start + b, m.text[a:b]


def trim_to(m: Mention, n: int) -> None:
    m.text = m.text[:n].rstrip()
    m.end = m.start + len(m.text)
    trim(m)


def whole_name(text: str, m: Mention) -> str:
    """The capitalized run a named mention sits in: "Björn Müller" when only "Müller" matched,
    so a surname alone does not make another person of the same family name."""
    starts, runs = _capitalized_runs(text)
    i = bisect_right(starts, m.start) - 1  # the runs do not overlap: only this one can hold it
    if i >= 0 and m.end <= runs[i].end():
        words = name_words(runs[i].group(0))
        return " ".join(words) if words else m.text
    return m.text


@lru_cache(maxsize=8)
def _capitalized_runs(text: str) -> tuple[list[int], list[re.Match]]:
    """The capitalized runs of a text, found once for all its mentions (not once per mention:
    quadratic in a long reply)."""
    runs = list(CAPITALIZED.finditer(text))
    return [r.start() for r in runs], runs


def spelled_alike(said: str, name: str) -> bool:
    """A reply may misspell a name ("Bjorn Muller", "Siobhan"), but a short word a letter off
    is another name ("Zeta" is not "Beta"): every word said must be a word of the name, or a
    long one within one edit (two from eight letters)."""
    from rapidfuzz.distance import Levenshtein

    have = norm(name).split()
    for w in norm(said).split():
        if w in have:
            continue
        if len(w) < 5 or not any(Levenshtein.distance(w, h) <= (1 if len(w) < 8 else 2) for h in have):
            return False
    return True


def dates_only_context(v: V.Value) -> bool:
    """"today" next to a supported fact frames it; it asserts nothing of its own."""
    return v.text.lower() in ("today", "tomorrow", "tonight")


FUNCTION_WORDS = frozenset("""a an the is are was were be been to of in on at for with and or but i you he she it we they my your
his her its our their me him us them this that these those do does did have has had will would can could shall
should may might must so as by from then there here""".split())


def content_words(text: str) -> set[str]:
    return {w for w in norm(text).split() if w not in FUNCTION_WORDS}
